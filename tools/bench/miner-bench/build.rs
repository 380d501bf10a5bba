//! Compiles cpuminer-opt's multi-lane Skein-512 (`algo/skein/skein-hash-4way.c`
//! and its `simd-utils` headers) from the checkout named by the environment
//! variable `CPUMINER_OPT_DIR`, twice, at `-O3 -mtune=generic` like the
//! peer's own portable builds:
//! * `-mavx2` for the 4-way `skein512_4x64_*` (with `simd-constants.c`, whose
//!   shuffle masks the AVX2 rotations use);
//! * `-mavx512f -mavx512vl -mavx512bw -mavx512dq` for the 8-way
//!   `skein512_8x64_*`.
//!
//! Each build also compiles `src/peer_shim.c` (batches of separate messages
//! through the peer's interleave, hash and de-interleave functions) and
//! prefixes every external name (`src/peer_names.h`) so both link together.

use std::path::{Path, PathBuf};

fn peer_dir() -> PathBuf {
    let Some(dir) = std::env::var_os("CPUMINER_OPT_DIR") else {
        panic!(
            "CPUMINER_OPT_DIR is not set: point it at a checkout of \
             https://github.com/JayDDee/cpuminer-opt (the directory holding \
             algo/skein/skein-hash-4way.c); docs/performance.md says how to get one"
        );
    };
    let dir = PathBuf::from(dir);
    for file in [
        "algo/skein/skein-hash-4way.c",
        "algo/skein/skein-hash-4way.h",
        "simd-utils.h",
        "simd-utils/intrlv.h",
        "simd-utils/simd-constants.c",
    ] {
        if !dir.join(file).is_file() {
            panic!(
                "CPUMINER_OPT_DIR={} has no {file}: it must be a checkout of \
                 https://github.com/JayDDee/cpuminer-opt",
                dir.display()
            );
        }
    }
    dir
}

fn build(peer: &Path, ways: u32, isa: &[&str], with_constants: bool) {
    let prefix = format!("miner_peer{ways}_");
    let here = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let mut b = cc::Build::new();
    b.compiler("gcc")
        .file(peer.join("algo/skein/skein-hash-4way.c"))
        .file(here.join("src/peer_shim.c"))
        .include(peer)
        .include(peer.join("algo/skein"))
        .opt_level(3)
        .flag("-mtune=generic")
        .flag("-include")
        .flag(here.join("src/peer_names.h"))
        .define("PEER_PREFIX", prefix.as_str())
        .define("WAYS", ways.to_string().as_str())
        .warnings(false);
    if with_constants {
        b.file(peer.join("simd-utils/simd-constants.c"));
    }
    for flag in isa {
        b.flag(flag);
    }
    b.compile(&format!("cpuminer_skein_{ways}way"));
}

fn main() {
    println!("cargo::rerun-if-env-changed=CPUMINER_OPT_DIR");
    println!("cargo::rerun-if-changed=src/peer_shim.c");
    println!("cargo::rerun-if-changed=src/peer_names.h");
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() != Ok("x86_64") {
        panic!("miner-bench compares x86-64 SIMD code (AVX2, AVX-512) only");
    }
    let peer = peer_dir();
    println!(
        "cargo::rerun-if-changed={}",
        peer.join("algo/skein/skein-hash-4way.c").display()
    );
    build(&peer, 4, &["-mavx2"], true);
    build(
        &peer,
        8,
        &["-mavx512f", "-mavx512vl", "-mavx512bw", "-mavx512dq"],
        false,
    );
}
