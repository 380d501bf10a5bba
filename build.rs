//! Build script: turns on the PowerPC SIMD backends (`altivec`, `vsx`) and
//! the RISC-V vector ones (`rvv`, `rvv256`) when the compiler accepts what
//! they need.
//!
//! Their intrinsics (or `core::simd`), target features and run-time
//! detection are unstable in Rust, so they need a nightly compiler (or
//! `RUSTC_BOOTSTRAP=1`). Rather than guess from the version string, the
//! script compiles a small probe that uses every unstable item the backends
//! of the target use, for the real target with the real flags. If it
//! compiles, the crate is built with `--cfg skein_simd_nightly`; otherwise
//! (stable compiler, or a nightly that renamed something) the crate
//! quietly keeps only the portable backend.
//!
//! It also sets the alias of each folder of backend modules that this target
//! builds (the list: `CFGS`). WebAssembly's needs a build with `+simd128`:
//! WebAssembly has no run-time detection, and a module with SIMD
//! instructions does not load where SIMD128 is missing, so the portable
//! build must not contain any.
//!
//! `SKEIN_SIMD_NO_NIGHTLY=1` skips the probe (portable only).

use std::env;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The feature gates `src/lib.rs` enables under `skein_simd_nightly` on
/// PowerPC; keep the two lists identical. One list per architecture: the
/// compiler knows a library's feature gate only on targets that have its
/// items (`stdarch_powerpc` is an unknown feature on RISC-V).
const POWERPC_FEATURES: &str = "stdarch_powerpc, powerpc_target_feature, portable_simd, \
                                core_intrinsics, asm_experimental_arch";

/// And with `std` (a `no_std` build does not know std's gates; its PowerPC
/// backends take AltiVec and VSX from the build's target features instead).
const POWERPC_STD_FEATURES: &str = "stdarch_powerpc_feature_detection";

/// The same on 64-bit RISC-V.
const RISCV_FEATURES: &str = "portable_simd, core_intrinsics, riscv_target_feature";

/// And with `std` (a `no_std` build does not know std's gates; its RISC-V
/// backends take V from the build's target features instead).
const RISCV_STD_FEATURES: &str = "stdarch_riscv_feature_detection";

/// Every `cfg` this script can set: declared to the compiler's
/// `unexpected_cfgs` check from here (so that no second list is kept in
/// Cargo.toml), and `set_cfg` refuses any other name.
const CFGS: &[&str] = &[
    // The compiler accepts the unstable features of the target's
    // `POWERPC_FEATURES` or `RISCV_FEATURES`.
    "skein_simd_nightly",
    // The aliases of the folders of backend modules: x86-64, little-endian
    // AArch64, PowerPC (32- and 64-bit, with `skein_simd_nightly`), 64-bit
    // RISC-V (with `skein_simd_nightly`), WebAssembly built with `+simd128`.
    "skein_simd_x86",
    "skein_simd_aarch64",
    "skein_simd_powerpc",
    "skein_simd_riscv",
    "skein_simd_wasm32",
    // With any of the folder aliases: the SIMD lane kernel.
    "skein_simd_lanes",
    // `SKEIN_SIMD_TEST_HOOKS=1` with the `std` feature.
    "skein_simd_test_hooks",
];

/// Sets a `cfg` of `CFGS` for this crate.
fn set_cfg(name: &str) {
    assert!(CFGS.contains(&name), "build.rs: cfg {name} is not in CFGS");
    println!("cargo::rustc-cfg={name}");
}

