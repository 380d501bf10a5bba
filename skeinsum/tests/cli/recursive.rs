//! `skeinsum -r`: every regular file below directories, in path-byte order.
//!
//! Expected output is made here independently of the tool: the files found
//! by a plain recursive walk of this test (`std::fs`, symbolic links not
//! followed), ordered by sorting their whole paths as bytes, each digest
//! from the RustCrypto `skein` crate, and names escaped by GNU's rule.

use std::ffi::OsStr;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::{Command as StdCommand, Stdio};
use std::time::Duration;

use tempfile::TempDir;

use crate::oracle::*;
use crate::util::*;

/// The result line sha256sum would print for `name`: a name with a
/// backslash, newline or carriage return is escaped and the line starts
/// with a backslash.
pub fn escaped_line(data: &[u8], name: &[u8]) -> Vec<u8> {
    let escape = name.iter().any(|c| matches!(c, b'\\' | b'\n' | b'\r'));
    let mut line = Vec::new();
    if escape {
        line.push(b'\\');
    }
    line.extend_from_slice(reference(512, 512, data).as_bytes());
    line.extend_from_slice(b"  ");
    for &c in name {
        match c {
            b'\\' if escape => line.extend_from_slice(b"\\\\"),
            b'\n' if escape => line.extend_from_slice(b"\\n"),
            b'\r' if escape => line.extend_from_slice(b"\\r"),
            _ => line.push(c),
        }
    }
    line.push(b'\n');
    line
}

/// Every regular file below `root` (run from `base`, named as `root` is
/// given), symbolic links not followed, as (path, contents), sorted by the
/// bytes of the whole path.
fn regular_files(base: &Path, root: &[u8]) -> Vec<(Vec<u8>, Vec<u8>)> {
    fn visit(base: &Path, path: Vec<u8>, found: &mut Vec<(Vec<u8>, Vec<u8>)>) {
        let full = base.join(OsStr::from_bytes(&path));
        let meta = fs::symlink_metadata(&full).unwrap();
        if meta.is_file() {
            found.push((path, fs::read(&full).unwrap()));
        } else if meta.is_dir() {
            for entry in fs::read_dir(&full).unwrap() {
                let mut child = path.clone();
                child.push(b'/');
                child.extend_from_slice(entry.unwrap().file_name().as_bytes());
                visit(base, child, found);
            }
        }
    }
    let mut found = Vec::new();
    visit(base, root.to_vec(), &mut found);
    found.sort();
    found
}

/// The output expected for `skeinsum -r root`.
fn expected_output(base: &Path, root: &[u8]) -> Vec<u8> {
    regular_files(base, root)
        .iter()
        .flat_map(|(name, data)| escaped_line(data, name))
        .collect()
}

pub fn write(path: &Path, data: &[u8]) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, data).unwrap();
}

/// [`write`] of each (path below `base`, contents).
pub fn write_tree(base: &Path, files: &[(&str, &[u8])]) {
    for (path, data) in files {
        write(&base.join(path), data);
    }
}

/// A temporary directory holding [`write_tree`]'s `files`.
pub fn temp_tree(files: &[(&str, &[u8])]) -> TempDir {
    let dir = TempDir::new().unwrap();
    write_tree(dir.path(), files);
    dir
}

/// A tree whose names sort differently as names and as paths (`a-b`,
/// `a.c` and `a0` around the directory `a`), with an empty file, a file
/// past the mapping threshold, a FIFO (not a regular file: skipped, and
/// never opened) and a directory of 1500 files in 30 subdirectories (more
/// than one batch window and one chunk of names).
fn tricky_tree(base: &Path) {
    let t = base.join("t");
    for (i, name) in [
        "a-b",
        "a.c",
        "a0",
        "a/x",
        "a/y/z",
        "a/y-",
        "b",
        "B",
        "empty",
        "big",
        "d1/d2/d3/f",
        "é",
        "~x",
        " sp",
    ]
    .iter()
    .enumerate()
    {
        let len = match *name {
            "empty" => 0,
            "big" => 40 << 10,
            _ => 1 + i * 37,
        };
        write(&t.join(name), &pattern(len, i as u32));
    }
    for i in 0..1500u32 {
        let name = format!("many/s{:02}/f{}", i % 30, i);
        write(&t.join(name), &pattern((i % 700) as usize, i));
    }
    let made = StdCommand::new("mkfifo")
        .arg(t.join("a/pipe"))
        .status()
        .unwrap();
    assert!(made.success());
}

