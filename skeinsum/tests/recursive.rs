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
use std::time::{Duration, Instant};

use assert_cmd::Command;
use skein::digest::consts::U64;
use skein::Digest;
use tempfile::TempDir;

mod common;
use common::{pattern, BIN, HOOKS};

/// The binary, run in `dir`, with no test hook set.
fn skeinsum(dir: &Path) -> Command {
    let mut cmd = common::skeinsum();
    cmd.current_dir(dir);
    cmd
}

/// Skein-512-512 of `data` in hex, by RustCrypto.
fn reference(data: &[u8]) -> String {
    hex::encode(skein::Skein512::<U64>::digest(data))
}

/// The result line sha256sum would print for `name`: a name with a
/// backslash, newline or carriage return is escaped and the line starts
/// with a backslash.
fn gnu_line(data: &[u8], name: &[u8]) -> Vec<u8> {
    let escape = name.iter().any(|c| matches!(c, b'\\' | b'\n' | b'\r'));
    let mut line = Vec::new();
    if escape {
        line.push(b'\\');
    }
    line.extend_from_slice(reference(data).as_bytes());
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
        .flat_map(|(name, data)| gnu_line(data, name))
        .collect()
}

fn write(path: &Path, data: &[u8]) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, data).unwrap();
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
        let mut cmd = skeinsum(dir.path());
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
    let out = skeinsum(dir.path()).args(["-r", "t/"]).output().unwrap();
    assert!(out.status.success());
    assert!(out.stdout == expected, "t/: output differs");
}

/// Operands in argument order, each walked in path order; those that are
/// not directories are hashed (or fail) as they would without `-r`.
#[test]
fn operands_in_argument_order() {
    let dir = TempDir::new().unwrap();
    write(&dir.path().join("b/1"), b"b1");
    write(&dir.path().join("a/2"), b"a2");
    write(&dir.path().join("f"), b"file");
    let out = skeinsum(dir.path())
        .args(["-r", "b", "a", "f", "-", "missing", "a"])
        .write_stdin("stdin")
        .output()
        .unwrap();
    let expected: Vec<u8> = [
        gnu_line(b"b1", b"b/1"),
        gnu_line(b"a2", b"a/2"),
        gnu_line(b"file", b"f"),
        gnu_line(b"stdin", b"-"),
        gnu_line(b"a2", b"a/2"),
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
    write(&t.join("a"), b"a");
    write(&t.join("sub/f"), b"f");
    write(&t.join("z"), b"z");
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
        skeinsum(dir.path())
            .args(["-r", threads, "t"])
            .assert()
            .success()
            .stdout(expected.clone())
            .stderr("");
    }
    let via: Vec<u8> = [
        gnu_line(b"a", b"via/a"),
        gnu_line(b"f", b"via/sub/f"),
        gnu_line(b"z", b"via/z"),
    ]
    .concat();
    skeinsum(dir.path())
        .args(["-r", "via"])
        .assert()
        .success()
        .stdout(via);
}

