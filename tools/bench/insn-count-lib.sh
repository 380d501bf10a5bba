# What the instruction-count table scripts (ppc-insn-table.sh,
# lanes-insn-table.sh, g4-viu1-table.sh) share, sourced: the checkout as
# the working directory ($repo), the counting script ($count), cargo's
# target directory ($target_dir), build_example, and the functions of
# tools/ci/targets.sh (the targets' QEMU, CPU models and sysroots).
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
count="$repo/tools/bench/qemu-insn-count/count.sh"
target_dir="${CARGO_TARGET_DIR:-$repo/target}"
# shellcheck source=../ci/targets.sh
. "$repo/tools/ci/targets.sh"

# build_example EXAMPLE TRIPLE: the release build of examples/EXAMPLE for
# TRIPLE, once per run (RUSTC_BOOTSTRAP: the PowerPC vector target features
# are unstable; the linker from tools/ci/targets.tsv); the binary is
# $target_dir/TRIPLE/release/examples/EXAMPLE.
built_examples=""
build_example() {
    case " $built_examples " in
        *" $1@$2 "*) ;;
        *)
            (target_env "$2" && RUSTC_BOOTSTRAP=1 cargo build -q --release --example "$1" --target "$2" >&2)
            built_examples="$built_examples $1@$2"
            ;;
    esac
}
