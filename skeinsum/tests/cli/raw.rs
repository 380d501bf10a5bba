//! `skeinsum --raw`: the digest's bytes on stdout, for one input.

use std::fs;

use tempfile::TempDir;

use crate::oracle::*;
use crate::util::*;

/// A file (read, and mapped: 100 KiB is past the mapping threshold) and
/// standard input, for each state size and several output lengths.
#[test]
fn raw_bytes_match_rustcrypto() {
    let dir = TempDir::new().unwrap();
    for (i, len) in [0usize, 3, 100 << 10].into_iter().enumerate() {
        let data = pattern(len, i as u32);
        let name = format!("m{i}");
        fs::write(dir.path().join(&name), &data).unwrap();
        for (state, bits) in [
            (256, 256),
            (512, 256),
            (512, 384),
            (512, 512),
            (1024, 512),
            (1024, 1024),
        ] {
            let expected = rustcrypto_digest(state, bits, &data);
            let options = [
                "-a".to_string(),
                state.to_string(),
                "-l".to_string(),
                bits.to_string(),
            ];
            for threads in ["-j1", "-j2"] {
                skeinsum_in(dir.path())
                    .args(&options)
                    .args(["--raw", threads, &name])
                    .gives(0, expected.clone(), "");
            }
            skeinsum_in(dir.path())
                .args(&options)
                .arg("--raw")
                .write_stdin(data.clone())
                .prints(expected.clone());
            skeinsum_in(dir.path())
                .args(&options)
                .args(["--raw", "-"])
                .write_stdin(data.clone())
                .prints(expected);
        }
    }
}

/// Every byte-aligned entry of the golden file (MAC keys, trees, output
/// lengths that are not whole bytes, outputs longer than the state) as
/// raw bytes.
#[test]
fn raw_bytes_match_golden_entries() {
    let dir = TempDir::new().unwrap();
    let mut checked = 0;
    for e in golden().iter().filter(|e| e.msg_bits % 8 == 0) {
        fs::write(dir.path().join("m"), &e.msg).unwrap();
        let mut cmd = skeinsum_in(dir.path());
        cmd.arg("--raw").args(kat_args(e));
        let out = cmd.arg("m").output().unwrap();
        assert!(out.status.success(), "{}", e.header);
        assert_eq!(hex::encode(&out.stdout), kat_hex(e), "{}", e.header);
        checked += 1;
    }
    assert!(checked > 250, "only {checked} byte-aligned entries");
}

/// More than one input, or an option that prints something else than one
/// digest: exit 2, one line naming the option, nothing on stdout.
#[test]
fn raw_refuses_what_is_not_one_digest() {
    let dir = TempDir::new().unwrap();
    fs::write(dir.path().join("a"), b"abc").unwrap();
    fs::write(dir.path().join("b"), b"def").unwrap();
    fs::create_dir(dir.path().join("d")).unwrap();
    let cases: &[&[&str]] = &[
        &["--raw", "a", "b"],
        &["--raw", "a", "-"],
        &["--raw", "-r", "d"],
        &["--raw", "--recursive", "a"],
        &["--raw", "-c", "a"],
        &["--raw", "--tag", "a"],
        &["--raw", "-z", "a"],
    ];
    for args in cases {
        let out = skeinsum_in(dir.path()).args(*args).output().unwrap();
        assert_usage_error(&out, "--raw", &format!("{args:?}"));
    }
}

/// An input that cannot be read: its error, status 1, and no bytes.
#[test]
fn raw_of_an_unreadable_input_prints_nothing() {
    let dir = TempDir::new().unwrap();
    fs::create_dir(dir.path().join("d")).unwrap();
    for name in ["missing", "d"] {
        let out = skeinsum_in(dir.path())
            .args(["--raw", name])
            .output()
            .unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(1), "{name}: {err}");
        assert!(out.stdout.is_empty(), "{name}");
        assert!(err.starts_with(&format!("skeinsum: {name}: ")), "{err}");
        assert_eq!(err.lines().count(), 1, "{err:?}");
    }
}
