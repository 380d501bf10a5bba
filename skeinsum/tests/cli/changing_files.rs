//! Files that change while they are hashed (mapped, read, from standard
//! input, in a later window): an error, never a digest; changes of metadata
//! alone still give the digest.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::time::Duration;

use crate::oracle::*;
use crate::util::*;

/// Run skeinsum on `file`, pausing at `stage`; while paused, `change` runs.
fn hash_with_change(stage: &str, size: usize, change: impl FnOnce(&Path)) -> std::process::Output {
    run_paused(stage, size, &[], &[], false, change)
}

fn assert_changed_error(out: &std::process::Output) {
    let err = stderr_of(out);
    assert_eq!(
        out.status.code(),
        Some(1),
        "status {:?}, stderr {err}",
        out.status
    );
    assert!(
        out.stdout.is_empty(),
        "a digest was printed: {}",
        stdout_of(out)
    );
    assert!(
        err.contains("victim: file changed while being read")
            || err.contains("-: file changed while being read"),
        "{err}"
    );
}

/// The change that appends `bytes` to a file.
fn append(bytes: &'static [u8]) -> impl Fn(&Path) {
    move |f| {
        fs::OpenOptions::new()
            .append(true)
            .open(f)
            .unwrap()
            .write_all(bytes)
            .unwrap()
    }
}

#[test]
fn file_shrinking_between_stat_and_map_is_an_error_not_a_crash() {
    assert_changed_error(&hash_with_change("map", 1 << 20, truncate_to(100)));
}

#[test]
fn file_truncated_while_mapped_is_an_error_not_a_crash() {
    // Truncated to zero under the mapping (every page faults: SIGBUS), and
    // to a size that is not page aligned.
    for len in [0, 123_457] {
        assert_changed_error(&hash_with_change("hash", 4 << 20, truncate_to(len)));
    }
}

#[test]
fn file_growing_while_mapped_is_an_error() {
    assert_changed_error(&hash_with_change("hash", 1 << 20, append(b"more")));
}

#[test]
fn file_unchanged_while_paused_gives_the_digest() {
    // The pause itself changes nothing: the control for the tests above.
    let out = hash_with_change("hash", 1 << 20, |_| {});
    assert!(out.status.success(), "{}", stderr_of(&out));
    let data = pattern(1 << 20, 21);
    assert!(stdout_of(&out).starts_with(&reference(512, 512, &data)));
}

/// A file changed while read (not mapped) gives no digest: small
/// files, `--no-mmap`, and standard input redirected from a file.
#[test]
fn files_changing_while_read_are_errors() {
    let truncate = truncate_to(100);
    let grow = append(&[1; 5000]);
    let refuse_map = [("SKEINSUM_TEST_REFUSE_MAP", "0")];
    type Case<'a> = (
        usize,
        &'a [&'a str],
        &'a [(&'a str, &'a str)],
        bool,
        &'a dyn Fn(&Path),
    );
    let cases: [Case; 6] = [
        // A small file (read in one block, then grown or cut).
        (10_000, &[], &[], false, &grow),
        (10_000, &[], &[], false, &truncate),
        // --no-mmap on a file of several blocks.
        (3 << 20, &["--no-mmap"], &[], false, &truncate),
        (3 << 20, &["--no-mmap"], &[], false, &grow),
        // Standard input from a regular file.
        (3 << 20, &[], &[], true, &truncate),
        // What was read after a refused mapping.
        (1 << 20, &[], &refuse_map, false, &grow),
    ];
    for (size, args, env, stdin, change) in cases {
        assert_changed_error(&run_paused("read", size, args, env, stdin, change));
    }
    // The control: pausing there changes nothing by itself.
    let data = pattern(3 << 20, 21);
    for (args, stdin) in [(&["--no-mmap"][..], false), (&[], true)] {
        let out = run_paused("read", 3 << 20, args, &[], stdin, |_| {});
        assert!(out.status.success(), "{}", stderr_of(&out));
        assert!(stdout_of(&out).starts_with(&reference(512, 512, &data)));
    }
}

/// The SIGBUS guard and the change check hold in a later
/// window too (truncated while window 5 of 64 KiB is mapped).
#[test]
fn file_truncated_in_a_later_window_is_an_error() {
    let out = run_paused(
        "hash#5",
        1 << 20,
        &[],
        &[("SKEINSUM_TEST_MAP_WINDOW", "65536")],
        false,
        truncate_to(200_000),
    );
    assert_changed_error(&out);
}

/// The same for windows with prefault threads (4 MiB), where the window
/// hashed next was mapped and its pages mapped in while the one before it
/// was hashed: truncated while window 2 or 3 of 4 MiB is hashed, inside it
/// or before it.
#[test]
fn file_truncated_in_a_window_mapped_ahead_is_an_error() {
    for (stage, len) in [("hash#2", 5 << 20), ("hash#2", 1000), ("hash#3", 9 << 20)] {
        let out = run_paused(
            stage,
            (12 << 20) + 12_345,
            &[],
            &[("SKEINSUM_TEST_MAP_WINDOW", &(4 << 20).to_string())],
            false,
            truncate_to(len),
        );
        assert_changed_error(&out);
    }
}

/// Changes that leave the content alone (mode, access time, a new link: the
/// status-change time moves) while a file is hashed still give its digest,
/// read or mapped, in a batch or alone, on every backend.
#[cfg(unix)]
#[test]
fn metadata_changes_while_hashed_give_the_digest() {
    use std::os::unix::fs::PermissionsExt;
    type Change = (&'static str, fn(&Path));
    let changes: [Change; 3] = [
        ("chmod", |f| {
            fs::set_permissions(f, fs::Permissions::from_mode(0o600)).unwrap()
        }),
        ("touch -a", |f| {
            let status = std::process::Command::new("touch")
                .arg("-a")
                .arg(f)
                .status()
                .unwrap();
            assert!(status.success());
        }),
        ("ln", |f| {
            fs::hard_link(f, f.with_extension("link")).unwrap()
        }),
    ];
    for backend in skein_simd::Backend::available() {
        let forced = ["--backend", backend.name()];
        for (what, change) in changes {
            // Alone: mapped (paused with the first window mapped) and read.
            for (stage, mmap) in [("hash", &[][..]), ("read", &["--no-mmap"][..])] {
                let args = [&forced[..], mmap].concat();
                let out = run_paused(stage, 1 << 20, &args, &[], false, |f| {
                    std::thread::sleep(Duration::from_millis(30));
                    change(f)
                });
                assert!(out.status.success(), "{what} {args:?}: {}", stderr_of(&out));
                assert_eq!(
                    stdout_of(&out).split("  ").next().unwrap(),
                    reference(512, 512, &pattern(1 << 20, 21)),
                    "{what} {args:?}"
                );
            }
            // In a batch: read (small) and mapped (600 KB) files.
            let dir = Dir::new();
            let small = dir.file("small", &pattern(1000, 5));
            let large = dir.file("large", &pattern(600_000, 6));
            let args = [&forced[..], &["-j", "2", "small", "large"]].concat();
            let out = through_batch(&dir, &args, || {
                std::thread::sleep(Duration::from_millis(30));
                change(&small);
                change(&large);
            });
            assert_eq!(
                stdout_of(&out),
                format!(
                    "{}  small\n{}  large\n",
                    reference(512, 512, &pattern(1000, 5)),
                    reference(512, 512, &pattern(600_000, 6))
                ),
                "{what} {args:?}: {}",
                stderr_of(&out)
            );
            assert!(out.status.success(), "{what} {args:?}");
        }
    }
}
