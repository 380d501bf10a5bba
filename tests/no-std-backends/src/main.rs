//! Which backends a `no_std` build of skein-simd has (the library without
//! default features, so without run-time detection: a SIMD backend is there
//! when the build's target features have its instruction set, as
//! `-C target-feature=+altivec` gives AltiVec). Prints them, the automatic
//! choice, and checks each against the Skein 1.3 specification's
//! Skein-512-512 of the byte FF (appendix C).
//!
//! usage: skein-simd-no-std-backends BACKEND...  (the backends the build
//! must have, in `Backend::ALL`'s order); exit 1 on another set or a wrong
//! digest.

use skein_simd::{Backend, Params, Platform, Skein512};
use std::process::ExitCode;

/// Skein-512-512 of the one byte FF: the specification, appendix C.
const FF_512_512: &str = "71b7bce6fe6452227b9ced6014249e5bf9a9754c3ad618ccc4e0aae16b316cc8\
                          ca698d864307ed3e80b6ef1570812ac5272dc409b5a012df2a579102f340617a";

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn main() -> ExitCode {
    let want: Vec<String> = std::env::args().skip(1).collect();
    let have: Vec<Backend> = Backend::ALL
        .iter()
        .copied()
        .filter(|b| b.is_available())
        .collect();
    let names: Vec<&str> = have.iter().map(|b| b.name()).collect();
    println!("backends of this no_std build: {}", names.join(" "));
    println!("automatic choice: {}", Platform::detect().backend().name());
    let mut ok = names == want;
    if !ok {
        eprintln!("FAIL: expected the backends {}", want.join(" "));
    }
    for backend in have {
        let params = Params::new().output_bits(512).backend(backend);
        let mut hasher = Skein512::with_params(&params).expect("an available backend");
        hasher.update(&[0xff]);
        let mut out = [0u8; 64];
        hasher.finalize_into(&mut out);
        if hex(&out) == FF_512_512 {
            println!("ok: {backend}: Skein-512-512 of FF");
        } else {
            eprintln!("FAIL: {backend}: Skein-512-512 of FF is {}", hex(&out));
            ok = false;
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
