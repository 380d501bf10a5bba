//! A limit on the address space (`prlimit --as`): memory that is refused
//! is never a file's error while the file can be hashed in less (the batch
//! hands it to the sequential path, which reads it in smaller pieces), and
//! never an abort: at worst `skeinsum: FILE: not enough memory`, status 1.
//!
//! The limits are counted from what the binary under test needs to hash a
//! small file at all ([`baseline`]), measured by each test, so that they
//! hold for a debug build (CI's) and a release build alike.

use std::path::Path;
use std::process::Output;

use crate::oracle::*;
use crate::util::*;

const MIB: u64 = 1 << 20;

/// `prlimit --as=BYTES`.
fn address_space(bytes: u64) -> Vec<String> {
    prlimit(&format!("--as={bytes}"))
}

/// The smallest limit on the address space, in steps of 1 MiB, under
/// which the binary hashes the small file `small` (in `dir`) with `-j1`.
/// Below it the program may not even load (the dynamic loader fails).
fn baseline(dir: &Path) -> u64 {
    for mib in 4..=1024 {
        let out = run(
            dir,
            &strs(&address_space(mib * MIB)),
            &["-j1", "small"],
            None,
        );
        if out.status.success() {
            return mib * MIB;
        }
    }
    panic!("skeinsum hashes no small file under a 1 GiB address space");
}

/// `out` is the line `expected` with status 0, or, when memory was too
/// short even for the smallest buffers, the one line for `name` with
/// status 1; never a signal (an abort, a crash).
fn digest_or_no_memory(out: &Output, expected: &str, name: &str, what: &str) {
    let got = (out.status.code(), stdout_of(out), stderr_of(out));
    let no_memory = (
        Some(1),
        String::new(),
        format!("skeinsum: {name}: not enough memory\n"),
    );
    assert!(
        got == (Some(0), expected.to_string(), String::new()) || got == no_memory,
        "{what}: {:?} {got:?}",
        out.status
    );
}

/// One file larger than the room left, one after another (`-j1`) and as
/// a tree on two threads: from the baseline up, each limit gives the
/// digest or the one-line error, never an abort (a failed small
/// allocation) nor a crash (a stack that found no room to grow); with a
/// few MiB to spare (less than the file: it cannot be mapped whole) the
/// digest.
#[test]
fn short_address_space_is_no_abort() {
    let dir = Dir::new();
    dir.file("small", b"abc");
    let data = pattern(8 << 20, 12);
    dir.file("big", &data);
    let expected = line(&data, "big");
    let base = baseline(dir.path());
    for extra in [0, 1, 2, 3, 4, 6] {
        let limit = address_space(base + extra * MIB);
        let out = run(dir.path(), &strs(&limit), &["-j1", "big"], None);
        digest_or_no_memory(&out, &expected, "big", &format!("-j1 at +{extra} MiB"));
        if extra >= 4 {
            assert!(out.status.success(), "-j1 at +{extra} MiB: {out:?}");
        }
    }

    // The tree's digest is checked against the golden file elsewhere.
    let tree = ["--tree", "10,1,255", "-j2", "big"];
    let unlimited = run(dir.path(), &[], &tree, None);
    assert!(unlimited.status.success(), "{unlimited:?}");
    let expected = stdout_of(&unlimited);
    for extra in [0, 1, 2, 3, 4, 5, 6, 8] {
        let limit = address_space(base + extra * MIB);
        let out = run(dir.path(), &strs(&limit), &tree, None);
        digest_or_no_memory(&out, &expected, "big", &format!("--tree at +{extra} MiB"));
    }
}

/// Twenty files of 7 MiB on two threads (two chunks of ten, mapped whole
/// at once: 140 MiB) in 100 MiB more than the baseline: every file hashed,
/// status 0, as with `-j1`; so with `-c` and with `-r`.
#[test]
fn address_space_limit_fails_no_file_of_a_batch() {
    let dir = Dir::new();
    dir.file("small", b"abc");
    std::fs::create_dir(dir.path().join("d")).unwrap();
    let len = 7 << 20;
    let digest = reference(512, 512, &vec![0; len as usize]);
    let mut names = Vec::new();
    let mut expected = String::new();
    let mut oks = String::new();
    for i in 0..20 {
        let name = format!("d/m{i:02}");
        dir.zeros(&name, len);
        expected.push_str(&format!("{digest}  {name}\n"));
        oks.push_str(&format!("{name}: OK\n"));
        names.push(name);
    }
    dir.file("list", expected.as_bytes());
    let limit = address_space(baseline(dir.path()) + 100 * MIB);
    let mut args = vec!["-j2"];
    args.extend(names.iter().map(String::as_str));
    for (args, stdout) in [
        (args, &expected),
        (vec!["-j2", "-c", "list"], &oks),
        (vec!["-j2", "-r", "d"], &expected),
    ] {
        let out = run(dir.path(), &strs(&limit), &args, None);
        assert_clean(&out, stdout, &format!("{:?}", &args[..3]));
    }
}