fn main() {
    // Declared on every target, set or not: otherwise each use of a cfg
    // this target leaves off would be reported as an unknown name.
    for name in CFGS {
        println!("cargo::rustc-check-cfg=cfg({name})");
    }
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=RUSTC_BOOTSTRAP");
    println!("cargo::rerun-if-env-changed=SKEIN_SIMD_NO_NIGHTLY");
    println!("cargo::rerun-if-env-changed=SKEIN_SIMD_TEST_HOOKS");

    // The test hooks (`Platform::with_lane_form`, the internal checks):
    // only when asked for, which .cargo/config.toml does inside this
    // repository, and only with `std` (they use threads' locals and `Vec`).
    if env::var("SKEIN_SIMD_TEST_HOOKS").as_deref() == Ok("1")
        && env::var_os("CARGO_FEATURE_STD").is_some()
    {
        set_cfg("skein_simd_test_hooks");
    }

    // One alias per folder of backend modules (`src/backend/x86`, `aarch64`,
    // `powerpc`, `riscv`, `wasm32`): the condition under which that folder is built, written
    // here once instead of at every use.
    // With any of them, `skein_simd_lanes`: the SIMD lane kernel
    // (`backend::lanes::kernel`) and what only it uses are built.
    let arch = env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let endian = env::var("CARGO_CFG_TARGET_ENDIAN").unwrap_or_default();
    if arch == "x86_64" {
        set_cfg("skein_simd_x86");
        set_cfg("skein_simd_lanes");
    }
    if arch == "aarch64" && endian == "little" {
        set_cfg("skein_simd_aarch64");
        set_cfg("skein_simd_lanes");
    }
    let features = env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    if arch == "wasm32" && features.split(',').any(|f| f == "simd128") {
        set_cfg("skein_simd_wasm32");
        set_cfg("skein_simd_lanes");
    }
    // The folders that need the unstable features, and what a warning calls
    // their backends.
    let (alias, backends) = match arch.as_str() {
        "powerpc" | "powerpc64" => ("skein_simd_powerpc", "PowerPC SIMD"),
        "riscv64" => ("skein_simd_riscv", "RISC-V vector"),
        _ => return,
    };
    if env::var_os("SKEIN_SIMD_NO_NIGHTLY").is_some_and(|v| !v.is_empty() && v != "0") {
        return;
    }
    let with_std = env::var_os("CARGO_FEATURE_STD").is_some();
    if probe(&arch, with_std) {
        set_cfg("skein_simd_nightly");
        set_cfg(alias);
        set_cfg("skein_simd_lanes");
    } else {
        println!(
            "cargo::warning=skein-simd: the {backends} backends need a nightly compiler \
             (or RUSTC_BOOTSTRAP=1); building the portable backend only"
        );
    }
}

/// Compile the probe for the target; true if it builds.
fn probe(arch: &str, with_std: bool) -> bool {
    let Some(out_dir) = env::var_os("OUT_DIR").map(PathBuf::from) else {
        return false;
    };
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let target = env::var("TARGET").unwrap_or_default();

    let mut cmd = Command::new(rustc);
    cmd.args([
        "--edition",
        "2021",
        "--crate-type",
        "lib",
        "--crate-name",
        "skein_simd_probe",
    ])
    .args(["--emit", "obj", "--cap-lints", "allow", "-C", "opt-level=1"])
    .arg("-o")
    .arg(out_dir.join("skein_simd_probe.o"));
    if !target.is_empty() {
        cmd.args(["--target", &target]);
    }
    // The flags the crate itself gets (e.g. -C target-cpu).
    if let Ok(flags) = env::var("CARGO_ENCODED_RUSTFLAGS") {
        cmd.args(flags.split('\x1f').filter(|f| !f.is_empty()));
    }
    cmd.arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null());

    let Ok(mut child) = cmd.spawn() else {
        return false;
    };
    let source = probe_source(arch, with_std);
    if let Some(mut stdin) = child.stdin.take() {
        use std::io::Write;
        if stdin.write_all(source.as_bytes()).is_err() {
            let _ = child.wait();
            return false;
        }
    }
    child.wait().map(|s| s.success()).unwrap_or(false)
}

