//! The command line itself: backends (`--list-backends`, `--self-test`,
//! `--backend`), usage errors, `--help` and `--version`, GNU option habits
//! (repeated options, prefixes of long options).

use predicates::prelude::*;

use crate::oracle::*;
use crate::util::*;

#[test]
fn list_backends_names_the_usable_ones_automatic_first() {
    let out = skeinsum().arg("--list-backends").output().unwrap();
    assert!(out.status.success());
    let names: Vec<String> = stdout_of(&out)
        .lines()
        .map(|l| l.split('\t').next().unwrap().to_string())
        .collect();
    let expected: Vec<String> = skein_simd::Backend::available()
        .iter()
        .map(|b| b.name().to_string())
        .collect();
    assert_eq!(names, expected);
    assert!(names.contains(&"portable".to_string()));
    let first = stdout_of(&out).lines().next().unwrap().to_string();
    assert!(
        first.contains("automatic for") && first.contains("Skein-512"),
        "{first}"
    );
}

#[test]
fn self_test_runs_every_backend() {
    let out = skeinsum().arg("--self-test").output().unwrap();
    assert!(out.status.success(), "{}", stdout_of(&out));
    let text = stdout_of(&out);
    for backend in skein_simd::Backend::available() {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("backend {backend}: ")))
            .expect("a line per backend");
        let counts = line
            .rsplit(": ")
            .next()
            .unwrap()
            .strip_suffix(" vectors ok")
            .unwrap();
        let (ok, total) = counts.split_once('/').unwrap();
        assert_eq!(ok, total);
        assert!(total.parse::<u32>().unwrap() >= 8);
    }
}

#[test]
fn forced_backends() {
    let dir = Dir::new();
    let data = pattern(40_000, 3);
    dir.file("f", &data);
    for backend in skein_simd::Backend::available() {
        dir.cmd()
            .args(["--backend", backend.name(), "-a", "1024", "f"])
            .prints(format!("{}  f\n", reference(1024, 1024, &data)));
    }
    if let Some(missing) = skein_simd::Backend::ALL.iter().find(|b| !b.is_available()) {
        dir.cmd().args(["--backend", missing.name(), "f"]).gives(
            2,
            "",
            predicate::str::starts_with(format!(
                "skeinsum: --backend {}: not available",
                missing.name()
            )),
        );
    }
    // An unknown name: the option and the names it takes, which are not in
    // --help (it points to --list-backends), on one line.
    let names: Vec<&str> = skein_simd::Backend::ALL.iter().map(|b| b.name()).collect();
    dir.cmd().args(["--backend", "mmx", "f"]).gives(
        2,
        "",
        predicate::str::contains("--backend")
            .and(predicate::str::contains(names.join(", ")))
            .and(predicate::str::ends_with("\n"))
            .and(predicate::function(|e: &str| e.lines().count() == 1)),
    );
}

/// Each usage error: exit 2, one line on stderr naming the option, nothing
/// hashed (the good file given last is not printed).
#[test]
fn usage_errors_name_the_option_and_hash_nothing() {
    let dir = Dir::with(&[("good", b"abc"), ("keyfile", b"k")]);
    let cases: &[(&[&str], &str)] = &[
        (&["--key-hex", "zz"], "--key-hex"),
        (&["--key-hex", "abc"], "--key-hex"),
        (&["--personalization-hex", "0g"], "--personalization-hex"),
        (&["--public-key-hex", "1"], "--public-key-hex"),
        (&["--key-id-hex", "xy"], "--key-id-hex"),
        (&["--nonce-hex", "123"], "--nonce-hex"),
        (&["--length", "0"], "--length"),
        (&["-l", "x"], "--length"),
        (&["--algorithm", "384"], "--algorithm"),
        (&["-a", "skein"], "--algorithm"),
        (&["--tree", "0,1,255"], "--tree"),
        (&["--tree", "1,0,255"], "--tree"),
        (&["--tree", "1,1,1"], "--tree"),
        (&["--tree", "1,1,256"], "--tree"),
        (&["--tree", "1,1"], "--tree"),
        (&["--key-hex", "00", "--key-file", "keyfile"], "--key-file"),
        (
            &["--personalization", "a", "--personalization-hex", "00"],
            "--personalization",
        ),
        (&["--key-file", "no-such-key"], "--key-file"),
        (&["-j", "0", "--tree", "1,1,255"], "--threads"),
        (&["--status"], "--check"),
        (&["--tag", "-c"], "--tag"),
        (&["--no-such-option"], "--no-such-option"),
    ];
    for (args, option) in cases {
        let out = dir.cmd().args(*args).arg("good").output().unwrap();
        assert_usage_error(&out, option, &format!("{args:?}"));
    }
}

