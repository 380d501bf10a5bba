//! Everything outside the backend table that has to agree with it: the one
//! list of backend names written for users, docs/backends.md, generated
//! from the table (the C library, the C header, the README and skeinsum
//! point to it rather than copy it), the unstable-feature gates (`build.rs`
//! probe against `lib.rs`), the `cfg` aliases (`build.rs`'s declared list
//! against their uses in `src/`) and the QEMU runs of each architecture
//! folder. Adding a backend (docs/adding-a-backend.md) fails here until
//! every list has it.

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

/// A row of the backend table as its source gives it: the name, the doc
/// comment and whether it has a multi-lane kernel, which the public API
/// tells only for the backends this build and CPU run.
struct Row {
    name: String,
    doc: String,
    lanes: bool,
    /// Its module's file or folder.
    source: String,
}

/// The `.rs` files under the repository folder `dir`, found by the walk
/// the path checks use.
fn rust_files(dir: &str) -> Vec<PathBuf> {
    let mut files = Vec::new();
    super::doc_paths::walk(&root().join(dir), &mut files);
    files.retain(|f| f.extension().is_some_and(|e| e == "rs"));
    files
}

/// The rows of the `backend_table!` invocation, wherever under src/backend
/// it is, in its order.
fn table_rows() -> Vec<Row> {
    let mut found = Vec::new();
    for path in rust_files("src/backend") {
        let text = std::fs::read_to_string(&path).unwrap();
        if let Some(at) = text.find("backend_table! {") {
            found.push((path, text[at..].to_owned()));
        }
    }
    assert_eq!(found.len(), 1, "one backend_table! invocation: {found:?}");
    let (path, text) = found.swap_remove(0);
    let body = &text[..text.find("\n}").expect("end of the backend table")];
    let (mut rows, mut doc, mut row) = (Vec::new(), Vec::new(), String::new());
    for line in body.lines().skip(1).map(str::trim) {
        if let Some(d) = line.strip_prefix("///") {
            doc.push(d.trim().to_owned());
        } else if !line.is_empty() && !line.starts_with("//") {
            row.push_str(line);
            row.push(' ');
            if line.ends_with(';') {
                let name = row.split('"').nth(1).expect("the row's name");
                // `Name = "name", module::path if cfg(...)`: the module.
                let module = row.split(", ").nth(1).and_then(|m| m.split(' ').next());
                rows.push(Row {
                    name: name.to_owned(),
                    source: source_of(module.expect("the row's module")),
                    doc: doc.join(" "),
                    lanes: row.contains(", lanes auto("),
                });
                doc.clear();
                row.clear();
            }
        }
    }
    let names: Vec<String> = rows.iter().map(|r| r.name.clone()).collect();
    assert_eq!(
        names,
        backend_names(),
        "{}: the rows as read here against Backend::ALL",
        path.display()
    );
    rows
}

/// The file or folder of a backend module (`x86::avx2`, `portable`) under
/// src/backend; of a module inline in a file (`riscv::rvv::vlen128`), that
/// file.
fn source_of(module: &str) -> String {
    let path = format!("src/backend/{}", module.replace("::", "/"));
    if root().join(&path).is_dir() {
        return format!("{path}/");
    }
    let file = format!("{path}.rs");
    if root().join(&file).is_file() {
        return file;
    }
    let (parent, _) = module
        .rsplit_once("::")
        .unwrap_or_else(|| panic!("{module}: no {file}"));
    source_of(parent)
}

const BACKENDS_PAGE: &str = "docs/backends.md";
const REGENERATE: &str = "SKEIN_SIMD_REGENERATE=1 cargo test --test suite backend_lists";

/// docs/backends.md: the one list of the backend names written for users,
/// in the order of `Backend::ALL`, which the other documents point to.
fn backends_page() -> String {
    let mut page = format!(
        "<!-- Generated from the backend table by tests/suite/backend_lists.rs; \
         do not edit. After a change to the table: {REGENERATE} -->\n\n"
    );
    page.push_str(
        "# Backends\n\n\
         Every block-function backend the crate knows, in the order of \
         `Backend::ALL` (the order of the backend table). A build has those of its \
         target only, and a CPU runs those it supports: `skeinsum --list-backends` \
         prints the ones usable here, the automatic choice first. On PowerPC \
         and RISC-V, whose detection needs `std`, a `no_std` build \
         (`default-features = false`) has the SIMD backends its target features \
         enable (`-C target-feature=+altivec`, `+v`: docs/powerpc.md, docs/riscv.md).\n\n\
         The name forces a backend: `skeinsum --backend NAME`, \
         `SKEIN_SIMD_BACKEND=NAME` for the C library (read at its first call), \
         `Backend::from_name` in Rust (then `Platform::force` or \
         `Params::backend`). The same name reports the backend in use: \
         `skeinsum --list-backends`, the C library's `skein_simd_backend()`, \
         the values of Python's `skein_simd.platform()` and `Backend::name`.\n\n\
         A backend without a multi-lane kernel, when forced, leaves `hash_many`, \
         tree hashing and long outputs to the portable one.\n\n\
         | name | instruction set | multi-lane kernel | source |\n\
         |---|---|---|---|\n",
    );
    for row in table_rows() {
        let lanes = if row.lanes { "yes" } else { "no" };
        page.push_str(&format!(
            "| `{}` | {} | {lanes} | [{}](../{}) |\n",
            row.name, row.doc, row.source, row.source
        ));
    }
    page
}

