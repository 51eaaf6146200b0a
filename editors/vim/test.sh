#!/usr/bin/env bash
# Checks the Vim syntax file on the repository's examples: the syntax group
# Vim gives chosen places (vim -Es, no user configuration). Exit 1 on a
# mismatch, naming it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../.."
out=$(mktemp)
check() { # FILE LINE COLUMN EXPECTED-GROUP
    vim -Es -u NONE -N --cmd "set rtp^=$here" --cmd 'filetype plugin on' --cmd 'syntax on' \
        -c "call cursor($2, $3)" \
        -c "call writefile([synIDattr(synID($2, $3, 1), 'name')], '$out')" -c 'qa!' "$root/$1" || true
    got=$(cat "$out")
    if [ "$got" != "$4" ]; then
        echo "error: $1:$2:$3 is '$got', expected '$4'" >&2
        exit 1
    fi
}
r=examples/code_review/review.hind
check $r 1 1 hindsightLineComment            # // The code-review workflow
check $r 7 1 hindsightBlock                  # enum
check $r 7 6 hindsightName                   # Status
check $r 9 1 hindsightBlock                  # system
check $r 10 5 hindsightMember                # lifeline
check $r 10 35 hindsightType                 # int
check $r 19 11 hindsightName                 # may_merge
check $r 19 21 hindsightKeyword              # at
check $r 21 12 hindsightAt                   # @TestRunner
check $r 21 42 hindsightTemporal             # S
check $r 27 9 hindsightQuantifier            # exists
check $r 20 28 hindsightOperator             # ==
t=examples/trucks/trucks.hind
check $t 30 43 hindsightTemporal             # O of O[1,4]
check $t 30 45 hindsightNumber               # 1
check $t 13 9 hindsightName                  # loading
echo "vim syntax: every checked place has its group"
