//! What `--check` reports: mismatches, unreadable and malformed lines,
//! `--status`, `--quiet`, `--warn`, `--strict`, `--ignore-missing`, in the
//! order of the list; lists streamed from standard input.

use std::fs;
use std::io::{Read, Write};
use std::process::Stdio;
use std::time::Duration;

use predicates::prelude::*;

use crate::oracle::*;
use crate::util::*;

/// A directory with the files `good` and `bad`, and the contents a list
/// expects of both (`good`'s).
fn good_and_bad() -> (Dir, Vec<u8>) {
    let dir = Dir::new();
    let data = pattern(100, 1);
    dir.file("good", &data);
    dir.file("bad", b"changed");
    (dir, data)
}

#[test]
fn check_reports_mismatch_and_unreadable_files_like_gnu() {
    let (dir, data) = good_and_bad();
    let list = gnu_line(512, 512, &data, "good")
        + &gnu_line(512, 512, &data, "bad")
        + &gnu_line(512, 512, &data, "gone");
    dir.file("sums", list.as_bytes());
    dir.cmd().args(["-c", "sums"]).gives(
        1,
        "good: OK\nbad: FAILED\ngone: FAILED open or read\n",
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
        .exits(
            1,
            predicate::str::contains("WARNING: 2 listed files could not be read"),
        )
        .stderr(predicate::str::contains(
            "WARNING: 2 computed checksums did NOT match",
        ));
}

#[test]
fn check_counts_malformed_lines_and_strict_fails_on_them() {
    let (dir, data) = good_and_bad();
    let good = gnu_line(512, 512, &data, "good");
    dir.file(
        "one",
        format!("{good}not a checksum line\n# a comment\n\n{good}").as_bytes(),
    );
    dir.file("two", format!("zz  good\n{good}abc  odd\n").as_bytes());
    let warned = "skeinsum: two: 1: improperly formatted Skein checksum line\n\
                  skeinsum: two: 3: improperly formatted Skein checksum line\n\
                  skeinsum: WARNING: 2 lines are improperly formatted\n";
    let (one, two) = (
        "skeinsum: WARNING: 1 line is improperly formatted\n",
        "skeinsum: WARNING: 2 lines are improperly formatted\n",
    );
    let none = "skeinsum: none: no properly formatted Skein checksum lines found\n";
    dir.file("none", b"nothing here\n");
    for (args, code, stdout, stderr) in [
        (
            &["-c", "one"][..],
            0,
            Some("good: OK\ngood: OK\n"),
            Some(one),
        ),
        (&["-c", "two"], 0, Some("good: OK\n"), Some(two)),
        (&["-c", "--strict", "two"], 1, Some("good: OK\n"), None),
        // --warn names each line.
        (&["-c", "--warn", "two"], 0, None, Some(warned)),
        // No well-formed line at all fails.
        (&["-c", "none"], 1, Some(""), Some(none)),
    ] {
        expect_run(dir.path(), args, code, stdout, stderr);
    }
}

#[test]
fn check_status_quiet_and_ignore_missing() {
    let (dir, data) = good_and_bad();
    let ok_list = line(&data, "good");
    dir.file("ok", ok_list.as_bytes());
    dir.file(
        "bad-list",
        (ok_list.clone() + &line(&data, "bad")).as_bytes(),
    );
    dir.file("missing", (ok_list + &line(&data, "gone")).as_bytes());
    dir.file("only-missing", line(&data, "gone").as_bytes());
    let none_verified = "skeinsum: only-missing: no file was verified\n";
    let no_list = "skeinsum: no-such-list: No such file or directory\n";
    for (args, code, stdout, stderr) in [
        // --status: nothing on stdout, the exit code says it all.
        (&["-c", "--status", "ok"][..], 0, Some(""), Some("")),
        (&["-c", "--status", "bad-list"], 1, Some(""), Some("")),
        // --quiet: no OK lines, failures still shown.
        (&["-c", "--quiet", "ok"], 0, Some(""), None),
        (
            &["-c", "--quiet", "bad-list"],
            1,
            Some("bad: FAILED\n"),
            None,
        ),
        // --ignore-missing: the missing file is skipped silently.
        (&["-c", "missing"], 1, None, None),
        (
            &["-c", "--ignore-missing", "missing"],
            0,
            Some("good: OK\n"),
            Some(""),
        ),
        // ... but a list where nothing was verified fails.
        (
            &["-c", "--ignore-missing", "only-missing"],
            1,
            Some(""),
            Some(none_verified),
        ),
        // A missing checksum list is an error naming it; other lists still run.
        (
            &["-c", "no-such-list", "ok"],
            1,
            Some("good: OK\n"),
            Some(no_list),
        ),
    ] {
        expect_run(dir.path(), args, code, stdout, stderr);
    }
}

/// A directory with the file `f` and the list `name`: two good lines of
/// `f` around `malformed`.
fn good_lines_around(name: &str, malformed: &str) -> Dir {
    let dir = Dir::with(&[("f", b"abc")]);
    let good = line(b"abc", "f");
    dir.file(name, format!("{good}{malformed}\n{good}").as_bytes());
    dir
}

/// `-c -w`: a malformed line's warning comes between the results of the
/// lines around it, on the batch path as on `-j 1` (and GNU); a long list
/// with malformed lines everywhere under `-w --strict` prints the same bytes
/// on both paths.
#[test]
fn check_warnings_keep_the_order_of_the_list() {
    let dir = good_lines_around("short", "bad line");
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
        let args = |more: &[&str]| with_prefix(&prefix, more);
        assert_eq!(
            merged(dir.path(), &args(&["-c", "-w", "short"])),
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
            merged(dir.path(), &args(&["-c", "-w", "--strict", "long"])),
            (expected_long.clone(), Some(1)),
            "{prefix:?}"
        );
    }
}

