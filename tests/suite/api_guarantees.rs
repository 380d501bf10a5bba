//! Guarantees of the public API: keys never shown by `Debug`, the list and
//! order of backend names (what `skeinsum --list-backends` prints), state
//! sizes.

use skein_simd::{Backend, Params};

#[test]
fn params_debug_never_shows_the_key() {
    let key = b"very secret key bytes";
    let shown = format!("{:?}", Params::new().key(key).personalization(b"app"));
    assert!(!shown.contains(&format!("{:?}", &key[..])), "{shown}");
    assert!(!shown.contains("very secret"), "{shown}");
    assert!(shown.contains("21 bytes redacted"), "{shown}");
    // The other arguments are not secrets and stay visible.
    assert!(shown.contains(&format!("{:?}", &b"app"[..])), "{shown}");
}

#[test]
fn no_stub_backend_is_listed() {
    // Every listed backend is a real implementation of its instruction set:
    // the names are exactly the instruction-set modules of src/backend, in
    // the order of the backend table (a public order: `Backend::ALL`).
    let names: Vec<&str> = Backend::ALL.iter().map(|b| b.name()).collect();
    assert_eq!(
        names,
        ["portable", "sse2", "avx2", "avx512", "asm", "altivec", "vsx", "neon"]
    );
}

#[test]
fn supports_honours_the_state_size() {
    for b in Backend::ALL {
        for bits in [256, 512, 1024] {
            assert_eq!(b.supports(bits), b.is_available(), "{b} {bits}");
        }
        for bits in [0, 128, 384, 2048] {
            assert!(!b.supports(bits), "{b} {bits}");
        }
    }
}
