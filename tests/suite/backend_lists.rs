//! Everything outside the backend table that has to agree with it: the
//! backend names written out for users (C library, C header, README), the
//! unstable-feature gates (`build.rs` probe against `lib.rs`), the `cfg`
//! aliases (`build.rs` against `Cargo.toml`'s check-cfg and their uses in
//! `src/`) and the QEMU runs of each architecture folder. Adding a backend
//! (docs/adding-a-backend.md) fails here until every list has it.

use skein_simd::Backend;
use std::collections::BTreeSet;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> String {
    let full = root().join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

/// The text between the `(` after `anchor` in `text` and its `)`.
fn parenthesized<'a>(text: &'a str, anchor: &str, file: &str) -> &'a str {
    let at = text
        .find(anchor)
        .unwrap_or_else(|| panic!("{file}: no {anchor:?}"));
    let rest = &text[at + anchor.len()..];
    let open = rest
        .find('(')
        .unwrap_or_else(|| panic!("{file}: no list after {anchor:?}"));
    let close = rest[open..].find(')').expect("closing parenthesis") + open;
    &rest[open + 1..close]
}

/// The words of a comma-separated list, without comment markers, quotes,
/// backticks and "and"/"or".
fn words(list: &str) -> Vec<String> {
    list.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .filter(|w| !w.is_empty() && !matches!(*w, "and" | "or"))
        .map(str::to_owned)
        .collect()
}

fn backend_names() -> Vec<String> {
    Backend::ALL.iter().map(|b| b.name().to_owned()).collect()
}

#[test]
fn user_facing_name_lists_match_the_table() {
    for (file, anchor) in [
        ("capi/src/lib.rs", "instead of the detected one"),
        ("capi/include/skein_simd.h", "SKEIN_SIMD_BACKEND"),
        ("README.md", "forced by name"),
    ] {
        let text = read(file);
        assert_eq!(
            words(parenthesized(&text, anchor, file)),
            backend_names(),
            "{file}: the backend names after {anchor:?}, in the order of Backend::ALL"
        );
    }
}

/// The identifiers in a `"a, b, c"` or `a,\n b` list.
fn idents(list: &str) -> BTreeSet<String> {
    words(list).into_iter().collect()
}

#[test]
fn the_probe_tests_the_gates_lib_rs_enables() {
    let build = read("build.rs");
    let probe = {
        let at = build
            .find("const FEATURES: &str =")
            .expect("build.rs: FEATURES");
        let rest = &build[at..];
        let start = rest.find('"').unwrap() + 1;
        let end = rest[start..].find("\";").unwrap() + start;
        idents(&rest[start..end].replace('\\', " "))
    };
    let lib = read("src/lib.rs");
    let gates = idents(parenthesized(
        &lib,
        "skein_simd_nightly,\n    feature",
        "src/lib.rs",
    ));
    assert!(!gates.is_empty());
    assert_eq!(
        probe, gates,
        "build.rs FEATURES against src/lib.rs's feature(...)"
    );
}

/// Every `cfg` name build.rs can emit (`cargo:rustc-cfg=NAME`).
fn emitted_cfgs() -> BTreeSet<String> {
    let build = read("build.rs");
    let cfgs: BTreeSet<String> = build
        .split("cargo:rustc-cfg=")
        .skip(1)
        .map(|rest| words(rest).swap_remove(0))
        .collect();
    assert!(cfgs.contains("skein_simd_nightly"), "{cfgs:?}");
    cfgs
}

/// The `skein_simd_*` words of a text.
fn alias_uses(text: &str) -> BTreeSet<String> {
    words(text)
        .into_iter()
        .filter(|w| w.starts_with("skein_simd_") && w.len() > "skein_simd_".len())
        .collect()
}

