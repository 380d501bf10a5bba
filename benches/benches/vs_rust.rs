//! The C API against the Rust API in one process: libskein_simd.so (built
//! here with `cargo build --release -p skein-simd-capi`, then loaded with
//! dlopen, as a C program would call it) and `skein_simd::Skein`, both on the
//! backend the process detects. Each round times both sides in turn (order
//! alternating); the best round of each is kept, and the ratio C / Rust
//! printed.
//!
//!     cargo bench -p skein-simd-benches --bench vs_rust [-- ROUNDS]
use std::ffi::{c_int, CStr};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

/// Room for a Skein-1024 context (288 bytes on 64-bit targets), aligned.
#[repr(C, align(8))]
struct Ctx([u8; 512]);

type Init = unsafe extern "C" fn(*mut Ctx, usize) -> c_int;
type Update = unsafe extern "C" fn(*mut Ctx, *const u8, usize) -> c_int;
type Final = unsafe extern "C" fn(*mut Ctx, *mut u8) -> c_int;

fn build_library() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = std::process::Command::new(cargo)
        .args(["build", "--release", "-p", "skein-simd-capi"])
        .current_dir(&manifest)
        .status()
        .expect("cargo build");
    assert!(status.success());
    // The bench binary is <target-dir>/release/deps/vs_rust-*.
    let exe = std::env::current_exe().unwrap();
    exe.parent()
        .and_then(|d| d.parent())
        .unwrap()
        .join("libskein_simd.so")
}

/// Best time per call of `f` over `rounds` rounds of `reps` calls.
fn time(reps: u32, f: &mut dyn FnMut()) -> f64 {
    let t = Instant::now();
    for _ in 0..reps {
        f();
    }
    t.elapsed().as_secs_f64() / reps as f64
}

fn main() {
    let rounds: u32 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(40);
    let path = build_library();
    // SAFETY: loading this package's own library, whose initializers are
    // Rust's (none that would misbehave); the symbols have these C types.
    let lib = unsafe { libloading::Library::new(&path) }.expect("load libskein_simd.so");
    // SAFETY: `skein_simd_backend` has this C type (capi/include/skein_simd.h).
    let backend: libloading::Symbol<unsafe extern "C" fn(usize) -> *const std::ffi::c_char> =
        unsafe { lib.get(b"skein_simd_backend\0") }.unwrap();
    // SAFETY: a static NUL-terminated string for a valid size.
    let name = unsafe { CStr::from_ptr(backend(512)) }
        .to_string_lossy()
        .into_owned();
    println!(
        "libskein_simd: {}; backend for Skein-512: {name}",
        path.display()
    );
    println!(
        "{:<16} {:>10} {:>12} {:>12} {:>8}",
        "function", "message", "Rust ns", "C ns", "C/Rust"
    );
    for (bits, prefix) in [
        (256usize, "Skein_256_"),
        (512, "Skein_512_"),
        (1024, "Skein1024_"),
    ] {
        let sym = |f: &str| format!("{prefix}{f}\0").into_bytes();
        // SAFETY: the exported functions have exactly these signatures (skein.h).
        let (init, update, fin) = unsafe {
            (
                *lib.get::<Init>(&sym("Init")).unwrap(),
                *lib.get::<Update>(&sym("Update")).unwrap(),
                *lib.get::<Final>(&sym("Final")).unwrap(),
            )
        };
        for len in [64usize, 16 << 20] {
            let data = vec![0xA5u8; len];
            let reps = if len == 64 { 20_000 } else { 2 };
            let mut out = [0u8; 128];
            let out_len = bits / 8;
            let mut c_side = || {
                let mut ctx = Ctx([0; 512]);
                // SAFETY: a context-sized buffer, input and output of the stated lengths.
                unsafe {
                    init(&mut ctx, bits);
                    update(&mut ctx, black_box(data.as_ptr()), len);
                    fin(&mut ctx, out.as_mut_ptr());
                }
                black_box(&out);
            };
            let mut rust_out = [0u8; 128];
            let mut rust_side = || match bits {
                256 => {
                    let mut h = skein_simd::Skein256::new(256);
                    h.update(black_box(&data));
                    h.finalize_into(&mut rust_out[..out_len]);
                    black_box(&rust_out);
                }
                512 => {
                    let mut h = skein_simd::Skein512::new(512);
                    h.update(black_box(&data));
                    h.finalize_into(&mut rust_out[..out_len]);
                    black_box(&rust_out);
                }
                _ => {
                    let mut h = skein_simd::Skein1024::new(1024);
                    h.update(black_box(&data));
                    h.finalize_into(&mut rust_out[..out_len]);
                    black_box(&rust_out);
                }
            };
            let (mut best_c, mut best_rust) = (f64::MAX, f64::MAX);
            let rounds = if len == 64 { rounds } else { rounds / 4 + 1 };
            for round in 0..rounds {
                if round % 2 == 0 {
                    best_c = best_c.min(time(reps, &mut c_side));
                    best_rust = best_rust.min(time(reps, &mut rust_side));
                } else {
                    best_rust = best_rust.min(time(reps, &mut rust_side));
                    best_c = best_c.min(time(reps, &mut c_side));
                }
            }
            c_side();
            rust_side();
            assert_eq!(out[..out_len], rust_out[..out_len], "C and Rust disagree");
            let shown = if len == 64 {
                "64 B".to_string()
            } else {
                "16 MiB".to_string()
            };
            println!(
                "{:<16} {:>10} {:>12.1} {:>12.1} {:>8.3}",
                format!("{prefix}{bits}"),
                shown,
                best_rust * 1e9,
                best_c * 1e9,
                best_c / best_rust
            );
        }
    }
}
