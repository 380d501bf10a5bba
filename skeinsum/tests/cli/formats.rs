//! Output formats: digests of files against the golden file and RustCrypto
//! for every state size, several files, `--tag`, `-z`, GNU escaping of
//! names, names that are not UTF-8, output lengths that are not whole bytes.

use std::ffi::OsStr;
use std::fs;

use crate::oracle::*;
use crate::util::*;

/// Every byte-aligned entry of the golden file (plain, MAC, tree, every
/// output length), hashed from a file by the CLI.
#[test]
fn golden_file_entries_through_the_cli() {
    let entries = golden();
    let dir = Dir::new();
    let mut checked = 0;
    for (i, e) in entries.iter().filter(|e| e.msg_bits % 8 == 0).enumerate() {
        let name = format!("m{i}");
        dir.file(&name, &e.msg);
        let out = dir.cmd().args(kat_args(e)).arg(&name).output().unwrap();
        assert!(out.status.success(), "{}: {}", e.header, stderr_of(&out));
        assert_eq!(
            stdout_of(&out),
            format!("{}  {name}\n", kat_hex(e)),
            "{}",
            e.header
        );
        checked += 1;
    }
    assert!(checked > 250, "only {checked} byte-aligned entries");
}

/// Tree entries with 1 and 2 threads, and a check file of golden tree
/// results.
#[test]
fn tree_mode_with_threads_matches_golden_entries() {
    let dir = Dir::new();
    let trees = golden_where(|e| e.tree.is_some() && e.msg_bits % 8 == 0);
    assert!(trees.len() >= 10);
    for (i, e) in trees.iter().enumerate() {
        let name = format!("t{i}");
        dir.file(&name, &e.msg);
        for threads in ["1", "2"] {
            dir.cmd()
                .args(kat_args(e))
                .args(["-j", threads, &name])
                .prints(format!("{}  {name}\n", kat_hex(e)));
        }
        // The same through --check with a tag line written here.
        let (l, f, m) = e.tree.unwrap();
        let tag = format!(
            "Skein-{}-{} ({name}) = {}\n",
            e.state_bits,
            e.output_bits,
            kat_hex(e)
        );
        dir.cmd()
            .args(["-c", &format!("--tree={l},{f},{m}"), "-"])
            .write_stdin(tag)
            .prints(format!("{name}: OK\n"));
    }
}

#[test]
fn default_output_matches_rustcrypto_for_each_state_size() {
    let dir = Dir::new();
    for (i, len) in [
        0usize, 1, 3, 31, 32, 33, 64, 127, 128, 129, 1000, 16383, 16384, 16385, 70000,
    ]
    .into_iter()
    .enumerate()
    {
        let data = pattern(len, i as u32);
        let name = format!("f{len}");
        dir.file(&name, &data);
        for (state, out) in [
            (256, 256),
            (512, 512),
            (1024, 1024),
            (512, 256),
            (1024, 384),
        ] {
            let mut c = dir.cmd();
            c.args(["-a", &state.to_string()]);
            if out != state {
                c.args(["-l", &out.to_string()]);
            }
            c.arg(&name)
                .gives(0, format!("{}  {name}\n", reference(state, out, &data)), "");
        }
        // Default state: 512, default length: the state size; buffered
        // reading gives the same.
        for extra in [&[][..], &["--no-mmap"]] {
            dir.cmd()
                .args(extra)
                .arg(&name)
                .prints(format!("{}  {name}\n", reference(512, 512, &data)));
        }
    }
}

#[test]
fn several_files_in_order() {
    let (a, b) = (pattern(100, 1), pattern(20000, 2));
    let dir = Dir::with(&[("a", &a), ("b", &b)]);
    dir.cmd().args(["-a", "256", "a", "b", "a"]).prints(format!(
        "{ra}  a\n{rb}  b\n{ra}  a\n",
        ra = reference(256, 256, &a),
        rb = reference(256, 256, &b)
    ));
}

#[test]
fn tag_output() {
    let dir = Dir::new();
    let data = b"The quick brown fox jumps over the lazy dog";
    dir.file("fox", data);
    for (args, state, bits) in [
        (&["-l", "256"][..], 512, 256),
        (&["-a", "1024", "-l", "384"], 1024, 384),
    ] {
        let tag = format!(
            "Skein-{state}-{bits} (fox) = {}\n",
            reference(state, bits, data)
        );
        dir.cmd().arg("--tag").args(args).arg("fox").prints(tag);
    }
}

