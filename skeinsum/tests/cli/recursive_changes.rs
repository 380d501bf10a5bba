//! `skeinsum -r` while the tree changes under it: entries removed,
//! replaced by what the walk skips, directories swapped for links.

use std::ffi::OsStr;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use tempfile::TempDir;

use crate::oracle::*;
use crate::recursive::{escaped_line, temp_tree, write, write_tree};
use crate::util::*;

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
    let child = std_skeinsum()
        .arg("-r")
        .args(options)
        .arg("t")
        .current_dir(base)
        .env(
            "SKEINSUM_TEST_PAUSE",
            format!("walk#{listed}:{}", sentinel.display()),
        )
        .stdin(Stdio::null())
        .stdout(file.try_clone().unwrap())
        .stderr(file)
        .spawn()
        .unwrap();
    wait_for_pause(&sentinel, "skeinsum -r");
    change(&base.join("t"));
    fs::remove_file(&sentinel).unwrap();
    // A walk that waits on a FIFO or reads without end fails the test.
    let status = wait_bounded(child, Duration::from_secs(60)).status;
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
        write_tree(
            dir.path(),
            &[
                ("t/to-dir", b"was a file"),
                ("t/to-file/g", b"g"),
                ("t/z", b"z"),
            ],
        );
        let (status, log) = walk_changed_midway(dir.path(), &[threads], |t| {
            fs::remove_dir_all(t.join(OsStr::from_bytes(b"gone\xff"))).unwrap();
            fs::remove_file(t.join("to-dir")).unwrap();
            write(&t.join("to-dir/inner"), b"inner");
            fs::remove_dir_all(t.join("to-file")).unwrap();
            fs::write(t.join("to-file"), b"now a file").unwrap();
        });
        let expected = [
            escaped_line(b"a", b"t/a").as_slice(),
            b"skeinsum: 't/gone'$'\\377': No such file or directory\n",
            b"skeinsum: t/to-dir: not a regular file any more (changed during the walk); skipped\n",
            b"skeinsum: t/to-file: Not a directory\n",
            &escaped_line(b"z", b"t/z"),
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
        let dir = temp_tree(&[
            ("t/a", b"a"),
            ("t/fifo", b"was a file"),
            ("t/link-big", &pattern(200_000, 1)),
            ("t/link-small", b"was a file"),
            ("t/sub/f", b"sub"),
            ("t/z", b"z"),
            ("elsewhere/secret", b"secret"),
        ]);
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
        let mut expected = String::from_utf8(escaped_line(b"a", b"t/a")).unwrap();
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
            expected
                .push_str(&String::from_utf8(escaped_line(b"secret", b"t/sub/secret")).unwrap());
        } else {
            expected.push_str(&format!(
                "skeinsum: t/sub: {link}
"
            ));
        }
        expected.push_str(&String::from_utf8(escaped_line(b"z", b"t/z")).unwrap());
        assert_eq!(status, Some(1), "{options:?}: {text}");
        assert_eq!(text, expected, "{options:?}");
    }
}

/// A socket put in the place of a file after its directory was listed
/// (its open fails with `No such device or address`) is said to be no
/// regular file any more, as a FIFO, device or directory is.
#[test]
fn entry_replaced_by_a_socket_is_no_regular_file() {
    for threads in ["-j1", "-j2"] {
        let dir = temp_tree(&[("t/a", b"a"), ("t/sock", b"was a file"), ("t/z", b"z")]);
        // Kept until the walk is over: the socket exists while it is bound.
        let mut listener = None;
        let (status, text) = walk_changed_midway(dir.path(), &[threads], |t| {
            fs::remove_file(t.join("sock")).unwrap();
            listener = Some(std::os::unix::net::UnixListener::bind(t.join("sock")).unwrap());
        });
        let expected = [
            escaped_line(b"a", b"t/a"),
            b"skeinsum: t/sock: not a regular file any more (changed during the walk); skipped\n"
                .to_vec(),
            escaped_line(b"z", b"t/z"),
        ]
        .concat();
        assert_eq!(status, Some(1), "{threads}: {text}");
        assert_eq!(text, String::from_utf8_lossy(&expected), "{threads}");
        drop(listener);
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
        let dir = temp_tree(&[
            ("t/a", b"a"),
            ("t/sub/inner/g", b"listed g"),
            ("t/z", b"z"),
            ("elsewhere/inner/planted", b"planted"),
        ]);
        // `t` is listed first, `t/sub` second.
        let (status, log) = walk_changed_after(dir.path(), &[threads], 2, |t| {
            fs::remove_dir_all(t.join("sub")).unwrap();
            symlink("../elsewhere", t.join("sub")).unwrap();
        });
        let expected = [
            escaped_line(b"a", b"t/a"),
            b"skeinsum: t/sub/inner: No such file or directory\n".to_vec(),
            escaped_line(b"z", b"t/z"),
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
        let dir = temp_tree(&[
            ("t/a", b"a"),
            ("t/sub/f", b"listed f"),
            ("t/sub/inner/g", b"listed g"),
            ("t/z", b"z"),
            ("elsewhere/f", b"planted f"),
            ("elsewhere/inner/g", b"planted g"),
        ]);
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
                escaped_line(b"listed f", b"t/sub/f"),
                escaped_line(b"listed g", b"t/sub/inner/g"),
            ]
            .concat()
        } else {
            b"skeinsum: t/sub/f: No such file or directory\n\
              skeinsum: t/sub/inner: No such file or directory\n"
                .to_vec()
        };
        let expected = [
            escaped_line(b"a", b"t/a"),
            middle,
            escaped_line(b"z", b"t/z"),
        ]
        .concat();
        assert_eq!(
            log,
            String::from_utf8_lossy(&expected),
            "{threads}, moved: {moved}"
        );
        assert_eq!(status, Some(if moved { 0 } else { 1 }), "{threads}: {log}");
        assert!(!log.contains(&reference(512, 512, b"planted f")), "{log}");
    }
}

/// With `-L` the same link is a link below the operand like any other: it
/// is followed once the walk looks it up by name, but a directory it has
/// already listed is still read through its descriptor.
#[test]
fn dereference_walks_the_listed_directory_of_a_swapped_name() {
    for threads in ["-j1", "-j2"] {
        let dir = temp_tree(&[
            ("t/sub/f", b"listed f"),
            ("elsewhere/f", b"planted f"),
            ("elsewhere/linked/h", b"linked h"),
        ]);
        let t = dir.path().join("t");
        symlink(dir.path().join("elsewhere/linked"), t.join("sub/link")).unwrap();
        let (status, log) = walk_changed_after(dir.path(), &[threads, "-L"], 2, |t| {
            fs::rename(t.join("sub"), t.join("../moved")).unwrap();
            symlink("../elsewhere", t.join("sub")).unwrap();
        });
        let expected = [
            escaped_line(b"listed f", b"t/sub/f"),
            escaped_line(b"linked h", b"t/sub/link/h"),
        ]
        .concat();
        assert_eq!(log, String::from_utf8_lossy(&expected), "{threads}");
        assert_eq!(status, Some(0), "{threads}: {log}");
    }
}
