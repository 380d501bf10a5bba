//! Files that cannot be hashed and output that cannot be written: GNU's
//! messages in their place among the result lines, closed pipes and
//! descriptors, `/dev/full`, names in messages quoted as GNU quotes them.

use std::ffi::OsStr;
use std::fs;
use std::io::Read;
use std::process::Stdio;
use std::time::Duration;

use crate::oracle::*;
use crate::util::*;

#[test]
fn missing_and_directory_files_among_others() {
    let dir = Dir::with(&[("good", b"abc")]);
    fs::create_dir(dir.path().join("sub")).unwrap();
    let digest = reference(512, 512, b"abc");
    dir.cmd().args(["good", "missing", "sub", "good"]).gives(
        1,
        format!("{digest}  good\n{digest}  good\n"),
        "skeinsum: missing: No such file or directory\nskeinsum: sub: Is a directory\n",
    );
}

/// Result lines are written in large pieces, but always before a message
/// on stderr: with both streams in one file, every message stands between
/// the lines of the files before and after it (as with GNU tools), on the
/// sequential and the batch path.
#[test]
fn messages_keep_their_place_among_result_lines_in_one_file() {
    let dir = Dir::new();
    let mut names = Vec::new();
    let mut expected = String::new();
    for i in 0..600 {
        if i == 300 {
            names.push("missing".to_string());
            expected.push_str("skeinsum: missing: No such file or directory\n");
        }
        let data = pattern(i % 70, i as u32);
        let name = format!("f{i}");
        dir.file(&name, &data);
        expected.push_str(&format!("{}  {name}\n", reference(512, 256, &data)));
        names.push(name);
    }
    for jobs in ["1", "2"] {
        let mut args = with_prefix(&[], &["-a", "512", "-l", "256", "-j", jobs]);
        args.extend(names.iter().cloned());
        assert_eq!(
            merged_in_file(dir.path(), &args),
            (expected.clone(), Some(1)),
            "-j {jobs}"
        );
    }
}

#[cfg(unix)]
#[test]
fn unreadable_file_among_others() {
    use std::os::unix::fs::PermissionsExt;
    let dir = Dir::with(&[("good", b"abc")]);
    let locked = dir.file("locked", b"secret");
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o000)).unwrap();
    // Root reads mode-000 files: the binary then runs as `nobody` through
    // util-linux's setpriv (the directory made readable to others), so that
    // the error is tested in CI, which runs as root.
    let setpriv = root_with_setpriv();
    let digest = reference(512, 512, b"abc");
    if is_root() && !setpriv {
        // The directory and missing-file cases (tested above) are the
        // unreadable inputs that still apply.
        eprintln!(
            "running as root without setpriv: chmod 000 does not stop reading; checking it is hashed instead"
        );
        dir.cmd().args(["good", "locked"]).assert().success();
        return;
    }
    let mut cmd = if setpriv {
        skeinsum_as_nobody(dir.path())
    } else {
        dir.cmd()
    };
    cmd.args(["good", "locked", "good"])
        .timeout(Duration::from_secs(60))
        .gives(
            1,
            format!("{digest}  good\n{digest}  good\n"),
            "skeinsum: locked: Permission denied\n",
        );
}

#[test]
fn closed_stdout_pipe_ends_quietly() {
    let dir = Dir::with(&[("f", b"abc")]);
    // Far more output than a pipe buffer holds, so writes must hit the
    // closed pipe.
    let mut child = std_skeinsum()
        .current_dir(dir.path())
        .args(std::iter::repeat_n("f", 3000))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 1];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = stderr_of(&out);
    assert!(!err.contains("panicked") && err.is_empty(), "stderr: {err}");
    assert_eq!(out.status.code(), Some(1), "{:?}", out.status);
}

#[cfg(target_os = "linux")]
#[test]
fn write_errors_are_reported() {
    let dir = Dir::with(&[("f", b"abc")]);
    let full = fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = std_skeinsum()
        .current_dir(dir.path())
        .arg("f")
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr_of(&out),
        "skeinsum: write error: No space left on device\n"
    );
}

