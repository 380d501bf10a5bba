_skeinsum() {
    local i cur prev opts cmd
    COMPREPLY=()
    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
        cur="$2"
    else
        cur="${COMP_WORDS[COMP_CWORD]}"
    fi
    prev="$3"
    cmd=""
    opts=""

    for i in "${COMP_WORDS[@]:0:COMP_CWORD}"
    do
        case "${cmd},${i}" in
            ",$1")
                cmd="skeinsum"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        skeinsum)
            opts="-a -l -j -r -L -z -c -w -h -V --algorithm --length --key-hex --key-file --personalization --personalization-hex --public-key-hex --key-id-hex --nonce-hex --tree --threads --backend --list-backends --self-test --tag --recursive --dereference --raw --zero --no-mmap --progress --check --quiet --status --strict --warn --ignore-missing --part --merge --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 1 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --algorithm)
                    COMPREPLY=($(compgen -W "256 512 1024" -- "${cur}"))
                    return 0
                    ;;
                -a)
                    COMPREPLY=($(compgen -W "256 512 1024" -- "${cur}"))
                    return 0
                    ;;
                --length)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -l)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --key-hex)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --key-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --personalization)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --personalization-hex)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --public-key-hex)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --key-id-hex)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --nonce-hex)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tree)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -j)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --backend)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --part)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
    esac
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _skeinsum -o nosort -o bashdefault -o default skeinsum
else
    complete -F _skeinsum -o bashdefault -o default skeinsum
fi