/// Sorted by path bytes, equal for every `-j` and on every run, and each
/// digest RustCrypto's.
#[test]
fn tree_in_path_order_for_every_thread_count() {
    let dir = TempDir::new().unwrap();
    tricky_tree(dir.path());
    let expected = expected_output(dir.path(), b"t");
    assert_eq!(expected.iter().filter(|&&c| c == b'\n').count(), 1514);
    for threads in [None, Some("-j1"), Some("-j2"), Some("-j3"), Some("-j2")] {
        let mut cmd = skeinsum_in(dir.path());
        cmd.arg("-r").args(threads).arg("t");
        let out = cmd.output().unwrap();
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            "",
            "{threads:?}: stderr"
        );
        assert!(out.status.success(), "{threads:?}");
        assert!(out.stdout == expected, "{threads:?}: output differs");
    }
    // The same with a trailing slash on the operand: `t/a`, not `t//a`.
    let out = skeinsum_in(dir.path()).args(["-r", "t/"]).output().unwrap();
    assert!(out.status.success());
    assert!(out.stdout == expected, "t/: output differs");
}

/// Operands in argument order, each walked in path order; those that are
/// not directories are hashed (or fail) as they would without `-r`.
#[test]
fn operands_in_argument_order() {
    let dir = temp_tree(&[("b/1", b"b1"), ("a/2", b"a2"), ("f", b"file")]);
    let out = skeinsum_in(dir.path())
        .args(["-r", "b", "a", "f", "-", "missing", "a"])
        .write_stdin("stdin")
        .output()
        .unwrap();
    let expected: Vec<u8> = [
        escaped_line(b"b1", b"b/1"),
        escaped_line(b"a2", b"a/2"),
        escaped_line(b"file", b"f"),
        escaped_line(b"stdin", b"-"),
        escaped_line(b"a2", b"a/2"),
    ]
    .concat();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&expected)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "skeinsum: missing: No such file or directory\n"
    );
}

/// A tree of symbolic links: to a file, to a directory, to an ancestor
/// (a loop), to itself, to nothing.
fn linked_tree(base: &Path) {
    let t = base.join("t");
    write_tree(base, &[("t/a", b"a"), ("t/sub/f", b"f"), ("t/z", b"z")]);
    symlink("a", t.join("link-file")).unwrap();
    symlink("sub", t.join("link-dir")).unwrap();
    symlink("..", t.join("sub/loop")).unwrap();
    symlink("self", t.join("self")).unwrap();
    symlink("nowhere", t.join("dangling")).unwrap();
}

/// Without `-L` no link is followed: only the regular files, status 0.
/// An operand that is a link to a directory is walked (it was named).
#[test]
fn links_are_not_followed_without_dereference() {
    let dir = TempDir::new().unwrap();
    linked_tree(dir.path());
    symlink("t", dir.path().join("via")).unwrap();
    let expected = expected_output(dir.path(), b"t");
    assert_eq!(expected.iter().filter(|&&c| c == b'\n').count(), 3);
    for threads in ["-j1", "-j2"] {
        skeinsum_in(dir.path())
            .args(["-r", threads, "t"])
            .gives(0, expected.clone(), "");
    }
    let via: Vec<u8> = [
        escaped_line(b"a", b"via/a"),
        escaped_line(b"f", b"via/sub/f"),
        escaped_line(b"z", b"via/z"),
    ]
    .concat();
    skeinsum_in(dir.path()).args(["-r", "via"]).prints(via);
}

