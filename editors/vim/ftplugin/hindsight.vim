" Hindsight: comments and indentation as `hindsight fmt` lays specs out.
if exists('b:did_ftplugin') | finish | endif
let b:did_ftplugin = 1
setlocal commentstring=//\ %s comments=s1:/*,mb:*,ex:*/,://
setlocal expandtab shiftwidth=4 softtabstop=4
let b:undo_ftplugin = 'setlocal commentstring< comments< expandtab< shiftwidth< softtabstop<'
