//! Guarantees of the public API: keys never shown by `Debug`, the list and
//! order of backend names (what `skeinsum --list-backends` prints), state
//! sizes, and no clock in the library (choices the same on every run).

use skein_simd::{Backend, Params, StateSize};

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
        ["portable", "sse2", "avx2", "avx512", "asm", "altivec", "vsx", "neon", "simd128"]
    );
}

#[test]
fn every_available_backend_runs_every_state_size() {
    for b in Backend::available() {
        for state in [StateSize::S256, StateSize::S512, StateSize::S1024] {
            let params = skein_simd::Params::new().backend(b);
            let h = skein_simd::DynSkein::new(state, &params).unwrap();
            assert_eq!(h.platform().backend(), b, "{b} {state:?}");
        }
    }
}

#[test]
fn block_types_are_the_specification_table() {
    use skein_simd::hazmat::BlockType;
    // Spec 3.5.1, table 6 (the values of the Type field).
    let table = [
        (BlockType::Key, 0),
        (BlockType::Config, 4),
        (BlockType::Personalization, 8),
        (BlockType::PublicKey, 12),
        (BlockType::KeyId, 16),
        (BlockType::Nonce, 20),
        (BlockType::Message, 48),
        (BlockType::Output, 63),
    ];
    for (ty, value) in table {
        assert_eq!(ty as u64, value, "{ty:?}");
    }
}

/// The library chooses nothing by timing (kernel forms are a rule per CPU,
/// `src/backend/lanes/form.rs`), so its choices are the same on every run: no
/// clock in `src/`.
#[test]
fn the_library_reads_no_clock() {
    let mut files = Vec::new();
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    super::doc_paths::walk(&src, &mut files);
    let mut found = Vec::new();
    for path in files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
    {
        let text = std::fs::read_to_string(path).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if ["Instant", "SystemTime", "std::time", "core::time"]
                .iter()
                .any(|clock| code.contains(clock))
            {
                found.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "a clock in the library:\n{}",
        found.join("\n")
    );
}
