//! `skeinsum` run as a hostile or unlucky user would run it: `-` beside a
//! file named `-`, too few file descriptors, no thread to be had, files
//! under a lease. Real limits only (`prlimit`, `setpriv`, a real lease);
//! a precondition that cannot be set up fails the test, saying why.
//!
//! Expected digests come from the RustCrypto `skein` crate and the official
//! golden file, never from earlier output of the tool.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use tempfile::TempDir;

mod common;
use common::{pattern, rustcrypto_digest, BIN, HOOKS};

#[path = "../../tests/common/golden.rs"]
mod golden;

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
    /// A regular file (`< file`).
    File(&'a Path),
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
    // Descriptors 0, 1 and 2 only, whatever the test runner left open
    // without close-on-exec: the limits of descriptors count from there.
    // SAFETY: the closure runs in the child between fork and exec and only
    // makes system calls that are async-signal-safe (close_range, close).
    unsafe {
        use std::os::unix::process::CommandExt;
        cmd.pre_exec(|| {
            if libc::syscall(libc::SYS_close_range, 3u32, u32::MAX, 0u32) != 0 {
                for fd in 3..4096 {
                    libc::close(fd);
                }
            }
            Ok(())
        });
    }
    cmd.envs(hooks.iter().copied())
        .current_dir(dir)
        .args(args)
        .stdin(match stdin {
            Input::Pipe(_) => Stdio::piped(),
            Input::File(path) => fs::File::open(path).unwrap().into(),
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {:?}: {e}", cmd.get_program()));
    let input = match stdin {
        Input::Pipe(bytes) => bytes.unwrap_or_default().to_vec(),
        Input::File(_) => Vec::new(),
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

/// A directory readable by everyone (for runs as `nobody`).
fn open_dir() -> TempDir {
    let dir = TempDir::new().unwrap();
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

/// `count` files `NAME/fNNN` of different sizes (a few bytes to 40 KiB:
/// read and mapped), with their expected lines in name order.
fn many_files(dir: &Path, name: &str, count: usize) -> String {
    let sub = dir.join(name);
    fs::create_dir(&sub).unwrap();
    fs::set_permissions(&sub, fs::Permissions::from_mode(0o755)).unwrap();
    let mut expected = String::new();
    for i in 0..count {
        let data = pattern(1 + (i * 4093) % 40_000, i as u32);
        let file = format!("{name}/f{i:03}");
        fs::write(dir.join(&file), &data).unwrap();
        expected.push_str(&line(&data, &file));
    }
    expected
}

fn names(dir: &Path, name: &str) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir.join(name))
        .unwrap()
        .map(|e| format!("{name}/{}", e.unwrap().file_name().to_str().unwrap()))
        .collect();
    names.sort();
    names
}

/// `prlimit` must be there: a test that cannot set its limit fails.
fn prlimit(limit: &str) -> Vec<String> {
    let found = Command::new("prlimit")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(found, "util-linux's prlimit is needed to set a real limit");
    vec!["prlimit".to_string(), limit.to_string()]
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// As root, `setpriv` to `nobody` (65534) ahead of `rest`, so that limits
/// and permissions hold as for an ordinary user; otherwise `rest` alone.
fn unprivileged(rest: &[String]) -> Vec<String> {
    let mut wrapper = Vec::new();
    if is_root() {
        let found = Command::new("setpriv")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        assert!(found, "util-linux's setpriv is needed to run as nobody");
        wrapper.extend(
            [
                "setpriv",
                "--reuid=65534",
                "--regid=65534",
                "--clear-groups",
            ]
            .map(String::from),
        );
    }
    wrapper.extend_from_slice(rest);
    wrapper
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

// ------------------------------------------------ file descriptors

/// The fewest descriptors skeinsum is documented to work with (as
/// sha256sum -c): 0, 1, 2, a check list and one file.
const MIN_DESCRIPTORS: &str = "--nofile=5";

/// Over 100 files with 16 descriptors, and with the minimum: every file
/// hashed (on the batch path and one by one), status 0; `--tree` too.
#[test]
fn few_descriptors_every_file_hashed() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let expected = many_files(d, "many", 100);
    let files = names(d, "many");
    for limit in ["--nofile=16", MIN_DESCRIPTORS] {
        for threads in ["-j2", "-j1"] {
            let mut args = vec![threads];
            args.extend(files.iter().map(String::as_str));
            let out = run(d, &strs(&prlimit(limit)), &args, None);
            assert_eq!(text(&out.stderr), "", "{limit} {threads}");
            assert_eq!(text(&out.stdout), expected, "{limit} {threads}");
            assert_eq!(out.status.code(), Some(0));
        }
    }

    // Tree mode: one golden tree message in each of 100 files.
    let kat = golden::load()
        .into_iter()
        .find(|e| {
            e.tree.is_some()
                && e.msg_bits % 8 == 0
                && e.msg_bits > 0
                && e.key.as_ref().is_none_or(|k| k.is_empty())
        })
        .expect("the golden file has tree entries");
    let (l, f, m) = kat.tree.unwrap();
    fs::create_dir(d.join("tree")).unwrap();
    let mut expected = String::new();
    for i in 0..100 {
        let name = format!("tree/t{i:03}");
        fs::write(d.join(&name), &kat.msg).unwrap();
        expected.push_str(&format!("{}  {name}\n", hex::encode(&kat.result)));
    }
    let (state, bits, tree) = (
        kat.state_bits.to_string(),
        kat.output_bits.to_string(),
        format!("--tree={l},{f},{m}"),
    );
    let mut args = vec!["-a", &state, "-l", &bits, &tree, "-j2"];
    let tree_files = names(d, "tree");
    args.extend(tree_files.iter().map(String::as_str));
    let out = run(d, &strs(&prlimit(MIN_DESCRIPTORS)), &args, None);
    assert_eq!(text(&out.stderr), "", "--tree");
    assert_eq!(text(&out.stdout), expected, "--tree");
    assert_eq!(out.status.code(), Some(0));
}

/// `-c` of a list of 100 files with 20 descriptors and with the minimum:
/// every file OK, status 0; a list that names `-` reads standard input
/// at the minimum too, a pipe or a regular file (whose snapshot, taken
/// before and after, must not need a descriptor of its own).
#[test]
fn few_descriptors_every_listed_file_verified() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let mut list = many_files(d, "many", 100);
    list.push_str(&line(b"from stdin\n", "-"));
    fs::write(d.join("list"), &list).unwrap();
    fs::write(d.join("stdin"), b"from stdin\n").unwrap();
    let mut oks: String = names(d, "many")
        .iter()
        .map(|n| format!("{n}: OK\n"))
        .collect();
    oks.push_str("-: OK\n");
    for limit in ["--nofile=20", MIN_DESCRIPTORS] {
        for threads in ["-j2", "-j1"] {
            let out = run(
                d,
                &strs(&prlimit(limit)),
                &[threads, "-c", "list"],
                Some(b"from stdin\n"),
            );
            assert_eq!(text(&out.stderr), "", "{limit} {threads}");
            assert_eq!(text(&out.stdout), oks, "{limit} {threads}");
            assert_eq!(out.status.code(), Some(0));

            let out = run_with(
                d,
                &strs(&prlimit(limit)),
                &[threads, "-c", "list"],
                Input::File(&d.join("stdin")),
                &[],
                |_| {},
            );
            assert_eq!(text(&out.stderr), "", "< file {limit} {threads}");
            assert_eq!(text(&out.stdout), oks, "< file {limit} {threads}");
            assert_eq!(out.status.code(), Some(0));
        }
    }
}

/// `-r` lists the next directories of a level on two threads at once.
/// With the minimum of descriptors, one listing is held (the `walk` pause)
/// with its directory open, so the other finds no descriptor free: it is
/// listed again on its own, every file hashed, no directory an error.
#[test]
fn few_descriptors_every_walked_directory_listed() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let mut expected = String::new();
    for sub in ["t/a", "t/b"] {
        fs::create_dir_all(d.join(sub)).unwrap();
        for j in 0..3 {
            let data = pattern(100 + j, j as u32);
            let name = format!("{sub}/f{j}");
            fs::write(d.join(&name), &data).unwrap();
            expected.push_str(&line(&data, &name));
        }
    }
    let paused = d.join("paused");
    let pause = format!("walk#2:{}", paused.display());
    let out = run_with(
        d,
        &strs(&prlimit(MIN_DESCRIPTORS)),
        &["-j2", "-r", "t"],
        Input::Pipe(None),
        &[("SKEINSUM_TEST_PAUSE", &pause)],
        |child| {
            // The pause file takes a descriptor too, so it may not come
            // (then the listings ran as they could, and the output says
            // how that went).
            let deadline = Instant::now() + Duration::from_secs(30);
            while !paused.exists() && child.try_wait().unwrap().is_none() {
                assert!(Instant::now() < deadline, "the walk never paused");
                std::thread::sleep(Duration::from_millis(2));
            }
            if paused.exists() {
                // Time for the other thread to try its listing. However
                // long, the outcome must be the same; the hold only makes
                // the two listings meet.
                std::thread::sleep(Duration::from_millis(200));
                fs::remove_file(&paused).unwrap();
            }
        },
    );
    assert_eq!(text(&out.stderr), "");
    assert_eq!(text(&out.stdout), expected);
    assert_eq!(out.status.code(), Some(0));
}

/// A file that cannot be opened (permission denied, for `nobody`) is still
/// that file's error with few descriptors; every other file is hashed.
#[test]
fn few_descriptors_a_locked_file_is_still_its_own_error() {
    let dir = open_dir();
    let d = dir.path();
    let all = many_files(d, "many", 100);
    fs::set_permissions(d.join("many/f050"), fs::Permissions::from_mode(0o000)).unwrap();
    let expected: String = all
        .lines()
        .filter(|l| !l.ends_with("many/f050"))
        .map(|l| format!("{l}\n"))
        .collect();
    let files = names(d, "many");
    let wrapper = unprivileged(&prlimit("--nofile=16"));
    for threads in ["-j2", "-j1"] {
        let mut args = vec![threads];
        args.extend(files.iter().map(String::as_str));
        let out = run(d, &strs(&wrapper), &args, None);
        assert_eq!(
            text(&out.stderr),
            "skeinsum: many/f050: Permission denied\n",
            "{threads}"
        );
        assert_eq!(text(&out.stdout), expected, "{threads}");
        assert_eq!(out.status.code(), Some(1));
    }
}

// ------------------------------------------------ no thread to be had

/// With no thread to be had (`RLIMIT_NPROC` of 1 for `nobody`), every mode
/// hashes on the calling thread: right output, status 0, and no message
/// about `--threads`, with `-j` and without.
#[test]
fn no_thread_to_be_had_hashes_on_the_calling_thread() {
    let wrapper = unprivileged(&prlimit("--nproc=1"));
    let wrapper = strs(&wrapper);
    let dir = open_dir();
    let d = dir.path();
    // The precondition: under the same limit even a shell cannot fork.
    let mut sh = Command::new(wrapper[0]);
    sh.args(&wrapper[1..])
        .args(["sh", "-c", "/bin/true; /bin/true"])
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let forked = sh.status().unwrap();
    assert!(
        !forked.success(),
        "{wrapper:?} does not stop a new process (does the user have no limit, or is it exempt?)"
    );

    let expected = many_files(d, "many", 20);
    let files = names(d, "many");
    let oks: String = files.iter().map(|n| format!("{n}: OK\n")).collect();
    fs::write(d.join("list"), &expected).unwrap();
    fs::set_permissions(d.join("list"), fs::Permissions::from_mode(0o644)).unwrap();
    for threads in [None, Some("-j2"), Some("-j4")] {
        let with = |args: &[&str]| -> Vec<String> {
            threads
                .into_iter()
                .chain(args.iter().copied())
                .map(String::from)
                .collect()
        };
        let mut plain = with(&[]);
        plain.extend(files.iter().cloned());
        for (args, want) in [
            (plain, expected.clone()),
            (with(&["-r", "many"]), expected.clone()),
            (with(&["-c", "list"]), oks.clone()),
        ] {
            let out = run(d, &wrapper, &strs(&args), None);
            assert_eq!(text(&out.stderr), "", "{args:?}");
            assert_eq!(text(&out.stdout), want, "{args:?}");
            assert_eq!(out.status.code(), Some(0), "{args:?}");
        }
    }

    // Tree mode, checked against golden tree entries.
    let kats: Vec<_> = golden::load()
        .into_iter()
        .filter(|e| {
            e.tree.is_some() && e.msg_bits % 8 == 0 && e.key.as_ref().is_none_or(|k| k.is_empty())
        })
        .take(4)
        .collect();
    assert!(!kats.is_empty(), "the golden file has tree entries");
    for (i, kat) in kats.iter().enumerate() {
        let name = format!("k{i}");
        fs::write(d.join(&name), &kat.msg).unwrap();
        fs::set_permissions(d.join(&name), fs::Permissions::from_mode(0o644)).unwrap();
        let (l, f, m) = kat.tree.unwrap();
        let (state, bits, tree) = (
            kat.state_bits.to_string(),
            kat.output_bits.to_string(),
            format!("--tree={l},{f},{m}"),
        );
        for threads in [None, Some("-j2")] {
            let mut args = vec!["-a", &state, "-l", &bits, &tree];
            args.extend(threads);
            args.push(&name);
            let out = run(d, &wrapper, &args, None);
            assert_eq!(text(&out.stderr), "", "{args:?}");
            assert_eq!(
                text(&out.stdout),
                format!("{}  {name}\n", hex::encode(&kat.result)),
                "{args:?}"
            );
            assert_eq!(out.status.code(), Some(0));
        }
    }
}

// ------------------------------------------------ leases

/// A write lease held on a file by this process, as Samba and NFS servers
/// hold them: another process's open of the file starts a break, and the
/// holder (a thread here) lets go as soon as it sees it.
struct Lease {
    holder: Option<std::thread::JoinHandle<bool>>,
}

impl Lease {
    /// Take the lease on `path` (a file nothing else has open), or the
    /// error of `F_SETLEASE`. `EAGAIN` (another open of the file) is tried
    /// again for up to 10 s: a process that another test forks copies our
    /// descriptor for the moment before its `exec` closes it.
    fn take(path: &Path) -> std::io::Result<Lease> {
        use std::os::fd::AsRawFd;
        ignore_sigio();
        let deadline = Instant::now() + Duration::from_secs(10);
        let file = loop {
            let file = fs::OpenOptions::new().read(true).write(true).open(path)?;
            // SAFETY: fcntl on a descriptor owned by `file`, integer arguments.
            if unsafe { libc::fcntl(file.as_raw_fd(), libc::F_SETLEASE, libc::F_WRLCK) } == 0 {
                break file;
            }
            let e = std::io::Error::last_os_error();
            if e.raw_os_error() != Some(libc::EAGAIN) || Instant::now() > deadline {
                return Err(e);
            }
            drop(file);
            std::thread::sleep(Duration::from_millis(5));
        };
        let holder = std::thread::spawn(move || {
            let deadline = Instant::now() + Duration::from_secs(60);
            loop {
                // SAFETY: as above; `file` lives in this closure.
                let now = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_GETLEASE) };
                // A break in progress shows as the type it will end in.
                if now != libc::F_WRLCK {
                    // SAFETY: as above.
                    unsafe { libc::fcntl(file.as_raw_fd(), libc::F_SETLEASE, libc::F_UNLCK) };
                    return true;
                }
                if Instant::now() > deadline {
                    return false;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
        });
        Ok(Lease {
            holder: Some(holder),
        })
    }

    /// Whether the lease was broken (another open met it) and let go.
    fn was_broken(mut self) -> bool {
        self.holder.take().unwrap().join().unwrap()
    }
}

/// The break is signalled with SIGIO, whose default action ends the
/// process; the holder notices the break by `F_GETLEASE` instead.
fn ignore_sigio() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: setting a signal's disposition to SIG_IGN; no handler runs.
        unsafe { libc::signal(libc::SIGIO, libc::SIG_IGN) };
    });
}

