//! Every repository path that the documentation and the comments name
//! exists, and every `cargo ... --test/--example/--bench/--bin NAME` they
//! give names a target that exists: a file that moves or goes (as the
//! integration tests did, into `tests/suite/`) fails here, with the file and
//! line of every mention left behind.
//!
//! Scanned: `README.md`, `CONTRIBUTING.md`, the unreleased part of
//! `CHANGELOG.md` (the sections of a released version are history, which
//! may name files removed since), `docs/*.md` and every other `README.md`;
//! and the comments (with Python's docstrings) of the sources, scripts and
//! manifests under `src/`, `skeinsum/`, `capi/`, `python/`, `js/`, `tests/`,
//! `benches/`, `examples/`, `fuzz/`, `tools/` and `.ci/`, and of `build.rs`
//! and `Cargo.toml`.
//!
//! A path is a word with a `/` that ends in a file extension of
//! [`EXTENSIONS`] or starts with a top-level directory of the repository
//! (`src/`, `docs/`, `tools/bench/latency-probe`, ...), and every target of a
//! relative Markdown link. It exists if it resolves against the repository
//! root, the naming file's directory or one between them, or the root of a
//! package (a directory with a `Cargo.toml`, `package.json` or
//! `pyproject.toml`: `cd js && node bench/bench.mjs` names `js/bench/`);
//! a path without an extension also resolves to the Rust source of that
//! name (`examples/many_bytes`, the example built from `many_bytes.rs`).
//! Markdown links resolve against the file's own directory only, as a
//! renderer resolves them.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// File extensions that make a word with a `/` a path.
const EXTENSIONS: &[&str] = &[
    "rs", "md", "py", "pyi", "sh", "toml", "txt", "h", "c", "cpp", "mjs", "js", "ts", "json",
    "yml", "yaml", "csv", "svg", "lock", "html", "css",
];

/// Paths that are not this repository's files, by prefix (a whole number of
/// components), checked against the word as written and as resolved from
/// each base. Besides these, a word is not a path when it is a URL, an
/// absolute or home path (`/proc/cpuinfo`, `/usr/...`, `~/...`: the
/// machine's), a build output (a `target` component: cargo's), or a pattern
/// or placeholder (`*`, `?`, `{}`, `<>`, `$`, `...`, or a component in
/// capitals such as `EXAMPLE`).
const NOT_IN_THIS_REPOSITORY: &[(&str, &str)] = &[
    (
        "../shared/",
        "tools of the shared checkout beside this repository, not part of it",
    ),
    (
        "algo/",
        "cpuminer-opt's source tree (tools/bench/miner-bench builds it from CPUMINER_OPT_DIR)",
    ),
    ("ext/skein/", "the reference C inside crates.io's skein-ffi"),
    ("src/_skeinmodule.c", "pyskein 1.0's source distribution"),
    ("test/test_skein.py", "pyskein 1.0's source distribution"),
    (
        "test/skein_golden_kat.txt",
        "pyskein 1.0's source distribution",
    ),
    ("Include/", "CPython's headers"),
    ("TestVectors/", "Crypto++'s test vectors"),
    ("js/wasm/", "js/build.sh's output (git-ignored)"),
    (
        "src/backend/riscv/",
        "the example backend that docs/adding-a-backend.md walks through creating",
    ),
];

/// Files (relative to the root) whose named paths are checked, each with
/// the lines to scan: `(line number, text)`.
fn scanned() -> Vec<(String, Vec<(usize, String)>)> {
    const SOURCES: &[&str] = &[
        "src", "skeinsum", "capi", "python", "js", "tests", "benches", "examples", "fuzz", "tools",
        ".ci",
    ];
    let mut out = Vec::new();
    let mut files = Vec::new();
    walk(&root(), &mut files);
    for path in files {
        let rel = relative(&path);
        let name = rel.rsplit('/').next().unwrap();
        let top = rel.split('/').next().unwrap();
        let markdown = rel == "CONTRIBUTING.md"
            || rel == "CHANGELOG.md"
            || name == "README.md"
            || (top == "docs" && name.ends_with(".md"));
        let source = !name.ends_with(".md")
            && (SOURCES.contains(&top) || rel == "build.rs" || rel == "Cargo.toml");
        if !(markdown || source) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let lines = if rel == "CHANGELOG.md" {
            unreleased(&text)
        } else if markdown {
            numbered(&text)
        } else {
            match comments(name, &text) {
                Some(lines) => lines,
                None => continue,
            }
        };
        out.push((rel, lines));
    }
    out
}

