complete -c skeinsum -s a -l algorithm -d 'State size in bits: 256, 512 or 1024' -r -f -a "256\t''
512\t''
1024\t''"
complete -c skeinsum -s l -l length -d 'Output length in bits, from 1 to 134217728 (2^27) [default: the state size]' -r
complete -c skeinsum -l key-hex -d 'MAC key given in hex (Skein-MAC)' -r
complete -c skeinsum -l key-file -d 'MAC key read from the bytes of a file (Skein-MAC)' -r -F
complete -c skeinsum -l personalization -d 'Personalization string, taken as its bytes' -r
complete -c skeinsum -l personalization-hex -d 'Personalization string given in hex' -r
complete -c skeinsum -l public-key-hex -d 'Public key given in hex (hashing for signatures)' -r
complete -c skeinsum -l key-id-hex -d 'Key identifier given in hex (key derivation, used with a key)' -r
complete -c skeinsum -l nonce-hex -d 'Nonce given in hex' -r
complete -c skeinsum -l tree -d 'Tree hashing with leaf 2^Yl blocks, fan-out 2^Yf, at most Ym levels (e.g. 10,1,255)' -r
complete -c skeinsum -s j -l threads -d 'Threads for tree hashing and for many FILEs at once (1: one file after another), at most 256 [default: all cores, at most 256]' -r
complete -c skeinsum -l backend -d 'Force a block-function backend by name (--list-backends: those usable here; exit 2 if this CPU or build lacks it)' -r
complete -c skeinsum -l part -d 'With --tree: hash only the K-th of N ranges of each FILE and print its subtree values as a part line, for --merge' -r
complete -c skeinsum -l list-backends -d 'Print the backends usable here, the automatic choice first, and exit'
complete -c skeinsum -l self-test -d 'Check every usable backend against built-in test vectors and exit (1 on a mismatch)'
complete -c skeinsum -l tag -d 'Print BSD-style lines: Skein-512-256 (FILE) = HEX'
complete -c skeinsum -s r -l recursive -d 'Hash every regular file below each FILE that is a directory, in path order'
complete -c skeinsum -s L -l dereference -d 'With --recursive: follow symbolic links below the directories too'
complete -c skeinsum -l raw -d 'Write the digest\'s bytes to stdout, without hex, name or newline (one input only)'
complete -c skeinsum -s z -l zero -d 'End each output line with NUL instead of newline, and do not escape file names (not with --check)'
complete -c skeinsum -l no-mmap -d 'Read files with buffered I/O instead of memory-mapping large ones'
complete -c skeinsum -l progress -d 'Show a progress bar on stderr for large inputs (only when stderr is a terminal)'
complete -c skeinsum -s c -l check -d 'Read checksums from the FILEs and verify them'
complete -c skeinsum -l quiet -d 'With --check: do not print OK for each verified file'
complete -c skeinsum -l status -d 'With --check: print nothing on stdout; the exit status tells the result'
complete -c skeinsum -l strict -d 'With --check: exit 1 if a checksum line is improperly formatted'
complete -c skeinsum -s w -l warn -d 'With --check: warn about each improperly formatted checksum line'
complete -c skeinsum -l ignore-missing -d 'With --check: do not fail or report on files that are missing'
complete -c skeinsum -l merge -d 'With --tree: read the part lines of --part from the FILEs and print each file\'s checksum line'
complete -c skeinsum -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skeinsum -s V -l version -d 'Print version'
