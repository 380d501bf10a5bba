#!/usr/bin/env bash
# The instruction-count plugin's own test, beside it rather than in CI (it
# guards a benchmark tool, not the product): count.sh on a tiny ppc32 program
# must print one number above the loop's 1000 iterations.
#
# usage: bash tools/bench/qemu-insn-count/smoke-test.sh
#   Needs qemu-user (with plugin support) and gcc-powerpc-linux-gnu. Run it
#   after changing count.sh or insn_count.c.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
printf '#include <stdio.h>\nint main(void){unsigned s=0;for(unsigned i=0;i<1000;i++)s+=i;printf("%%u\\n",s);return 0;}\n' \
    > "$dir/t.c"
powerpc-linux-gnu-gcc -O1 -o "$dir/t" "$dir/t.c"
n="$(bash "$here/count.sh" --quiet "$dir/t")"
echo "guest instructions of a tiny ppc program: $n"
if [ "$n" -gt 1000 ]; then
    echo "qemu-insn-count: 1 passed, 0 failed"
else
    echo "qemu-insn-count: 0 passed, 1 failed"
    exit 1
fi