/// Every file under `dir`, without build outputs, dependencies (npm's, a
/// Python venv), the fuzz corpora and hidden directories other than `.ci`
/// and `.cargo`.
pub(super) fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap())
        .collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        let kind = entry.file_type().unwrap();
        if kind.is_dir() {
            let skip = matches!(
                name.as_str(),
                "target" | "node_modules" | "venv" | "dist" | "corpus"
            ) || (name.starts_with('.') && name != ".ci" && name != ".cargo");
            if !skip {
                walk(&entry.path(), files);
            }
        } else if kind.is_file() {
            files.push(entry.path());
        }
    }
}

fn relative(path: &Path) -> String {
    let rel = path.strip_prefix(root()).unwrap();
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

fn numbered(text: &str) -> Vec<(usize, String)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.to_owned()))
        .collect()
}

/// The lines of CHANGELOG.md before the first version heading (`## `) that
/// is not marked unreleased.
fn unreleased(text: &str) -> Vec<(usize, String)> {
    numbered(text)
        .into_iter()
        .take_while(|(_, l)| !l.starts_with("## ") || l.contains("Unreleased"))
        .collect()
}

/// The comment text of a source file by its kind (`None`: not a kind
/// scanned): `//` and `/* */` comments in C-like languages (only `//` in
/// Rust, whose `asm!` templates hold `/*`), `#` comments in Python, shell
/// and TOML, and Python's docstrings.
fn comments(name: &str, text: &str) -> Option<Vec<(usize, String)>> {
    let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
    let shell_without_extension = !name.contains('.') && text.starts_with("#!");
    let mut out = Vec::new();
    match ext {
        "rs" => {
            for (n, line) in numbered(text) {
                if let Some(at) = line.find("//") {
                    out.push((n, line[at + 2..].to_owned()));
                }
            }
        }
        "c" | "h" | "cpp" | "js" | "mjs" | "ts" => {
            let mut in_block = false;
            for (n, line) in numbered(text) {
                let mut rest = line.as_str();
                let mut found = String::new();
                loop {
                    if in_block {
                        match rest.find("*/") {
                            Some(end) => {
                                found.push_str(&rest[..end]);
                                found.push(' ');
                                rest = &rest[end + 2..];
                                in_block = false;
                            }
                            None => {
                                found.push_str(rest);
                                break;
                            }
                        }
                    } else {
                        let line_comment = rest.find("//");
                        let block = rest.find("/*");
                        match (line_comment, block) {
                            (Some(l), b) if b.is_none_or(|b| l < b) => {
                                found.push_str(&rest[l + 2..]);
                                break;
                            }
                            (_, Some(b)) => {
                                rest = &rest[b + 2..];
                                in_block = true;
                            }
                            _ => break,
                        }
                    }
                }
                if !found.is_empty() {
                    out.push((n, found));
                }
            }
        }
        "py" | "pyi" | "sh" | "toml" | "" => {
            if ext.is_empty() && !shell_without_extension {
                return None;
            }
            let python = ext == "py" || ext == "pyi";
            let mut in_docstring = false;
            for (n, line) in numbered(text) {
                if python && (in_docstring || line.contains("\"\"\"")) {
                    if line.matches("\"\"\"").count() == 1 {
                        in_docstring = !in_docstring;
                    }
                    out.push((n, line));
                    continue;
                }
                let bytes = line.as_bytes();
                let hash = (0..bytes.len()).find(|&i| {
                    bytes[i] == b'#'
                        && (i == 0 || bytes[i - 1] == b' ' || bytes[i - 1] == b'\t')
                        && bytes.get(i + 1) != Some(&b'!')
                        && bytes.get(i + 1) != Some(&b'[')
                });
                if let Some(at) = hash {
                    out.push((n, line[at + 1..].to_owned()));
                }
            }
        }
        _ => return None,
    }
    Some(out)
}

