//! The options of `--check`: given without it, refused in every mode, as GNU
//! sha256sum refuses them (coreutils 9.1: `sha256sum --status f` says "the
//! --status option is meaningful only when verifying checksums"), with
//! skeinsum's status for a usage error (2) and nothing hashed; and what
//! `--ignore-missing` says of a list none of whose files matched.

use std::path::Path;

use tempfile::TempDir;

use crate::oracle::*;
use crate::util::*;

/// The options that only mean something with `--check`, in the order GNU
/// sha256sum tests them (the first one given is the one named).
const CHECK_ONLY: [&str; 5] = [
    "--ignore-missing",
    "--status",
    "--warn",
    "--quiet",
    "--strict",
];

/// A file `f` and a directory `d` holding a file, in a fresh directory.
fn files() -> TempDir {
    let dir = TempDir::new().unwrap();
    std::fs::write(dir.path().join("f"), b"abc").unwrap();
    std::fs::create_dir(dir.path().join("d")).unwrap();
    std::fs::write(dir.path().join("d/g"), b"def").unwrap();
    dir
}

fn refusal(option: &str) -> String {
    format!("skeinsum: the {option} option is meaningful only when verifying checksums (--check)\n")
}

/// skeinsum with `args` in `dir` refuses `option`: exit 2, nothing on
/// stdout, [`refusal`] on stderr.
fn assert_refused(dir: &Path, args: &[&str], option: &str) {
    assert_eq!(
        run_in(dir, args),
        (Some(2), String::new(), refusal(option)),
        "{args:?}"
    );
}

/// Each option alone and beside `--raw`, `--tag`, `-r`, `-z`, `-j 1`,
/// `--tree` and `-l`: exit 2, nothing on stdout, one line naming it.
#[test]
fn check_only_options_are_refused_in_every_hashing_mode() {
    let dir = files();
    let modes: &[&[&str]] = &[
        &["f"],
        &["--raw", "f"],
        &["--tag", "f"],
        &["-r", "d"],
        &["-r", "-L", "d"],
        &["-z", "f"],
        &["--tag", "-z", "f", "d/g"],
        &["-j", "1", "f", "d/g"],
        &["-j", "2", "-r", "d", "f"],
        &["--tree", "1,1,255", "f"],
        &["-l", "256", "--raw", "f"],
        // Standard input, the FILE of no FILE.
        &[],
        &["--raw"],
    ];
    for mode in modes {
        for option in CHECK_ONLY {
            let args: Vec<&str> = mode.iter().copied().chain([option]).collect();
            assert_refused(dir.path(), &args, option);
            let args: Vec<&str> = [option].into_iter().chain(mode.iter().copied()).collect();
            assert_refused(dir.path(), &args, option);
        }
    }
}

/// The three cases as first reported, others beside them, and the short
/// `-w` and a prefix of a long option, which are named by their long form;
/// with `--check` all of them are taken.
#[test]
fn check_only_options_beside_raw_tag_and_recursive() {
    let dir = files();
    for (args, option) in [
        (&["--raw", "--quiet", "f"][..], "--quiet"),
        (&["--tag", "--status", "f"], "--status"),
        (&["-r", "--status", "d"], "--status"),
        (&["-r", "--ignore-missing", "d"], "--ignore-missing"),
        (&["--raw", "--strict", "f"], "--strict"),
        (&["--tag", "-w", "f"], "--warn"),
        (&["-r", "-w", "d"], "--warn"),
        (&["--tag", "--stat", "f"], "--status"),
        (&["-r", "--ignore", "d"], "--ignore-missing"),
    ] {
        assert_refused(dir.path(), args, option);
    }
    // The control: with `--check` each is taken and does what it says.
    // Skein-512-512("abc") by RustCrypto's `skein`, an independent source.
    let line = format!("{}  f\n", hex::encode(rustcrypto_digest(512, 512, b"abc")));
    std::fs::write(dir.path().join("list"), line).unwrap();
    for (option, stdout) in [
        ("--ignore-missing", "f: OK\n"),
        ("--status", ""),
        ("--warn", "f: OK\n"),
        ("--quiet", ""),
        ("--strict", "f: OK\n"),
    ] {
        assert_eq!(
            run_in(dir.path(), &["-c", option, "list"]),
            (Some(0), stdout.to_string(), String::new()),
            "{option}"
        );
    }
}

/// Several at once: the first in GNU's order is named, after `--quiet`,
/// `--status` and `--warn` have overridden each other (the last one given
/// counts), as sha256sum 9.1 does: `--strict --quiet --warn f` names
/// `--warn`, `--strict --quiet f` names `--quiet`.
#[test]
fn of_several_check_only_options_the_first_in_gnu_order_is_named() {
    let dir = files();
    for (options, named) in [
        (
            &[
                "--strict",
                "--quiet",
                "--warn",
                "--status",
                "--ignore-missing",
            ][..],
            "--ignore-missing",
        ),
        (&["--strict", "--quiet", "--warn", "--status"], "--status"),
        (&["--strict", "--quiet", "--warn"], "--warn"),
        (&["--strict", "--quiet"], "--quiet"),
        (&["--status", "--quiet"], "--quiet"),
        (&["--quiet", "--status", "--strict"], "--status"),
    ] {
        for mode in [&["f"][..], &["--tag", "f"], &["--raw", "f"], &["-r", "d"]] {
            let args: Vec<&str> = options.iter().chain(mode).copied().collect();
            assert_refused(dir.path(), &args, named);
        }
    }
}

/// `--check --ignore-missing` of a list none of whose entries matched (one
/// FAILED, one unreadable, the rest missing) ends, as GNU sha256sum 9.1's
/// does, with "LIST: no file was verified" after the warnings (not with
/// `--status`), and exit 1; a list with one match does not say it.
#[test]
fn ignore_missing_with_no_match_says_no_file_was_verified() {
    let dir = files();
    let f = rustcrypto_digest(512, 512, b"abc");
    let mut wrong = f.clone();
    wrong[0] ^= 1;
    let line = |digest: &[u8], name: &str| format!("{}  {name}\n", hex::encode(digest));
    let failed = line(&wrong, "f") + &line(&f, "missing");
    let unreadable = line(&f, "d") + &line(&f, "missing");
    let matched = line(&wrong, "f") + &line(&f, "f") + &line(&f, "missing");
    for (list, content) in [
        ("failed", &failed),
        ("unreadable", &unreadable),
        ("matched", &matched),
    ] {
        std::fs::write(dir.path().join(list), content).unwrap();
    }
    let mismatch = "skeinsum: WARNING: 1 computed checksum did NOT match\n";
    let none_failed = format!("{mismatch}skeinsum: failed: no file was verified\n");
    for jobs in ["1", "2"] {
        for (options, stdout, stderr) in [
            (&["failed"][..], Some("f: FAILED\n"), none_failed.as_str()),
            (&["--status", "failed"], None, ""),
            (&["matched"], Some("f: FAILED\nf: OK\n"), mismatch),
        ] {
            let mut args = vec!["-j", jobs, "-c", "--ignore-missing"];
            args.extend(options);
            expect_run(dir.path(), &args, 1, stdout, Some(stderr));
        }
        let (code, out, err) = run_in(
            dir.path(),
            &["-j", jobs, "-c", "--ignore-missing", "unreadable"],
        );
        assert_eq!(
            (code, out.as_str()),
            (Some(1), "d: FAILED open or read\n"),
            "-j {jobs}"
        );
        assert!(
            err.ends_with("skeinsum: unreadable: no file was verified\n"),
            "-j {jobs}: {err}"
        );
    }
}