/// With `-L` links are followed; a loop back to an ancestor, a link to
/// itself and a dangling link are one error each, in their place among the
/// result lines (stdout and stderr in one file), and the walk goes on.
#[test]
fn dereference_follows_links_and_stops_at_loops() {
    let dir = TempDir::new().unwrap();
    linked_tree(dir.path());
    let expected = [
        escaped_line(b"a", b"t/a").as_slice(),
        b"skeinsum: t/dangling: No such file or directory\n",
        &escaped_line(b"f", b"t/link-dir/f"),
        b"skeinsum: t/link-dir/loop: directory loop (t again), not followed\n",
        &escaped_line(b"a", b"t/link-file"),
        b"skeinsum: t/self: Too many levels of symbolic links\n",
        &escaped_line(b"f", b"t/sub/f"),
        b"skeinsum: t/sub/loop: directory loop (t again), not followed\n",
        &escaped_line(b"z", b"t/z"),
    ]
    .concat();
    for threads in ["-j1", "-j2"] {
        let args = with_prefix(&[], &["-r", "-L", threads, "t"]);
        assert_eq!(
            merged_in_file(dir.path(), &args),
            (text(&expected), Some(1)),
            "{threads}"
        );
    }
}

/// A directory (or file) that cannot be read: one error line naming it, the
/// rest hashed, status 1. Root reads mode-000 directories and files, so
/// that case runs only for other users; a path longer than the kernel's `PATH_MAX` cannot
/// be listed by anyone and is tested always.
#[test]
fn unreadable_directories_are_one_error_each() {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_tree(&[
        ("t/a", b"a"),
        ("t/locked/secret", b"s"),
        ("t/locked-file", b"l"),
        ("t/z", b"z"),
    ]);
    let t = dir.path().join("t");

    // 20 levels of 240-byte names, assembled from the bottom up by renames
    // of short paths (no single call here needs the long path).
    let level = |i: usize| format!("l{i:02}{}", "x".repeat(237));
    let mut built = dir.path().join("part");
    write(&built.join("f"), b"deep");
    for i in (0..20).rev() {
        let parent = dir.path().join(format!("up{i}"));
        fs::create_dir(&parent).unwrap();
        fs::rename(&built, parent.join(level(i))).unwrap();
        built = parent;
    }
    fs::rename(&built, t.join("long")).unwrap();
    // The first directory whose path (with the `/` that lists it) reaches
    // PATH_MAX (4096 bytes with its NUL) is the one that fails.
    let mut too_long = b"t/long".to_vec();
    for i in 0..20 {
        too_long.push(b'/');
        too_long.extend_from_slice(level(i).as_bytes());
        if too_long.len() + 1 >= 4096 {
            break;
        }
    }
    assert!(too_long.len() < 20 * 241, "the tree is deep enough");
    let long_error = format!(
        "skeinsum: {}: File name too long\n",
        String::from_utf8(too_long).unwrap()
    );

    // Root reads everything: the binary then runs as `nobody` through
    // util-linux's setpriv (the tree made readable to others), so that
    // the permission errors are tested in CI, which runs as root.
    let setpriv = root_with_setpriv();
    let root = is_root() && !setpriv;
    if root {
        eprintln!("running as root without setpriv: chmod 000 does not stop root from listing a directory or reading a file; only the too-long path is tested as unreadable");
    } else {
        fs::set_permissions(t.join("locked"), fs::Permissions::from_mode(0o000)).unwrap();
        fs::set_permissions(t.join("locked-file"), fs::Permissions::from_mode(0o000)).unwrap();
    }
    for threads in ["-j1", "-j2"] {
        let mut cmd = if setpriv {
            skeinsum_as_nobody(dir.path())
        } else {
            skeinsum_in(dir.path())
        };
        let out = cmd
            .args(["-r", threads, "t"])
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap();
        // `t/locked-file` sorts before `t/locked/`, and that before `t/long/`.
        let mut expected = escaped_line(b"a", b"t/a");
        if root {
            expected.extend(escaped_line(b"l", b"t/locked-file"));
            expected.extend(escaped_line(b"s", b"t/locked/secret"));
        }
        expected.extend(escaped_line(b"z", b"t/z"));
        let mut errors = String::new();
        if !root {
            errors.push_str("skeinsum: t/locked-file: Permission denied\n");
            errors.push_str("skeinsum: t/locked: Permission denied\n");
        }
        errors.push_str(&long_error);
        assert_eq!(out.status.code(), Some(1), "{threads}");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&expected)
        );
        assert_eq!(String::from_utf8_lossy(&out.stderr), errors, "{threads}");
    }
    fs::set_permissions(t.join("locked"), fs::Permissions::from_mode(0o755)).unwrap();
}