/// The words of a line that may be paths: split at white space and at
/// characters no path here has; URLs dropped whole.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    for chunk in line.split_whitespace() {
        if chunk.contains("://") || chunk.contains("mailto:") {
            continue;
        }
        for word in chunk.split(|c: char| "`'\"()[],;:=|!&^\\".contains(c)) {
            let word = word.split('#').next().unwrap();
            let word = word.trim_end_matches('.');
            if word.contains('/') {
                out.push(word.to_owned());
            }
        }
    }
    out
}

/// `path` with `.` and `..` folded away (`None` if it leaves the root).
fn normalize(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

fn is_placeholder(word: &str) -> bool {
    word.contains(['*', '?', '{', '}', '<', '>', '$', '…', '@', '%'])
        || word.contains("...")
        || word.split('/').any(|c| {
            c.len() >= 3
                && c.chars().any(|ch| ch.is_ascii_uppercase())
                && c.chars().all(|ch| ch.is_ascii_uppercase() || ch == '_')
        })
}

fn has_prefix(path: &str, prefix: &str) -> bool {
    let prefix = prefix.trim_end_matches('/');
    path == prefix || path.starts_with(&format!("{prefix}/"))
}

/// Why `word` is not a path of this repository, if it is not one.
fn not_a_repository_path(word: &str, resolved: &[String]) -> Option<&'static str> {
    if word.starts_with('/') || word.starts_with('~') {
        return Some("absolute or home path");
    }
    if is_placeholder(word) {
        return Some("pattern or placeholder");
    }
    // `target/` and `.cache/` (the tools CI scripts install) are made by
    // runs, git-ignored, absent from a fresh clone.
    let made_by_runs = |c: &str| c == "target" || c == ".cache";
    if word.split('/').any(made_by_runs)
        || resolved
            .iter()
            .any(|r| r.split('/').next().is_some_and(made_by_runs))
    {
        return Some("build output");
    }
    NOT_IN_THIS_REPOSITORY.iter().find_map(|&(prefix, why)| {
        (has_prefix(word, prefix) || resolved.iter().any(|r| has_prefix(r, prefix))).then_some(why)
    })
}

fn extension(word: &str) -> Option<&str> {
    let last = word.trim_end_matches('/').rsplit('/').next()?;
    last.rsplit_once('.')
        .map(|(_, e)| e)
        .filter(|e| !e.is_empty())
}

/// Whether `word` reads as a path: it has a `/` and a known extension, or
/// starts with a top-level directory.
fn looks_like_a_path(word: &str, top_dirs: &BTreeSet<String>) -> bool {
    if !word.contains('/') {
        return false;
    }
    if extension(word).is_some_and(|e| EXTENSIONS.contains(&e)) {
        return true;
    }
    let first = word.trim_start_matches("./").split('/').next().unwrap();
    top_dirs.contains(first)
}

/// The directories of the repository that hold a package.
fn package_roots() -> Vec<String> {
    let mut files = Vec::new();
    walk(&root(), &mut files);
    let mut roots: BTreeSet<String> = BTreeSet::new();
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy();
        if matches!(
            name.as_ref(),
            "Cargo.toml" | "package.json" | "pyproject.toml"
        ) {
            roots.insert(parent(&relative(&path)).to_owned());
        }
    }
    roots.into_iter().collect()
}

fn top_dirs() -> BTreeSet<String> {
    std::fs::read_dir(root())
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().unwrap().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != "target" && n != ".git")
        .collect()
}

/// The directory part of a path relative to the root (`""` at the root).
fn parent(rel: &str) -> &str {
    rel.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// `word` joined to every base it may be written against, normalized: the
/// root, the naming file's directory and those between, the packages.
fn resolutions(word: &str, file: &str, packages: &[String]) -> Vec<String> {
    let mut bases = vec![""];
    let mut dir = parent(file);
    while !dir.is_empty() {
        bases.push(dir);
        dir = parent(dir);
    }
    bases.extend(packages.iter().map(String::as_str));
    bases
        .iter()
        .filter_map(|base| normalize(&format!("{base}/{word}")))
        .collect()
}

fn exists(rel: &str) -> bool {
    let path = root().join(rel);
    path.exists() || (extension(rel).is_none() && path.with_extension("rs").is_file())
}

/// Targets of the relative links of a Markdown line, without their anchors.
fn link_targets(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        let end = rest.find(')').unwrap_or(rest.len());
        let target = rest[..end].split('#').next().unwrap().trim();
        if !target.is_empty() && !target.contains("://") && !target.starts_with("mailto:") {
            out.push(target.to_owned());
        }
        rest = &rest[end..];
    }
    out
}