#[test]
fn check_cfg_declares_what_build_rs_emits_and_src_uses() {
    let emitted = emitted_cfgs();
    let manifest = read("Cargo.toml");
    let at = manifest
        .find("check-cfg = [")
        .expect("Cargo.toml: check-cfg");
    let declared = alias_uses(&manifest[at..at + manifest[at..].find(']').unwrap()]);
    assert_eq!(declared, emitted, "Cargo.toml check-cfg against build.rs");

    let mut stack = vec![root().join("src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                for alias in alias_uses(&text) {
                    assert!(
                        emitted.contains(&alias),
                        "{}: cfg {alias} is not emitted by build.rs",
                        path.display()
                    );
                }
            }
        }
    }
}

/// Each architecture folder of `src/backend` (`src/backend/<arch>/`) has
/// the `cfg` alias `skein_simd_<arch>` from build.rs, and every folder but
/// the CI host's (x86) a run: under QEMU, a run in tools/ci/targets.tsv of
/// a target whose ARCH is the folder (tools/ci/qemu-test.sh runs them all),
/// or, for WebAssembly, under a WASI runtime with SIMD128 in
/// tools/ci/wasm-test.sh. The table's rows are checked too: their fields,
/// each run's target, scope and backend names (a misspelt `-NAME` would
/// pass every run unseen).
#[test]
fn every_architecture_folder_has_its_alias_and_a_qemu_run() {
    let emitted = emitted_cfgs();
    let table = read("tools/ci/targets.tsv");
    let rows: Vec<Vec<&str>> = table
        .lines()
        .map(|line| line.split_whitespace().collect::<Vec<_>>())
        .filter(|fields| !fields.is_empty() && !fields[0].starts_with('#'))
        .collect();
    let names = backend_names();
    for fields in &rows {
        let width = match fields[0] {
            "target" => 8,
            "run" => 7,
            kind => panic!("tools/ci/targets.tsv: a row of unknown kind {kind:?}"),
        };
        assert_eq!(fields.len(), width, "tools/ci/targets.tsv: {fields:?}");
        if fields[0] == "run" {
            assert!(
                rows.iter().any(|t| t[0] == "target" && t[1] == fields[2]),
                "tools/ci/targets.tsv: run {}: no target {}",
                fields[1],
                fields[2]
            );
            assert!(
                matches!(fields[4], "all" | "full" | "detection"),
                "tools/ci/targets.tsv: run {}: scope {}",
                fields[1],
                fields[4]
            );
            for want in fields[5].split(',') {
                let name = want.trim_start_matches(['+', '-']);
                assert!(
                    want.len() == name.len() + 1 && names.iter().any(|n| n == name),
                    "tools/ci/targets.tsv: run {}: {want:?} is not +NAME or -NAME of a backend",
                    fields[1]
                );
            }
        }
    }
    let backend = root().join("src/backend");
    let mut folders = Vec::new();
    for entry in std::fs::read_dir(&backend).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() && path.join("mod.rs").is_file() {
            folders.push(path.file_name().unwrap().to_str().unwrap().to_owned());
        }
    }
    assert!(folders.contains(&"x86".to_owned()), "{folders:?}");
    for arch in folders {
        let alias = format!("skein_simd_{arch}");
        assert!(
            emitted.contains(&alias),
            "src/backend/{arch}: build.rs emits no {alias}"
        );
        assert!(
            alias_uses(&read("src/backend/mod.rs")).contains(&alias),
            "src/backend/{arch}: no table row or module under cfg({alias})"
        );
        if arch == "wasm32" {
            let wasm = read("tools/ci/wasm-test.sh");
            assert!(
                wasm.contains("wasm32-wasip1") && wasm.contains("+simd128"),
                "tools/ci/wasm-test.sh has no wasm32-wasip1 run with +simd128"
            );
        } else if arch != "x86" {
            let has_run = rows.iter().any(|t| {
                t[0] == "target"
                    && t[3] == arch
                    && rows.iter().any(|r| r[0] == "run" && r[2] == t[1])
            });
            assert!(
                has_run,
                "tools/ci/targets.tsv has no run of a target whose ARCH is src/backend/{arch}"
            );
        }
    }
}