#[test]
fn help_lists_every_option_and_version_works() {
    let out = skeinsum().arg("--help").output().unwrap();
    assert!(out.status.success());
    let help = stdout_of(&out);
    for option in [
        "--algorithm",
        "--length",
        "--key-hex",
        "--key-file",
        "--personalization",
        "--personalization-hex",
        "--public-key-hex",
        "--key-id-hex",
        "--nonce-hex",
        "--tree",
        "--threads",
        "--backend",
        "--list-backends",
        "--self-test",
        "--tag",
        "--zero",
        "--no-mmap",
        "--progress",
        "--check",
        "--quiet",
        "--status",
        "--strict",
        "--warn",
        "--ignore-missing",
        "--help",
        "--version",
    ] {
        let line = help
            .lines()
            .find(|l| l.trim_start().starts_with(option) || l.contains(&format!(", {option}")));
        assert!(line.is_some(), "--help does not list {option}");
    }
    skeinsum()
        .arg("--version")
        .prints(predicate::str::starts_with("skeinsum 0."));
}

/// A repeated option is no error; the last value counts (GNU).
#[test]
fn repeated_options_are_accepted() {
    let dir = Dir::with(&[("f", b"data")]);
    let sums = dir
        .cmd()
        .args([
            "--tag", "--tag", "-a", "256", "-a", "512", "-l", "8", "-l", "512", "f",
        ])
        .output()
        .unwrap();
    assert!(sums.status.success(), "{}", stderr_of(&sums));
    assert_eq!(
        stdout_of(&sums),
        format!("Skein-512-512 (f) = {}\n", reference(512, 512, b"data"))
    );
    dir.cmd()
        .args(["-cc", "--quiet", "--quiet", "-"])
        .write_stdin(sums.stdout)
        .prints("");
    // The last key counts: the same MAC as with that key alone.
    let last = dir.cmd().args(["--key-hex", "02", "f"]).output().unwrap();
    dir.cmd()
        .args(["--key-hex", "01", "--key-hex", "02", "f"])
        .prints(last.stdout);
}

/// Unambiguous prefixes of long options (GNU getopt_long).
#[test]
fn long_option_prefixes() {
    let dir = Dir::with(&[("f", b"data")]);
    dir.cmd()
        .args(["--algo", "256", "--len=256", "f"])
        .prints(format!("{}  f\n", reference(256, 256, b"data")));
    dir.file("sums", gnu_line(512, 512, b"data", "gone").as_bytes());
    dir.cmd()
        .args(["--che", "--ignore", "--stat", "sums"])
        .exits(1, "");
    dir.cmd()
        .args(["--che", "--ignore", "sums"])
        .exits(1, "skeinsum: sums: no file was verified\n");
    // Ambiguous: --st is --status or --strict.
    dir.cmd()
        .args(["-c", "--st", "sums"])
        .exits(2, predicate::str::contains("--st"));
}

/// Every install command in the READMEs and the tool's documentation builds
/// with the versions of Cargo.lock (`--locked`): without it `cargo install`
/// resolves the dependencies anew, to versions no test has run with.
#[test]
fn install_commands_use_the_lock_file() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut seen = 0;
    for doc in ["README.md", "skeinsum/README.md", "docs/skeinsum.md"] {
        let text = std::fs::read_to_string(root.join(doc)).unwrap();
        for (at, _) in text.match_indices("cargo install") {
            // The command: up to the end of its code span, comment or line.
            let rest = &text[at..];
            let command = &rest[..rest.find(['`', '#', '\n']).unwrap_or(rest.len())];
            if command.split_whitespace().count() > 2 {
                seen += 1;
                assert!(command.contains("--locked"), "{doc}: {command:?}");
            }
        }
    }
    assert!(seen >= 4, "{seen} install commands found");
}
