//! The options that select the Skein computed: MAC keys (hex and file,
//! their bounds, no echo of a mistyped key), personalization, public key,
//! key id, nonce, the bounds of `-l` and `-j`.

use std::time::Duration;

use predicates::prelude::*;
use skein_simd_test_support::pyskein_vectors;

use crate::oracle::*;
use crate::util::*;

#[test]
fn mac_key_from_hex_and_from_file_match_golden_entries() {
    let dir = Dir::new();
    let mut macs = golden_where(|e| {
        e.key.as_ref().is_some_and(|k| !k.is_empty()) && e.msg_bits % 8 == 0 && e.tree.is_none()
    });
    macs.truncate(40);
    assert!(macs.len() >= 20);
    for (i, e) in macs.iter().enumerate() {
        let (msg, key) = (format!("msg{i}"), format!("key{i}"));
        dir.file(&msg, &e.msg);
        dir.file(&key, e.key.as_ref().unwrap());
        let (state, bits) = (e.state_bits.to_string(), e.output_bits.to_string());
        dir.cmd()
            .args(["-a", &state, "-l", &bits, "--key-file", &key, &msg])
            .prints(format!("{}  {msg}\n", kat_hex(e)));
        // Upper-case hex is accepted too.
        dir.cmd()
            .args([
                "-a",
                &state,
                "-l",
                &bits,
                "--key-hex",
                &hex::encode(e.key.as_ref().unwrap()).to_uppercase(),
                &msg,
            ])
            .prints(format!("{}  {msg}\n", kat_hex(e)));
    }
}

/// Personalization, public key, key id, nonce and odd output lengths against
/// the reference C code (through pyskein: tests/data/pyskein_vectors.txt,
/// made by tools/gen/pyskein_vectors.py, read by the support crate).
#[test]
fn every_skein_argument_matches_reference_vectors() {
    let dir = Dir::new();
    let mut checked = 0;
    for (i, v) in pyskein_vectors().iter().enumerate() {
        // fields: key, then personalization, public key, key id, nonce.
        let has_arguments = v.fields[1..].iter().any(Option::is_some);
        let odd_length = !v.bits.is_multiple_of(8);
        if !(has_arguments || odd_length) || v.tree.is_some() || v.len > 300 {
            continue;
        }
        let what = format!("vector {i}: Skein-{}-{}, {} bytes", v.state, v.bits, v.len);
        dir.file("m", &v.message());
        let mut cmd = dir.cmd();
        cmd.args(["-a", &v.state.to_string(), "-l", &v.bits.to_string()]);
        for (option, value) in [
            "--key-hex",
            "--personalization-hex",
            "--public-key-hex",
            "--key-id-hex",
            "--nonce-hex",
        ]
        .iter()
        .zip(&v.fields)
        {
            if let Some(value) = value {
                cmd.arg(option).arg(hex::encode(value));
            }
        }
        let out = cmd.arg("m").output().unwrap();
        assert!(out.status.success(), "{what}");
        let mut got = unhex(stdout_of(&out).split("  ").next().unwrap());
        if odd_length {
            // pyskein clears the unused low bits of the last byte; the
            // reference C code and skeinsum print the byte as computed.
            *got.last_mut().unwrap() &= 0xFFu8 << (8 - v.bits % 8);
        }
        assert_eq!(got, v.digest, "{what}");
        checked += 1;
    }
    assert!(checked >= 40, "only {checked} vectors");
    // Text and hex personalization are the same bytes.
    dir.file("f", b"abc");
    let a = dir
        .cmd()
        .args(["--personalization", "abc", "f"])
        .output()
        .unwrap();
    let b = dir
        .cmd()
        .args(["--personalization-hex", "616263", "f"])
        .output()
        .unwrap();
    assert_eq!(a.stdout, b.stdout);
}

/// The key file is read up to a bound (`/dev/zero` read forever),
/// and an empty key is an error, not an unkeyed hash.
#[test]
fn key_file_size_is_bounded_and_must_not_be_empty() {
    let dir = Dir::with(&[("m", b"message"), ("empty", b"")]);
    dir.file("huge", &vec![7u8; (1 << 20) + 1]);
    dir.file("max", &vec![7u8; 1 << 20]);
    let cases: &[(&[&str], &str)] = &[
        (&["--key-file", "/dev/zero"], "skeinsum: --key-file /dev/zero: the key is longer than the limit of 1048576 bytes (1 MiB)\n"),
        (&["--key-file", "huge"], "skeinsum: --key-file huge: the key is longer than the limit of 1048576 bytes (1 MiB)\n"),
        (&["--key-file", "empty"], "skeinsum: --key-file empty: the key is empty (a MAC needs at least one byte)\n"),
        (&["--key-hex="], "skeinsum: --key-hex: the key is empty (a MAC needs at least one byte)\n"),
    ];
    for (args, message) in cases {
        dir.cmd()
            .args(*args)
            .arg("m")
            .timeout(Duration::from_secs(30))
            .gives(2, "", *message);
    }
    // The largest key allowed works, and is a key: the MAC differs from the
    // plain hash.
    let out = dir.cmd().args(["--key-file", "max", "m"]).output().unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let mac = stdout_of(&out);
    assert_eq!(mac.len(), 128 + "  m\n".len());
    assert_ne!(mac, format!("{}  m\n", reference(512, 512, b"message")));
}

