//! `--check` lists: GNU, BSD tag and FreeBSD lines, their lengths and
//! spacing, keys, `-z` lists, names with NUL, backslash and line breaks.

use predicates::prelude::*;

use crate::oracle::*;
use crate::util::*;

#[test]
fn check_round_trip_of_tag_output() {
    let dir = Dir::with(&[("a", &pattern(10, 1)), ("b", &pattern(100_000, 2))]);
    for args in [
        &["--tag"][..],
        &["--tag", "-a", "1024", "-l", "384"],
        &["--tag", "-a", "256", "-l", "2056"],
        &[],
    ] {
        let sums = dir.cmd().args(args).args(["a", "b"]).output().unwrap();
        assert!(sums.status.success());
        dir.cmd()
            .arg("-c")
            .write_stdin(sums.stdout)
            .gives(0, "a: OK\nb: OK\n", "");
    }
}

#[test]
fn check_gnu_lines_with_length_from_the_hex() {
    let (a, b) = (pattern(5, 1), pattern(20_000, 2));
    let dir = Dir::with(&[("a", &a), ("b", &b)]);
    let both = |state, bits| gnu_line(state, bits, &a, "a") + &gnu_line(state, bits, &b, "b");
    for (list, args, stdout) in [
        // Default Skein-512-512, plus a binary-mode mark.
        (
            format!(
                "{}{} *b\n",
                gnu_line(512, 512, &a, "a"),
                reference(512, 512, &b)
            ),
            &["-c", "sums"][..],
            "a: OK\nb: OK\n",
        ),
        // Skein-512-256 lines need -l 256: a plain line has the selected length.
        (
            both(512, 256),
            &["-c", "-l", "256", "sums"],
            "a: OK\nb: OK\n",
        ),
        // -a picks the state size of plain lines.
        (
            both(1024, 1024),
            &["-c", "-a", "1024", "sums"],
            "a: OK\nb: OK\n",
        ),
        // -a 256 with 256-bit output, and CRLF line ends.
        (
            gnu_line(256, 256, &a, "a").replace('\n', "\r\n"),
            &["-c", "-a", "256", "sums"],
            "a: OK\n",
        ),
    ] {
        dir.file("sums", list.as_bytes());
        expect_run(dir.path(), args, 0, Some(stdout), None);
    }
}

#[test]
fn check_freebsd_and_tag_lines_carry_their_algorithm() {
    let dir = Dir::new();
    let data = pattern(3000, 11);
    dir.file("f", &data);
    let list = format!(
        "Skein256 (f) = {}\nSkein512 (f) = {}\nSkein1024 (f) = {}\nSkein-1024-384 (f) = {}\nSkein-512-256 (f) = {}\n",
        reference(256, 256, &data),
        reference(512, 512, &data),
        reference(1024, 1024, &data),
        reference(1024, 384, &data),
        reference(512, 256, &data),
    );
    dir.file("sums", list.as_bytes());
    // -a and -l do not override what the lines say.
    for extra in [&[][..], &["-a", "256", "-l", "8"]] {
        dir.cmd()
            .arg("-c")
            .args(extra)
            .arg("sums")
            .gives(0, "f: OK\n".repeat(5), "");
    }
    // A tag whose digest length disagrees with its name is malformed.
    dir.file(
        "bad",
        format!("Skein-512-256 (f) = {}\n", reference(512, 512, &data)).as_bytes(),
    );
    dir.cmd()
        .args(["-c", "bad"])
        .exits(1, predicate::str::contains("no properly formatted"));
}

#[test]
fn check_with_a_key_uses_the_command_line_key() {
    let entries = golden();
    let e = entries
        .iter()
        .find(|e| {
            e.header
                .starts_with(":Skein-512:   512-bit hash, msgLen =  1024 bits, data = 'random+MAC'")
        })
        .expect("golden MAC entry");
    let dir = Dir::with(&[("m", &e.msg)]);
    let key = hex::encode(e.key.as_ref().unwrap());
    dir.file(
        "sums",
        format!("{}  m\nSkein-512-512 (m) = {}\n", kat_hex(e), kat_hex(e)).as_bytes(),
    );
    for (args, code, stdout) in [
        (
            &["-c", "--key-hex", &key, "sums"][..],
            0,
            Some("m: OK\nm: OK\n"),
        ),
        // Without the key (or with another) the MAC does not match.
        (&["-c", "sums"], 1, Some("m: FAILED\nm: FAILED\n")),
        (&["-c", "--key-hex", "00", "sums"], 1, None),
    ] {
        expect_run(dir.path(), args, code, stdout, None);
    }
}

/// `-z` with `--check` is refused, as GNU sha256sum refuses it (coreutils
/// 9.1: "the --zero option is not supported when verifying checksums"),
/// with skeinsum's status for a usage error and nothing read or hashed.
#[test]
fn check_refuses_zero_terminated_lists() {
    let dir = Dir::new();
    dir.file("f", b"data");
    let list = format!("{}  f\0", reference(512, 512, b"data"));
    for args in [
        &["-c", "-z", "-"][..],
        &["-z", "--check", "-"],
        &["-cz", "-j1", "-"],
    ] {
        dir.cmd().args(args).write_stdin(list.clone()).gives(
            2,
            "",
            "skeinsum: the --zero option is not supported when verifying checksums\n",
        );
    }
}

