//! Running the binary under test: in a temporary directory, behind a shell,
//! a resource limit or `setpriv`, paused at a test hook, bounded in time;
//! and reading what it printed.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Output, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::assert::{Assert, IntoOutputPredicate};
use assert_cmd::Command;
use predicates::Predicate;
use tempfile::TempDir;

/// The binary under test: this package's, or `SKEINSUM_TEST_BIN` (another
/// build of it, e.g. an older one to show that a new test fails there).
pub static BIN: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    std::env::var("SKEINSUM_TEST_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_skeinsum").to_string())
});

/// The test-hook variables (`skeinsum/src/testing.rs`), removed from every
/// run that does not set one on purpose.
pub const HOOKS: [&str; 4] = [
    "SKEINSUM_TEST_PAUSE",
    "SKEINSUM_TEST_MAP_WINDOW",
    "SKEINSUM_TEST_REFUSE_MAP",
    "SKEINSUM_TEST_REFUSE_THREAD",
];

/// The binary with no test hook set.
pub fn skeinsum() -> Command {
    let mut cmd = Command::new(&*BIN);
    for hook in HOOKS {
        cmd.env_remove(hook);
    }
    cmd
}

/// [`skeinsum`], run in `dir`.
pub fn skeinsum_in(dir: &Path) -> Command {
    let mut cmd = skeinsum();
    cmd.current_dir(dir);
    cmd
}

/// The binary as a `std` command (for pipes and redirections that
/// `assert_cmd` does not give), no test hook set.
pub fn std_skeinsum() -> std::process::Command {
    let mut cmd = std::process::Command::new(&*BIN);
    for hook in HOOKS {
        cmd.env_remove(hook);
    }
    cmd
}

/// A temporary directory to run in.
pub struct Dir {
    tmp: TempDir,
}

impl Dir {
    pub fn new() -> Dir {
        Dir {
            tmp: TempDir::new().unwrap(),
        }
    }
    pub fn path(&self) -> &Path {
        self.tmp.path()
    }
    /// A directory holding `files`, each a name and its bytes.
    pub fn with(files: &[(&str, &[u8])]) -> Dir {
        let dir = Dir::new();
        for (name, data) in files {
            dir.file(name, data);
        }
        dir
    }
    /// Write `name` with `data`; returns its path.
    pub fn file(&self, name: &str, data: &[u8]) -> PathBuf {
        let p = self.tmp.path().join(name);
        fs::write(&p, data).unwrap();
        p
    }
    /// Make the named pipe `name`; returns its path.
    pub fn fifo(&self, name: &str) -> PathBuf {
        let p = self.tmp.path().join(name);
        let made = std::process::Command::new("mkfifo")
            .arg(&p)
            .status()
            .unwrap();
        assert!(made.success());
        p
    }
    /// A sparse file `name` of `len` zero bytes; returns its path.
    pub fn zeros(&self, name: &str, len: u64) -> PathBuf {
        let p = self.tmp.path().join(name);
        fs::File::create(&p).unwrap().set_len(len).unwrap();
        p
    }
    pub fn cmd(&self) -> Command {
        skeinsum_in(self.path())
    }
}

