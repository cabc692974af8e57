# bash completion for platter (installed as
# /usr/share/bash-completion/completions/platter).
# Everything comes from the platter being completed, so nothing here can go
# stale: the commands and global options from 'platter --help', the workload
# names from 'platter list', the --sim presets from 'platter --sim list', and a
# workload's flags from its own p.args spec ('platter complete WORKLOAD').
# Self-contained: it needs bash alone, not the bash-completion package.

# _platter_globals: one "NAME ARG" line per global option of --help (ARG is
# empty for a switch), e.g. "--seed N", "--trust ", "-v ".
_platter_globals()
{
    "$1" --help 2>/dev/null | sed -n 's/^  \(-[^ ].*\)$/\1/p' |
        sed 's/  .*//' | tr ',' '\n' | sed 's/^ *//' |
        while read -r name arg; do printf '%s %s\n' "$name" "$arg"; done
}

# _platter_commands: the subcommands of --help's usage lines (list, compare, ...).
_platter_commands()
{
    "$1" --help 2>/dev/null |
        sed -n 's/^\(usage:\)\{0,1\} *platter \([a-z][a-z]*\)\( .*\)\{0,1\}$/\2/p'
}

_platter_reply_files() # _platter_reply_files CUR [dirs]: file (or directory) names
{
    local IFS=$'\n'
    if [[ $2 == dirs ]]; then
        COMPREPLY+=($(compgen -d -- "$1"))
    else
        COMPREPLY+=($(compgen -f -- "$1"))
    fi
    compopt -o filenames 2>/dev/null
}

