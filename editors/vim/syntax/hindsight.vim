" Vim syntax file for Hindsight specifications (*.hind).
" Keywords are the lexer's (grammar/src/ops.rs KEYWORDS); the temporal
" operators are the single letters of the operator table.
if exists('b:current_syntax') | finish | endif

syn keyword hindsightBlock enum monitor system population
syn keyword hindsightMember input let property goal lifeline group guard protocol agent global time steps sessions
syn keyword hindsightKeyword with reset at where from default hold initially present in
syn keyword hindsightQuantifier forall exists atleast atmost count
syn keyword hindsightType bool int float
syn keyword hindsightBoolean true false
syn keyword hindsightConstant inf
syn match hindsightTemporal "\<[YZOHXFGSUWR]\>"
syn match hindsightAt "@\h\w*"
syn match hindsightNumber "\<\d\+\(\.\d\+\)\=\([eE][+-]\=\d\+\)\=\(ms\|s\|min\|h\|d\)\=\>"
syn region hindsightString start=+"+ skip=+\\\\\|\\"+ end=+"+ oneline
syn match hindsightOperator "&&\|||\|<->\|->\|==\|!=\|<=\|>=\|[<>!+*-]\|>>\||||"
syn match hindsightName "\(\<\(enum\|monitor\|system\|population\|lifeline\|guard\|property\|let\|goal\|group\|protocol\)\s\+\)\@<=\h\w*"
syn keyword hindsightTodo contained TODO FIXME XXX
syn match hindsightLineComment "//.*$" contains=hindsightTodo
syn region hindsightBlockComment start="/\*" end="\*/" contains=hindsightBlockComment,hindsightTodo

hi def link hindsightBlock Structure
hi def link hindsightMember Keyword
hi def link hindsightKeyword Keyword
hi def link hindsightQuantifier Repeat
hi def link hindsightType Type
hi def link hindsightBoolean Boolean
hi def link hindsightConstant Constant
hi def link hindsightTemporal Operator
hi def link hindsightAt Special
hi def link hindsightNumber Number
hi def link hindsightString String
hi def link hindsightOperator Operator
hi def link hindsightName Identifier
hi def link hindsightTodo Todo
hi def link hindsightLineComment Comment
hi def link hindsightBlockComment Comment

let b:current_syntax = 'hindsight'
