" Hindsight specifications: *.hind
autocmd BufRead,BufNewFile *.hind setfiletype hindsight
