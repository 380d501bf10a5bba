//! Real limits (`prlimit`, `setpriv` to `nobody`): too few file descriptors
//! and no thread to be had are no file's error. A precondition that cannot
//! be set up fails the test, saying why.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command as StdCommand, Stdio};
use std::time::{Duration, Instant};

use tempfile::TempDir;

use crate::oracle::*;
use crate::util::*;

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
            assert_clean(&out, &expected, &format!("{limit} {threads}"));
        }
    }

    // Tree mode: one golden tree message in each of 100 files.
    let kat = golden_trees()
        .into_iter()
        .find(|e| e.msg_bits > 0)
        .expect("the golden file has a tree entry of one byte or more");
    fs::create_dir(d.join("tree")).unwrap();
    let mut expected = String::new();
    for i in 0..100 {
        let name = format!("tree/t{i:03}");
        fs::write(d.join(&name), &kat.msg).unwrap();
        expected.push_str(&format!("{}  {name}\n", kat_hex(&kat)));
    }
    let mut args = kat_args(&kat);
    args.push("-j2".to_string());
    args.extend(names(d, "tree"));
    let args = strs(&args);
    let out = run(d, &strs(&prlimit(MIN_DESCRIPTORS)), &args, None);
    assert_clean(&out, &expected, "--tree");
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
            let stdin_file = d.join("stdin");
            for (stdin, how) in [
                (Input::Pipe(Some(b"from stdin\n")), "| pipe"),
                (Input::File(&stdin_file), "< file"),
            ] {
                let wrapper = prlimit(limit);
                let args = [threads, "-c", "list"];
                let out = run_with(d, &strs(&wrapper), &args, stdin, &[], |_| {});
                assert_clean(&out, &oks, &format!("{how} {limit} {threads}"));
            }
        }
    }
}

/// A list read from standard input (`-c -`) takes no descriptor of its
/// own, as with `sha256sum -c -`: with four descriptors (0, 1, 2 and one
/// file) every listed file verifies, on the batch path and one by one.
#[test]
fn list_from_standard_input_takes_no_descriptor() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let list = many_files(d, "many", 10);
    let oks: String = names(d, "many")
        .iter()
        .map(|n| format!("{n}: OK\n"))
        .collect();
    for threads in ["-j2", "-j1"] {
        let args = [threads, "-c", "-"];
        let out = run(
            d,
            &strs(&prlimit("--nofile=4")),
            &args,
            Some(list.as_bytes()),
        );
        assert_clean(&out, &oks, &format!("--nofile=4 {threads} -c -"));
    }
}

/// FIFOs named after a name that the sequential path opens in its turn
/// (an empty file), with one descriptor more than plain hashing needs (0,
/// 1, 2, the empty file, and one FIFO held open for its turn: the batch
/// must not close a FIFO it opened, which could lose what a writer wrote):
/// every FIFO gives its writer's digest, the empty file its own, status 0.
/// A batch that held a descriptor for every FIFO of its window would find
/// none free for the empty file.
#[test]
fn few_descriptors_fifos_after_a_file_opened_in_its_turn() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    fs::write(d.join("empty"), b"").unwrap();
    let mut args = vec!["-j2".to_string(), "empty".to_string()];
    let mut expected = line(b"", "empty");
    let mut fifos = Vec::new();
    for i in 0..6 {
        let name = format!("p{i}");
        let made = StdCommand::new("mkfifo").arg(d.join(&name)).status();
        assert!(made.unwrap().success(), "mkfifo {name}");
        let data = format!("written into {name}\n");
        expected.push_str(&line(data.as_bytes(), &name));
        fifos.push((d.join(&name), data));
        args.push(name);
    }
    let mut written = Vec::new();
    let out = run_with(
        d,
        &strs(&prlimit("--nofile=5")),
        &strs(&args),
        Input::Pipe(None),
        &[],
        |child| {
            for (fifo, data) in &fifos {
                written.push(write_when_read(fifo, data.as_bytes(), child));
            }
        },
    );
    assert_clean(&out, &expected, "--nofile=5 -j2");
    assert_eq!(written, [true; 6]);
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
    assert_clean(&out, &expected, "");
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
            outcome(&out),
            (
                Some(1),
                expected.clone(),
                "skeinsum: many/f050: Permission denied\n".to_string()
            ),
            "{threads}"
        );
    }
}

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
    let mut sh = StdCommand::new(wrapper[0]);
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
            assert_clean(&out, &want, &format!("{args:?}"));
        }
    }

    // Tree mode, checked against golden tree entries.
    for (i, kat) in golden_trees().iter().take(4).enumerate() {
        let name = format!("k{i}");
        fs::write(d.join(&name), &kat.msg).unwrap();
        fs::set_permissions(d.join(&name), fs::Permissions::from_mode(0o644)).unwrap();
        for threads in [None, Some("-j2")] {
            let mut args = kat_args(kat);
            args.extend(threads.map(String::from));
            args.push(name.clone());
            let args = strs(&args);
            let out = run(d, &wrapper, &args, None);
            assert_eq!(
                outcome(&out),
                (
                    Some(0),
                    format!("{}  {name}\n", kat_hex(kat)),
                    String::new()
                ),
                "{args:?}"
            );
        }
    }
}