#[test]
fn zero_terminated_output_is_not_escaped() {
    let dir = Dir::new();
    let name = "new\nline\\x";
    dir.file(name, b"abc");
    let digest = reference(256, 256, b"abc");
    for (tag, expected) in [
        (None, format!("{digest}  {name}\0")),
        (
            Some("--tag"),
            format!("Skein-256-256 ({name}) = {digest}\0"),
        ),
    ] {
        dir.cmd()
            .arg("-z")
            .args(tag)
            .args(["-a", "256", name])
            .prints(expected);
    }
}

#[test]
fn names_with_backslash_or_newline_are_escaped_like_gnu() {
    let dir = Dir::new();
    let digest = reference(512, 512, b"x");
    for (name, escaped) in [
        ("back\\slash", "back\\\\slash"),
        ("new\nline", "new\\nline"),
        ("both\\\n", "both\\\\\\n"),
    ] {
        dir.file(name, b"x");
        dir.cmd()
            .arg(name)
            .prints(format!("\\{digest}  {escaped}\n"));
        dir.cmd()
            .args(["--tag", name])
            .prints(format!("\\Skein-512-512 ({escaped}) = {digest}\n"));
        // --check reads them back, and reports the name as GNU 9.1 does:
        // escaped if it holds a newline, else as it is.
        let reported = if name.contains('\n') {
            format!("\\{escaped}: OK\n")
        } else {
            format!("{name}: OK\n")
        };
        dir.cmd()
            .args(["-c", "-"])
            .write_stdin(format!("\\{digest}  {escaped}\n"))
            .prints(reported);
    }
    // A plain name is not escaped.
    dir.file("plain name", b"x");
    dir.cmd()
        .arg("plain name")
        .prints(format!("{digest}  plain name\n"));
}

#[test]
fn non_utf8_names() {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let dir = Dir::new();
        let name = OsStr::from_bytes(b"caf\xe9");
        fs::write(dir.path().join(name), b"x").unwrap();
        let out = dir.cmd().arg(name).output().unwrap();
        assert!(out.status.success());
        let mut expected = format!("{}  ", reference(512, 512, b"x")).into_bytes();
        expected.extend_from_slice(b"caf\xe9\n");
        assert_eq!(out.stdout, expected);
        // And back through --check.
        dir.cmd()
            .arg("-c")
            .write_stdin(out.stdout)
            .assert()
            .success();
    }
}

/// Digests of `abc` with an output length that is not a whole number of
/// bytes, by pyskein 1.0 (`skein.skein512(b"abc", digest_bits=7)
/// .hexdigest()`): the unused low bits of the last byte are clear.
const PYSKEIN_ODD_LENGTHS: [(u32, u32, &str); 10] = [
    (256, 7, "54"),
    (512, 7, "9e"),
    (1024, 7, "8a"),
    (512, 1, "00"),
    (1024, 3, "a0"),
    (256, 9, "9800"),
    (512, 9, "dc80"),
    (512, 13, "1d50"),
    (1024, 13, "7f30"),
    (
        512,
        255,
        "024be5b0df2fd0814ff1b6226a5190fe3aefb5768e69b694e2f37aede65eefec",
    ),
];

/// Odd `-l`: pyskein's bytes on every path; `-c` accepts pyskein's line and
/// the same line with the unused bits set (only the digest's bits count),
/// and rejects a change in a bit that counts.
#[test]
fn odd_bit_lengths_clear_the_unused_low_bits() {
    let dir = Dir::with(&[("abc", b"abc"), ("abc2", b"abc")]);
    for (state, bits, digest) in PYSKEIN_ODD_LENGTHS {
        let (state, bits) = (state.to_string(), bits.to_string());
        let mut last_bits_set = hex::decode(digest).unwrap();
        let unused = 8 * last_bits_set.len() - bits.parse::<usize>().unwrap();
        *last_bits_set.last_mut().unwrap() |= (1u8 << unused) - 1;
        let mut flipped = hex::decode(digest).unwrap();
        flipped[0] ^= 0x80;
        dir.file(
            "list",
            format!(
                "{digest}  abc\n{}  abc2\n{}  abc\n",
                hex::encode(last_bits_set),
                hex::encode(flipped)
            )
            .as_bytes(),
        );
        for prefix in every_backend_and_path() {
            let what = format!("{prefix:?} -a {state} -l {bits}");
            let length = ["-a", &state, "-l", &bits];
            dir.cmd()
                .args(&prefix)
                .args(length)
                .args(["abc", "abc2"])
                .prints(format!("{digest}  abc\n{digest}  abc2\n"));
            let out = dir
                .cmd()
                .args(&prefix)
                .args(length)
                .args(["-c", "list"])
                .output()
                .unwrap();
            assert_eq!(
                stdout_of(&out),
                "abc: OK\nabc2: OK\nabc: FAILED\n",
                "{what}"
            );
            assert_eq!(out.status.code(), Some(1), "{what}");
        }
    }
}
