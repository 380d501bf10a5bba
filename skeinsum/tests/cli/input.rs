//! Where the bytes come from: standard input, `/dev/stdin`, empty files,
//! named pipes, large files and streams read ahead, pseudo-files whose
//! `stat` size is not their length, no helper thread, and `-` among files,
//! `-r` operands and `-c` lists (standard input, never a file named `-`).

use std::fs;
use std::io::{Read, Write};
use std::process::Stdio;
use std::time::Duration;

use tempfile::TempDir;

use crate::oracle::*;
use crate::util::*;

/// `-` beside other names is standard input on the batch path too (`-j 2`),
/// never the file `./-`, as with `-j 1` and sha256sum; with `-r` as well.
#[test]
fn dash_among_files_is_standard_input_not_a_file_named_dash() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    fs::write(d.join("-"), b"FILE CONTENT\n").unwrap();
    fs::write(d.join("abc"), b"hi\n").unwrap();
    fs::create_dir(d.join("sub")).unwrap();
    fs::write(d.join("sub/x"), b"x\n").unwrap();
    let stdin = b"STDIN CONTENT\n";
    let line256 = |data: &[u8], name: &str| {
        format!(
            "{}  {name}\n",
            hex::encode(rustcrypto_digest(256, 256, data))
        )
    };
    for threads in ["-j1", "-j2"] {
        let out = run(d, &[], &["-a", "256", threads, "-", "abc"], Some(stdin));
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let expected = line256(stdin, "-") + &line256(b"hi\n", "abc");
        assert_eq!(text(&out.stdout), expected, "{threads}");

        let out = run(
            d,
            &[],
            &["-a", "256", threads, "-r", "-", "sub"],
            Some(stdin),
        );
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let expected = line256(stdin, "-") + &line256(b"x\n", "sub/x");
        assert_eq!(text(&out.stdout), expected, "-r {threads}");
    }
}

/// A check list naming `-` checks standard input: other input than the
/// listed digest's is FAILED (status 1), never an OK for the file `./-`
/// that happens to match; the listed input itself is OK.
#[test]
fn check_list_naming_dash_checks_standard_input() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let file_content = b"FILE CONTENT\n";
    fs::write(d.join("-"), file_content).unwrap();
    fs::write(d.join("abc"), b"hi\n").unwrap();
    let list = |dash: &[u8]| line(dash, "-") + &line(b"hi\n", "abc");
    fs::write(d.join("file-list"), list(file_content)).unwrap();
    fs::write(d.join("stdin-list"), list(b"STDIN CONTENT\n")).unwrap();
    for threads in ["-j1", "-j2"] {
        let out = run(
            d,
            &[],
            &[threads, "-c", "file-list"],
            Some(b"anything else\n"),
        );
        assert_eq!(
            outcome(&out),
            (
                Some(1),
                "-: FAILED\nabc: OK\n".to_string(),
                "skeinsum: WARNING: 1 computed checksum did NOT match\n".to_string()
            ),
            "{threads}"
        );

        let out = run(
            d,
            &[],
            &[threads, "-c", "stdin-list"],
            Some(b"STDIN CONTENT\n"),
        );
        assert_eq!(text(&out.stdout), "-: OK\nabc: OK\n", "{threads}");
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    }
}

#[test]
fn standard_input() {
    let data = pattern(3_000_000, 9);
    let expected = format!("{}  -\n", reference(512, 512, &data));
    skeinsum()
        .write_stdin(data.clone())
        .prints(expected.clone());
    skeinsum()
        .arg("-")
        .write_stdin(data.clone())
        .prints(expected);
    skeinsum()
        .write_stdin("")
        .prints(format!("{}  -\n", reference(512, 512, b"")));
}

#[cfg(target_os = "linux")]
#[test]
fn dev_stdin_as_a_file() {
    let data = pattern(50_000, 4);
    skeinsum()
        .args(["-a", "1024", "/dev/stdin"])
        .write_stdin(data.clone())
        .prints(format!("{}  /dev/stdin\n", reference(1024, 1024, &data)));
}

#[test]
fn empty_file() {
    let dir = Dir::with(&[("empty", b"")]);
    for state in [256, 512, 1024] {
        dir.cmd()
            .args(["-a", &state.to_string(), "empty"])
            .prints(format!("{}  empty\n", reference(state, state, b"")));
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
        .prints(format!("{}  fifo\n", reference(256, 256, &data)));
    writer.join().unwrap();
}

/// Result lines are written in pieces, but none waits behind a stream: the
/// line of the file before a FIFO arrives while the FIFO is still open and
/// silent.
#[cfg(unix)]
#[test]
fn no_result_line_waits_behind_a_stream() {
    let dir = Dir::with(&[("f", b"data")]);
    let fifo = dir.fifo("fifo");
    let mut child = std_skeinsum()
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
    let size = 64 << 20;
    dir.zeros("big", size);
    let expected = format!("{}  big\n", reference_zeros(size));
    dir.cmd()
        .args(["--progress", "big"])
        .gives(0, expected.clone(), "");
    dir.cmd().args(["--no-mmap", "big"]).prints(expected);
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
    let dir = Dir::with(&[("f", b"abc")]);
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
    expect_on_every_path(dir.path(), &names, 0, &expected, "");
    expect_on_every_path(dir.path(), &["-c", "list"], 0, &oks, "");
    expect_on_every_path(
        dir.path(),
        &["/proc/self/mem", "f"],
        1,
        &line(b"abc", "f"),
        "skeinsum: /proc/self/mem: Input/output error\n",
    );
}

#[cfg(target_os = "linux")]
mod size_zero_files {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(proptest_config(12))]

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

/// A FIFO operand that waits for its writer: the lines of the files before
/// it are out first (stdout a file, where lines are otherwise gathered),
/// as with sha256sum, so that a reader of them, or a Ctrl-C, misses none;
/// one by one, on the batch path, and for a `-c` list naming the FIFO.
#[test]
fn lines_before_a_waiting_fifo_are_written_first() {
    let abc = line(b"abc", "abc");
    let later = line(b"later", "ff");
    for args in [
        &["-j1", "abc", "ff"][..],
        &["-j2", "abc", "ff"],
        &["-j1", "-c", "list"],
        &["-j2", "-c", "list"],
    ] {
        let dir = Dir::new();
        dir.file("abc", b"abc");
        let fifo = dir.fifo("ff");
        dir.file("list", format!("{abc}{later}").as_bytes());
        let checking = args.contains(&"-c");
        let first = if checking {
            "abc: OK\n".to_string()
        } else {
            abc.clone()
        };
        let log = dir.path().join("out");
        let child = std_skeinsum()
            .args(args)
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .stdout(fs::File::create(&log).unwrap())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Bounded: a line that never comes fails the test below.
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        let mut written = String::new();
        while written != first && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
            written = fs::read_to_string(&log).unwrap();
        }
        // The writer comes either way, so that the run ends.
        fs::write(&fifo, b"later").unwrap();
        let out = wait_bounded(child, Duration::from_secs(60));
        assert_eq!(
            written, first,
            "{args:?}: nothing before the FIFO's writer came"
        );
        let all = if checking {
            "abc: OK\nff: OK\n".to_string()
        } else {
            format!("{abc}{later}")
        };
        assert_eq!(fs::read_to_string(&log).unwrap(), all, "{args:?}");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr_of(&out));
    }
}