/// A plain line must have the digest length of `-a`/`-l`: a
/// two-digit line is not an 8-bit check (it passed one time in 256), and
/// lists of other algorithms or Skein sizes are not "FAILED" files but no
/// checksum lines at all.
#[test]
fn check_lines_of_another_length_are_improperly_formatted() {
    let dir = Dir::new();
    let data = b"contents of a.txt\n";
    dir.file("a.txt", data);
    let eight_bit = format!("{}  a.txt\n", reference(512, 8, data));
    dir.file("short", eight_bit.as_bytes());
    for strict in [&[][..], &["--strict"]] {
        dir.cmd().arg("-c").args(strict).arg("short").gives(
            1,
            "",
            "skeinsum: short: no properly formatted Skein checksum lines found\n",
        );
    }
    // SHA-256 (64 digits), MD5 (32), BLAKE2b-512 (128 digits, but its own
    // tag), Skein-256-256 and Skein-1024-1024 lines under the default -a 512.
    let lists = [
        format!("{}  a.txt\n", "0".repeat(64)),
        format!("{}  a.txt\n", "d".repeat(32)),
        format!("BLAKE2b (a.txt) = {}\n", "e".repeat(128)),
        gnu_line(256, 256, data, "a.txt"),
        gnu_line(1024, 1024, data, "a.txt"),
    ];
    for list in &lists {
        dir.file("other", list.as_bytes());
        dir.cmd().args(["-c", "other"]).gives(
            1,
            "",
            "skeinsum: other: no properly formatted Skein checksum lines found\n",
        );
    }
    // With the matching -a/-l they are Skein lines again.
    dir.file("s256", gnu_line(256, 256, data, "a.txt").as_bytes());
    dir.cmd()
        .args(["-c", "-a", "256", "s256"])
        .prints("a.txt: OK\n");
    dir.cmd()
        .args(["-c", "-l", "8", "short"])
        .prints("a.txt: OK\n");
    // Mixed: the odd line is counted as improperly formatted, --strict fails.
    dir.file(
        "mixed",
        (gnu_line(512, 512, data, "a.txt") + &eight_bit).as_bytes(),
    );
    dir.cmd().args(["-c", "mixed"]).gives(
        0,
        "a.txt: OK\n",
        "skeinsum: WARNING: 1 line is improperly formatted\n",
    );
    dir.cmd().args(["-c", "--strict", "mixed"]).assert().code(1);
}

/// Check lines with leading blanks (GNU skips them).
#[test]
fn check_lines_with_leading_blanks() {
    let dir = Dir::with(&[("f", b"data"), ("b\\s", b"data")]);
    let d = reference(512, 512, b"data");
    let list = format!("  {d}  f\n\t{d}\tf\n \\{d}  b\\\\s\n   Skein-512-512 (f) = {d}\n");
    dir.cmd()
        .args(["-c", "--strict", "-"])
        .write_stdin(list)
        .gives(0, "f: OK\nf: OK\nb\\s: OK\nf: OK\n", "");
}

/// Tag lines spaced as GNU sha256sum accepts its SHA-256 tag lines (checked
/// against GNU coreutils 9.1: `SHA256 (f)= H`, `SHA256(f) = H`, `SHA256 (f)
/// =  H`, tabs around `=`, no space at all), and the ones it refuses (two
/// spaces before `(`, a blank after the digest) refused here too.
#[test]
fn tag_lines_spaced_as_gnu_accepts_them() {
    let dir = Dir::with(&[("f", b"abc")]);
    let h = reference(512, 512, b"abc");
    let accepted = [
        format!("Skein-512-512 (f)= {h}"),
        format!("Skein-512-512(f) = {h}"),
        format!("Skein-512-512 (f) =  {h}"),
        format!("Skein-512-512 (f)={h}"),
        format!("Skein-512-512 (f)\t=\t{h}"),
        format!("Skein512(f)= {h}"),
        format!(" Skein-512-512 (f) = {h}"),
    ];
    let refused = [
        format!("Skein-512-512  (f) = {h}"),
        format!("Skein-512-512 (f) = {h} "),
        format!("Skein-512-512 (f) = {h}\t"),
        format!("Skein-512-512 (f = {h}"),
    ];
    let mut list = String::new();
    for line in accepted.iter().chain(&refused) {
        list.push_str(line);
        list.push('\n');
    }
    dir.file("list", list.as_bytes());
    expect_on_every_path(
        dir.path(),
        &["-c", "list"],
        0,
        &"f: OK\n".repeat(7),
        "skeinsum: WARNING: 4 lines are improperly formatted\n",
    );
}

/// A NUL in a list's name ends the name, as in GNU (no NUL reaches stdout
/// or a file name); `-c` prints names with `\` or a carriage return as they
/// are and escapes only names with a newline, as GNU coreutils 9.1 does.
#[cfg(unix)]
#[test]
fn check_names_with_nul_backslash_and_line_breaks_as_gnu() {
    let dir = Dir::new();
    let names: [&str; 4] = ["a", "a\\b", "c\rd", "n\nl\\"];
    let mut list = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let data = pattern(10 + i, i as u32);
        dir.file(name, &data);
        let digest = reference(512, 512, &data);
        let escaped = name
            .replace('\\', "\\\\")
            .replace('\n', "\\n")
            .replace('\r', "\\r");
        let mark = if escaped != *name { "\\" } else { "" };
        list.extend_from_slice(format!("{mark}{digest}  {escaped}\n").as_bytes());
        if i == 0 {
            list.extend_from_slice(format!("{digest}  a\0b\n").as_bytes());
            list.extend_from_slice(format!("Skein-512-512 (a\0x) = {digest}\n").as_bytes());
        }
    }
    dir.file("list", &list);
    expect_on_every_path(
        dir.path(),
        &["-c", "list"],
        0,
        "a: OK\na: OK\na: OK\na\\b: OK\nc\rd: OK\n\\n\\nl\\\\: OK\n",
        "",
    );
}
