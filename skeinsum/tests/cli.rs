//! End-to-end tests of the `skeinsum` binary.
//!
//! Expected digests come from independent sources only: the RustCrypto
//! `skein` crate (plain hashing, outputs up to the state size) and entries of
//! the official golden file `skein_golden_kat.txt` (keys, trees, long
//! outputs), never from earlier output of the tool.

use std::ffi::OsStr;
use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use predicates::prelude::*;
use skein::digest::consts::U64;
use skein::Digest;
use tempfile::TempDir;

mod common;
use common::{pattern, skeinsum, BIN};

/// Skein-STATE-OUT of `data` in hex, by the RustCrypto `skein` crate.
fn reference(state: u32, out_bits: u32, data: &[u8]) -> String {
    hex::encode(common::rustcrypto_digest(state, out_bits, data))
}

/// The bytes of hex text that may be broken by whitespace.
fn unhex(s: &str) -> Vec<u8> {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    hex::decode(s).unwrap()
}

struct Dir {
    tmp: TempDir,
}

impl Dir {
    fn new() -> Dir {
        Dir {
            tmp: TempDir::new().unwrap(),
        }
    }
    fn path(&self) -> &Path {
        self.tmp.path()
    }
    /// Write `name` with `data`; returns its path.
    fn file(&self, name: &str, data: &[u8]) -> PathBuf {
        let p = self.tmp.path().join(name);
        fs::write(&p, data).unwrap();
        p
    }
    /// Make the named pipe `name`; returns its path.
    fn fifo(&self, name: &str) -> PathBuf {
        let p = self.tmp.path().join(name);
        let made = std::process::Command::new("mkfifo")
            .arg(&p)
            .status()
            .unwrap();
        assert!(made.success());
        p
    }
    fn cmd(&self) -> Command {
        let mut c = skeinsum();
        c.current_dir(self.path());
        c
    }
}

fn stdout_of(out: &std::process::Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}
fn stderr_of(out: &std::process::Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

// ---------------------------------------------------------------- golden file

#[path = "../../tests/common/golden.rs"]
mod golden;

/// One entry of the official golden KAT file, as these tests use it.
#[derive(Debug)]
struct Kat {
    header: String,
    state: u64,
    out_bits: u64,
    msg_bits: u64,
    msg: Vec<u8>,
    key: Option<Vec<u8>>,
    tree: Option<(u8, u8, u8)>,
    /// The expected digest in lower-case hex.
    result: String,
}

/// Every entry of the golden file, by the shared loader: a missing file
/// fails the test (it says how to fetch it).
fn golden() -> Vec<Kat> {
    golden::load()
        .into_iter()
        .map(|e| Kat {
            header: e.header,
            state: e.state_bits,
            out_bits: e.output_bits,
            msg_bits: e.msg_bits,
            msg: e.msg,
            key: e.key,
            tree: e.tree,
            result: hex::encode(&e.result),
        })
        .collect()
}

fn kat_args(e: &Kat) -> Vec<String> {
    let mut args = vec![
        "-a".to_string(),
        e.state.to_string(),
        "-l".to_string(),
        e.out_bits.to_string(),
    ];
    // A key of 0 bytes is no key in Skein (the golden file has such MAC
    // entries); skeinsum refuses an empty key, so those go without one.
    if let Some(k) = e.key.as_ref().filter(|k| !k.is_empty()) {
        args.push(format!("--key-hex={}", hex::encode(k)));
    }
    if let Some((l, f, m)) = e.tree {
        args.push(format!("--tree={l},{f},{m}"));
    }
    args
}

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
            format!("{}  {name}\n", e.result),
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
    let entries = golden();
    let dir = Dir::new();
    let trees: Vec<&Kat> = entries
        .iter()
        .filter(|e| e.tree.is_some() && e.msg_bits % 8 == 0)
        .collect();
    assert!(trees.len() >= 10);
    for (i, e) in trees.iter().enumerate() {
        let name = format!("t{i}");
        dir.file(&name, &e.msg);
        for threads in ["1", "2"] {
            dir.cmd()
                .args(kat_args(e))
                .args(["-j", threads, &name])
                .assert()
                .success()
                .stdout(format!("{}  {name}\n", e.result));
        }
        // The same through --check with a tag line written here.
        let (l, f, m) = e.tree.unwrap();
        let tag = format!("Skein-{}-{} ({name}) = {}\n", e.state, e.out_bits, e.result);
        dir.cmd()
            .args(["-c", &format!("--tree={l},{f},{m}"), "-"])
            .write_stdin(tag)
            .assert()
            .success()
            .stdout(format!("{name}: OK\n"));
    }
}

// ------------------------------------------------------------ output formats

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
                .assert()
                .success()
                .stdout(format!("{}  {name}\n", reference(state, out, &data)))
                .stderr("");
        }
        // Default state: 512, default length: the state size.
        dir.cmd()
            .arg(&name)
            .assert()
            .success()
            .stdout(format!("{}  {name}\n", reference(512, 512, &data)));
        // Buffered reading gives the same.
        dir.cmd()
            .args(["--no-mmap", &name])
            .assert()
            .success()
            .stdout(format!("{}  {name}\n", reference(512, 512, &data)));
    }
}

#[test]
fn several_files_in_order() {
    let dir = Dir::new();
    let (a, b) = (pattern(100, 1), pattern(20000, 2));
    dir.file("a", &a);
    dir.file("b", &b);
    dir.cmd()
        .args(["-a", "256", "a", "b", "a"])
        .assert()
        .success()
        .stdout(format!(
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
    dir.cmd()
        .args(["--tag", "-l", "256", "fox"])
        .assert()
        .success()
        .stdout(format!(
            "Skein-512-256 (fox) = {}\n",
            reference(512, 256, data)
        ));
    dir.cmd()
        .args(["--tag", "-a", "1024", "-l", "384", "fox"])
        .assert()
        .success()
        .stdout(format!(
            "Skein-1024-384 (fox) = {}\n",
            reference(1024, 384, data)
        ));
}

#[test]
fn zero_terminated_output_is_not_escaped() {
    let dir = Dir::new();
    let name = "new\nline\\x";
    dir.file(name, b"abc");
    let expected = format!("{}  {name}\0", reference(256, 256, b"abc"));
    dir.cmd()
        .args(["-z", "-a", "256", name])
        .assert()
        .success()
        .stdout(expected);
    let expected = format!("Skein-256-256 ({name}) = {}\0", reference(256, 256, b"abc"));
    dir.cmd()
        .args(["-z", "--tag", "-a", "256", name])
        .assert()
        .success()
        .stdout(expected);
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
            .assert()
            .success()
            .stdout(format!("\\{digest}  {escaped}\n"));
        dir.cmd()
            .args(["--tag", name])
            .assert()
            .success()
            .stdout(format!("\\Skein-512-512 ({escaped}) = {digest}\n"));
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
            .assert()
            .success()
            .stdout(reported);
    }
    // A plain name is not escaped.
    dir.file("plain name", b"x");
    dir.cmd()
        .arg("plain name")
        .assert()
        .success()
        .stdout(format!("{digest}  plain name\n"));
}

// ------------------------------------------------------- stdin, pipes, sizes

#[test]
fn standard_input() {
    let data = pattern(3_000_000, 9);
    let expected = format!("{}  -\n", reference(512, 512, &data));
    skeinsum()
        .write_stdin(data.clone())
        .assert()
        .success()
        .stdout(expected.clone());
    skeinsum()
        .arg("-")
        .write_stdin(data.clone())
        .assert()
        .success()
        .stdout(expected);
    skeinsum()
        .write_stdin("")
        .assert()
        .success()
        .stdout(format!("{}  -\n", reference(512, 512, b"")));
}

#[cfg(target_os = "linux")]
#[test]
fn dev_stdin_as_a_file() {
    let data = pattern(50_000, 4);
    skeinsum()
        .args(["-a", "1024", "/dev/stdin"])
        .write_stdin(data.clone())
        .assert()
        .success()
        .stdout(format!("{}  /dev/stdin\n", reference(1024, 1024, &data)));
}

#[test]
fn empty_file() {
    let dir = Dir::new();
    dir.file("empty", b"");
    for state in [256, 512, 1024] {
        dir.cmd()
            .args(["-a", &state.to_string(), "empty"])
            .assert()
            .success()
            .stdout(format!("{}  empty\n", reference(state, state, b"")));
    }
}

#[cfg(unix)]
#[test]
fn named_pipe() {
    let dir = Dir::new();
    let fifo = dir.fifo("fifo");
    let data = pattern(300_000, 5);
    let writer = {
        let (fifo, data) = (fifo.clone(), data.clone());
        std::thread::spawn(move || {
            fs::OpenOptions::new()
                .write(true)
                .open(fifo)
                .unwrap()
                .write_all(&data)
                .unwrap()
        })
    };
    dir.cmd()
        .args(["-a", "256", "fifo"])
        .timeout(Duration::from_secs(60))
        .assert()
        .success()
        .stdout(format!("{}  fifo\n", reference(256, 256, &data)));
    writer.join().unwrap();
}

/// Result lines are written in pieces, but none waits behind a stream: the
/// line of the file before a FIFO arrives while the FIFO is still open and
/// silent.
#[cfg(unix)]
#[test]
fn no_result_line_waits_behind_a_stream() {
    let dir = Dir::new();
    dir.file("f", b"data");
    let fifo = dir.fifo("fifo");
    let mut child = std::process::Command::new(&*BIN)
        .current_dir(dir.path())
        .args(["-a", "256", "-j", "1", "f", "fifo"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // Returns once skeinsum has opened the FIFO, that is, after hashing f.
    let mut writer = fs::OpenOptions::new().write(true).open(&fifo).unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let (sent, received) = std::sync::mpsc::channel();
    let expected = format!("{}  f\n", reference(256, 256, b"data"));
    let want = expected.len();
    std::thread::spawn(move || {
        let mut line = vec![0u8; want];
        let read = stdout.read_exact(&mut line).map(|()| line);
        let _ = sent.send((read, stdout));
    });
    let first = received.recv_timeout(Duration::from_secs(30));
    writer.write_all(b"late").unwrap();
    drop(writer);
    let status = child.wait().unwrap();
    let (line, _) = first.expect("f's line waited for the FIFO");
    assert_eq!(String::from_utf8(line.unwrap()).unwrap(), expected);
    assert!(status.success());
}

/// A 64 MiB file of zeros (sparse), mapped and read, against RustCrypto; a
/// progress bar never shows when stderr is not a terminal.
#[test]
fn large_file() {
    let dir = Dir::new();
    let path = dir.path().join("big");
    let size = 64usize << 20;
    fs::File::create(&path)
        .unwrap()
        .set_len(size as u64)
        .unwrap();
    let mut reference_hasher = skein::Skein512::<U64>::new();
    let zeros = vec![0u8; 1 << 20];
    for _ in 0..size >> 20 {
        reference_hasher.update(&zeros);
    }
    let expected = format!("{}  big\n", hex::encode(reference_hasher.finalize()));
    dir.cmd()
        .args(["--progress", "big"])
        .assert()
        .success()
        .stdout(expected.clone())
        .stderr("");
    dir.cmd()
        .args(["--no-mmap", "big"])
        .assert()
        .success()
        .stdout(expected);
}

// ------------------------------------------------------------ Skein arguments

#[test]
fn mac_key_from_hex_and_from_file_match_golden_entries() {
    let entries = golden();
    let dir = Dir::new();
    let macs: Vec<&Kat> = entries
        .iter()
        .filter(|e| {
            e.key.as_ref().is_some_and(|k| !k.is_empty()) && e.msg_bits % 8 == 0 && e.tree.is_none()
        })
        .take(40)
        .collect();
    assert!(macs.len() >= 20);
    for (i, e) in macs.iter().enumerate() {
        let (msg, key) = (format!("msg{i}"), format!("key{i}"));
        dir.file(&msg, &e.msg);
        dir.file(&key, e.key.as_ref().unwrap());
        let (state, bits) = (e.state.to_string(), e.out_bits.to_string());
        dir.cmd()
            .args(["-a", &state, "-l", &bits, "--key-file", &key, &msg])
            .assert()
            .success()
            .stdout(format!("{}  {msg}\n", e.result));
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
            .assert()
            .success()
            .stdout(format!("{}  {msg}\n", e.result));
    }
}

/// Personalization, public key, key id, nonce and odd output lengths against
/// the reference C code (through pyskein: tests/data/pyskein_vectors.txt at
/// the repository root, made by tools/gen/pyskein_vectors.py).
#[test]
fn every_skein_argument_matches_reference_vectors() {
    let text = fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/pyskein_vectors.txt"
    ))
    .unwrap();
    let dir = Dir::new();
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split(' ').collect();
        let (state, bits, len) = (f[0], f[1], f[2].parse::<usize>().unwrap());
        let has_arguments = f[4..8].iter().any(|x| *x != "-");
        let odd_length = bits.parse::<u64>().unwrap() % 8 != 0;
        if !(has_arguments || odd_length) || f[8] != "-" || len > 300 {
            continue;
        }
        let msg: Vec<u8> = (0..len).map(|i| (7 * i + 3) as u8).collect();
        dir.file("m", &msg);
        let mut cmd = dir.cmd();
        cmd.args(["-a", state, "-l", bits]);
        for (option, value) in [
            "--key-hex",
            "--personalization-hex",
            "--public-key-hex",
            "--key-id-hex",
            "--nonce-hex",
        ]
        .iter()
        .zip(&f[3..8])
        {
            if *value != "-" {
                cmd.args([option, value]);
            }
        }
        let out = cmd.arg("m").output().unwrap();
        assert!(out.status.success(), "{line}");
        let mut got = unhex(stdout_of(&out).split("  ").next().unwrap());
        let bits: u64 = bits.parse().unwrap();
        if !bits.is_multiple_of(8) {
            // pyskein clears the unused low bits of the last byte; the
            // reference C code and skeinsum print the byte as computed.
            *got.last_mut().unwrap() &= 0xFFu8 << (8 - bits % 8);
        }
        assert_eq!(hex::encode(&got), f[9], "{line}");
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

// ---------------------------------------------------------------- backends

#[test]
fn list_backends_names_the_usable_ones_automatic_first() {
    let out = skeinsum().arg("--list-backends").output().unwrap();
    assert!(out.status.success());
    let names: Vec<String> = stdout_of(&out)
        .lines()
        .map(|l| l.split('\t').next().unwrap().to_string())
        .collect();
    let expected: Vec<String> = skein_simd::Backend::available()
        .iter()
        .map(|b| b.name().to_string())
        .collect();
    assert_eq!(names, expected);
    assert!(names.contains(&"portable".to_string()));
    let first = stdout_of(&out).lines().next().unwrap().to_string();
    assert!(
        first.contains("automatic for") && first.contains("Skein-512"),
        "{first}"
    );
}

#[test]
fn self_test_runs_every_backend() {
    let out = skeinsum().arg("--self-test").output().unwrap();
    assert!(out.status.success(), "{}", stdout_of(&out));
    let text = stdout_of(&out);
    for backend in skein_simd::Backend::available() {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("backend {backend}: ")))
            .expect("a line per backend");
        let counts = line
            .rsplit(": ")
            .next()
            .unwrap()
            .strip_suffix(" vectors ok")
            .unwrap();
        let (ok, total) = counts.split_once('/').unwrap();
        assert_eq!(ok, total);
        assert!(total.parse::<u32>().unwrap() >= 8);
    }
}

