//! Guarantees of the public API: keys never shown by `Debug`, backend names
//! (their list and public order is docs/backends.md, generated and checked
//! by `backend_lists`), state sizes, and no clock in the library (choices
//! the same on every run).

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
    // each name is an instruction-set module of src/backend (a file or
    // folder of that name).
    let mut modules = std::collections::BTreeSet::new();
    let mut stack = vec![std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/backend")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path.clone());
            }
            modules.insert(path.file_stem().unwrap().to_str().unwrap().to_owned());
        }
    }
    // A backend that is one of several kernels of a module (RISC-V's
    // `rvv256` in src/backend/riscv/rvv.rs, beside `rvv`) instead: its source in
    // docs/backends.md (generated from the table's module path and checked
    // by backend_lists) is a file of src/backend that documents it by name.
    let page = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/backends.md"),
    )
    .unwrap();
    for b in Backend::ALL {
        if modules.contains(b.name()) {
            continue;
        }
        let row = page
            .lines()
            .find(|l| l.starts_with(&format!("| `{}` |", b.name())))
            .unwrap_or_else(|| panic!("{b}: no row in docs/backends.md"));
        let source = row
            .rsplit("](../")
            .next()
            .and_then(|s| s.strip_suffix(") |"))
            .unwrap_or_else(|| panic!("{b}: no source in {row}"));
        let text =
            std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(source))
                .unwrap_or_else(|e| panic!("{b}: {source}: {e}"));
        assert!(
            source.starts_with("src/backend/") && text.contains(&format!("`{}`", b.name())),
            "{b}: no module of that name in src/backend, and {source} does not name it"
        );
    }
}

#[test]
fn backend_names_are_unique_and_parse_back() {
    // `portable` first: the one every build and CPU has.
    assert_eq!(Backend::ALL.first(), Some(&Backend::Portable));
    for (i, b) in Backend::ALL.iter().enumerate() {
        let name = b.name();
        assert!(
            !name.is_empty()
                && name
                    .bytes()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()),
            "{name}: lower-case letters and digits, as users type it"
        );
        assert_eq!(Backend::from_name(name), Some(*b), "{name}");
        assert_eq!(b.to_string(), name);
        assert!(
            Backend::ALL[..i].iter().all(|a| a.name() != name),
            "{name} twice"
        );
    }
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