/// `-w`, `--quiet` and `--status`: the last one given wins, as in GNU; and
/// `--ignore-missing --status` with nothing verified prints nothing (GNU
/// 9.1), exit 1.
#[test]
fn check_output_options_last_one_wins() {
    let dir = good_lines_around("L", "bad");
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
        for (options, list, expected, code) in [
            (&["--status", "-w"][..], "L", warned, 0),
            (&["--quiet", "-w"], "L", warned, 0),
            (&["-w", "--quiet"], "L", summary, 0),
            (&["--status", "--quiet"], "L", summary, 0),
            (&["-w", "--status"], "L", "", 0),
            (&["--quiet", "--status"], "L", "", 0),
            (&["--ignore-missing", "--status"], "M", "", 1),
            (
                &["--ignore-missing"],
                "M",
                "skeinsum: M: no file was verified\n",
                1,
            ),
        ] {
            let mut args = with_prefix(&prefix, &["-c"]);
            args.extend(options.iter().chain(&[list]).map(|s| s.to_string()));
            assert_eq!(
                merged(dir.path(), &args),
                (expected.to_string(), Some(code)),
                "{prefix:?} {options:?}"
            );
        }
    }
}

/// `-c -` checks each line as it arrives (the whole list was read
/// first): the answer to the first line comes while the list is still open.
#[test]
fn check_list_from_stdin_is_streamed() {
    let dir = Dir::with(&[("f", b"data")]);
    let mut child = spawn_piped(std_skeinsum().current_dir(dir.path()).args(["-c", "-"]));
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
    let dir = Dir::with(&[("f", b"data")]);
    let mut child = spawn_piped(
        std::process::Command::new("sh")
            .current_dir(dir.path())
            .arg("-c")
            .arg("ulimit -v 262144 && exec \"$0\" -c -")
            .arg(&*BIN),
    );
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

/// A list read from standard input that names `-` (standard input again)
/// ends: GNU takes that line for a malformed one. Piped, redirected from a
/// file, on every path; killed after 30 s, so a hang fails.
#[test]
fn check_list_from_stdin_naming_stdin_ends() {
    let dir = Dir::with(&[("f", b"abc")]);
    let list = format!(
        "{}  -\n{}  f\n",
        reference(512, 512, b""),
        reference(512, 512, b"abc")
    );
    let listed = dir.file("list", list.as_bytes());
    for prefix in every_backend_and_path() {
        for (args, redirected) in [(&["-c", "-w"][..], false), (&["-c", "-w", "-"][..], true)] {
            let mut cmd = std_skeinsum();
            cmd.current_dir(dir.path()).args(&prefix).args(args);
            let out = if redirected {
                let stdin = Stdio::from(fs::File::open(&listed).unwrap());
                run_with_timeout(cmd, stdin, None, Duration::from_secs(30))
            } else {
                let input = Some(list.as_bytes().to_vec());
                run_with_timeout(cmd, Stdio::piped(), input, Duration::from_secs(30))
            };
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
        #![proptest_config(proptest_config(12))]

        /// Any list read from standard input (piped or redirected from a
        /// file), with lines naming `-` anywhere among good and bad ones,
        /// ends; each `-` line is a malformed one, the others are checked.
        #[test]
        fn lists_from_stdin_naming_stdin_always_end(
            kinds in proptest::collection::vec(0u8..3, 1..20),
            redirected in any::<bool>(),
            threads in 1u8..3,
        ) {
            let dir = Dir::with(&[("f", b"abc")]);
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
            let mut cmd = std_skeinsum();
            cmd.current_dir(dir.path())
                .args(["-j", &threads.to_string(), "-c", "-w"]);
            let out = if redirected {
                let stdin = Stdio::from(fs::File::open(&listed).unwrap());
                run_with_timeout(cmd, stdin, None, Duration::from_secs(30))
            } else {
                let input = Some(list.into_bytes());
                run_with_timeout(cmd, Stdio::piped(), input, Duration::from_secs(30))
            };
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
