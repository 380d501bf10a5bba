//! `skeinsum` run as a hostile or unlucky user would run it: `-` beside a
//! file named `-`, too few file descriptors, no thread to be had, files
//! under a lease. Real limits only (`prlimit`, `setpriv`, a real lease);
//! a precondition that cannot be set up fails the test, saying why.
//!
//! Expected digests come from the RustCrypto `skein` crate and the official
//! golden file, never from earlier output of the tool.

use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use tempfile::TempDir;

mod common;
use common::{rustcrypto_digest, BIN, HOOKS};

/// Run the binary in `dir` behind `wrapper` (a program and its arguments
/// that end by running the rest, as `prlimit --nofile=16`), with `stdin`
/// as standard input (empty when `None`), no test hook set.
fn run(dir: &Path, wrapper: &[&str], args: &[&str], stdin: Option<&[u8]>) -> Output {
    run_with(dir, wrapper, args, Input::Pipe(stdin), &[], |_| {})
}

/// Standard input of a run.
enum Input<'a> {
    /// A pipe these bytes are written to (none: empty).
    Pipe(Option<&'a [u8]>),
}

/// [`run`], with the test-hook variables `hooks` set and `during` called
/// with the child once it is started.
fn run_with(
    dir: &Path,
    wrapper: &[&str],
    args: &[&str],
    stdin: Input<'_>,
    hooks: &[(&str, &str)],
    during: impl FnOnce(&mut std::process::Child),
) -> Output {
    let mut cmd = match wrapper.split_first() {
        Some((program, rest)) => {
            let mut cmd = Command::new(program);
            cmd.args(rest).arg(BIN.as_str());
            cmd
        }
        None => Command::new(BIN.as_str()),
    };
    for hook in HOOKS {
        cmd.env_remove(hook);
    }
    cmd.envs(hooks.iter().copied())
        .current_dir(dir)
        .args(args)
        .stdin(match stdin {
            Input::Pipe(_) => Stdio::piped(),
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {:?}: {e}", cmd.get_program()));
    let input = match stdin {
        Input::Pipe(bytes) => bytes.unwrap_or_default().to_vec(),
    };
    // Written from another thread: a binary that does not read its input
    // must not block the test.
    let writer = child.stdin.take().map(|mut pipe| {
        std::thread::spawn(move || {
            use std::io::Write;
            let _ = pipe.write_all(&input);
        })
    });
    during(&mut child);
    let out = wait_bounded(child, Duration::from_secs(60));
    if let Some(writer) = writer {
        writer.join().unwrap();
    }
    out
}

/// The child's output (read while it runs: a full pipe must not stop
/// it), or a panic, the child killed, after `limit`.
fn wait_bounded(child: std::process::Child, limit: Duration) -> Output {
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(child.wait_with_output()));
    match rx.recv_timeout(limit) {
        Ok(out) => out.unwrap(),
        Err(_) => {
            // SAFETY: a signal to our own child, not yet reaped (the
            // thread that waits for it has not returned).
            unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) };
            panic!("skeinsum did not finish within {limit:?}");
        }
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The line sha256sum's format gives `data` under `name`, Skein-512-512
/// by RustCrypto (the default algorithm).
fn line(data: &[u8], name: &str) -> String {
    format!(
        "{}  {name}\n",
        hex::encode(rustcrypto_digest(512, 512, data))
    )
}

// ------------------------------------------------ `-` is standard input

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
        assert_eq!(text(&out.stdout), "-: FAILED\nabc: OK\n", "{threads}");
        assert_eq!(
            text(&out.stderr),
            "skeinsum: WARNING: 1 computed checksum did NOT match\n"
        );
        assert_eq!(out.status.code(), Some(1));

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