/// A mistyped key is never echoed (it was, whole: 131 KB).
#[test]
fn key_hex_errors_do_not_echo_the_key() {
    let dir = Dir::with(&[("m", b"x")]);
    let secret = "ab".repeat(50_000);
    for (key, message) in [
        (
            format!("{secret}g"),
            "skeinsum: --key-hex: invalid hex digit at position 100001 (see --help)\n",
        ),
        (
            format!("{secret}a"),
            "skeinsum: --key-hex: odd number of hex digits (100001) (see --help)\n",
        ),
        (
            format!("x{secret}"),
            "skeinsum: --key-hex: invalid hex digit at position 1 (see --help)\n",
        ),
    ] {
        dir.cmd()
            .args(["--key-hex", &key, "m"])
            .gives(2, "", message);
    }
    // Not with the "--key-hex=VALUE" form either.
    let out = dir
        .cmd()
        .arg(format!("--key-hex={secret}zz"))
        .arg("m")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stderr.len() < 200, "{}", stderr_of(&out));
    assert!(!stderr_of(&out).contains("abab"));
    // Nor when the option itself is mistyped (clap names the option only).
    dir.cmd().arg(format!("--keyhex={secret}")).arg("m").gives(
        2,
        "",
        "skeinsum: unexpected argument '--keyhex' found (see --help)\n",
    );
}

/// `--key-hex -deadbeef` (and the other hex options): the value is refused
/// without a character of it, and the message says how to give it.
#[test]
fn hex_values_starting_with_a_dash_are_not_echoed() {
    let dir = Dir::with(&[("m", b"x")]);
    for option in ["--key-hex", "--nonce-hex", "--personalization-hex"] {
        let out = dir.cmd().args([option, "-deadbeef", "m"]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{option}");
        assert_eq!(out.stdout, b"", "{option}");
        assert_eq!(
            stderr_of(&out),
            format!(
                "skeinsum: {option}: a value starting with '-' needs {option}=VALUE (see --help)\n"
            ),
            "{option}"
        );
    }
}

/// An output length that cannot be produced (on 32-bit
/// targets `-l 34359738376` was cut to one byte, `-l 2^64-1` to none; on
/// 64-bit ones the allocation aborted the run) is a usage error naming the
/// option, and nothing is hashed.
#[test]
fn output_length_beyond_the_bound_is_a_usage_error() {
    let dir = Dir::with(&[("a", b"abc")]);
    for length in [
        "18446744073709551615",
        "18446744073709551616",
        "34359738376",
        "34359738368",
        "99999999999",
        "134217729",
    ] {
        let out = dir
            .cmd()
            .args(["-l", length, "a", "a"])
            .timeout(Duration::from_secs(30))
            .output()
            .unwrap();
        assert_usage_error(&out, "--length", &format!("-l {length}"));
        assert!(stderr_of(&out).contains("at most 134217728"));
    }
    // The bound itself works: 2^27 bits are 2^24 bytes, 2^25 hex digits.
    let out = dir
        .cmd()
        .args(["-a", "256", "-l", "134217728", "a"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert_eq!(out.stdout.len(), (1 << 25) + "  a\n".len());
    // A tag line claiming more than the bound is improperly formatted.
    dir.cmd()
        .args(["-c", "-"])
        .write_stdin("Skein-512-134217736 (a) = 00\n")
        .exits(1, predicate::str::contains("no properly formatted"));
}

/// `-j` is bounded (100000 threads ran for minutes on six bytes).
#[test]
fn thread_count_is_bounded() {
    let dir = Dir::with(&[("six", b"hello\n")]);
    let out = dir
        .cmd()
        .args(["--tree", "10,1,255", "-j", "100000", "six"])
        .timeout(Duration::from_secs(30))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = stderr_of(&out);
    assert!(
        err.contains("--threads") && err.contains("at most 256"),
        "{err}"
    );
    // The bound itself is accepted and gives the golden-free check: the same
    // digest as one thread.
    let one = dir
        .cmd()
        .args(["--tree", "10,1,255", "-j", "1", "six"])
        .output()
        .unwrap();
    assert!(one.status.success());
    dir.cmd()
        .args(["--tree", "10,1,255", "-j", "256", "six"])
        .timeout(Duration::from_secs(30))
        .prints(one.stdout);
}
