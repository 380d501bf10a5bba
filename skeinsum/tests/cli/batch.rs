//! Many files at once: the batch path (`-j 2`) against `-j 1`, RustCrypto
//! and golden entries for every backend and state size, and files that
//! change, vanish or are replaced before the batch opens them.

use std::fs;
use std::time::Duration;

use crate::oracle::*;
use crate::util::*;

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

/// A window of a few large files (12 MiB in 5 files: one chunk, read or
/// mapped on one thread and hashed across the pool, as `SkeinMany` splits
/// a batch of 128 KiB or more): the digests are RustCrypto's and the
/// output is `-j 1`'s, with `--no-mmap` too.
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
        .filter(|e| e.tree.is_none() && e.msg_bits % 8 == 0 && e.output_bits <= 8 * 4096)
        .enumerate()
    {
        let name = format!("g{i}");
        dir.file(&name, &e.msg);
        let args = kat_args(e);
        match groups.iter_mut().find(|(a, _)| *a == args) {
            Some((_, files)) => files.push((name, kat_hex(e))),
            None => groups.push((args, vec![(name, kat_hex(e))])),
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
            truncate_to(5000)(&small);
            truncate_to(1 << 19)(&large);
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
/// other files or are rewritten after the batch took its window and before
/// it opens them, read (5 KB) and mapped (600 KB), and with `--no-mmap`: a
/// vanished file is missing; a directory is one; a FIFO is read to its end
/// in its place, its writer's bytes whole (the batch opens it without
/// waiting and hands it on untouched); a replaced file gives the digest of
/// the new one, and a rewritten one the digest of what it holds when
/// opened, as with `-j 1`. Twice each, the same output; the files that are
/// still files give what `-j 1` gives.
#[cfg(unix)]
#[test]
fn names_changing_before_a_batch_opens_them() {
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
            let out = through_stage(&dir, "window", &args, || {
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
                expected.push_str(&format!(
                    "{}  rewritten-{kind}\n",
                    reference(512, 256, &pattern(size, 98))
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
                .filter(|n| {
                    ["kept", "replaced", "rewritten"]
                        .iter()
                        .any(|k| n.starts_with(k))
                        || *n == "first"
                })
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

/// A large file of the batch replaced by rename with a much shorter one
/// after the batch took its window and before it opens it: the new file is
/// the one opened, its size the one read, exit 0.
#[cfg(unix)]
#[test]
fn shorter_file_renamed_before_the_batch_opens_it() {
    let dir = Dir::with(&[("a", &pattern(600_000, 1)), ("b", &pattern(3000, 2))]);
    let out = through_stage(
        &dir,
        "window",
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

/// A FIFO named twice, with one writer for each name in turn (as in
/// `(echo a >p; echo b >p) & skeinsum p p`): each name gives its own
/// writer's digest and exit 0, as with `sha256sum` and `-j 1`. The second
/// name is opened when its turn comes and waits for the second writer; a
/// descriptor of it taken at window time with the first's would read the
/// end as soon as the first writer had gone (the empty input's digest).
/// Next to each other, in two chunks of one window (15 files between),
/// and twice in a `-c` list; `-j 1` for the way the test runs.
#[cfg(unix)]
#[test]
fn fifo_named_twice_gives_each_writers_digest() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let (a, b) = (line(b"a\n", "p"), line(b"b\n", "p"));
    let files: Vec<String> = (1..16).map(|i| format!("f{i:02}")).collect();
    let mut apart = vec!["-j2", "p"];
    apart.extend(files.iter().map(String::as_str));
    apart.push("p");
    for args in [
        vec!["-j2", "p", "p"],
        apart,
        vec!["-j2", "-c", "list"],
        vec!["-j1", "p", "p"],
    ] {
        let dir = Dir::new();
        let fifo = dir.fifo("p");
        let mut between = String::new();
        for (i, name) in files.iter().enumerate() {
            let data = pattern(100 + i, 70 + i as u32);
            dir.file(name, &data);
            between.push_str(&line(&data, name));
        }
        dir.file("list", format!("{a}{b}").as_bytes());
        let (first, expected) = if args.contains(&"-c") {
            ("p: OK\n".to_string(), "p: OK\np: OK\n".to_string())
        } else if args.len() > 3 {
            (a.clone(), format!("{a}{between}{b}"))
        } else {
            (a.clone(), format!("{a}{b}"))
        };
        let mut child = std_skeinsum()
            .current_dir(dir.path())
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (sent, lines) = std::sync::mpsc::channel();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let _ = sent.send(line.unwrap() + "\n");
            }
        });
        assert!(
            write_when_read(&fifo, b"a\n", &mut child),
            "{args:?}: p never opened"
        );
        // The first line goes out before the second name waits for its
        // writer.
        let got = lines.recv_timeout(Duration::from_secs(30));
        assert_eq!(got.as_deref(), Ok(first.as_str()), "{args:?}");
        // Time for a descriptor taken at window time to read its end.
        std::thread::sleep(Duration::from_millis(200));
        let second = write_when_read(&fifo, b"b\n", &mut child);
        let out = wait_bounded(child, Duration::from_secs(60));
        reader.join().unwrap();
        let all: String = std::iter::once(first).chain(lines.try_iter()).collect();
        assert!(
            second,
            "{args:?}: ended without waiting for the second writer: {all}"
        );
        assert_eq!(
            (out.status.code(), all, stderr_of(&out)),
            (Some(0), expected, String::new()),
            "{args:?}"
        );
    }
}

/// A chunk that would pass the window's byte budget hashes what it holds
/// and lets go of it before it opens more (the budget shrunk by
/// `SKEINSUM_TEST_WINDOW_BYTES` to four 16 KiB files, so that one chunk of
/// 16 files hashes in four groups). Paused in the second group's hashing
/// (files 5-8 open and read, 9-16 not yet opened): file 6 truncated then
/// is that file's error; file 10 rewritten then, before its open, is
/// hashed as it is now; file 3, hashed and closed in the first group,
/// keeps its digest. Without the flush every file is open before the
/// first pause, and no second one comes.
#[test]
fn chunk_over_the_byte_budget_hashes_what_it_holds_first() {
    let dir = Dir::new();
    let mut data: Vec<Vec<u8>> = (1..=16).map(|i| pattern(16 << 10, 700 + i)).collect();
    let names: Vec<String> = (1..=16).map(|i| format!("f{i:02}")).collect();
    for (name, bytes) in names.iter().zip(&data) {
        dir.file(name, bytes);
    }
    let sentinel = dir.path().join("paused");
    let child = std::process::Command::new(&*BIN)
        .current_dir(dir.path())
        .args(["-a", "512", "-l", "256", "-j", "2"])
        .args(&names)
        .env("SKEINSUM_TEST_WINDOW_BYTES", (64 << 10).to_string())
        .env(
            "SKEINSUM_TEST_PAUSE",
            format!("batch#2:{}", sentinel.display()),
        )
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_pause(&sentinel, "the second group of the chunk");
    truncate_to(1000)(&dir.path().join("f06"));
    data[9] = pattern(5000, 800);
    dir.file("f10", &data[9]);
    dir.file("f03", &pattern(16 << 10, 801));
    fs::remove_file(&sentinel).unwrap();
    let out = wait_bounded(child, Duration::from_secs(60));
    let expected: String = names
        .iter()
        .zip(&data)
        .filter(|(name, _)| *name != "f06")
        .map(|(name, bytes)| format!("{}  {name}\n", reference(512, 256, bytes)))
        .collect();
    assert_eq!(stdout_of(&out), expected);
    assert_eq!(
        stderr_of(&out),
        "skeinsum: f06: file changed while being read; no digest\n"
    );
    assert_eq!(out.status.code(), Some(1));
}