/// Closed standard descriptors are errors, as in GNU (the runtime
/// had put /dev/null there: no output and exit 0, or the digest of nothing).
#[cfg(unix)]
#[test]
fn closed_standard_descriptors_are_bad_file_descriptors() {
    let dir = Dir::with(&[
        ("f", b"abc"),
        ("sums", gnu_line(512, 512, b"abc", "f").as_bytes()),
    ]);
    sh(dir.path(), "exec \"$0\" f >&-").exits(1, "skeinsum: write error: Bad file descriptor\n");
    sh(dir.path(), "exec \"$0\" <&-").gives(1, "", "skeinsum: -: Bad file descriptor\n");
    sh(dir.path(), "exec \"$0\" f - f <&-").gives(
        1,
        format!("{d}  f\n{d}  f\n", d = reference(512, 512, b"abc")),
        "skeinsum: -: Bad file descriptor\n",
    );
    sh(dir.path(), "exec \"$0\" -c <&-")
        .exits(1, "skeinsum: 'standard input': Bad file descriptor\n");
    sh(dir.path(), "exec \"$0\" --version >&-")
        .exits(1, "skeinsum: write error: Bad file descriptor\n");
    // Nothing to write: no error (as GNU).
    sh(dir.path(), "exec \"$0\" --status -c sums >&-").exits(0, "");
}

/// --help and --version that cannot be written fail.
#[cfg(target_os = "linux")]
#[test]
fn help_and_version_report_write_errors() {
    for option in ["--help", "--version", "--list-backends"] {
        let full = fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = std_skeinsum().arg(option).stdout(full).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{option}");
        assert_eq!(
            stderr_of(&out),
            "skeinsum: write error: No space left on device\n",
            "{option}"
        );
    }
}

/// Names in messages are quoted as GNU quotes them (the strings
/// are GNU coreutils 9.1 sha256sum's for the same names): no raw control
/// byte reaches stderr.
#[cfg(unix)]
#[test]
fn names_in_messages_are_quoted_like_gnu() {
    use std::os::unix::ffi::OsStrExt;
    let dir = Dir::new();
    let names: [&[u8]; 5] = [b"a\x1bb", b"c\rd", b"e\nf", b"g h", b"caf\xe9"];
    let expected = "skeinsum: 'a'$'\\033''b': No such file or directory\n\
                    skeinsum: 'c'$'\\r''d': No such file or directory\n\
                    skeinsum: 'e'$'\\n''f': No such file or directory\n\
                    skeinsum: 'g h': No such file or directory\n\
                    skeinsum: 'caf'$'\\351': No such file or directory\n";
    dir.cmd()
        .args(names.iter().map(|n| OsStr::from_bytes(n)))
        .gives(1, "", expected);
    // The same names from an untrusted checksum list (the newline escaped,
    // as in a list skeinsum writes).
    let d = reference(512, 512, b"");
    let mut list = Vec::new();
    for name in names {
        if name == b"e\nf" {
            list.extend_from_slice(format!("\\{d}  e\\nf\n").as_bytes());
        } else {
            list.extend_from_slice(format!("{d}  ").as_bytes());
            list.extend_from_slice(name);
            list.push(b'\n');
        }
    }
    let out = dir
        .cmd()
        .args(["-c", "-"])
        .write_stdin(list)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr_of(&out);
    assert!(err.starts_with(expected), "{err:?}");
    assert!(
        !out.stderr.iter().any(|&c| c < b' ' && c != b'\n'),
        "{err:?}"
    );
}

/// Standard input open for writing only is `Bad file descriptor` (GNU),
/// never the empty input's digest: alone, among files, and as a list.
#[cfg(unix)]
#[test]
fn write_only_stdin_is_a_bad_file_descriptor() {
    let dir = Dir::with(&[("f", b"abc"), ("w", b"")]);
    let d = reference(512, 512, b"abc");
    for prefix in every_backend_and_path() {
        let p = prefix.join(" ");
        for redirect in ["0>/dev/full", "0>>w"] {
            sh(dir.path(), &format!("exec \"$0\" {p} {redirect}")).gives(
                1,
                "",
                "skeinsum: -: Bad file descriptor\n",
            );
            sh(dir.path(), &format!("exec \"$0\" {p} f - f {redirect}")).gives(
                1,
                format!("{d}  f\n{d}  f\n"),
                "skeinsum: -: Bad file descriptor\n",
            );
            sh(dir.path(), &format!("exec \"$0\" {p} -c {redirect}")).gives(
                1,
                "",
                "skeinsum: 'standard input': Bad file descriptor\n",
            );
        }
    }
}
