#!/usr/bin/env bash
# tools/ci/cargo-retry/cargo against a stand-in for the real cargo: every
# exit status, stdout and stderr pass through; only a link failure on an
# `.llvm.<n>` symbol is run once more, with CARGO_INCREMENTAL=0; a PATH
# with two copies of the directory (as .ci/run's re-run from its checkout
# makes) still reaches the real cargo.
# usage: bash tools/ci/cargo-retry/self-test.sh   (last line: "cargo-retry: self-test passed")
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/real" "$scratch/copy/tools/ci"
cp -r "$here" "$scratch/copy/tools/ci/cargo-retry"
cat > "$scratch/real/cargo" <<'STANDIN'
#!/bin/sh
echo "out $1 ${CARGO_INCREMENTAL:-unset}"
echo "err $1 ${CARGO_INCREMENTAL:-unset}" >&2
[ "${CARGO_INCREMENTAL:-}" = 0 ] && [ "$1" = link-once ] && exit 0
case "$1" in
    ok) exit 0 ;;
    fails) exit 3 ;;
    link | link-once)
        echo "ld.lld: error: undefined hidden symbol: anon.8c1f.3.llvm.4471" >&2
        exit 101
        ;;
esac
STANDIN
chmod +x "$scratch/real/cargo"
export PATH="$scratch/copy/tools/ci/cargo-retry:$here:$scratch/real:/usr/bin:/bin"
fail() {
    echo "cargo-retry: self-test FAILED: $*" >&2
    exit 1
}
# check ARG STATUS STDOUT: `cargo ARG` exits STATUS and prints STDOUT.
check() {
    local rc=0 out
    out="$(cargo "$1" 2> "$scratch/err")" || rc=$?
    [ "$rc" = "$2" ] || fail "cargo $1: exit $rc, expected $2"
    [ "$out" = "$3" ] || fail "cargo $1: stdout '$out', expected '$3'"
    grep -q "^err $1 " "$scratch/err" || fail "cargo $1: the real cargo's stderr was not passed on"
}
check ok 0 "out ok unset"
check fails 3 "out fails unset"
check link-once 0 "out link-once unset
out link-once 0"
check link 101 "out link unset
out link 0"
grep -q "once more with CARGO_INCREMENTAL=0" "$scratch/err" || fail "no word of the retry on stderr"
[ "$(CARGO_INCREMENTAL=0 cargo link 2> /dev/null)" = "out link 0" ] || fail "CARGO_INCREMENTAL=0 given: run once"
echo "cargo-retry: self-test passed"