_platter()
{
    local bin=${COMP_WORDS[0]}
    local cur=${COMP_WORDS[COMP_CWORD]}
    # COMP_WORDBREAKS splits "--sim=x" and dd's "if=x" at "=": join them again
    local prev="" key=""
    if ((COMP_CWORD >= 2)) && [[ ${COMP_WORDS[COMP_CWORD - 1]} == "=" ]]; then
        key=${COMP_WORDS[COMP_CWORD - 2]}=
    elif [[ $cur == "=" ]]; then
        key=${COMP_WORDS[COMP_CWORD - 1]}=
        cur=""
    elif ((COMP_CWORD >= 1)); then
        prev=${COMP_WORDS[COMP_CWORD - 1]}
    fi
    COMPREPLY=()

    local globals
    globals=$(_platter_globals "$bin")

    # the first word that is not a global option (or its value) names what runs
    local i=1 w cmd="" takes
    while ((i < COMP_CWORD)); do
        w=${COMP_WORDS[i]}
        if [[ $w == -e ]]; then
            return 0 # Lua code, then its arguments: nothing to offer
        elif [[ $w == -?* ]]; then
            takes=$(printf '%s\n' "$globals" | awk -v n="$w" '$1 == n { print $2 }')
            if [[ -n $takes && ${COMP_WORDS[i + 1]} != "=" ]]; then
                ((i++))
            elif [[ ${COMP_WORDS[i + 1]} == "=" ]]; then
                ((i += 2))
            fi
        elif [[ $w != "=" ]]; then
            cmd=$w
            break
        fi
        ((i++))
    done

    if [[ -z $cmd ]]; then
        local opt=${key%=}
        [[ -z $opt ]] && opt=$prev
        takes=""
        [[ $opt == -?* ]] &&
            takes=$(printf '%s\n' "$globals" | awk -v n="$opt" '$1 == n { print $2 }')
        if [[ -n $takes ]]; then
            case $opt in
            --sim) COMPREPLY=($(compgen -W "list $("$bin" --sim list 2>/dev/null |
                awk '{ print $1 }')" -- "$cur")) ;;
            --target) COMPREPLY=($(compgen -W "list $("$bin" --target list 2>/dev/null |
                grep -v :)" -- "$cur")) ;;
            --lua-dir) _platter_reply_files "$cur" dirs ;;
            --json | --csv) _platter_reply_files "$cur" ;;
            esac
            return 0
        fi
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "$(printf '%s\n' "$globals" | awk '{ print $1 }')" -- "$cur"))
        else
            COMPREPLY=($(compgen -W "$(_platter_commands "$bin") $("$bin" list 2>/dev/null |
                awk '{ print $1 }')" -- "$cur"))
            local IFS=$'\n'
            COMPREPLY+=($(compgen -f -X '!*.lua' -- "$cur") $(compgen -f -X '!*.platter' -- "$cur")
                $(compgen -d -- "$cur"))
            compopt -o filenames 2>/dev/null
        fi
        return 0
    fi

    # platter describe [--json] SCRIPT, platter plan [--json] [--sim PRESET] [--budget T] SCRIPT ARGS...:
    # the script's name, then (plan) its own flags
    if [[ $cmd == describe || $cmd == plan ]]; then
        local j=$((i + 1)) sub=""
        while ((j < COMP_CWORD)); do
            w=${COMP_WORDS[j]}
            if [[ $cmd == plan && ($w == --sim || $w == --budget) ]]; then
                [[ ${COMP_WORDS[j + 1]} == "=" ]] && ((j++))
                ((j++))
            elif [[ $w != -* && $w != "=" ]]; then
                sub=$w
                break
            fi
            ((j++))
        done
        if [[ -z $sub ]]; then
            if [[ $cmd == plan && ($prev == --sim || $key == --sim=) ]]; then
                COMPREPLY=($(compgen -W "$("$bin" --sim list 2>/dev/null |
                    awk '{ print $1 }')" -- "$cur"))
            elif [[ $cmd == plan && ($prev == --budget || $key == --budget=) ]]; then
                COMPREPLY=() # a duration
            elif [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--json $([[ $cmd == plan ]] && echo --sim --budget)" -- "$cur"))
            else
                COMPREPLY=($(compgen -W "$("$bin" list 2>/dev/null | awk '{ print $1 }')" -- "$cur"))
                local IFS=$'\n'
                COMPREPLY+=($(compgen -f -X '!*.lua' -- "$cur") $(compgen -d -- "$cur"))
                compopt -o filenames 2>/dev/null
            fi
            return 0
        fi
        [[ $cmd == describe ]] && return 0
        cmd=$sub
    fi

    # after a shipped workload: its own flags, from its p.args spec
    local flags
    flags=$("$bin" complete "$cmd" 2>/dev/null) || {
        _platter_reply_files "$cur" # a script, or a command without a spec
        return 0
    }
    local opt=${key:-$prev} arg choices line
    if [[ $opt == ?* ]]; then
        # "--coreutils=" is "--coreutils" given with "=", unless the flag is dd's "if="
        line=$(printf '%s\n' "$flags" | awk -F '\t' -v n="$opt" -v m="${opt%=}" '
            $1 == n { print; found = 1; exit } $1 == m && !alt { alt = $0 }
            END { if (!found && alt) print alt }')
        IFS=$'\t' read -r _ arg choices <<<"$line"
        if [[ -n $arg && ( -n $key || $opt != *= ) ]]; then
            if [[ -n $choices ]]; then
                COMPREPLY=($(compgen -W "$choices" -- "$cur"))
            elif [[ $arg == DIR ]]; then
                _platter_reply_files "$cur" dirs
            else
                _platter_reply_files "$cur"
            fi
            return 0
        fi
    fi
    local names
    names=$(printf '%s\n' "$flags" | cut -f1)
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(printf '%s\n' "$names" | grep '^-')" -- "$cur"))
    else
        COMPREPLY=($(compgen -W "$(printf '%s\n' "$names" | grep -v '^-')" -- "$cur"))
        if ((${#COMPREPLY[@]})); then
            compopt -o nospace 2>/dev/null # "if=" goes on with its value
        else
            _platter_reply_files "$cur"
        fi
    fi
    return 0
}
complete -F _platter platter