pub fn stdout_of(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

pub fn stderr_of(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Exit code, stdout and stderr of a finished run: one value to compare.
pub fn outcome(out: &Output) -> (Option<i32>, String, String) {
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// [`outcome`] of skeinsum with `args` in `dir`.
pub fn run_in(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    outcome(&skeinsum_in(dir).args(args).output().unwrap())
}

/// Run skeinsum with `args` in `dir` and check its exit code, and its
/// stdout and stderr where given (`None`: not looked at).
pub fn expect_run(
    dir: &Path,
    args: &[&str],
    code: i32,
    stdout: Option<&str>,
    stderr: Option<&str>,
) {
    let (got, out, err) = run_in(dir, args);
    assert_eq!(got, Some(code), "{args:?}: {err}");
    if let Some(stdout) = stdout {
        assert_eq!(out, stdout, "{args:?}: stdout");
    }
    if let Some(stderr) = stderr {
        assert_eq!(err, stderr, "{args:?}: stderr");
    }
}

/// A run checked in one call: its exit code with its stdout and stderr.
pub trait Expect {
    /// Exits 0 and prints exactly `stdout` (stderr not looked at).
    fn prints<O, P>(&mut self, stdout: O) -> Assert
    where
        O: IntoOutputPredicate<P>,
        P: Predicate<[u8]>;
    /// Exits with `code`, stdout and stderr as given.
    fn gives<O, P, E, Q>(&mut self, code: i32, stdout: O, stderr: E) -> Assert
    where
        O: IntoOutputPredicate<P>,
        P: Predicate<[u8]>,
        E: IntoOutputPredicate<Q>,
        Q: Predicate<[u8]>;
    /// Exits with `code`, stderr as given (stdout not looked at).
    fn exits<E, Q>(&mut self, code: i32, stderr: E) -> Assert
    where
        E: IntoOutputPredicate<Q>,
        Q: Predicate<[u8]>;
}

impl Expect for Command {
    #[track_caller]
    fn prints<O, P>(&mut self, stdout: O) -> Assert
    where
        O: IntoOutputPredicate<P>,
        P: Predicate<[u8]>,
    {
        self.assert().success().stdout(stdout)
    }
    #[track_caller]
    fn gives<O, P, E, Q>(&mut self, code: i32, stdout: O, stderr: E) -> Assert
    where
        O: IntoOutputPredicate<P>,
        P: Predicate<[u8]>,
        E: IntoOutputPredicate<Q>,
        Q: Predicate<[u8]>,
    {
        self.assert().code(code).stdout(stdout).stderr(stderr)
    }
    #[track_caller]
    fn exits<E, Q>(&mut self, code: i32, stderr: E) -> Assert
    where
        E: IntoOutputPredicate<Q>,
        Q: Predicate<[u8]>,
    {
        self.assert().code(code).stderr(stderr)
    }
}

/// A finished run exited 0, printed exactly `stdout` and nothing on
/// stderr (`what` names the run in a failure).
#[track_caller]
pub fn assert_clean(out: &Output, stdout: &str, what: &str) {
    assert_eq!(
        outcome(out),
        (Some(0), stdout.to_string(), String::new()),
        "{what}"
    );
}

/// A usage error: exit 2, nothing on stdout, one line on stderr that
/// names `option`.
pub fn assert_usage_error(out: &Output, option: &str, what: &str) {
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{what}: {err}");
    assert!(out.stdout.is_empty(), "{what} printed something");
    assert_eq!(err.lines().count(), 1, "{what}: {err:?}");
    assert!(
        err.starts_with("skeinsum: ") && err.contains(option),
        "{what}: {err}"
    );
}

/// `sh -c SCRIPT` with the binary under test as `$0`, in `dir`: for closed
/// descriptors and resource limits, which only a shell sets up simply.
pub fn sh(dir: &Path, script: &str) -> Command {
    let mut c = Command::new("sh");
    c.current_dir(dir).arg("-c").arg(script).arg(&*BIN);
    for hook in HOOKS {
        c.env_remove(hook);
    }
    c
}

/// `sh -c` of `skeinsum ARGS 2>&1` in `dir`: stdout and stderr in one
/// stream, in the order they were written.
pub fn merged(dir: &Path, args: &[String]) -> (String, Option<i32>) {
    let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
    let out = sh(dir, &format!("exec \"$0\" {} 2>&1", quoted.join(" ")))
        .output()
        .unwrap();
    (stdout_of(&out), out.status.code())
}

/// skeinsum with `args` in `dir`, stdout and stderr into one regular file
/// (`log` in `dir`): its text and the exit code.
pub fn merged_in_file(dir: &Path, args: &[String]) -> (String, Option<i32>) {
    let log = dir.join("log");
    let file = fs::File::create(&log).unwrap();
    let status = std_skeinsum()
        .current_dir(dir)
        .args(args)
        .stdout(file.try_clone().unwrap())
        .stderr(file)
        .status()
        .unwrap();
    let text = text(&fs::read(&log).unwrap());
    fs::remove_file(&log).unwrap();
    (text, status.code())
}

/// The argument prefixes of every path a test must hold on: every usable
/// backend, each with `-j 2` (several FILEs or `-c` of a regular list: the
/// batch path) and `-j 1` (one file after another).
pub fn every_backend_and_path() -> Vec<Vec<String>> {
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

/// Run skeinsum in `dir` with `args` after each prefix of
/// [`every_backend_and_path`]: each run exits with `code` and prints
/// `stdout` and `stderr`.
pub fn expect_on_every_path(dir: &Path, args: &[&str], code: i32, stdout: &str, stderr: &str) {
    for prefix in every_backend_and_path() {
        let out = skeinsum_in(dir).args(&prefix).args(args).output().unwrap();
        assert_eq!(
            outcome(&out),
            (Some(code), stdout.to_string(), stderr.to_string()),
            "{prefix:?} {args:?}"
        );
    }
}

/// Strings of `prefix` followed by `more`.
pub fn with_prefix(prefix: &[String], more: &[&str]) -> Vec<String> {
    prefix
        .iter()
        .cloned()
        .chain(more.iter().map(|s| s.to_string()))
        .collect()
}

pub fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// Proptest with `cases` cases, its regressions saved beside the module that
/// holds the test (`input.rs`: `input.proptest-regressions`): proptest's
/// default would look for a `proptest-regressions` directory beside the
/// nearest `main.rs`'s directory.
pub fn proptest_config(cases: u32) -> proptest::test_runner::Config {
    use proptest::test_runner::{Config, FileFailurePersistence};
    Config {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        ..Config::default()
    }
}

// ------------------------------------------------------- bounded waits

/// Wait until `sentinel` exists (the binary reached a test-hook pause),
/// failing the test after 60 s.
pub fn wait_for_pause(sentinel: &Path, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !sentinel.exists() {
        assert!(
            Instant::now() < deadline,
            "{what} never paused (built without the test-hooks feature?)"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// `cmd` started with its three standard streams piped to this process.
pub fn spawn_piped(cmd: &mut std::process::Command) -> Child {
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {:?}: {e}", cmd.get_program()))
}

/// The child's output (read while it runs: a full pipe must not stop
/// it), or a panic, the child killed, after `limit`.
pub fn wait_bounded(child: Child, limit: Duration) -> Output {
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

/// Once a reader has the FIFO `fifo` open, open it for writing, write
/// `data` (a few bytes: the pipe takes them at once) and close it, as a
/// writer of a FIFO does, without waiting for ever: the open is tried
/// without waiting (`ENXIO` while no reader has it open) until a reader
/// has, `child` has exited, or 30 s have passed. Whether `data` was
/// written.
#[cfg(unix)]
pub fn write_when_read(fifo: &Path, data: &[u8], child: &mut Child) -> bool {
    use std::os::unix::fs::OpenOptionsExt;
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        match fs::OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(fifo)
        {
            Ok(mut writer) => {
                writer.write_all(data).unwrap();
                return true;
            }
            Err(e) if e.raw_os_error() == Some(libc::ENXIO) => {}
            Err(e) => panic!("{}: {e}", fifo.display()),
        }
        if Instant::now() > deadline || child.try_wait().unwrap().is_some() {
            return false;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Run `cmd` with `stdin` (and `input` written to it, if given), killed
/// after `limit`: a hang fails the test instead of hanging it.
pub fn run_with_timeout(
    mut cmd: std::process::Command,
    stdin: Stdio,
    input: Option<Vec<u8>>,
    limit: Duration,
) -> Output {
    let mut child = cmd
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {:?}: {e}", cmd.get_program()));
    // Written from another thread: a binary that does not read its input
    // must not block the test.
    let writer = child.stdin.take().map(|mut pipe| {
        let input = input.unwrap_or_default();
        std::thread::spawn(move || {
            let _ = pipe.write_all(&input);
        })
    });
    let out = wait_bounded(child, limit);
    if let Some(writer) = writer {
        writer.join().unwrap();
    }
    out
}

// ------------------------------------------------------- test-hook pauses

/// The change that cuts a file to `len` bytes.
pub fn truncate_to(len: u64) -> impl Fn(&Path) {
    move |f| {
        fs::OpenOptions::new()
            .write(true)
            .open(f)
            .unwrap()
            .set_len(len)
            .unwrap()
    }
}

/// Run skeinsum with `args` on a file of `size` pattern bytes named
/// `victim` (as its argument, or as standard input if `from_stdin`), with
/// `env`, pausing at `stage` (see src/testing.rs); while paused, `change`
/// runs on the file.
pub fn run_paused(
    stage: &str,
    size: usize,
    args: &[&str],
    env: &[(&str, &str)],
    from_stdin: bool,
    change: impl FnOnce(&Path),
) -> Output {
    let dir = Dir::new();
    let data = crate::oracle::pattern(size, 21);
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
    wait_for_pause(&sentinel, &format!("skeinsum at the {stage} stage"));
    change(&file);
    fs::remove_file(&sentinel).unwrap();
    child.wait_with_output().unwrap()
}

/// Run skeinsum with `args` (FILE arguments given) in `dir`, with a pause at
/// the batch stage, and go on as soon as it is reached, after `change` ran:
/// the run fails the test if it never reaches a batch, so a batch test
/// cannot pass on the sequential path alone.
pub fn through_batch(dir: &Dir, args: &[&str], change: impl FnOnce()) -> Output {
    through_stage(dir, "batch", args, change)
}

/// [`through_batch`] with a pause at `stage`: "window" (a window taken,
/// none of its files opened yet) or "batch" (a chunk of up to 16 files
/// opened and read or mapped: the callers that change files give fewer,
/// so that the window is one chunk).
pub fn through_stage(dir: &Dir, stage: &str, args: &[&str], change: impl FnOnce()) -> Output {
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
    wait_for_pause(
        &sentinel,
        &format!("skeinsum {args:?} at the {stage} stage"),
    );
    change();
    fs::remove_file(&sentinel).unwrap();
    child.wait_with_output().unwrap()
}

// ------------------------------------------------------- limits and users

/// Run the binary in `dir` behind `wrapper` (a program and its arguments
/// that end by running the rest, as `prlimit --nofile=16`), with `stdin`
/// as standard input (empty when `None`), no test hook set.
pub fn run(dir: &Path, wrapper: &[&str], args: &[&str], stdin: Option<&[u8]>) -> Output {
    run_with(dir, wrapper, args, Input::Pipe(stdin), &[], |_| {})
}

/// Standard input of a run.
pub enum Input<'a> {
    /// A pipe these bytes are written to (none: empty).
    Pipe(Option<&'a [u8]>),
    /// A regular file (`< file`).
    File(&'a Path),
}

/// [`run`], with the test-hook variables `hooks` set and `during` called
/// with the child once it is started.
pub fn run_with(
    dir: &Path,
    wrapper: &[&str],
    args: &[&str],
    stdin: Input<'_>,
    hooks: &[(&str, &str)],
    during: impl FnOnce(&mut Child),
) -> Output {
    let mut cmd = match wrapper.split_first() {
        Some((program, rest)) => {
            let mut cmd = std::process::Command::new(program);
            cmd.args(rest).arg(BIN.as_str());
            cmd
        }
        None => std::process::Command::new(BIN.as_str()),
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
    let writer = child.stdin.take().map(|mut pipe| {
        std::thread::spawn(move || {
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

/// Whether util-linux's `program` runs here.
fn found(program: &str) -> bool {
    std::process::Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// `prlimit` must be there: a test that cannot set its limit fails.
pub fn prlimit(limit: &str) -> Vec<String> {
    assert!(
        found("prlimit"),
        "util-linux's prlimit is needed to set a real limit"
    );
    vec!["prlimit".to_string(), limit.to_string()]
}

pub fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// `setpriv` to `nobody` (65534), as root: CI runs as root, which reads
/// mode-000 files and has no limit on processes.
const AS_NOBODY: [&str; 4] = [
    "setpriv",
    "--reuid=65534",
    "--regid=65534",
    "--clear-groups",
];

/// As root, `setpriv` to `nobody` ahead of `rest`, so that limits and
/// permissions hold as for an ordinary user; otherwise `rest` alone.
pub fn unprivileged(rest: &[String]) -> Vec<String> {
    let mut wrapper = Vec::new();
    if is_root() {
        assert!(
            found("setpriv"),
            "util-linux's setpriv is needed to run as nobody"
        );
        wrapper.extend(AS_NOBODY.map(String::from));
    }
    wrapper.extend_from_slice(rest);
    wrapper
}

/// Running as root, `setpriv` runs here: permission errors are then tested
/// through [`skeinsum_as_nobody`].
pub fn root_with_setpriv() -> bool {
    is_root() && found("setpriv")
}

/// The binary as `nobody` through `setpriv`, in `dir` (made readable to
/// others), no test hook set.
pub fn skeinsum_as_nobody(dir: &Path) -> Command {
    open_to_all(dir);
    let mut cmd = Command::new(AS_NOBODY[0]);
    cmd.args(&AS_NOBODY[1..]).arg(&*BIN);
    for hook in HOOKS {
        cmd.env_remove(hook);
    }
    cmd.current_dir(dir);
    cmd
}

/// Mode 0755 on `path`.
pub fn open_to_all(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
}

/// A directory readable by everyone (for runs as `nobody`).
pub fn open_dir() -> TempDir {
    let dir = TempDir::new().unwrap();
    open_to_all(dir.path());
    dir
}