#[test]
fn forced_backends() {
    let dir = Dir::new();
    let data = pattern(40_000, 3);
    dir.file("f", &data);
    for backend in skein_simd::Backend::available() {
        dir.cmd()
            .args(["--backend", backend.name(), "-a", "1024", "f"])
            .assert()
            .success()
            .stdout(format!("{}  f\n", reference(1024, 1024, &data)));
    }
    if let Some(missing) = skein_simd::Backend::ALL.iter().find(|b| !b.is_available()) {
        dir.cmd()
            .args(["--backend", missing.name(), "f"])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::starts_with(format!(
                "skeinsum: --backend {}: not available",
                missing.name()
            )));
    }
    dir.cmd()
        .args(["--backend", "mmx", "f"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("--backend"));
}

// ------------------------------------------------------------- bad input

#[test]
fn missing_and_directory_files_among_others() {
    let dir = Dir::new();
    dir.file("good", b"abc");
    fs::create_dir(dir.path().join("sub")).unwrap();
    let digest = reference(512, 512, b"abc");
    dir.cmd()
        .args(["good", "missing", "sub", "good"])
        .assert()
        .code(1)
        .stdout(format!("{digest}  good\n{digest}  good\n"))
        .stderr("skeinsum: missing: No such file or directory\nskeinsum: sub: Is a directory\n");
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
        let log = dir.path().join(format!("log{jobs}"));
        let file = fs::File::create(&log).unwrap();
        let status = std::process::Command::new(&*BIN)
            .current_dir(dir.path())
            .args(["-a", "512", "-l", "256", "-j", jobs])
            .args(&names)
            .stdout(file.try_clone().unwrap())
            .stderr(file)
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(1), "-j {jobs}");
        assert_eq!(fs::read_to_string(&log).unwrap(), expected, "-j {jobs}");
    }
}

#[cfg(unix)]
#[test]
fn unreadable_file_among_others() {
    use std::os::unix::fs::PermissionsExt;
    let dir = Dir::new();
    dir.file("good", b"abc");
    let locked = dir.file("locked", b"secret");
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o000)).unwrap();
    // Root reads mode-000 files: the binary then runs as `nobody` through
    // util-linux's setpriv (the directory made readable to others), so that
    // the error is tested in CI, which runs as root.
    // SAFETY: geteuid has no preconditions.
    let is_root = unsafe { libc::geteuid() } == 0;
    let setpriv = is_root
        && std::process::Command::new("setpriv")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
    let digest = reference(512, 512, b"abc");
    if is_root && !setpriv {
        // The directory and missing-file cases (tested above) are the
        // unreadable inputs that still apply.
        eprintln!(
            "running as root without setpriv: chmod 000 does not stop reading; checking it is hashed instead"
        );
        dir.cmd().args(["good", "locked"]).assert().success();
        return;
    }
    let mut cmd = if setpriv {
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
        let mut cmd = Command::new("setpriv");
        cmd.args(["--reuid=65534", "--regid=65534", "--clear-groups", &*BIN]);
        for hook in [
            "SKEINSUM_TEST_PAUSE",
            "SKEINSUM_TEST_MAP_WINDOW",
            "SKEINSUM_TEST_REFUSE_MAP",
            "SKEINSUM_TEST_REFUSE_THREAD",
        ] {
            cmd.env_remove(hook);
        }
        cmd.current_dir(dir.path());
        cmd
    } else {
        dir.cmd()
    };
    cmd.args(["good", "locked", "good"])
        .timeout(Duration::from_secs(60))
        .assert()
        .code(1)
        .stdout(format!("{digest}  good\n{digest}  good\n"))
        .stderr("skeinsum: locked: Permission denied\n");
}