/// Every mention of a path that does not exist: `file:line: path`.
fn missing_paths(files: &[(String, Vec<(usize, String)>)]) -> Vec<String> {
    let top = top_dirs();
    let packages = package_roots();
    let mut missing = Vec::new();
    for (file, lines) in files {
        let dir = parent(file);
        for (n, line) in lines {
            if file.ends_with(".md") {
                for target in link_targets(line) {
                    let resolved = normalize(&format!("{dir}/{target}"));
                    if !resolved.as_deref().is_some_and(exists) {
                        missing.push(format!("{file}:{n}: link {target}"));
                    }
                }
            }
            for word in words(line) {
                if !looks_like_a_path(&word, &top) {
                    continue;
                }
                let resolved = resolutions(&word, file, &packages);
                if not_a_repository_path(&word, &resolved).is_some() {
                    continue;
                }
                if !resolved.iter().any(|r| exists(r)) {
                    missing.push(format!("{file}:{n}: {word}"));
                }
            }
        }
    }
    missing
}

#[test]
fn every_path_named_in_docs_and_comments_exists() {
    let files = scanned();
    assert!(
        files.iter().any(|(f, _)| f == "docs/design.md")
            && files.iter().any(|(f, _)| f == "src/lib.rs"),
        "the scan found the docs and the sources"
    );
    let missing = missing_paths(&files);
    assert!(
        missing.is_empty(),
        "paths named in docs and comments that do not exist:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_path_check_catches_a_missing_path() {
    let files = vec![(
        "docs/example.md".to_owned(),
        vec![
            (1, "see `tests/backends.rs` and [a](missing.md)".to_owned()),
            (2, "fine: `tests/suite/main.rs`, [b](design.md#x), /proc/cpuinfo, target/release/skeinsum, src/backend/*/".to_owned()),
            (3, "relative to a package: `cd js && node bench/bench.mjs`; an example: `examples/many_bytes`".to_owned()),
        ],
    )];
    assert_eq!(
        missing_paths(&files),
        [
            "docs/example.md:1: link missing.md",
            "docs/example.md:1: tests/backends.rs"
        ]
    );
}

/// The targets of each kind (`test`, `example`, `bench`, `bin`) that the
/// packages of the repository have: files in the conventional places,
/// `[[test]]`-style sections and, for `bin`, package names with a
/// `src/main.rs`.
fn cargo_targets() -> BTreeSet<(String, String)> {
    let mut targets = BTreeSet::new();
    for package in package_roots() {
        let dir = root().join(&package);
        let Ok(manifest) = std::fs::read_to_string(dir.join("Cargo.toml")) else {
            continue;
        };
        for (kind, folder) in [
            ("test", "tests"),
            ("example", "examples"),
            ("bench", "benches"),
            ("bin", "src/bin"),
        ] {
            if let Ok(entries) = std::fs::read_dir(dir.join(folder)) {
                for entry in entries {
                    let path = entry.unwrap().path();
                    let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
                    if path.extension().is_some_and(|e| e == "rs") || path.join("main.rs").is_file()
                    {
                        targets.insert((kind.to_owned(), stem));
                    }
                }
            }
        }
        let mut section = String::new();
        for line in manifest.lines() {
            let line = line.trim();
            if line.starts_with('[') {
                section = line.trim_matches(|c| c == '[' || c == ']').to_owned();
            } else if let Some(value) = line.strip_prefix("name") {
                let name = value
                    .trim_start_matches([' ', '='])
                    .trim_matches('"')
                    .to_owned();
                match section.as_str() {
                    "test" | "example" | "bench" | "bin" => {
                        targets.insert((section.clone(), name));
                    }
                    "package" if dir.join("src/main.rs").is_file() => {
                        targets.insert(("bin".to_owned(), name));
                    }
                    _ => {}
                }
            }
        }
    }
    targets
}

/// Every `cargo` command's `--test`, `--example`, `--bench` and `--bin`
/// target in `lines`: `(line, kind, name)`. A command runs from `cargo` to
/// the end of its line (or of its inline code span, which may wrap), a
/// `#`, `|`, `;`, `&` or `)`, or the next `cargo`; `cargo install` and
/// `cargo fuzz` name other crates' targets and are skipped.
fn cargo_target_mentions(lines: &[(usize, String)]) -> Vec<(usize, String, String)> {
    struct Command {
        /// Started inside an inline code span, so it may wrap to the next line.
        in_code: bool,
        /// No subcommand seen yet (a `+toolchain` may come first).
        before_subcommand: bool,
        /// `cargo install` or `cargo fuzz`.
        skipped: bool,
        /// The kind of the flag whose target is the next word.
        flag: Option<&'static str>,
    }
    let mut out = Vec::new();
    let mut command: Option<Command> = None;
    for (n, line) in lines {
        if command.as_ref().is_some_and(|c| !c.in_code) {
            command = None;
        }
        let mut ticks = 0;
        for word in line.split_whitespace() {
            let bare = word.trim_start_matches(['`', '(']);
            if bare == "cargo" {
                let leading = word.matches('`').count();
                command = Some(Command {
                    in_code: (ticks + leading) % 2 == 1,
                    before_subcommand: true,
                    skipped: false,
                    flag: None,
                });
                ticks += word.matches('`').count();
                continue;
            }
            ticks += word.matches('`').count();
            let Some(c) = command.as_mut() else {
                continue;
            };
            let end = word.find(['`', '#', '|', ';', '&', ')']);
            let body = &word[..end.unwrap_or(word.len())];
            if c.before_subcommand && !body.starts_with('+') {
                c.before_subcommand = false;
                c.skipped = body == "install" || body == "fuzz";
            }
            if let Some(kind) = c.flag.take() {
                let name: String = body
                    .chars()
                    .take_while(|ch| ch.is_ascii_alphanumeric() || *ch == '_' || *ch == '-')
                    .collect();
                if !c.skipped && !name.is_empty() {
                    out.push((*n, kind.to_owned(), name));
                }
            } else if let Some(kind) = ["test", "example", "bench", "bin"]
                .into_iter()
                .find(|k| body == format!("--{k}") || body.starts_with(&format!("--{k}=")))
            {
                match body.split_once('=') {
                    Some((_, name)) => {
                        if !c.skipped {
                            out.push((*n, kind.to_owned(), name.to_owned()));
                        }
                    }
                    None => c.flag = Some(kind),
                }
            }
            if end.is_some() {
                command = None;
            }
        }
    }
    out
}

fn missing_targets(
    files: &[(String, Vec<(usize, String)>)],
    targets: &BTreeSet<(String, String)>,
) -> Vec<String> {
    let mut missing = Vec::new();
    for (file, lines) in files {
        for (n, kind, name) in cargo_target_mentions(lines) {
            if !targets.contains(&(kind.clone(), name.clone())) {
                missing.push(format!("{file}:{n}: --{kind} {name}"));
            }
        }
    }
    missing
}

#[test]
fn every_cargo_target_named_in_docs_and_comments_exists() {
    let targets = cargo_targets();
    assert!(
        targets.contains(&("test".to_owned(), "suite".to_owned()))
            && targets.contains(&("bin".to_owned(), "many_table".to_owned()))
            && targets.contains(&("bin".to_owned(), "skeinsum".to_owned())),
        "{targets:?}"
    );
    let missing = missing_targets(&scanned(), &targets);
    assert!(
        missing.is_empty(),
        "cargo targets named in docs and comments that do not exist:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_target_check_catches_a_missing_target() {
    let files = vec![(
        "CONTRIBUTING.md".to_owned(),
        vec![
            (1, "run (`cargo test -p skein-simd --test".to_owned()),
            (
                2,
                "backends`, `cargo test -p skeinsum --test cli`) and".to_owned(),
            ),
            (
                3,
                "cargo install wasm-bindgen-cli --bin wasm-bindgen   # not ours".to_owned(),
            ),
            (4, "npm test   # node --test test/*.test.mjs".to_owned()),
            (5, "cargo run --release --example many_table".to_owned()),
        ],
    )];
    assert_eq!(
        missing_targets(&files, &cargo_targets()),
        [
            "CONTRIBUTING.md:2: --test backends",
            "CONTRIBUTING.md:5: --example many_table"
        ]
    );
}
