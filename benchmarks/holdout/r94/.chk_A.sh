#!/bin/bash
# usage: chk owner/repo N
for a in "$@"; do r=${a%#*}; n=${a#*#}; printf "%s#%s seen=" $r $n; grep -cE "$r/(issues|pull|discussions)/$n([^0-9]|$)" /work/rounds/SEEN.txt | tr '\n' ' '; printf "r94="; grep -rhE "^source:.*$r/(issues|pull|discussions)/$n([^0-9]|$)" /work/rounds/r94/*/case.yaml 2>/dev/null | wc -l; done