/// Each usage error: exit 2, one line on stderr naming the option, nothing
/// hashed (the good file given last is not printed).
#[test]
fn usage_errors_name_the_option_and_hash_nothing() {
    let dir = Dir::new();
    dir.file("good", b"abc");
    dir.file("keyfile", b"k");
    let cases: &[(&[&str], &str)] = &[
        (&["--key-hex", "zz"], "--key-hex"),
        (&["--key-hex", "abc"], "--key-hex"),
        (&["--personalization-hex", "0g"], "--personalization-hex"),
        (&["--public-key-hex", "1"], "--public-key-hex"),
        (&["--key-id-hex", "xy"], "--key-id-hex"),
        (&["--nonce-hex", "123"], "--nonce-hex"),
        (&["--length", "0"], "--length"),
        (&["-l", "x"], "--length"),
        (&["--algorithm", "384"], "--algorithm"),
        (&["-a", "skein"], "--algorithm"),
        (&["--tree", "0,1,255"], "--tree"),
        (&["--tree", "1,0,255"], "--tree"),
        (&["--tree", "1,1,1"], "--tree"),
        (&["--tree", "1,1,256"], "--tree"),
        (&["--tree", "1,1"], "--tree"),
        (&["--key-hex", "00", "--key-file", "keyfile"], "--key-file"),
        (
            &["--personalization", "a", "--personalization-hex", "00"],
            "--personalization",
        ),
        (&["--key-file", "no-such-key"], "--key-file"),
        (&["-j", "0", "--tree", "1,1,255"], "--threads"),
        (&["--status"], "--check"),
        (&["--tag", "-c"], "--tag"),
        (&["--no-such-option"], "--no-such-option"),
    ];
    for (args, option) in cases {
        let out = dir.cmd().args(*args).arg("good").output().unwrap();
        let err = stderr_of(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?} hashed something");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err:?}");
        assert!(
            err.starts_with("skeinsum: ") && err.contains(option),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn help_lists_every_option_and_version_works() {
    let out = skeinsum().arg("--help").output().unwrap();
    assert!(out.status.success());
    let help = stdout_of(&out);
    for option in [
        "--algorithm",
        "--length",
        "--key-hex",
        "--key-file",
        "--personalization",
        "--personalization-hex",
        "--public-key-hex",
        "--key-id-hex",
        "--nonce-hex",
        "--tree",
        "--threads",
        "--backend",
        "--list-backends",
        "--self-test",
        "--tag",
        "--zero",
        "--no-mmap",
        "--progress",
        "--check",
        "--quiet",
        "--status",
        "--strict",
        "--warn",
        "--ignore-missing",
        "--help",
        "--version",
    ] {
        let line = help
            .lines()
            .find(|l| l.trim_start().starts_with(option) || l.contains(&format!(", {option}")));
        assert!(line.is_some(), "--help does not list {option}");
    }
    skeinsum()
        .arg("--version")
        .assert()
        .success()
        .stdout(predicate::str::starts_with("skeinsum 0."));
}

// ------------------------------------------------------------------ --check

/// A checksum list made here from RustCrypto digests.
fn gnu_line(state: u32, bits: u32, data: &[u8], name: &str) -> String {
    format!("{}  {name}\n", reference(state, bits, data))
}

#[test]
fn check_round_trip_of_tag_output() {
    let dir = Dir::new();
    dir.file("a", &pattern(10, 1));
    dir.file("b", &pattern(100_000, 2));
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
            .assert()
            .success()
            .stdout("a: OK\nb: OK\n")
            .stderr("");
    }
}

#[test]
fn check_gnu_lines_with_length_from_the_hex() {
    let dir = Dir::new();
    let (a, b) = (pattern(5, 1), pattern(20_000, 2));
    dir.file("a", &a);
    dir.file("b", &b);
    // Default Skein-512-512, plus a binary-mode mark.
    let list = format!(
        "{}{} *b\n",
        gnu_line(512, 512, &a, "a"),
        reference(512, 512, &b)
    );
    dir.file("sums", list.as_bytes());
    dir.cmd()
        .args(["-c", "sums"])
        .assert()
        .success()
        .stdout("a: OK\nb: OK\n");
    // Skein-512-256 lines need -l 256: a plain line has the selected length.
    dir.file(
        "sums256",
        (gnu_line(512, 256, &a, "a") + &gnu_line(512, 256, &b, "b")).as_bytes(),
    );
    dir.cmd()
        .args(["-c", "-l", "256", "sums256"])
        .assert()
        .success()
        .stdout("a: OK\nb: OK\n");
    // -a picks the state size of plain lines.
    dir.file(
        "sums1024",
        (gnu_line(1024, 1024, &a, "a") + &gnu_line(1024, 1024, &b, "b")).as_bytes(),
    );
    dir.cmd()
        .args(["-c", "-a", "1024", "sums1024"])
        .assert()
        .success()
        .stdout("a: OK\nb: OK\n");
    // -a 256 with 256-bit output, and CRLF line ends.
    dir.file(
        "crlf",
        gnu_line(256, 256, &a, "a").replace('\n', "\r\n").as_bytes(),
    );
    dir.cmd()
        .args(["-c", "-a", "256", "crlf"])
        .assert()
        .success()
        .stdout("a: OK\n");
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
            .assert()
            .success()
            .stdout("f: OK\n".repeat(5))
            .stderr("");
    }
    // A tag whose digest length disagrees with its name is malformed.
    dir.file(
        "bad",
        format!("Skein-512-256 (f) = {}\n", reference(512, 512, &data)).as_bytes(),
    );
    dir.cmd()
        .args(["-c", "bad"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("no properly formatted"));
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
    let dir = Dir::new();
    dir.file("m", &e.msg);
    let key = hex::encode(e.key.as_ref().unwrap());
    dir.file(
        "sums",
        format!("{}  m\nSkein-512-512 (m) = {}\n", e.result, e.result).as_bytes(),
    );
    dir.cmd()
        .args(["-c", "--key-hex", &key, "sums"])
        .assert()
        .success()
        .stdout("m: OK\nm: OK\n");
    // Without the key (or with another) the MAC does not match.
    dir.cmd()
        .args(["-c", "sums"])
        .assert()
        .code(1)
        .stdout("m: FAILED\nm: FAILED\n");
    dir.cmd()
        .args(["-c", "--key-hex", "00", "sums"])
        .assert()
        .code(1);
}

#[test]
fn check_reports_mismatch_and_unreadable_files_like_gnu() {
    let dir = Dir::new();
    let data = pattern(100, 1);
    dir.file("good", &data);
    dir.file("bad", b"changed");
    let list = gnu_line(512, 512, &data, "good")
        + &gnu_line(512, 512, &data, "bad")
        + &gnu_line(512, 512, &data, "gone");
    dir.file("sums", list.as_bytes());
    dir.cmd()
        .args(["-c", "sums"])
        .assert()
        .code(1)
        .stdout("good: OK\nbad: FAILED\ngone: FAILED open or read\n")
        .stderr(
            "skeinsum: gone: No such file or directory\n\
             skeinsum: WARNING: 1 listed file could not be read\n\
             skeinsum: WARNING: 1 computed checksum did NOT match\n",
        );
    // Plural forms.
    let list2 =
        list.clone() + &gnu_line(512, 512, &data, "bad") + &gnu_line(512, 512, &data, "gone");
    dir.file("sums2", list2.as_bytes());
    dir.cmd()
        .args(["-c", "sums2"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "WARNING: 2 listed files could not be read",
        ))
        .stderr(predicate::str::contains(
            "WARNING: 2 computed checksums did NOT match",
        ));
}

#[test]
fn check_counts_malformed_lines_and_strict_fails_on_them() {
    let dir = Dir::new();
    let data = pattern(100, 1);
    dir.file("good", &data);
    let good = gnu_line(512, 512, &data, "good");
    dir.file(
        "one",
        format!("{good}not a checksum line\n# a comment\n\n{good}").as_bytes(),
    );
    dir.file("two", format!("zz  good\n{good}abc  odd\n").as_bytes());
    dir.cmd()
        .args(["-c", "one"])
        .assert()
        .success()
        .stdout("good: OK\ngood: OK\n")
        .stderr("skeinsum: WARNING: 1 line is improperly formatted\n");
    dir.cmd()
        .args(["-c", "two"])
        .assert()
        .success()
        .stdout("good: OK\n")
        .stderr("skeinsum: WARNING: 2 lines are improperly formatted\n");
    dir.cmd()
        .args(["-c", "--strict", "two"])
        .assert()
        .code(1)
        .stdout("good: OK\n");
    // --warn names each line.
    dir.cmd()
        .args(["-c", "--warn", "two"])
        .assert()
        .success()
        .stderr(
            "skeinsum: two: 1: improperly formatted Skein checksum line\n\
             skeinsum: two: 3: improperly formatted Skein checksum line\n\
             skeinsum: WARNING: 2 lines are improperly formatted\n",
        );
    // No well-formed line at all fails.
    dir.file("none", b"nothing here\n");
    dir.cmd()
        .args(["-c", "none"])
        .assert()
        .code(1)
        .stdout("")
        .stderr("skeinsum: none: no properly formatted Skein checksum lines found\n");
}

#[test]
fn check_status_quiet_and_ignore_missing() {
    let dir = Dir::new();
    let data = pattern(100, 1);
    dir.file("good", &data);
    dir.file("bad", b"other");
    let ok_list = gnu_line(512, 512, &data, "good");
    let bad_list = ok_list.clone() + &gnu_line(512, 512, &data, "bad");
    let missing_list = ok_list.clone() + &gnu_line(512, 512, &data, "gone");
    dir.file("ok", ok_list.as_bytes());
    dir.file("bad-list", bad_list.as_bytes());
    dir.file("missing", missing_list.as_bytes());
    dir.file("only-missing", gnu_line(512, 512, &data, "gone").as_bytes());

    // --status: nothing on stdout, the exit code says it all.
    dir.cmd()
        .args(["-c", "--status", "ok"])
        .assert()
        .success()
        .stdout("")
        .stderr("");
    dir.cmd()
        .args(["-c", "--status", "bad-list"])
        .assert()
        .code(1)
        .stdout("")
        .stderr("");
    // --quiet: no OK lines, failures still shown.
    dir.cmd()
        .args(["-c", "--quiet", "ok"])
        .assert()
        .success()
        .stdout("");
    dir.cmd()
        .args(["-c", "--quiet", "bad-list"])
        .assert()
        .code(1)
        .stdout("bad: FAILED\n");
    // --ignore-missing: the missing file is skipped silently.
    dir.cmd().args(["-c", "missing"]).assert().code(1);
    dir.cmd()
        .args(["-c", "--ignore-missing", "missing"])
        .assert()
        .success()
        .stdout("good: OK\n")
        .stderr("");
    // ... but a list where nothing was verified fails.
    dir.cmd()
        .args(["-c", "--ignore-missing", "only-missing"])
        .assert()
        .code(1)
        .stdout("")
        .stderr("skeinsum: only-missing: no file was verified\n");
    // A missing checksum list is an error naming it; other lists still run.
    dir.cmd()
        .args(["-c", "no-such-list", "ok"])
        .assert()
        .code(1)
        .stdout("good: OK\n")
        .stderr("skeinsum: no-such-list: No such file or directory\n");
}

#[test]
fn check_zero_terminated_lists() {
    let dir = Dir::new();
    let name = "odd\nname";
    dir.file(name, b"data");
    let list = format!("{}  {name}\0", reference(512, 512, b"data"));
    dir.cmd()
        .args(["-c", "-z", "-"])
        .write_stdin(list)
        .assert()
        .success()
        .stdout("\\odd\\nname: OK\n");
}

// ----------------------------------------------- files changing, closed pipes

/// Run skeinsum on `file`, pausing at `stage`; while paused, `change` runs.
fn hash_with_change(stage: &str, size: usize, change: impl FnOnce(&Path)) -> std::process::Output {
    run_paused(stage, size, &[], &[], false, change)
}

/// Run skeinsum with `args` on a file of `size` pattern bytes named
/// `victim` (as its argument, or as standard input if `from_stdin`), with
/// `env`, pausing at `stage` (see src/testing.rs); while paused, `change`
/// runs on the file.
fn run_paused(
    stage: &str,
    size: usize,
    args: &[&str],
    env: &[(&str, &str)],
    from_stdin: bool,
    change: impl FnOnce(&Path),
) -> std::process::Output {
    let dir = Dir::new();
    let data = pattern(size, 21);
    let file = dir.file("victim", &data);
    let sentinel = dir.path().join("paused");
    let mut cmd = std::process::Command::new(&*BIN);
    cmd.args(args)
        .envs(env.iter().copied())
        .env(
            "SKEINSUM_TEST_PAUSE",
            format!("{stage}:{}", sentinel.display()),
        )
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if from_stdin {
        cmd.stdin(fs::File::open(&file).unwrap());
    } else {
        cmd.arg(&file);
    }
    let child = cmd.spawn().unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !sentinel.exists() {
        assert!(
            Instant::now() < deadline,
            "skeinsum never reached the {stage} stage (built without the test-hooks feature?)"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    change(&file);
    fs::remove_file(&sentinel).unwrap();
    child.wait_with_output().unwrap()
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

#[test]
fn file_shrinking_between_stat_and_map_is_an_error_not_a_crash() {
    let out = hash_with_change("map", 1 << 20, |f| {
        fs::OpenOptions::new()
            .write(true)
            .open(f)
            .unwrap()
            .set_len(100)
            .unwrap()
    });
    assert_changed_error(&out);
}

#[test]
fn file_truncated_while_mapped_is_an_error_not_a_crash() {
    // Truncated to zero under the mapping: every page faults (SIGBUS).
    let out = hash_with_change("hash", 4 << 20, |f| {
        fs::OpenOptions::new()
            .write(true)
            .open(f)
            .unwrap()
            .set_len(0)
            .unwrap()
    });
    assert_changed_error(&out);
    // Truncated to a size that is not page aligned.
    let out = hash_with_change("hash", 4 << 20, |f| {
        fs::OpenOptions::new()
            .write(true)
            .open(f)
            .unwrap()
            .set_len(123_457)
            .unwrap()
    });
    assert_changed_error(&out);
}

#[test]
fn file_growing_while_mapped_is_an_error() {
    let out = hash_with_change("hash", 1 << 20, |f| {
        fs::OpenOptions::new()
            .append(true)
            .open(f)
            .unwrap()
            .write_all(b"more")
            .unwrap()
    });
    assert_changed_error(&out);
}

#[test]
fn file_unchanged_while_paused_gives_the_digest() {
    // The pause itself changes nothing: the control for the tests above.
    let out = hash_with_change("hash", 1 << 20, |_| {});
    assert!(out.status.success(), "{}", stderr_of(&out));
    let data = pattern(1 << 20, 21);
    assert!(stdout_of(&out).starts_with(&reference(512, 512, &data)));
}

/// The SIGBUS guard repairs faults in our own mapping only: a SIGBUS sent by
/// another process while it is armed still kills as it should.
#[cfg(unix)]
#[test]
fn foreign_sigbus_is_not_swallowed() {
    use std::os::unix::process::ExitStatusExt;
    let dir = Dir::new();
    let file = dir.file("victim", &pattern(1 << 20, 3));
    let sentinel = dir.path().join("paused");
    let mut child = std::process::Command::new(&*BIN)
        .arg(&file)
        .env(
            "SKEINSUM_TEST_PAUSE",
            format!("hash:{}", sentinel.display()),
        )
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !sentinel.exists() {
        assert!(Instant::now() < deadline, "skeinsum never paused");
        std::thread::sleep(Duration::from_millis(2));
    }
    // SAFETY: kill has no memory-safety preconditions; the pid is our child's.
    assert_eq!(
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGBUS) },
        0
    );
    let status = child.wait().unwrap();
    assert_eq!(status.signal(), Some(libc::SIGBUS), "{status:?}");
}

#[test]
fn closed_stdout_pipe_ends_quietly() {
    let dir = Dir::new();
    dir.file("f", b"abc");
    // Far more output than a pipe buffer holds, so writes must hit the
    // closed pipe.
    let mut child = std::process::Command::new(&*BIN)
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
    let dir = Dir::new();
    dir.file("f", b"abc");
    let full = fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = std::process::Command::new(&*BIN)
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

// ------------------------------------- bounds, closed descriptors, odd options

/// `sh -c SCRIPT` with the binary under test as `$0`, in `dir`: for closed
/// descriptors and resource limits, which only a shell sets up simply.
fn sh(dir: &Dir, script: &str) -> Command {
    let mut c = Command::new("sh");
    c.current_dir(dir.path()).arg("-c").arg(script).arg(&*BIN);
    for hook in [
        "SKEINSUM_TEST_PAUSE",
        "SKEINSUM_TEST_MAP_WINDOW",
        "SKEINSUM_TEST_REFUSE_MAP",
    ] {
        c.env_remove(hook);
    }
    c
}

/// Skein-512-8 by RustCrypto: the digest a two-hex-digit line would claim.
fn reference_512_8(data: &[u8]) -> String {
    hex::encode(skein::Skein512::<skein::digest::consts::U1>::digest(data))
}

/// Digest of `len` zero bytes by RustCrypto (Skein-512-512).
fn reference_zeros(len: u64) -> String {
    let mut h = skein::Skein512::<U64>::new();
    let zeros = vec![0u8; 1 << 20];
    let mut left = len;
    while left > 0 {
        let n = left.min(zeros.len() as u64) as usize;
        h.update(&zeros[..n]);
        left -= n as u64;
    }
    hex::encode(h.finalize())
}

/// An output length that cannot be produced (on 32-bit
/// targets `-l 34359738376` was cut to one byte, `-l 2^64-1` to none; on
/// 64-bit ones the allocation aborted the run) is a usage error naming the
/// option, and nothing is hashed.
#[test]
fn output_length_beyond_the_bound_is_a_usage_error() {
    let dir = Dir::new();
    dir.file("a", b"abc");
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
        let err = stderr_of(&out);
        assert_eq!(out.status.code(), Some(2), "-l {length}: {err}");
        assert!(out.stdout.is_empty(), "-l {length} printed a digest");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with("skeinsum: ")
                && err.contains("--length")
                && err.contains("at most 134217728"),
            "{err}"
        );
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
        .assert()
        .code(1)
        .stderr(predicate::str::contains("no properly formatted"));
}

/// Files larger than one mapping window are mapped window
/// by window; forced to 64 KiB windows here so that a small file crosses
/// many, with a last window that is not full.
#[test]
fn files_are_mapped_in_windows() {
    let dir = Dir::new();
    let data = pattern((1 << 20) + 12_345, 8);
    dir.file("f", &data);
    for window in ["65536", "4096", "1048576"] {
        dir.cmd()
            .env("SKEINSUM_TEST_MAP_WINDOW", window)
            .args(["-a", "1024", "f"])
            .assert()
            .success()
            .stdout(format!("{}  f\n", reference(1024, 1024, &data)));
    }
}

/// When the system refuses to map (a file system without mmap, as
/// /sys/kernel/btf/vmlinux is for root on Linux), the file is read instead;
/// also from the middle of a file whose first windows were mapped.
#[test]
fn refused_mapping_falls_back_to_reading() {
    let dir = Dir::new();
    let data = pattern(300_000, 9);
    dir.file("f", &data);
    for refuse_from in ["0", "131072", "150000"] {
        dir.cmd()
            .env("SKEINSUM_TEST_MAP_WINDOW", "65536")
            .env("SKEINSUM_TEST_REFUSE_MAP", refuse_from)
            .arg("f")
            .assert()
            .success()
            .stdout(format!("{}  f\n", reference(512, 512, &data)))
            .stderr("");
    }
    // The real case, where this machine has it: mmap of the kernel's BTF
    // file is refused with EACCES while read works.
    let btf = Path::new("/sys/kernel/btf/vmlinux");
    match fs::read(btf) {
        Ok(bytes) if bytes.len() as u64 >= 16384 => {
            skeinsum().arg(btf).assert().success().stdout(format!(
                "{}  {}\n",
                reference(512, 512, &bytes),
                btf.display()
            ));
        }
        _ => eprintln!(
            "{} not readable here: only the forced refusal was checked",
            btf.display()
        ),
    }
}

/// A file larger than the address space allowed is hashed (it was
/// mapped whole: `Cannot allocate memory`). 512 MiB of zeros (sparse) under
/// a 256 MiB `ulimit -v`.
#[cfg(unix)]
#[test]
fn file_larger_than_the_address_space_limit() {
    let dir = Dir::new();
    let len = 512u64 << 20;
    fs::File::create(dir.path().join("big"))
        .unwrap()
        .set_len(len)
        .unwrap();
    let expected = format!("{}  big\n", reference_zeros(len));
    sh(&dir, "ulimit -v 262144 && exec \"$0\" big")
        .assert()
        .success()
        .stdout(expected)
        .stderr("");
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
    let eight_bit = format!("{}  a.txt\n", reference_512_8(data));
    dir.file("short", eight_bit.as_bytes());
    for strict in [&[][..], &["--strict"]] {
        dir.cmd()
            .arg("-c")
            .args(strict)
            .arg("short")
            .assert()
            .code(1)
            .stdout("")
            .stderr("skeinsum: short: no properly formatted Skein checksum lines found\n");
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
        dir.cmd()
            .args(["-c", "other"])
            .assert()
            .code(1)
            .stdout("")
            .stderr("skeinsum: other: no properly formatted Skein checksum lines found\n");
    }
    // With the matching -a/-l they are Skein lines again.
    dir.file("s256", gnu_line(256, 256, data, "a.txt").as_bytes());
    dir.cmd()
        .args(["-c", "-a", "256", "s256"])
        .assert()
        .success()
        .stdout("a.txt: OK\n");
    dir.cmd()
        .args(["-c", "-l", "8", "short"])
        .assert()
        .success()
        .stdout("a.txt: OK\n");
    // Mixed: the odd line is counted as improperly formatted, --strict fails.
    dir.file(
        "mixed",
        (gnu_line(512, 512, data, "a.txt") + &eight_bit).as_bytes(),
    );
    dir.cmd()
        .args(["-c", "mixed"])
        .assert()
        .success()
        .stdout("a.txt: OK\n")
        .stderr("skeinsum: WARNING: 1 line is improperly formatted\n");
    dir.cmd().args(["-c", "--strict", "mixed"]).assert().code(1);
}

/// The key file is read up to a bound (`/dev/zero` read forever),
/// and an empty key is an error, not an unkeyed hash.
#[test]
fn key_file_size_is_bounded_and_must_not_be_empty() {
    let dir = Dir::new();
    dir.file("m", b"message");
    dir.file("empty", b"");
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
            .assert()
            .code(2)
            .stdout("")
            .stderr(*message);
    }
    // The largest key allowed works, and is a key: the MAC differs from the
    // plain hash.
    let out = dir.cmd().args(["--key-file", "max", "m"]).output().unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let mac = stdout_of(&out);
    assert_eq!(mac.len(), 128 + "  m\n".len());
    assert_ne!(mac, format!("{}  m\n", reference(512, 512, b"message")));
}

/// `-c -` checks each line as it arrives (the whole list was read
/// first): the answer to the first line comes while the list is still open.
#[test]
fn check_list_from_stdin_is_streamed() {
    let dir = Dir::new();
    dir.file("f", b"data");
    let mut child = std::process::Command::new(&*BIN)
        .current_dir(dir.path())
        .args(["-c", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(gnu_line(512, 512, b"data", "f").as_bytes())
        .unwrap();
    stdin.flush().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let (sent, received) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = [0u8; 6];
        let read = stdout.read_exact(&mut line).map(|()| line.to_vec());
        let _ = sent.send(read);
    });
    let first = received.recv_timeout(Duration::from_secs(30));
    drop(stdin);
    let status = child.wait().unwrap();
    assert_eq!(
        first.expect("no answer while the list was open").unwrap(),
        b"f: OK\n"
    );
    assert!(status.success());
}

/// A list far larger than the memory allowed, one endless line,
/// is read in bounded memory; the line is improperly formatted and the
/// good line after it still counts.
#[cfg(unix)]
#[test]
fn check_list_with_a_huge_line_in_bounded_memory() {
    let dir = Dir::new();
    dir.file("f", b"data");
    let mut child = std::process::Command::new("sh")
        .current_dir(dir.path())
        .arg("-c")
        .arg("ulimit -v 262144 && exec \"$0\" -c -")
        .arg(&*BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let block = vec![b'a'; 1 << 20];
        for _ in 0..320 {
            if stdin.write_all(&block).is_err() {
                return;
            }
        }
        let _ = stdin.write_all(b"\n");
        let _ = stdin.write_all(gnu_line(512, 512, b"data", "f").as_bytes());
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(
        out.status.success(),
        "{:?}: {}",
        out.status,
        stderr_of(&out)
    );
    assert_eq!(stdout_of(&out), "f: OK\n");
    assert_eq!(
        stderr_of(&out),
        "skeinsum: WARNING: 1 line is improperly formatted\n"
    );
}

/// `-j` is bounded (100000 threads ran for minutes on six bytes).
#[test]
fn thread_count_is_bounded() {
    let dir = Dir::new();
    dir.file("six", b"hello\n");
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
        .assert()
        .success()
        .stdout(one.stdout);
}

/// A file changed while read (not mapped) gives no digest: small
/// files, `--no-mmap`, and standard input redirected from a file.
#[test]
fn files_changing_while_read_are_errors() {
    let truncate = |f: &Path| {
        fs::OpenOptions::new()
            .write(true)
            .open(f)
            .unwrap()
            .set_len(100)
            .unwrap()
    };
    let grow = |f: &Path| {
        fs::OpenOptions::new()
            .append(true)
            .open(f)
            .unwrap()
            .write_all(&[1; 5000])
            .unwrap()
    };
    // A small file (read in one block, then grown or cut).
    assert_changed_error(&run_paused("read", 10_000, &[], &[], false, grow));
    assert_changed_error(&run_paused("read", 10_000, &[], &[], false, truncate));
    // --no-mmap on a file of several blocks.
    assert_changed_error(&run_paused(
        "read",
        3 << 20,
        &["--no-mmap"],
        &[],
        false,
        truncate,
    ));
    assert_changed_error(&run_paused(
        "read",
        3 << 20,
        &["--no-mmap"],
        &[],
        false,
        grow,
    ));
    // Standard input from a regular file.
    assert_changed_error(&run_paused("read", 3 << 20, &[], &[], true, truncate));
    // What was read after a refused mapping.
    assert_changed_error(&run_paused(
        "read",
        1 << 20,
        &[],
        &[("SKEINSUM_TEST_REFUSE_MAP", "0")],
        false,
        grow,
    ));
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
        |f| {
            fs::OpenOptions::new()
                .write(true)
                .open(f)
                .unwrap()
                .set_len(200_000)
                .unwrap()
        },
    );
    assert_changed_error(&out);
}

/// Closed standard descriptors are errors, as in GNU (the runtime
/// had put /dev/null there: no output and exit 0, or the digest of nothing).
#[cfg(unix)]
#[test]
fn closed_standard_descriptors_are_bad_file_descriptors() {
    let dir = Dir::new();
    dir.file("f", b"abc");
    dir.file("sums", gnu_line(512, 512, b"abc", "f").as_bytes());
    sh(&dir, "exec \"$0\" f >&-")
        .assert()
        .code(1)
        .stderr("skeinsum: write error: Bad file descriptor\n");
    sh(&dir, "exec \"$0\" <&-")
        .assert()
        .code(1)
        .stdout("")
        .stderr("skeinsum: -: Bad file descriptor\n");
    sh(&dir, "exec \"$0\" f - f <&-")
        .assert()
        .code(1)
        .stdout(format!("{d}  f\n{d}  f\n", d = reference(512, 512, b"abc")))
        .stderr("skeinsum: -: Bad file descriptor\n");
    sh(&dir, "exec \"$0\" -c <&-")
        .assert()
        .code(1)
        .stderr("skeinsum: 'standard input': Bad file descriptor\n");
    sh(&dir, "exec \"$0\" --version >&-")
        .assert()
        .code(1)
        .stderr("skeinsum: write error: Bad file descriptor\n");
    // Nothing to write: no error (as GNU).
    sh(&dir, "exec \"$0\" --status -c sums >&-")
        .assert()
        .success()
        .stderr("");
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
        let out = std::process::Command::new(&*BIN)
            .arg(option)
            .stdout(full)
            .output()
            .unwrap();
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
        .assert()
        .code(1)
        .stdout("")
        .stderr(expected);
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

/// A mistyped key is never echoed (it was, whole: 131 KB).
#[test]
fn key_hex_errors_do_not_echo_the_key() {
    let dir = Dir::new();
    dir.file("m", b"x");
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
            .assert()
            .code(2)
            .stdout("")
            .stderr(message);
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
    dir.cmd()
        .arg(format!("--keyhex={secret}"))
        .arg("m")
        .assert()
        .code(2)
        .stdout("")
        .stderr("skeinsum: unexpected argument '--keyhex' found (see --help)\n");
}

/// Check lines with leading blanks (GNU skips them).
#[test]
fn check_lines_with_leading_blanks() {
    let dir = Dir::new();
    dir.file("f", b"data");
    dir.file("b\\s", b"data");
    let d = reference(512, 512, b"data");
    let list = format!("  {d}  f\n\t{d}\tf\n \\{d}  b\\\\s\n   Skein-512-512 (f) = {d}\n");
    dir.cmd()
        .args(["-c", "--strict", "-"])
        .write_stdin(list)
        .assert()
        .success()
        .stdout("f: OK\nf: OK\nb\\s: OK\nf: OK\n")
        .stderr("");
}

/// A repeated option is no error; the last value counts (GNU).
#[test]
fn repeated_options_are_accepted() {
    let dir = Dir::new();
    dir.file("f", b"data");
    let sums = dir
        .cmd()
        .args([
            "--tag", "--tag", "-a", "256", "-a", "512", "-l", "8", "-l", "512", "f",
        ])
        .output()
        .unwrap();
    assert!(sums.status.success(), "{}", stderr_of(&sums));
    assert_eq!(
        stdout_of(&sums),
        format!("Skein-512-512 (f) = {}\n", reference(512, 512, b"data"))
    );
    dir.cmd()
        .args(["-cc", "--quiet", "--quiet", "-"])
        .write_stdin(sums.stdout)
        .assert()
        .success()
        .stdout("");
    // The last key counts: the same MAC as with that key alone.
    let last = dir.cmd().args(["--key-hex", "02", "f"]).output().unwrap();
    dir.cmd()
        .args(["--key-hex", "01", "--key-hex", "02", "f"])
        .assert()
        .success()
        .stdout(last.stdout);
}

/// Unambiguous prefixes of long options (GNU getopt_long).
#[test]
fn long_option_prefixes() {
    let dir = Dir::new();
    dir.file("f", b"data");
    dir.cmd()
        .args(["--algo", "256", "--len=256", "f"])
        .assert()
        .success()
        .stdout(format!("{}  f\n", reference(256, 256, b"data")));
    dir.file("sums", gnu_line(512, 512, b"data", "gone").as_bytes());
    dir.cmd()
        .args(["--che", "--ignore", "--stat", "sums"])
        .assert()
        .code(1)
        .stderr("");
    dir.cmd()
        .args(["--che", "--ignore", "sums"])
        .assert()
        .code(1)
        .stderr("skeinsum: sums: no file was verified\n");
    // Ambiguous: --st is --status or --strict.
    dir.cmd()
        .args(["-c", "--st", "sums"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--st"));
}

// --------------------------------------------------------- many files at once

/// Run `cmd` (FILE arguments given) with a pause at the batch stage, and go
/// on as soon as it is reached, after `change` ran: the run fails the test if
/// it never reaches a batch, so a batch test cannot pass on the sequential
/// path alone.
fn through_batch(dir: &Dir, args: &[&str], change: impl FnOnce()) -> std::process::Output {
    through_stage(dir, "batch", args, change)
}

/// [`through_batch`] with a pause at `stage`: "lookup" (the window's names
/// looked up, none opened yet) or "batch" (a chunk of up to 16 files
/// opened and read or mapped: the callers that change files give fewer,
/// under 8 MiB in all, so that the window is one chunk).
fn through_stage(
    dir: &Dir,
    stage: &str,
    args: &[&str],
    change: impl FnOnce(),
) -> std::process::Output {
    let sentinel = dir.path().join("batch-paused");
    let child = std::process::Command::new(&*BIN)
        .current_dir(dir.path())
        .args(args)
        .env_remove("SKEINSUM_TEST_MAP_WINDOW")
        .env_remove("SKEINSUM_TEST_REFUSE_MAP")
        .env(
            "SKEINSUM_TEST_PAUSE",
            format!("{stage}:{}", sentinel.display()),
        )
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !sentinel.exists() {
        assert!(
            Instant::now() < deadline,
            "skeinsum {args:?} never reached a batch"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    change();
    fs::remove_file(&sentinel).unwrap();
    child.wait_with_output().unwrap()
}

/// Sizes around every boundary: empty, block edges of the three state
/// sizes, the mapping thresholds (16 KiB alone, 512 KiB in a batch), a few
/// MiB.
const BATCH_SIZES: [usize; 18] = [
    0,
    1,
    31,
    32,
    33,
    64,
    65,
    128,
    129,
    1000,
    4096,
    16383,
    16384,
    16385,
    524_287,
    524_288,
    1 << 20,
    3_000_001,
];

/// A window of a few large files (12 MiB in 5 files, over SPLIT_MIN_BYTES)
/// is shared out between the threads, a chunk each: the digests are
/// RustCrypto's and the output is `-j 1`'s, with `--no-mmap` too.
#[test]
fn few_large_files_in_a_batch_match_reference() {
    let dir = Dir::new();
    let mut names = Vec::new();
    let mut expected = String::new();
    for (i, size) in [3 << 20, 3 << 20, 1000, 3 << 20, (3 << 20) + 1]
        .into_iter()
        .enumerate()
    {
        let name = format!("big{i}");
        let data = pattern(size, 500 + i as u32);
        dir.file(&name, &data);
        expected.push_str(&format!("{}  {name}\n", reference(512, 256, &data)));
        names.push(name);
    }
    for extra in [&[][..], &["--no-mmap"][..]] {
        for jobs in ["1", "2"] {
            let out = dir
                .cmd()
                .args(["-a", "512", "-l", "256", "-j", jobs])
                .args(extra)
                .args(&names)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{extra:?} -j {jobs}: {}",
                stderr_of(&out)
            );
            assert_eq!(stdout_of(&out), expected, "{extra:?} -j {jobs}");
        }
    }
}

/// Mixed sizes with a missing file and a directory in the middle, for every
/// state size and every backend: the batch (-j 2) prints what -j 1 prints,
/// byte for byte, and the digests are RustCrypto's.
#[test]
fn batch_matches_sequential_and_reference_for_every_backend() {
    let dir = Dir::new();
    let mut names = Vec::new();
    let mut datas = Vec::new();
    for (i, &size) in BATCH_SIZES.iter().enumerate() {
        let name = format!("f{i:02}");
        let data = pattern(size, 100 + i as u32);
        dir.file(&name, &data);
        names.push(name);
        datas.push(data);
    }
    fs::create_dir(dir.path().join("sub")).unwrap();
    let mut args_files: Vec<String> = names.clone();
    args_files.insert(5, "missing".to_string());
    args_files.insert(9, "sub".to_string());
    for backend in skein_simd::Backend::available() {
        for (state, out_bits) in [
            (256, 256),
            (512, 256),
            (512, 512),
            (1024, 1024),
            (1024, 384),
        ] {
            let mut args: Vec<String> = vec![
                "--backend".into(),
                backend.name().into(),
                "-a".into(),
                state.to_string(),
                "-l".into(),
                out_bits.to_string(),
            ];
            args.extend(args_files.iter().cloned());
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let batched = through_batch(&dir, &[&["-j", "2"], &args[..]].concat(), || {});
            let sequential = dir.cmd().args(["-j", "1"]).args(&args).output().unwrap();
            let expected: String = names
                .iter()
                .zip(&datas)
                .map(|(name, data)| format!("{}  {name}\n", reference(state, out_bits, data)))
                .collect();
            let what = format!("{} Skein-{state}-{out_bits}", backend.name());
            assert_eq!(stdout_of(&batched), expected, "{what}");
            assert_eq!(stdout_of(&sequential), expected, "{what}");
            assert_eq!(
                stderr_of(&batched),
                "skeinsum: missing: No such file or directory\nskeinsum: sub: Is a directory\n",
                "{what}"
            );
            assert_eq!(stderr_of(&batched), stderr_of(&sequential), "{what}");
            assert_eq!(batched.status.code(), Some(1), "{what}");
            assert_eq!(sequential.status.code(), Some(1), "{what}");
        }
    }
}

/// Golden entries hashed with the same arguments: those arguments, and the
/// file name and expected digest of each entry.
type KatGroup = (Vec<String>, Vec<(String, String)>);

/// Keys, personalization-free MACs and long outputs in batches: every group
/// of golden entries with the same arguments is hashed in one run, in
/// order, and gives the golden results.
#[test]
fn batch_matches_golden_entries() {
    let entries = golden();
    let dir = Dir::new();
    let mut groups: Vec<KatGroup> = Vec::new();
    for (i, e) in entries
        .iter()
        .filter(|e| e.tree.is_none() && e.msg_bits % 8 == 0 && e.out_bits <= 8 * 4096)
        .enumerate()
    {
        let name = format!("g{i}");
        dir.file(&name, &e.msg);
        let args = kat_args(e);
        match groups.iter_mut().find(|(a, _)| *a == args) {
            Some((_, files)) => files.push((name, e.result.clone())),
            None => groups.push((args, vec![(name, e.result.clone())])),
        }
    }
    let mut checked = 0;
    for (args, files) in groups.iter().filter(|(_, files)| files.len() > 1) {
        let mut all: Vec<&str> = vec!["-j", "2"];
        all.extend(args.iter().map(String::as_str));
        all.extend(files.iter().map(|(name, _)| name.as_str()));
        let out = through_batch(&dir, &all, || {});
        assert!(out.status.success(), "{args:?}: {}", stderr_of(&out));
        let expected: String = files
            .iter()
            .map(|(name, result)| format!("{result}  {name}\n"))
            .collect();
        assert_eq!(stdout_of(&out), expected, "{args:?}");
        checked += files.len();
    }
    assert!(checked > 100, "only {checked} golden entries in batches");
}

/// Files truncated after the batch read (small) or mapped (large) them: the
/// same error as on the sequential path, for those files only.
#[test]
fn file_truncated_while_batch_is_hashed() {
    for extra in [&[][..], &["--no-mmap"][..]] {
        let dir = Dir::new();
        let before = pattern(4096, 1);
        let after = pattern(100_000, 2);
        dir.file("before", &before);
        let small = dir.file("small", &pattern(10_000, 3));
        let large = dir.file("large", &pattern(2 << 20, 4));
        dir.file("after", &after);
        let mut args = vec!["-a", "512", "-l", "256", "-j", "2"];
        args.extend_from_slice(extra);
        args.extend(["before", "small", "large", "after"]);
        let out = through_batch(&dir, &args, || {
            for (path, len) in [(&small, 5000), (&large, 1 << 19)] {
                fs::OpenOptions::new()
                    .write(true)
                    .open(path)
                    .unwrap()
                    .set_len(len)
                    .unwrap();
            }
        });
        assert_eq!(out.status.code(), Some(1), "{extra:?}: {}", stderr_of(&out));
        assert_eq!(
            stdout_of(&out),
            format!(
                "{}  before\n{}  after\n",
                reference(512, 256, &before),
                reference(512, 256, &after)
            ),
            "{extra:?}"
        );
        assert_eq!(
            stderr_of(&out),
            "skeinsum: small: file changed while being read; no digest\n\
             skeinsum: large: file changed while being read; no digest\n",
            "{extra:?}"
        );
    }
}

/// `--check` of a list in a batch, with one file changed after the list was
/// made (same size): its line FAILS in its place, the others are OK, the
/// warning counts one, as with -j 1.
#[test]
fn check_batch_with_one_corrupted_file() {
    let dir = Dir::new();
    let mut list = String::new();
    let mut expected = String::new();
    for i in 0..40usize {
        let name = format!("c{i:02}");
        let data = pattern(1000 * i, 300 + i as u32);
        dir.file(&name, &data);
        list.push_str(&format!("{}  {name}\n", reference(512, 512, &data)));
        let status = if i == 17 { "FAILED" } else { "OK" };
        expected.push_str(&format!("{name}: {status}\n"));
    }
    dir.file("list", list.as_bytes());
    let mut corrupted = pattern(17_000, 317);
    corrupted[8000] ^= 1;
    dir.file("c17", &corrupted);
    let batched = through_batch(&dir, &["-j", "2", "-c", "list"], || {});
    let sequential = dir.cmd().args(["-j", "1", "-c", "list"]).output().unwrap();
    for out in [&batched, &sequential] {
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(stdout_of(out), expected);
        assert_eq!(
            stderr_of(out),
            "skeinsum: WARNING: 1 computed checksum did NOT match\n"
        );
    }
}

/// Names that vanish, turn into FIFOs or directories, are replaced by
/// other files or are rewritten after the batch looked them up and before
/// it opens them, read (5 KB) and mapped (600 KB), and with `--no-mmap`: a
/// vanished file is missing; a directory is one; a FIFO is read to its end
/// in its place, its writer's bytes whole (the batch opens it without
/// waiting and hands it on untouched); a replaced file gives the digest of
/// the new one; a rewritten one is an error, never a digest. Twice each,
/// the same output; the files not touched give what `-j 1` gives.
#[cfg(unix)]
#[test]
fn names_changing_between_lookup_and_open_of_a_batch() {
    use std::os::unix::fs::FileExt;
    for extra in [&[][..], &["--no-mmap"][..]] {
        let mut outputs = Vec::new();
        for _ in 0..2 {
            let dir = Dir::new();
            let sizes = [("small", 5000), ("large", 600_000)];
            let mut names = vec!["first".to_string()];
            dir.file("first", &pattern(3000, 1));
            for (kind, size) in sizes {
                for (i, what) in ["gone", "fifo", "dir", "replaced", "rewritten", "kept"]
                    .iter()
                    .enumerate()
                {
                    let name = format!("{what}-{kind}");
                    dir.file(&name, &pattern(size, 10 + i as u32));
                    names.push(name);
                }
            }
            let mut args = vec!["-a", "512", "-l", "256", "-j", "2"];
            args.extend_from_slice(extra);
            args.extend(names.iter().map(String::as_str));
            let mut writers = Vec::new();
            let out = through_stage(&dir, "lookup", &args, || {
                for (kind, size) in sizes {
                    let path = |what: &str| dir.path().join(format!("{what}-{kind}"));
                    fs::remove_file(path("gone")).unwrap();
                    fs::remove_file(path("fifo")).unwrap();
                    dir.fifo(&format!("fifo-{kind}"));
                    fs::remove_file(path("dir")).unwrap();
                    fs::create_dir(path("dir")).unwrap();
                    let fifo = path("fifo");
                    writers.push(std::thread::spawn(move || {
                        // Waits for a reader, as a writer of a FIFO does.
                        fs::write(fifo, format!("written into fifo-{kind}")).unwrap();
                    }));
                    let new = dir.file("new", &pattern(size + 7, 99));
                    fs::rename(new, path("replaced")).unwrap();
                    let rewritten = fs::OpenOptions::new()
                        .write(true)
                        .open(path("rewritten"))
                        .unwrap();
                    rewritten.write_all_at(&pattern(size, 98), 0).unwrap();
                    rewritten
                        .set_modified(std::time::SystemTime::UNIX_EPOCH + Duration::from_secs(1))
                        .unwrap();
                }
            });
            for writer in writers {
                writer.join().unwrap();
            }
            let mut expected = format!("{}  first\n", reference(512, 256, &pattern(3000, 1)));
            let mut errors = String::new();
            for (kind, size) in sizes {
                errors.push_str(&format!(
                    "skeinsum: gone-{kind}: No such file or directory\n"
                ));
                expected.push_str(&format!(
                    "{}  fifo-{kind}\n",
                    reference(512, 256, format!("written into fifo-{kind}").as_bytes())
                ));
                errors.push_str(&format!("skeinsum: dir-{kind}: Is a directory\n"));
                expected.push_str(&format!(
                    "{}  replaced-{kind}\n",
                    reference(512, 256, &pattern(size + 7, 99))
                ));
                errors.push_str(&format!(
                    "skeinsum: rewritten-{kind}: file changed while being read; no digest\n"
                ));
                expected.push_str(&format!(
                    "{}  kept-{kind}\n",
                    reference(512, 256, &pattern(size, 15))
                ));
            }
            assert_eq!(stdout_of(&out), expected, "{extra:?}");
            assert_eq!(stderr_of(&out), errors, "{extra:?}");
            assert_eq!(out.status.code(), Some(1), "{extra:?}");
            // What -j 1 prints for the files left as they were.
            let kept: Vec<&str> = names
                .iter()
                .map(String::as_str)
                .filter(|n| n.starts_with("kept") || n.starts_with("replaced") || *n == "first")
                .collect();
            let sequential = dir
                .cmd()
                .args(["-a", "512", "-l", "256", "-j", "1"])
                .args(&kept)
                .output()
                .unwrap();
            let batched_kept: String = stdout_of(&out)
                .lines()
                .filter(|l| kept.iter().any(|k| l.ends_with(&format!("  {k}"))))
                .map(|l| format!("{l}\n"))
                .collect();
            assert_eq!(batched_kept, stdout_of(&sequential), "{extra:?}");
            outputs.push((stdout_of(&out), stderr_of(&out)));
        }
        assert_eq!(outputs[0], outputs[1], "{extra:?}: not stable");
    }
}

/// Files removed, or replaced by FIFOs, after the batch opened and read or
/// mapped them: the open file is what is hashed, so each gives the digest
/// of what it held, as `-j 1` gives for the files before the change.
#[cfg(unix)]
#[test]
fn files_vanishing_or_turning_into_fifos_after_the_batch_opened_them() {
    for extra in [&[][..], &["--no-mmap"][..]] {
        let dir = Dir::new();
        let mut names = Vec::new();
        for (i, size) in [5000usize, 600_000].into_iter().enumerate() {
            for what in ["gone", "fifo"] {
                let name = format!("{what}-{i}");
                dir.file(&name, &pattern(size, 40 + i as u32));
                names.push(name);
            }
        }
        let mut args = vec!["-j", "2"];
        args.extend_from_slice(extra);
        args.extend(names.iter().map(String::as_str));
        let sequential = dir.cmd().args(["-j", "1"]).args(&names).output().unwrap();
        let out = through_batch(&dir, &args, || {
            for name in &names {
                fs::remove_file(dir.path().join(name)).unwrap();
                if name.starts_with("fifo") {
                    dir.fifo(name);
                }
            }
        });
        assert!(out.status.success(), "{extra:?}: {}", stderr_of(&out));
        assert!(sequential.status.success());
        assert_eq!(stdout_of(&out), stdout_of(&sequential), "{extra:?}");
        assert_eq!(stdout_of(&out).lines().count(), 4);
    }
}

/// Standard input of several MiB through a pipe, and a file of several
/// MiB with `--no-mmap` (both read ahead on another thread), and mapped
/// (its pages faulted in ahead by another thread): RustCrypto's digest.
#[test]
fn large_streams_and_files_read_ahead() {
    let dir = Dir::new();
    let data = pattern(9 << 20, 77);
    dir.file("big", &data);
    let expected = reference(512, 512, &data);
    let piped = dir.cmd().write_stdin(data.clone()).output().unwrap();
    assert_eq!(stdout_of(&piped), format!("{expected}  -\n"));
    for extra in [&["--no-mmap"][..], &[][..]] {
        let out = dir.cmd().args(extra).arg("big").output().unwrap();
        assert_eq!(stdout_of(&out), format!("{expected}  big\n"), "{extra:?}");
    }
}

// ------------------------------------- pseudo-files, stdin, lists, bit lengths

/// The argument prefixes of every path a test must hold on: every usable
/// backend, each with `-j 2` (several FILEs or `-c` of a regular list: the
/// batch path) and `-j 1` (one file after another).
fn every_backend_and_path() -> Vec<Vec<String>> {
    let mut prefixes = Vec::new();
    for backend in skein_simd::Backend::available() {
        for threads in ["2", "1"] {
            prefixes.push(vec![
                "--backend".to_string(),
                backend.name().to_string(),
                "-j".to_string(),
                threads.to_string(),
            ]);
        }
    }
    prefixes
}

/// Run `cmd` with `stdin` (and `input` written to it, if given), killed
/// after `limit`: a hang fails the test instead of hanging it. Returns the
/// output, or `None` if it had to be killed.
fn run_with_timeout(
    mut cmd: std::process::Command,
    stdin: Stdio,
    input: Option<Vec<u8>>,
    limit: Duration,
) -> Option<std::process::Output> {
    let mut child = cmd
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(input) = input {
        let mut writer = child.stdin.take().unwrap();
        // A reader that stops reading must not block the test.
        std::thread::spawn(move || {
            let _ = writer.write_all(&input);
        });
    }
    let deadline = Instant::now() + limit;
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().unwrap();
            child.wait().unwrap();
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    Some(child.wait_with_output().unwrap())
}

/// Pseudo-files whose `stat` size is not their length: procfs says 0,
/// sysfs says 4096. At least one of each kind exists on any Linux system.
#[cfg(target_os = "linux")]
fn pseudo_files() -> Vec<&'static str> {
    let procfs = [
        "/proc/version",
        "/proc/sys/kernel/ostype",
        "/proc/sys/kernel/osrelease",
    ];
    let sysfs = [
        "/sys/kernel/mm/transparent_hugepage/enabled",
        "/sys/devices/system/cpu/online",
        "/sys/devices/system/cpu/possible",
    ];
    let present = |list: &[&'static str]| -> Vec<&'static str> {
        list.iter()
            .copied()
            .filter(|p| fs::read(p).is_ok_and(|d| !d.is_empty()))
            .collect()
    };
    let (procfs, sysfs) = (present(&procfs), present(&sysfs));
    assert!(!procfs.is_empty(), "no readable procfs file with content");
    assert!(!sysfs.is_empty(), "no readable sysfs file with content");
    for p in &procfs {
        assert_eq!(fs::metadata(p).unwrap().len(), 0, "{p}: stat size is 0");
    }
    procfs.into_iter().chain(sysfs).collect()
}

/// procfs and sysfs files give the digest of their content, the same on
/// the batch path as on `-j 1`, on every backend, for hashing and for `-c`;
/// a read error on one (`/proc/self/mem` at offset 0) is reported, exit 1.
#[cfg(target_os = "linux")]
#[test]
fn pseudo_files_are_read_to_their_end_on_every_path() {
    let dir = Dir::new();
    dir.file("f", b"abc");
    let pseudo = pseudo_files();
    let mut names: Vec<&str> = pseudo.clone();
    names.push("f");
    names.extend(pseudo.iter().copied());
    let expected: String = names
        .iter()
        .map(|n| {
            let data = if *n == "f" {
                b"abc".to_vec()
            } else {
                fs::read(n).unwrap()
            };
            format!("{}  {n}\n", reference(512, 512, &data))
        })
        .collect();
    dir.file("list", expected.as_bytes());
    let oks: String = names.iter().map(|n| format!("{n}: OK\n")).collect();
    for prefix in every_backend_and_path() {
        let out = dir.cmd().args(&prefix).args(&names).output().unwrap();
        assert_eq!(stdout_of(&out), expected, "{prefix:?}");
        assert_eq!(stderr_of(&out), "", "{prefix:?}");
        assert_eq!(out.status.code(), Some(0), "{prefix:?}");

        let out = dir
            .cmd()
            .args(&prefix)
            .args(["-c", "list"])
            .output()
            .unwrap();
        assert_eq!(stdout_of(&out), oks, "{prefix:?}");
        assert_eq!(stderr_of(&out), "", "{prefix:?}");
        assert_eq!(out.status.code(), Some(0), "{prefix:?}");

        let out = dir
            .cmd()
            .args(&prefix)
            .args(["/proc/self/mem", "f"])
            .output()
            .unwrap();
        assert_eq!(
            stdout_of(&out),
            format!("{}  f\n", reference(512, 512, b"abc")),
            "{prefix:?}"
        );
        assert_eq!(
            stderr_of(&out),
            "skeinsum: /proc/self/mem: Input/output error\n",
            "{prefix:?}"
        );
        assert_eq!(out.status.code(), Some(1), "{prefix:?}");
    }
}

#[cfg(target_os = "linux")]
mod size_zero_files {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(12))]

        /// Any mix of regular files (empty ones among them) and files whose
        /// `stat` size is not their length: the batch prints what `-j 1`
        /// prints, and both the digests of what the files hold.
        #[test]
        fn batches_of_pseudo_and_regular_files_equal_one_after_another(
            picks in proptest::collection::vec((any::<bool>(), 0usize..3, 0usize..40_000), 2..12),
        ) {
            let dir = Dir::new();
            let pseudo = pseudo_files();
            let mut names = Vec::new();
            let mut expected = String::new();
            for (i, (regular, which, size)) in picks.into_iter().enumerate() {
                let (name, data) = if regular {
                    let size = if which == 0 { 0 } else { size };
                    let name = format!("r{i}");
                    let data = pattern(size, i as u32);
                    dir.file(&name, &data);
                    (name, data)
                } else {
                    let name = pseudo[which % pseudo.len()].to_string();
                    let data = fs::read(&name).unwrap();
                    (name, data)
                };
                expected.push_str(&format!("{}  {name}\n", reference(512, 512, &data)));
                names.push(name);
            }
            let batched = dir.cmd().args(["-j", "2"]).args(&names).output().unwrap();
            let sequential = dir.cmd().args(["-j", "1"]).args(&names).output().unwrap();
            prop_assert_eq!(stdout_of(&batched), expected.clone());
            prop_assert_eq!(stdout_of(&sequential), expected);
            prop_assert_eq!(stderr_of(&batched), "");
            prop_assert!(batched.status.success());
        }
    }
}

/// A list read from standard input that names `-` (standard input again)
/// ends: GNU takes that line for a malformed one. Piped, redirected from a
/// file, on every path; killed after 30 s, so a hang fails.
#[test]
fn check_list_from_stdin_naming_stdin_ends() {
    let dir = Dir::new();
    dir.file("f", b"abc");
    let list = format!(
        "{}  -\n{}  f\n",
        reference(512, 512, b""),
        reference(512, 512, b"abc")
    );
    let listed = dir.file("list", list.as_bytes());
    for prefix in every_backend_and_path() {
        for (args, redirected) in [(&["-c", "-w"][..], false), (&["-c", "-w", "-"][..], true)] {
            let mut cmd = std::process::Command::new(&*BIN);
            cmd.current_dir(dir.path()).args(&prefix).args(args);
            let out = if redirected {
                let stdin = Stdio::from(fs::File::open(&listed).unwrap());
                run_with_timeout(cmd, stdin, None, Duration::from_secs(30))
            } else {
                let input = Some(list.as_bytes().to_vec());
                run_with_timeout(cmd, Stdio::piped(), input, Duration::from_secs(30))
            };
            let out = out.unwrap_or_else(|| panic!("{prefix:?} {args:?}: hangs"));
            assert_eq!(stdout_of(&out), "f: OK\n", "{prefix:?} {args:?}");
            assert_eq!(
                stderr_of(&out),
                "skeinsum: 'standard input': 1: improperly formatted Skein checksum line\n\
                 skeinsum: WARNING: 1 line is improperly formatted\n",
                "{prefix:?} {args:?}"
            );
            assert_eq!(out.status.code(), Some(0), "{prefix:?} {args:?}");
        }
    }
}

mod stdin_lists {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(12))]

        /// Any list read from standard input (piped or redirected from a
        /// file), with lines naming `-` anywhere among good and bad ones,
        /// ends; each `-` line is a malformed one, the others are checked.
        #[test]
        fn lists_from_stdin_naming_stdin_always_end(
            kinds in proptest::collection::vec(0u8..3, 1..20),
            redirected in any::<bool>(),
            threads in 1u8..3,
        ) {
            let dir = Dir::new();
            dir.file("f", b"abc");
            let (good, dash) = (
                format!("{}  f\n", reference(512, 512, b"abc")),
                format!("{}  -\n", reference(512, 512, b"")),
            );
            let (mut list, mut stdout, mut warnings) = (String::new(), String::new(), String::new());
            let mut malformed = 0;
            for (i, kind) in kinds.iter().enumerate() {
                match kind {
                    0 => {
                        list.push_str(&good);
                        stdout.push_str("f: OK\n");
                    }
                    _ => {
                        list.push_str(if *kind == 1 { &dash } else { "junk\n" });
                        malformed += 1;
                        warnings.push_str(&format!(
                            "skeinsum: 'standard input': {}: improperly formatted Skein checksum line\n",
                            i + 1
                        ));
                    }
                }
            }
            let listed = dir.file("list", list.as_bytes());
            let mut cmd = std::process::Command::new(&*BIN);
            cmd.current_dir(dir.path())
                .args(["-j", &threads.to_string(), "-c", "-w"]);
            let out = if redirected {
                let stdin = Stdio::from(fs::File::open(&listed).unwrap());
                run_with_timeout(cmd, stdin, None, Duration::from_secs(30))
            } else {
                let input = Some(list.into_bytes());
                run_with_timeout(cmd, Stdio::piped(), input, Duration::from_secs(30))
            };
            let out = out.expect("skeinsum -c of a list from stdin hangs");
            prop_assert_eq!(stdout_of(&out), stdout.clone());
            if stdout.is_empty() {
                warnings.push_str(
                    "skeinsum: 'standard input': no properly formatted Skein checksum lines found\n",
                );
            } else if malformed > 0 {
                warnings.push_str(&format!(
                    "skeinsum: WARNING: {malformed} line{} improperly formatted\n",
                    if malformed == 1 { " is" } else { "s are" }
                ));
            }
            prop_assert_eq!(stderr_of(&out), warnings);
            prop_assert_eq!(out.status.code(), Some(i32::from(stdout.is_empty())));
        }
    }
}