/// A library touching each unstable item the backends of `arch` use.
fn probe_source(arch: &str, with_std: bool) -> String {
    let no_std = if with_std { "" } else { "#![no_std]" };
    if arch == "riscv64" {
        return riscv_probe_source(no_std, with_std);
    }
    let std_features = if with_std {
        format!("#![feature({POWERPC_STD_FEATURES})]")
    } else {
        String::new()
    };
    let detect = if !with_std {
        String::new()
    } else if arch == "powerpc64" {
        "pub fn detect() -> bool { std::arch::is_powerpc64_feature_detected!(\"altivec\") \
         && std::arch::is_powerpc64_feature_detected!(\"power8-vector\") }"
            .to_string()
    } else {
        "pub fn detect() -> bool { std::arch::is_powerpc_feature_detected!(\"altivec\") }"
            .to_string()
    };
    format!(
        r#"
#![feature({POWERPC_FEATURES})]
{std_features}
#![allow(internal_features)]
{no_std}
use core::arch::{arch}::*;
use core::intrinsics::simd::*;
use core::simd::Simd;

#[target_feature(enable = "altivec")]
pub unsafe fn altivec(a: vector_unsigned_int, b: vector_unsigned_int, p: *const u8) -> vector_unsigned_int {{
    unsafe {{
        let c = vec_addc(a, b);
        let s = vec_add(vec_rl(a, b), c);
        let m: vector_unsigned_char = core::mem::transmute(*(p as *const [u8; 16]));
        let s = vec_perm(s, a, m);
        let t: vector_unsigned_int = simd_shuffle(s, c, const {{ Simd::<u32, 4>::from_array([1, 4, 3, 6]) }});
        let r: vector_unsigned_int;
        core::arch::asm!("vsel {{0}}, {{1}}, {{2}}, {{3}}", lateout(vreg) r, in(vreg) s, in(vreg) t, in(vreg) b,
            options(pure, nomem, nostack));
        simd_xor(simd_add(r, t), a)
    }}
}}

#[target_feature(enable = "power8-vector")]
pub unsafe fn vsx(a: vector_unsigned_long, b: vector_unsigned_long) -> vector_unsigned_long {{
    unsafe {{
        let s: vector_unsigned_long = simd_add(a, b);
        let r = simd_funnel_shl(s, s, b);
        let t: vector_unsigned_long = simd_shuffle(r, a, const {{ Simd::<u32, 2>::from_array([1, 2]) }});
        simd_xor(simd_bswap(t), a)
    }}
}}

{detect}
"#
    )
}

/// The RISC-V probe: `core::simd` and the funnel shift inside `v` and
/// `v,zvl256b` functions, the `vlenb` CSR, and (with std) V's detection.
fn riscv_probe_source(no_std: &str, with_std: bool) -> String {
    let (std_features, detect) = if with_std {
        (
            format!("#![feature({RISCV_STD_FEATURES})]"),
            "pub fn detect() -> bool { std::arch::is_riscv_feature_detected!(\"v\") }",
        )
    } else {
        (String::new(), "")
    };
    format!(
        r#"
#![feature({RISCV_FEATURES})]
{std_features}
#![allow(internal_features)]
{no_std}
use core::intrinsics::simd::simd_funnel_shl;
use core::simd::{{simd_swizzle, Simd}};

#[target_feature(enable = "v")]
pub unsafe fn v(a: Simd<u64, 2>, b: Simd<u64, 2>) -> Simd<u64, 2> {{
    let s = a + b;
    let r: Simd<u64, 2> = unsafe {{ simd_funnel_shl(s, s, b) }};
    simd_swizzle!(r, a, [0, 2]) ^ a
}}

#[target_feature(enable = "v,zvl256b")]
pub unsafe fn v256(a: Simd<u64, 4>, b: Simd<u64, 4>) -> Simd<u64, 4> {{
    let s = a + b;
    let r: Simd<u64, 4> = unsafe {{ simd_funnel_shl(s, s, b) }};
    let bytes: usize;
    unsafe {{ core::arch::asm!("csrr {{0}}, 0xc22", out(reg) bytes) }};
    simd_swizzle!(r, a, [0, 4, 2, 6]) ^ Simd::splat(bytes as u64)
}}

{detect}
"#
    )
}
