//! Compiles the peers written in C and C++:
//! * `c_skein.c` of crates.io `skein-ffi` 0.5.0, from cargo's registry copy
//!   (`cargo fetch` puts it there; `SKEIN_FFI_DIR` overrides the lookup), at
//!   `-O3 -mtune=generic` like a distribution build;
//! * a few lines of C++ over Botan 2 when `pkg-config botan-2` finds it
//!   (Debian: libbotan-2-dev); the `botan` cfg says whether it was built.

use std::path::PathBuf;
use std::process::Command;

fn skein_ffi_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("SKEIN_FFI_DIR") {
        return dir.into();
    }
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").expect("HOME")).join(".cargo"));
    let registry = cargo_home.join("registry").join("src");
    for index in std::fs::read_dir(&registry).into_iter().flatten().flatten() {
        let dir = index.path().join("skein-ffi-0.5.0");
        if dir.join("ext/skein/c_skein.c").is_file() {
            return dir;
        }
    }
    panic!(
        "skein-ffi 0.5.0 source not found under {}: run `cargo fetch --manifest-path tools/bench/peer-bench/Cargo.toml` \
         (or set SKEIN_FFI_DIR to the unpacked crate)",
        registry.display()
    );
}

fn main() {
    println!("cargo::rerun-if-env-changed=SKEIN_FFI_DIR");
    println!("cargo::rustc-check-cfg=cfg(botan)");
    let ffi = skein_ffi_dir().join("ext/skein");
    cc::Build::new()
        .file(ffi.join("c_skein.c"))
        .include(&ffi)
        .opt_level(3)
        .flag("-mtune=generic")
        .warnings(false)
        .compile("skeinffi_c");

    let botan = Command::new("pkg-config")
        .args(["--cflags", "--libs", "botan-2"])
        .output();
    if let Some(out) = botan.ok().filter(|o| o.status.success()) {
        let mut build = cc::Build::new();
        build
            .cpp(true)
            .file("src/botan_shim.cpp")
            .opt_level(3)
            .flag("-std=c++17")
            .warnings(false);
        for flag in String::from_utf8_lossy(&out.stdout).split_whitespace() {
            if let Some(dir) = flag.strip_prefix("-I") {
                build.include(dir);
            } else if let Some(lib) = flag.strip_prefix("-l") {
                println!("cargo::rustc-link-lib={lib}");
            }
        }
        build.compile("botan_shim");
        println!("cargo::rustc-cfg=botan");
    } else {
        println!("cargo::warning=pkg-config found no botan-2: the Botan column stays empty");
    }
    println!("cargo::rerun-if-changed=src/botan_shim.cpp");
}