/// With `-L` links are followed; a loop back to an ancestor, a link to
/// itself and a dangling link are one error each, in their place among the
/// result lines (stdout and stderr in one file), and the walk goes on.
#[test]
fn dereference_follows_links_and_stops_at_loops() {
    let dir = TempDir::new().unwrap();
    linked_tree(dir.path());
    let expected = [
        gnu_line(b"a", b"t/a").as_slice(),
        b"skeinsum: t/dangling: No such file or directory\n",
        &gnu_line(b"f", b"t/link-dir/f"),
        b"skeinsum: t/link-dir/loop: directory loop (t again), not followed\n",
        &gnu_line(b"a", b"t/link-file"),
        b"skeinsum: t/self: Too many levels of symbolic links\n",
        &gnu_line(b"f", b"t/sub/f"),
        b"skeinsum: t/sub/loop: directory loop (t again), not followed\n",
        &gnu_line(b"z", b"t/z"),
    ]
    .concat();
    for threads in ["-j1", "-j2"] {
        let log = dir.path().join("log");
        let file = fs::File::create(&log).unwrap();
        let status = StdCommand::new(&*BIN)
            .args(["-r", "-L", threads, "t"])
            .current_dir(dir.path())
            .env_remove(HOOKS[0])
            .stdout(file.try_clone().unwrap())
            .stderr(file)
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(1), "{threads}");
        assert_eq!(
            String::from_utf8_lossy(&fs::read(&log).unwrap()),
            String::from_utf8_lossy(&expected),
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
    let dir = TempDir::new().unwrap();
    let t = dir.path().join("t");
    write(&t.join("a"), b"a");
    write(&t.join("locked/secret"), b"s");
    write(&t.join("locked-file"), b"l");
    write(&t.join("z"), b"z");

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
    // SAFETY: geteuid has no preconditions.
    let is_root = unsafe { libc::geteuid() } == 0;
    let setpriv = is_root
        && StdCommand::new("setpriv")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
    let root = is_root && !setpriv;
    if setpriv {
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
    }
    if root {
        eprintln!("running as root without setpriv: chmod 000 does not stop root from listing a directory or reading a file; only the too-long path is tested as unreadable");
    } else {
        fs::set_permissions(t.join("locked"), fs::Permissions::from_mode(0o000)).unwrap();
        fs::set_permissions(t.join("locked-file"), fs::Permissions::from_mode(0o000)).unwrap();
    }
    for threads in ["-j1", "-j2"] {
        let mut cmd = if setpriv {
            let mut cmd = Command::new("setpriv");
            cmd.args([
                "--reuid=65534",
                "--regid=65534",
                "--clear-groups",
                BIN.as_str(),
            ]);
            for hook in HOOKS {
                cmd.env_remove(hook);
            }
            cmd.current_dir(dir.path());
            cmd
        } else {
            skeinsum(dir.path())
        };
        let out = cmd
            .args(["-r", threads, "t"])
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap();
        // `t/locked-file` sorts before `t/locked/`, and that before `t/long/`.
        let mut expected = gnu_line(b"a", b"t/a");
        if root {
            expected.extend(gnu_line(b"l", b"t/locked-file"));
            expected.extend(gnu_line(b"s", b"t/locked/secret"));
        }
        expected.extend(gnu_line(b"z", b"t/z"));
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

/// Run `skeinsum -r OPTIONS t` in `base`, stopped once the first directory
/// (`t`) is listed, while `change` alters the tree; stdout and stderr go to
/// one file, returned with the exit status.
fn walk_changed_midway(
    base: &Path,
    options: &[&str],
    change: impl FnOnce(&Path),
) -> (Option<i32>, String) {
    walk_changed_after(base, options, 1, change)
}

/// [`walk_changed_midway`], stopped once the `listed`th directory is listed.
fn walk_changed_after(
    base: &Path,
    options: &[&str],
    listed: u32,
    change: impl FnOnce(&Path),
) -> (Option<i32>, String) {
    let sentinel = base.join("paused");
    let log = base.join("log");
    let file = fs::File::create(&log).unwrap();
    let mut child = StdCommand::new(&*BIN)
        .arg("-r")
        .args(options)
        .arg("t")
        .current_dir(base)
        .env(
            "SKEINSUM_TEST_PAUSE",
            format!("walk#{listed}:{}", sentinel.display()),
        )
        .env_remove(HOOKS[1])
        .env_remove(HOOKS[2])
        .stdin(Stdio::null())
        .stdout(file.try_clone().unwrap())
        .stderr(file)
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !sentinel.exists() {
        assert!(
            Instant::now() < deadline,
            "skeinsum never paused (built without the test-hooks feature?)"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    change(&base.join("t"));
    fs::remove_file(&sentinel).unwrap();
    // A walk that waits on a FIFO or reads without end fails the test.
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("skeinsum -r {options:?} t did not finish within 60 s");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let text = String::from_utf8_lossy(&fs::read(&log).unwrap()).into_owned();
    fs::remove_file(&log).unwrap();
    (status.code(), text)
}

/// A subdirectory removed after its parent was listed (a name whose entry
/// vanished; its name is not UTF-8, quoted as GNU quotes it), a file turned
/// into a directory and a directory turned into a file: one error each in
/// its place, the other files hashed.
#[test]
fn entries_changed_during_the_walk() {
    for threads in ["-j1", "-j2"] {
        let dir = TempDir::new().unwrap();
        let t = dir.path().join("t");
        write(&t.join("a"), b"a");
        write(&t.join(OsStr::from_bytes(b"gone\xff/f")), b"f");
        write(&t.join("to-dir"), b"was a file");
        write(&t.join("to-file/g"), b"g");
        write(&t.join("z"), b"z");
        let (status, log) = walk_changed_midway(dir.path(), &[threads], |t| {
            fs::remove_dir_all(t.join(OsStr::from_bytes(b"gone\xff"))).unwrap();
            fs::remove_file(t.join("to-dir")).unwrap();
            write(&t.join("to-dir/inner"), b"inner");
            fs::remove_dir_all(t.join("to-file")).unwrap();
            fs::write(t.join("to-file"), b"now a file").unwrap();
        });
        let expected = [
            gnu_line(b"a", b"t/a").as_slice(),
            b"skeinsum: 't/gone'$'\\377': No such file or directory\n",
            b"skeinsum: t/to-dir: Is a directory\n",
            b"skeinsum: t/to-file: Not a directory\n",
            &gnu_line(b"z", b"t/z"),
        ]
        .concat();
        assert_eq!(status, Some(1), "{threads}: {log}");
        assert_eq!(log, String::from_utf8_lossy(&expected), "{threads}");
    }
}

/// Entries replaced after their directory was listed by what `-r` never
/// reads: a FIFO (opening it must not wait for a writer), a link to
/// `/dev/zero` (never read, or the run would not end) and a directory
/// replaced by a link to another tree (not walked). One error each in its
/// place, the files before and after hashed; with `-L` the link to a
/// directory is walked and the device is still no regular file.
#[test]
fn entries_replaced_by_what_the_walk_skips() {
    for (threads, dereference) in [("-j1", false), ("-j2", false), ("-j1", true), ("-j2", true)] {
        let dir = TempDir::new().unwrap();
        let t = dir.path().join("t");
        write(&t.join("a"), b"a");
        write(&t.join("fifo"), b"was a file");
        write(&t.join("link-big"), &pattern(200_000, 1));
        write(&t.join("link-small"), b"was a file");
        write(&t.join("sub/f"), b"sub");
        write(&t.join("z"), b"z");
        write(&dir.path().join("elsewhere/secret"), b"secret");
        let mut options = vec![threads];
        if dereference {
            options.push("-L");
        }
        let (status, text) = walk_changed_midway(dir.path(), &options, |t| {
            fs::remove_file(t.join("fifo")).unwrap();
            let path = std::ffi::CString::new(t.join("fifo").as_os_str().as_bytes()).unwrap();
            // SAFETY: a valid NUL-terminated path.
            assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o644) }, 0);
            for name in ["link-big", "link-small"] {
                fs::remove_file(t.join(name)).unwrap();
                symlink("/dev/zero", t.join(name)).unwrap();
            }
            fs::remove_dir_all(t.join("sub")).unwrap();
            symlink("../elsewhere", t.join("sub")).unwrap();
        });
        let not_regular = "not a regular file any more (changed during the walk); skipped";
        let link = "a symbolic link now (changed during the walk); not followed";
        let mut expected = String::from_utf8(gnu_line(b"a", b"t/a")).unwrap();
        expected.push_str(&format!(
            "skeinsum: t/fifo: {not_regular}
"
        ));
        for name in ["link-big", "link-small"] {
            let why = if dereference { not_regular } else { link };
            expected.push_str(&format!(
                "skeinsum: t/{name}: {why}
"
            ));
        }
        if dereference {
            expected.push_str(&String::from_utf8(gnu_line(b"secret", b"t/sub/secret")).unwrap());
        } else {
            expected.push_str(&format!(
                "skeinsum: t/sub: {link}
"
            ));
        }
        expected.push_str(&String::from_utf8(gnu_line(b"z", b"t/z")).unwrap());
        assert_eq!(status, Some(1), "{options:?}: {text}");
        assert_eq!(text, expected, "{options:?}");
    }
}

/// A subdirectory removed after it was listed and a link to another tree
/// put in its place, where a directory of the same name holds another
/// file: its subdirectory is opened relative to the directory that was
/// listed (gone with it: one error), never through the link, so nothing of
/// `elsewhere` is read or named.
#[test]
fn directory_swapped_for_a_link_is_not_walked_through() {
    for threads in ["-j1", "-j2"] {
        let dir = TempDir::new().unwrap();
        let t = dir.path().join("t");
        write(&t.join("a"), b"a");
        write(&t.join("sub/inner/g"), b"listed g");
        write(&t.join("z"), b"z");
        write(&dir.path().join("elsewhere/inner/planted"), b"planted");
        // `t` is listed first, `t/sub` second.
        let (status, log) = walk_changed_after(dir.path(), &[threads], 2, |t| {
            fs::remove_dir_all(t.join("sub")).unwrap();
            symlink("../elsewhere", t.join("sub")).unwrap();
        });
        let expected = [
            gnu_line(b"a", b"t/a"),
            b"skeinsum: t/sub/inner: No such file or directory\n".to_vec(),
            gnu_line(b"z", b"t/z"),
        ]
        .concat();
        assert_eq!(log, String::from_utf8_lossy(&expected), "{threads}");
        assert_eq!(status, Some(1), "{threads}: {log}");
    }
}

/// A subdirectory swapped for a link to another tree after it was listed
/// (removed, or moved away, and a link to `../elsewhere` put in its place,
/// where a file and a directory of the same names hold other bytes). The
/// walk goes on in the directory it listed, through its open descriptor,
/// never through the link: the files of the one removed are gone (one
/// error each, their directory's subdirectory too), the ones of the one
/// moved away are hashed as they are, and nothing of `elsewhere` is read.
#[test]
fn directory_swapped_for_a_link_after_its_listing() {
    for (threads, moved) in [("-j1", false), ("-j2", false), ("-j1", true), ("-j2", true)] {
        let dir = TempDir::new().unwrap();
        let t = dir.path().join("t");
        write(&t.join("a"), b"a");
        write(&t.join("sub/f"), b"listed f");
        write(&t.join("sub/inner/g"), b"listed g");
        write(&t.join("z"), b"z");
        write(&dir.path().join("elsewhere/f"), b"planted f");
        write(&dir.path().join("elsewhere/inner/g"), b"planted g");
        // `t` is listed first, `t/sub` second.
        let (status, log) = walk_changed_after(dir.path(), &[threads], 2, |t| {
            if moved {
                fs::rename(t.join("sub"), t.join("../moved")).unwrap();
            } else {
                fs::remove_dir_all(t.join("sub")).unwrap();
            }
            symlink("../elsewhere", t.join("sub")).unwrap();
        });
        let middle = if moved {
            [
                gnu_line(b"listed f", b"t/sub/f"),
                gnu_line(b"listed g", b"t/sub/inner/g"),
            ]
            .concat()
        } else {
            b"skeinsum: t/sub/f: No such file or directory\n\
              skeinsum: t/sub/inner: No such file or directory\n"
                .to_vec()
        };
        let expected = [gnu_line(b"a", b"t/a"), middle, gnu_line(b"z", b"t/z")].concat();
        assert_eq!(
            log,
            String::from_utf8_lossy(&expected),
            "{threads}, moved: {moved}"
        );
        assert_eq!(status, Some(if moved { 0 } else { 1 }), "{threads}: {log}");
        assert!(!log.contains(&reference(b"planted f")), "{log}");
    }
}

/// With `-L` the same link is a link below the operand like any other: it
/// is followed once the walk looks it up by name, but a directory it has
/// already listed is still read through its descriptor.
#[test]
fn dereference_walks_the_listed_directory_of_a_swapped_name() {
    for threads in ["-j1", "-j2"] {
        let dir = TempDir::new().unwrap();
        let t = dir.path().join("t");
        write(&t.join("sub/f"), b"listed f");
        write(&dir.path().join("elsewhere/f"), b"planted f");
        write(&dir.path().join("elsewhere/linked/h"), b"linked h");
        symlink(dir.path().join("elsewhere/linked"), t.join("sub/link")).unwrap();
        let (status, log) = walk_changed_after(dir.path(), &[threads, "-L"], 2, |t| {
            fs::rename(t.join("sub"), t.join("../moved")).unwrap();
            symlink("../elsewhere", t.join("sub")).unwrap();
        });
        let expected = [
            gnu_line(b"listed f", b"t/sub/f"),
            gnu_line(b"linked h", b"t/sub/link/h"),
        ]
        .concat();
        assert_eq!(log, String::from_utf8_lossy(&expected), "{threads}");
        assert_eq!(status, Some(0), "{threads}: {log}");
    }
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
    let out = skeinsum(dir.path()).args(["-r", "t"]).output().unwrap();
    assert!(out.status.success());
    assert!(
        out.stdout == expected,
        "{:?}",
        String::from_utf8_lossy(&out.stdout)
    );
    fs::write(dir.path().join("SUMS"), &out.stdout).unwrap();
    skeinsum(dir.path())
        .args(["-c", "--quiet", "SUMS"])
        .assert()
        .success()
        .stdout("")
        .stderr("");
}

/// `-r` output, plain and `--tag`, verifies with `--check` (plain lines
/// need the same `-a`); a changed file then fails, the others pass.
#[test]
fn check_round_trip() {
    let dir = TempDir::new().unwrap();
    tricky_tree(dir.path());
    for tag in [None, Some("--tag")] {
        let out = skeinsum(dir.path())
            .args(["-r", "-a", "256"])
            .args(tag)
            .arg("t")
            .output()
            .unwrap();
        assert!(out.status.success());
        fs::write(dir.path().join("SUMS"), &out.stdout).unwrap();
        skeinsum(dir.path())
            .args(["-c", "-a", "256", "--quiet", "SUMS"])
            .assert()
            .success()
            .stdout("");
    }
    fs::write(dir.path().join("t/a/x"), b"changed").unwrap();
    let out = skeinsum(dir.path())
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
        let out = skeinsum(dir.path()).args(*args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("skeinsum: ") && err.contains(option),
            "{args:?}: {err}"
        );
    }
    let help = skeinsum(dir.path()).arg("--help").output().unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    for option in ["-r, --recursive", "-L, --dereference", "--raw"] {
        assert!(help.contains(option), "--help lacks {option}");
    }
}
