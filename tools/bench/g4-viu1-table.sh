#!/usr/bin/env bash
# Work of the G4's bottleneck unit per message byte: instructions per byte
# of skein-simd's `altivec` backend on an MPC7450 (qemu-ppc -cpu 7450), in
# total and of the VIU1 class only, counted by mnemonic under QEMU, as a
# markdown table.
#
# usage: tools/bench/g4-viu1-table.sh [--detail]
#
# Builds examples/hash_bytes for powerpc-unknown-linux-gnu as
# tools/bench/ppc-insn-table.sh does (RUSTC_BOOTSTRAP=1 cargo build --release), runs
#     hash_bytes altivec <state-bits> 0
#     hash_bytes altivec <state-bits> 1048576
# under the instruction-count plugin in histogram mode
# (tools/bench/qemu-insn-count/count.sh --mode hist) and prints, per state size,
# (count(1 MiB) - count(0 bytes)) / 2^20 for all instructions and for the
# VIU1 mnemonics below. The input buffer is filled identically in both runs,
# so the difference is hashing alone (the block function, its callers'
# per-block loop, and nothing else). --detail also prints the per-byte
# count of every vector mnemonic, grouped by unit.
#
# Environment: CARGO_TARGET_DIR (default <repo>/target), G4_BACKEND
# (default altivec; e.g. portable for comparison).
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/insn-count-lib.sh"
backend="${G4_BACKEND:-altivec}"
detail=0
[ "${1:-}" = "--detail" ] && detail=1
triple=powerpc-unknown-linux-gnu
bin="$target_dir/$triple/release/examples/hash_bytes"
mib=1048576

# The MPC7450's vector simple-integer unit VIU1 (MPC7450 RISC Microprocessor
# Reference Manual, ch. 6 / appendix "instruction timing": the vector
# simple-integer class): modular and saturating add/subtract, carry and
# borrow out, average, min/max, compares, logic (vor also as vmr, vnor also
# as vnot), select, and rotate/shift by element. Not VIU1: vperm, vsldoi,
# merges, splats (including vspltis*), pack/unpack, and the whole-register
# shifts vsl/vsr/vslo/vsro (permute unit VPU); multiply and sum-across
# (VIU2); floating point (VFPU); loads/stores (LSU).
viu1="
vaddubm vadduhm vadduwm vaddcuw vaddubs vadduhs vadduws vaddsbs vaddshs vaddsws
vsububm vsubuhm vsubuwm vsubcuw vsububs vsubuhs vsubuws vsubsbs vsubshs vsubsws
vavgub vavguh vavguw vavgsb vavgsh vavgsw
vmaxub vmaxuh vmaxuw vmaxsb vmaxsh vmaxsw vminub vminuh vminuw vminsb vminsh vminsw
vcmpequb vcmpequh vcmpequw vcmpgtub vcmpgtuh vcmpgtuw vcmpgtsb vcmpgtsh vcmpgtsw
vcmpequb. vcmpequh. vcmpequw. vcmpgtub. vcmpgtuh. vcmpgtuw. vcmpgtsb. vcmpgtsh. vcmpgtsw.
vand vandc vor vmr vnor vnot vxor vsel
vrlb vrlh vrlw vslb vslh vslw vsrb vsrh vsrw vsrab vsrah vsraw
"
# The permute unit's mnemonics, for --detail only.
vpu="
vperm vsldoi vmrghb vmrghh vmrghw vmrglb vmrglh vmrglw vspltb vsplth vspltw
vspltisb vspltish vspltisw vsl vsr vslo vsro vpkuhum vpkuwum vpkpx vupkhsb
vupkhsh vupklsb vupklsh
"

build_example hash_bytes "$triple"

hist() { # bits nbytes -> "mnemonic count" lines and "total N"
    bash "$count" --quiet --mode hist --qemu qemu-ppc --cpu 7450 \
        -L /usr/powerpc-linux-gnu "$bin" "$backend" "$1" "$2"
}

# per_byte A B LIST: (sum of LIST in B - sum in A) / 2^20; LIST "total" = all.
per_byte() {
    awk -v list="$3" -v n="$mib" '
        BEGIN { k = split(list, w, /[ \n]+/); for (i = 1; i <= k; i++) if (w[i] != "") want[w[i]] = 1 }
        FNR == 1 { f++ }
        ($1 in want) { s[f] += $2 }
        END { printf "%.1f", (s[2] - s[1]) / n }' "$1" "$2"
}

tmp="$(mktemp -d "${TMPDIR:-/tmp}/g4-viu1.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
for bits in 256 512 1024; do
    hist "$bits" 0 > "$tmp/$bits.0"
    hist "$bits" "$mib" > "$tmp/$bits.1"
done

echo "\`$backend\` on qemu-ppc -cpu 7450, instructions per message byte, (count(hash 1 MiB) - count(hash 0 bytes)) / 2^20:"
echo
echo "| | Skein-256 | Skein-512 | Skein-1024 |"
echo "|---|---|---|---|"
row() { # label list
    local line="| $1"
    for bits in 256 512 1024; do
        line="$line | $(per_byte "$tmp/$bits.0" "$tmp/$bits.1" "$2")"
    done
    echo "$line |"
}
row "VIU1-class" "$viu1"
row "all instructions" "total"
if [ "$detail" = 1 ]; then
    echo
    echo "Per mnemonic (vector and load/store):"
    echo
    echo "| unit | mnemonic | Skein-256 | Skein-512 | Skein-1024 |"
    echo "|---|---|---|---|---|"
    all="$(cat "$tmp"/*.1 | awk '$1 != "total" { print $1 }' | sort -u)"
    for m in $all; do
        unit=""
        case " $(echo $viu1) " in *" $m "*) unit=VIU1 ;; esac
        case " $(echo $vpu) " in *" $m "*) unit=VPU ;; esac
        case "$m" in lvsl|lvsr|lvx|stvx|lvxl|stvxl|lvebx|lvehx|lvewx|stvebx|stvehx|stvewx) unit=LSU ;; esac
        [ -n "$unit" ] || continue
        line="| $unit | $m"
        for bits in 256 512 1024; do
            line="$line | $(per_byte "$tmp/$bits.0" "$tmp/$bits.1" "$m")"
        done
        echo "$line |"
    done | sort
fi