/// A directory where this process can take leases: the temporary
/// directory, or else /dev/shm (tmpfs); none is a failure.
fn lease_dir() -> TempDir {
    let enabled = fs::read_to_string("/proc/sys/fs/leases-enable").unwrap_or_default();
    assert_eq!(
        enabled.trim(),
        "1",
        "leases are off (/proc/sys/fs/leases-enable)"
    );
    let mut tried = Vec::new();
    for base in [std::env::temp_dir(), PathBuf::from("/dev/shm")] {
        let Ok(dir) = TempDir::new_in(&base) else {
            tried.push(format!("{}: cannot make a directory", base.display()));
            continue;
        };
        let probe = dir.path().join("probe");
        fs::write(&probe, b"probe").unwrap();
        match Lease::take(&probe) {
            Ok(lease) => {
                // Break it by an open, as skeinsum will.
                drop(fs::File::open(&probe));
                assert!(
                    lease.was_broken(),
                    "a lease in {} was not broken",
                    base.display()
                );
                return dir;
            }
            Err(e) => tried.push(format!("{}: {e}", base.display())),
        }
    }
    panic!("no directory takes a lease: {tried:?}");
}

/// Files under a lease are hashed once the holder lets go: on the batch
/// path, alone, by `-c` and by `-r` (one by one and in a batch), each with
/// the right digest and status 0.
#[test]
fn leased_files_are_hashed_once_the_holder_lets_go() {
    let dir = lease_dir();
    let d = dir.path();
    let leased = pattern(3000, 7);
    let other = b"other\n";
    fs::create_dir(d.join("t")).unwrap();
    fs::write(d.join("t/leased"), &leased).unwrap();
    fs::write(d.join("t/other"), other).unwrap();
    let expected = line(&leased, "t/leased") + &line(other, "t/other");
    fs::write(d.join("list"), &expected).unwrap();
    let runs: [(&[&str], String); 6] = [
        (&["-j2", "t/leased", "t/other"], expected.clone()),
        (&["t/leased"], line(&leased, "t/leased")),
        (
            &["-j2", "-c", "list"],
            "t/leased: OK\nt/other: OK\n".to_string(),
        ),
        (
            &["-j1", "-c", "list"],
            "t/leased: OK\nt/other: OK\n".to_string(),
        ),
        (&["-j2", "-r", "t"], expected.clone()),
        (&["-j1", "-r", "t"], expected.clone()),
    ];
    for (args, want) in runs {
        let lease = Lease::take(&d.join("t/leased"))
            .unwrap_or_else(|e| panic!("cannot take the lease again: {e}"));
        let out = run(d, &[], args, None);
        assert!(lease.was_broken(), "{args:?} never opened the leased file");
        assert_eq!(text(&out.stderr), "", "{args:?}");
        assert_eq!(text(&out.stdout), want, "{args:?}");
        assert_eq!(out.status.code(), Some(0), "{args:?}");
    }
}