/// Standard input open for writing only is `Bad file descriptor` (GNU),
/// never the empty input's digest: alone, among files, and as a list.
#[cfg(unix)]
#[test]
fn write_only_stdin_is_a_bad_file_descriptor() {
    let dir = Dir::new();
    dir.file("f", b"abc");
    dir.file("w", b"");
    let d = reference(512, 512, b"abc");
    for prefix in every_backend_and_path() {
        let p = prefix.join(" ");
        for redirect in ["0>/dev/full", "0>>w"] {
            sh(&dir, &format!("exec \"$0\" {p} {redirect}"))
                .assert()
                .code(1)
                .stdout("")
                .stderr("skeinsum: -: Bad file descriptor\n");
            sh(&dir, &format!("exec \"$0\" {p} f - f {redirect}"))
                .assert()
                .code(1)
                .stdout(format!("{d}  f\n{d}  f\n"))
                .stderr("skeinsum: -: Bad file descriptor\n");
            sh(&dir, &format!("exec \"$0\" {p} -c {redirect}"))
                .assert()
                .code(1)
                .stdout("")
                .stderr("skeinsum: 'standard input': Bad file descriptor\n");
        }
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
    let dir = Dir::new();
    dir.file("abc", b"abc");
    dir.file("abc2", b"abc");
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
                .assert()
                .success()
                .stdout(format!("{digest}  abc\n{digest}  abc2\n"));
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

/// `sh -c` of `skeinsum ARGS 2>&1` in `dir`: stdout and stderr in one
/// stream, in the order they were written.
fn merged(dir: &Dir, args: &[String]) -> (String, Option<i32>) {
    let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
    let out = sh(dir, &format!("exec \"$0\" {} 2>&1", quoted.join(" ")))
        .output()
        .unwrap();
    (stdout_of(&out), out.status.code())
}

/// `-c -w`: a malformed line's warning comes between the results of the
/// lines around it, on the batch path as on `-j 1` (and GNU); a long list
/// with malformed lines everywhere under `-w --strict` prints the same bytes
/// on both paths.
#[test]
fn check_warnings_keep_the_order_of_the_list() {
    let dir = Dir::new();
    dir.file("f", b"abc");
    let good = format!("{}  f\n", reference(512, 512, b"abc"));
    dir.file("short", format!("{good}bad line\n{good}").as_bytes());
    for i in 0..20usize {
        dir.file(&format!("g{i}"), &pattern(i * 300, i as u32));
    }
    let mut long = String::new();
    let mut expected_long = String::new();
    for i in 0..500usize {
        if i % 7 == 3 || i % 53 == 0 {
            long.push_str("not a checksum\n");
            expected_long.push_str(&format!(
                "skeinsum: long: {}: improperly formatted Skein checksum line\n",
                i + 1
            ));
        } else {
            let name = format!("g{}", i % 20);
            let data = pattern((i % 20) * 300, (i % 20) as u32);
            long.push_str(&format!("{}  {name}\n", reference(512, 512, &data)));
            expected_long.push_str(&format!("{name}: OK\n"));
        }
    }
    expected_long.push_str("skeinsum: WARNING: 80 lines are improperly formatted\n");
    dir.file("long", long.as_bytes());
    for prefix in every_backend_and_path() {
        let args = |more: &[&str]| -> Vec<String> {
            prefix
                .iter()
                .cloned()
                .chain(more.iter().map(|s| s.to_string()))
                .collect()
        };
        assert_eq!(
            merged(&dir, &args(&["-c", "-w", "short"])),
            (
                "f: OK\n\
                 skeinsum: short: 2: improperly formatted Skein checksum line\n\
                 f: OK\n\
                 skeinsum: WARNING: 1 line is improperly formatted\n"
                    .to_string(),
                Some(0)
            ),
            "{prefix:?}"
        );
        assert_eq!(
            merged(&dir, &args(&["-c", "-w", "--strict", "long"])),
            (expected_long.clone(), Some(1)),
            "{prefix:?}"
        );
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

/// `-w`, `--quiet` and `--status`: the last one given wins, as in GNU; and
/// `--ignore-missing --status` with nothing verified prints nothing (GNU
/// 9.1), exit 1.
#[test]
fn check_output_options_last_one_wins() {
    let dir = Dir::new();
    dir.file("f", b"abc");
    let good = format!("{}  f\n", reference(512, 512, b"abc"));
    dir.file("L", format!("{good}bad\n{good}").as_bytes());
    dir.file(
        "M",
        format!("{}  missing\n", reference(512, 512, b"")).as_bytes(),
    );
    let warned = "f: OK\n\
                  skeinsum: L: 2: improperly formatted Skein checksum line\n\
                  f: OK\n\
                  skeinsum: WARNING: 1 line is improperly formatted\n";
    let summary = "skeinsum: WARNING: 1 line is improperly formatted\n";
    for prefix in every_backend_and_path() {
        for (options, expected, code) in [
            (&["--status", "-w"][..], warned, 0),
            (&["--quiet", "-w"][..], warned, 0),
            (&["-w", "--quiet"][..], summary, 0),
            (&["--status", "--quiet"][..], summary, 0),
            (&["-w", "--status"][..], "", 0),
            (&["--quiet", "--status"][..], "", 0),
        ] {
            let args: Vec<String> = prefix
                .iter()
                .map(String::as_str)
                .chain(["-c"])
                .chain(options.iter().copied())
                .chain(["L"])
                .map(String::from)
                .collect();
            assert_eq!(
                merged(&dir, &args),
                (expected.to_string(), Some(code)),
                "{prefix:?} {options:?}"
            );
        }
        let args = |more: &[&str]| -> Vec<String> {
            prefix
                .iter()
                .map(String::as_str)
                .chain(more.iter().copied())
                .map(String::from)
                .collect()
        };
        assert_eq!(
            merged(&dir, &args(&["-c", "--ignore-missing", "--status", "M"])),
            (String::new(), Some(1)),
            "{prefix:?}"
        );
        assert_eq!(
            merged(&dir, &args(&["-c", "--ignore-missing", "M"])),
            ("skeinsum: M: no file was verified\n".to_string(), Some(1)),
            "{prefix:?}"
        );
    }
}

/// Tag lines spaced as GNU sha256sum accepts its SHA-256 tag lines (checked
/// against GNU coreutils 9.1: `SHA256 (f)= H`, `SHA256(f) = H`, `SHA256 (f)
/// =  H`, tabs around `=`, no space at all), and the ones it refuses (two
/// spaces before `(`, a blank after the digest) refused here too.
#[test]
fn tag_lines_spaced_as_gnu_accepts_them() {
    let dir = Dir::new();
    dir.file("f", b"abc");
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
    for prefix in every_backend_and_path() {
        let out = dir
            .cmd()
            .args(&prefix)
            .args(["-c", "list"])
            .output()
            .unwrap();
        assert_eq!(stdout_of(&out), "f: OK\n".repeat(7), "{prefix:?}");
        assert_eq!(
            stderr_of(&out),
            "skeinsum: WARNING: 4 lines are improperly formatted\n",
            "{prefix:?}"
        );
        assert_eq!(out.status.code(), Some(0), "{prefix:?}");
    }
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
    for prefix in every_backend_and_path() {
        let out = dir
            .cmd()
            .args(&prefix)
            .args(["-c", "list"])
            .output()
            .unwrap();
        assert_eq!(
            out.stdout,
            b"a: OK\na: OK\na: OK\na\\b: OK\nc\rd: OK\n\\n\\nl\\\\: OK\n",
            "{prefix:?}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
        assert_eq!(stderr_of(&out), "", "{prefix:?}");
        assert_eq!(out.status.code(), Some(0), "{prefix:?}");
    }
}

/// `--key-hex -deadbeef` (and the other hex options): the value is refused
/// without a character of it, and the message says how to give it.
#[test]
fn hex_values_starting_with_a_dash_are_not_echoed() {
    let dir = Dir::new();
    dir.file("m", b"x");
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

/// A mapped file of the batch replaced by rename with a much shorter one
/// between the lookup and the open: the mapping (of the looked-up length)
/// faults past the new file's end, which is no change of either file; the
/// new file is hashed on the sequential path, exit 0.
#[cfg(unix)]
#[test]
fn shorter_file_renamed_in_between_lookup_and_open() {
    let dir = Dir::new();
    dir.file("a", &pattern(600_000, 1));
    dir.file("b", &pattern(3000, 2));
    let out = through_stage(
        &dir,
        "lookup",
        &["-a", "512", "-l", "256", "-j", "2", "a", "b"],
        || {
            let new = dir.file("new", &pattern(10_000, 3));
            fs::rename(new, dir.path().join("a")).unwrap();
        },
    );
    let expected = format!(
        "{}  a\n{}  b\n",
        reference(512, 256, &pattern(10_000, 3)),
        reference(512, 256, &pattern(3000, 2))
    );
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected);
    assert_eq!(out.status.code(), Some(0));
}

/// No helper thread to be had (as under a pids cgroup or `RLIMIT_NPROC`):
/// a large file read ahead (`--no-mmap`), a large mapped file (prefaulted
/// on another thread) and a pipe are hashed on the main thread, not a panic.
#[test]
fn no_helper_thread_is_no_panic() {
    let dir = Dir::new();
    let data = pattern(5 << 20, 7);
    dir.file("big", &data);
    for extra in [&["--no-mmap"][..], &[][..]] {
        let out = skeinsum()
            .current_dir(dir.path())
            .env("SKEINSUM_TEST_REFUSE_THREAD", "1")
            // One after another: the mapped file on the sequential path.
            .args(["-j", "1", "-a", "512", "-l", "256"])
            .args(extra)
            .args(["big", "-"])
            .write_stdin(data.clone())
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap();
        let digest = reference(512, 256, &data);
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{extra:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            format!("{digest}  big\n{digest}  -\n"),
            "{extra:?}"
        );
        assert_eq!(out.status.code(), Some(0));
    }
}