/// The walk holds a descriptor for each directory on its path and for
/// the directories of the names waiting to be hashed. Under a limit on
/// descriptors lower than that (8, with a path 9 directories deep and 40
/// directories of one file beside it), it lets them go and opens by path
/// instead: the whole tree is hashed, no `Too many open files`.
#[test]
fn few_descriptors_deep_tree() {
    let dir = TempDir::new().unwrap();
    let mut deep = dir.path().join("t");
    for level in 0..8 {
        write(&deep.join("f"), format!("level {level}").as_bytes());
        deep = deep.join(format!("d{level}"));
    }
    write(&deep.join("f"), b"bottom");
    for i in 0..40 {
        write(&dir.path().join(format!("t/w{i:02}/f")), &pattern(10, i));
    }
    let out = StdCommand::new("prlimit")
        .args(["--nofile=8:8", BIN.as_str(), "-r", "-j1", "t"])
        .current_dir(dir.path())
        .env_remove(HOOKS[0])
        .env_remove(HOOKS[1])
        .env_remove(HOOKS[2])
        .env_remove(HOOKS[3])
        .stdin(Stdio::null())
        .output()
        .expect("prlimit (util-linux) runs");
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&expected_output(dir.path(), b"t"))
    );
    assert_eq!(out.status.code(), Some(0));
}

/// Names that are not UTF-8 are printed as their bytes; names with a
/// newline or backslash are escaped as GNU does; the list checks back.
#[test]
fn odd_names_print_as_without_r_and_check_back() {
    let dir = TempDir::new().unwrap();
    let t = dir.path().join("t");
    let names: [&[u8]; 5] = [
        b"caf\xe9",
        b"line\nbreak",
        b"back\\slash",
        b"dir\xff/in\xfe",
        b"cr\r",
    ];
    for (i, name) in names.iter().enumerate() {
        write(&t.join(OsStr::from_bytes(name)), &pattern(10 + i, i as u32));
    }
    let expected = expected_output(dir.path(), b"t");
    assert_eq!(expected.iter().filter(|&&c| c == b'\n').count(), 5);
    assert!(expected.windows(7).any(|w| w == b"t/caf\xe9\n"));
    let out = skeinsum_in(dir.path()).args(["-r", "t"]).output().unwrap();
    assert!(out.status.success());
    assert!(
        out.stdout == expected,
        "{:?}",
        String::from_utf8_lossy(&out.stdout)
    );
    fs::write(dir.path().join("SUMS"), &out.stdout).unwrap();
    skeinsum_in(dir.path())
        .args(["-c", "--quiet", "SUMS"])
        .gives(0, "", "");
}

/// `-r` output, plain and `--tag`, verifies with `--check` (plain lines
/// need the same `-a`); a changed file then fails, the others pass.
#[test]
fn check_round_trip() {
    let dir = TempDir::new().unwrap();
    tricky_tree(dir.path());
    for tag in [None, Some("--tag")] {
        let out = skeinsum_in(dir.path())
            .args(["-r", "-a", "256"])
            .args(tag)
            .arg("t")
            .output()
            .unwrap();
        assert!(out.status.success());
        fs::write(dir.path().join("SUMS"), &out.stdout).unwrap();
        skeinsum_in(dir.path())
            .args(["-c", "-a", "256", "--quiet", "SUMS"])
            .prints("");
    }
    fs::write(dir.path().join("t/a/x"), b"changed").unwrap();
    let out = skeinsum_in(dir.path())
        .args(["-c", "-a", "256", "--quiet", "SUMS"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "t/a/x: FAILED\n");
}

/// Usage errors: exit 2, one line naming the option, nothing hashed.
#[test]
fn usage_errors() {
    let dir = TempDir::new().unwrap();
    write(&dir.path().join("t/a"), b"a");
    let cases: &[(&[&str], &str)] = &[
        (&["-r"], "<FILE>"),
        (&["-r", "-c", "t"], "--check"),
        (&["-L", "t"], "--recursive"),
        (&["--dereference", "t/a"], "--recursive"),
    ];
    for (args, option) in cases {
        let out = skeinsum_in(dir.path()).args(*args).output().unwrap();
        assert_usage_error(&out, option, &format!("{args:?}"));
    }
    let help = skeinsum_in(dir.path()).arg("--help").output().unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    for option in ["-r, --recursive", "-L, --dereference", "--raw"] {
        assert!(help.contains(option), "--help lacks {option}");
    }
}