/// The committed docs/backends.md is what the backend table gives; with
/// SKEIN_SIMD_REGENERATE=1, rewritten.
#[test]
fn backends_page_is_current() {
    let want = backends_page();
    let path = root().join(BACKENDS_PAGE);
    if std::env::var_os("SKEIN_SIMD_REGENERATE").is_some_and(|v| v == "1") {
        std::fs::write(&path, &want).unwrap();
    }
    assert!(
        std::fs::read_to_string(&path).ok().as_deref() == Some(&want[..]),
        "{BACKENDS_PAGE} is not what the backend table gives (run {REGENERATE})"
    );
}

/// The identifiers in a `"a, b, c"` or `a,\n b` list.
fn idents(list: &str) -> BTreeSet<String> {
    words(list).into_iter().collect()
}

#[test]
fn the_probe_tests_the_gates_lib_rs_enables() {
    let build = read("build.rs");
    let lib = read("src/lib.rs");
    // Each architecture's list in build.rs, and the `cfg_attr` of lib.rs
    // that enables it.
    for (list, cfg) in [
        (
            "POWERPC_FEATURES",
            "any(target_arch = \"powerpc\", target_arch = \"powerpc64\")\n    ),\n    feature",
        ),
        (
            "POWERPC_STD_FEATURES",
            "target_arch = \"powerpc64\"),\n        feature = \"std\"\n    ),\n    feature",
        ),
        ("RISCV_FEATURES", "target_arch = \"riscv64\"),\n    feature"),
        (
            "RISCV_STD_FEATURES",
            "target_arch = \"riscv64\", feature = \"std\"),\n    feature",
        ),
    ] {
        let probe = {
            let anchor = format!("const {list}: &str =");
            let at = build
                .find(&anchor)
                .unwrap_or_else(|| panic!("build.rs: {list}"));
            let rest = &build[at..];
            let start = rest.find('"').unwrap() + 1;
            let end = rest[start..].find("\";").unwrap() + start;
            idents(&rest[start..end].replace('\\', " "))
        };
        let gates = idents(parenthesized(&lib, cfg, "src/lib.rs"));
        assert!(!gates.is_empty(), "{list}");
        assert_eq!(
            probe, gates,
            "build.rs {list} against src/lib.rs's feature(...)"
        );
    }
}

/// Every `cfg` name build.rs can emit: its `CFGS`, which it declares to
/// the compiler and to which its one `rustc-cfg` line, in `set_cfg`, is
/// bound.
fn emitted_cfgs() -> BTreeSet<String> {
    let build = read("build.rs");
    assert_eq!(
        build.matches("rustc-cfg=").count(),
        1,
        "build.rs sets cfgs only through set_cfg, which checks them against CFGS"
    );
    let at = build
        .find("const CFGS: &[&str] = &[")
        .expect("build.rs: CFGS");
    let list = &build[at..at + build[at..].find("];").expect("end of CFGS")];
    // The string literals of the list (its comments hold none).
    let cfgs: BTreeSet<String> = list
        .split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
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

/// The compiler checks the cfgs of the code it compiles against what
/// build.rs declares; this covers the code the host leaves out too (the
/// modules of other architectures).
#[test]
fn build_rs_declares_every_cfg_src_uses() {
    let emitted = emitted_cfgs();
    for path in rust_files("src") {
        let text = std::fs::read_to_string(&path).unwrap();
        for alias in alias_uses(&text) {
            assert!(
                emitted.contains(&alias),
                "{}: cfg {alias} is not in build.rs's CFGS",
                path.display()
            );
        }
    }
}

/// The folders of `src/backend` that are not an architecture's: what every
/// backend plugs into (`dispatch`, `lanes`), the even/odd layout several
/// share, and the portable backend, built on every target.
const NOT_ARCHITECTURES: &[&str] = &["dispatch", "even_odd", "lanes", "portable"];

/// Each architecture folder of `src/backend` (`src/backend/<arch>/`) has
/// the `cfg` alias `skein_simd_<arch>` from build.rs, and every folder but
/// the CI host's (x86) a run: under QEMU, a run in tools/ci/targets.tsv of
/// a target whose ARCH is the folder (tools/ci/qemu-test.sh runs them all),
/// or, for WebAssembly, under a WASI runtime with SIMD128 in
/// tools/ci/wasm-test.sh. The table's rows are checked too: their fields,
/// each run's target, scope, backend names (a misspelt `-NAME` would
/// pass every run unseen) and rustflags.
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
            "run" => 8,
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
                matches!(fields[4], "all" | "full" | "detection" | "conformance"),
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
            assert!(
                fields[7] == "-"
                    || fields[7]
                        .split(',')
                        .all(|flag| flag.len() > 2 && flag.starts_with('-')),
                "tools/ci/targets.tsv: run {}: RUSTFLAGS {:?} is not - or flags",
                fields[1],
                fields[7]
            );
        }
    }
    let backend = root().join("src/backend");
    let mut folders = Vec::new();
    for entry in std::fs::read_dir(&backend).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        if path.is_dir() && path.join("mod.rs").is_file() && !NOT_ARCHITECTURES.contains(&&*name) {
            folders.push(name);
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
