//! `--part K/N` and `--merge`: a file's tree digest from parts hashed
//! apart, merged from part lines in any order (several files, standard
//! input), equal to `--tree` on the whole file and to golden tree entries,
//! and accepted by `-c`; and every way the parts can fail to fit, each a
//! clear message with its exit status and no digest.

use std::fs;
use std::process::Stdio;
use std::time::Duration;

use crate::oracle::*;
use crate::util::*;

const KEY: &str = "--key-hex=000102030405060708090a0b0c0d0e0f";

/// One Skein and tree shape: state size, output bits, `--tree`, keyed.
struct Case {
    state: u32,
    bits: u32,
    tree: &'static str,
    keyed: bool,
}

impl Case {
    /// The options every run of this case takes (part, merge and check).
    fn args(&self) -> Vec<String> {
        let mut args = vec![
            format!("-a{}", self.state),
            format!("-l{}", self.bits),
            format!("--tree={}", self.tree),
        ];
        if self.keyed {
            args.push(KEY.to_string());
        }
        args
    }

    /// Bytes of one leaf: the state's bytes times 2^Yl.
    fn leaf(&self) -> usize {
        let yl: u32 = self.tree.split(',').next().unwrap().parse().unwrap();
        (self.state as usize / 8) << yl
    }
}

/// `v` shuffled by a fixed xorshift: the same order on every run.
fn shuffled<T>(mut v: Vec<T>, seed: u64) -> Vec<T> {
    let mut x = seed | 1;
    for i in (1..v.len()).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        v.swap(i, (x % (i as u64 + 1)) as usize);
    }
    v
}

/// The lines of `text`, sorted: merged lines come in the order of the
/// part lines, which the tests shuffle.
fn sorted_lines(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines.sort();
    lines
}

/// Every `--part K/N` of every file, N = 1 ..= 5 (more than the leaves of
/// the small files), merged in shuffled order from two files and standard
/// input, and from standard input alone: the lines `--tree` prints for the
/// whole files, which `-c` accepts.
#[test]
fn merged_parts_give_the_whole_file_digest() {
    let cases = [
        Case {
            state: 512,
            bits: 512,
            tree: "1,1,255",
            keyed: false,
        },
        Case {
            state: 256,
            bits: 256,
            tree: "2,2,3",
            keyed: true,
        },
        Case {
            state: 1024,
            bits: 1024,
            tree: "1,3,2",
            keyed: true,
        },
        Case {
            state: 512,
            bits: 160,
            tree: "10,1,255",
            keyed: true,
        },
        Case {
            state: 256,
            bits: 13,
            tree: "4,1,255",
            keyed: false,
        },
    ];
    for (c, case) in cases.iter().enumerate() {
        let dir = Dir::new();
        let leaf = case.leaf();
        let sizes = [
            0,
            1,
            leaf - 1,
            leaf,
            leaf + 1,
            3 * leaf + 5,
            (2 << 20) + 12345,
        ];
        let mut names = Vec::new();
        for (i, size) in sizes.iter().enumerate() {
            // One name to escape in every line kind.
            let name = if i == 3 {
                "leaf b\\s".to_string()
            } else {
                format!("f{size}")
            };
            dir.file(&name, &pattern(*size, (c * 10 + i) as u32));
            names.push(name);
        }
        let args = case.args();
        let what = args.join(" ");
        let whole = dir.cmd().args(&args).args(&names).output().unwrap();
        assert_eq!(
            whole.status.code(),
            Some(0),
            "{what}: {}",
            stderr_of(&whole)
        );
        let whole = stdout_of(&whole);
        for n in 1..=5 {
            let mut lines = Vec::new();
            for k in 1..=n {
                let out = dir
                    .cmd()
                    .args(&args)
                    .arg(format!("--part={k}/{n}"))
                    .args(&names)
                    .output()
                    .unwrap();
                assert_eq!(
                    out.status.code(),
                    Some(0),
                    "{what} {k}/{n}: {}",
                    stderr_of(&out)
                );
                assert!(out.stderr.is_empty(), "{what} {k}/{n}");
                lines.extend(stdout_of(&out).lines().map(|l| format!("{l}\n")));
            }
            // Each file gives at most N lines, and N of the largest one.
            assert!(lines.len() <= n * names.len(), "{what} N={n}");
            let big = names.last().unwrap();
            let of_big = lines
                .iter()
                .filter(|l| l.ends_with(&format!("  {big}\n")))
                .count();
            assert_eq!(of_big, n, "{what} N={n}");

            let lines = shuffled(lines, (c * 100 + n) as u64);
            let third = lines.len() / 3;
            dir.file("p1", lines[..third].concat().as_bytes());
            dir.file("p2", lines[2 * third..].concat().as_bytes());
            let merged = dir
                .cmd()
                .args(&args)
                .args(["--merge", "p1", "-", "p2"])
                .write_stdin(lines[third..2 * third].concat())
                .output()
                .unwrap();
            assert_eq!(
                (merged.status.code(), stderr_of(&merged)),
                (Some(0), String::new()),
                "{what} N={n}"
            );
            let merged = stdout_of(&merged);
            assert_eq!(sorted_lines(&merged), sorted_lines(&whole), "{what} N={n}");

            // All from standard input, in the reverse order.
            let reversed: String = lines.iter().rev().cloned().collect();
            let from_stdin = dir
                .cmd()
                .args(&args)
                .arg("--merge")
                .write_stdin(reversed)
                .output()
                .unwrap();
            assert_eq!(
                sorted_lines(&stdout_of(&from_stdin)),
                sorted_lines(&whole),
                "{what} N={n}: from standard input"
            );
            if n == 3 {
                let checked = dir
                    .cmd()
                    .args(&args)
                    .arg("-c")
                    .write_stdin(merged)
                    .output()
                    .unwrap();
                let oks: String = names.iter().map(|name| format!("{name}: OK\n")).collect();
                assert_eq!(checked.status.code(), Some(0), "{what}");
                assert_eq!(
                    sorted_lines(&stdout_of(&checked)),
                    sorted_lines(&oks),
                    "{what}"
                );
            }
        }
    }
}

/// Parts of golden tree entries merge into the golden digest (an oracle
/// other than skeinsum's own tree mode), and `--tag` and `-z` shape the
/// merged line as they shape any other.
#[test]
fn merged_parts_match_golden_tree_entries() {
    let dir = Dir::new();
    for (i, e) in golden_trees().iter().enumerate() {
        let name = format!("t{i}");
        dir.file(&name, &e.msg);
        let args = kat_args(e);
        let mut parts = String::new();
        for k in 1..=3 {
            let out = dir
                .cmd()
                .args(&args)
                .arg(format!("--part={k}/3"))
                .arg(&name)
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(0), "{args:?}");
            parts.push_str(&stdout_of(&out));
        }
        dir.cmd()
            .args(&args)
            .arg("--merge")
            .write_stdin(parts.clone())
            .prints(format!("{}  {name}\n", kat_hex(e)));
        dir.cmd()
            .args(&args)
            .args(["--merge", "--tag", "-z"])
            .write_stdin(parts)
            .prints(format!(
                "Skein-{}-{} ({name}) = {}\0",
                e.state_bits,
                e.output_bits,
                kat_hex(e)
            ));
    }
}

/// A file `f` of 10 leaves (`--tree 1,1,255` of Skein-512: leaves of 2
/// blocks, 128 bytes), another `g`, and the part lines of `f` for N = 2
/// and 3, all at the leaf level (too few leaves for a level above).
fn ten_leaves() -> (Dir, Vec<String>, Vec<String>) {
    let dir = Dir::new();
    dir.file("f", &pattern(10 * 128, 5));
    dir.file("g", &pattern(300, 6));
    let parts = |n: usize| -> Vec<String> {
        (1..=n)
            .map(|k| {
                let out = dir
                    .cmd()
                    .args(["--tree=1,1,255", &format!("--part={k}/{n}"), "f"])
                    .output()
                    .unwrap();
                assert_eq!(out.status.code(), Some(0));
                stdout_of(&out)
            })
            .collect()
    };
    let (two, three) = (parts(2), parts(3));
    assert!(
        two.iter().chain(&three).all(|l| l.contains(" range=1,")),
        "{two:?} {three:?}"
    );
    (dir, two, three)
}

/// `--merge` of `lines` in the ten-leaf directory with `args`.
fn merge(dir: &Dir, args: &[&str], lines: &str) -> (Option<i32>, String, String) {
    outcome(
        &dir.cmd()
            .arg("--tree=1,1,255")
            .arg("--merge")
            .args(args)
            .write_stdin(lines.to_string())
            .output()
            .unwrap(),
    )
}

#[test]
fn parts_that_do_not_cover_the_file_give_no_digest() {
    let (dir, two, three) = ten_leaves();
    let g = dir
        .cmd()
        .args(["--tree=1,1,255", "--part=1/1", "g"])
        .output()
        .unwrap();
    let g_part = stdout_of(&g);
    let g_line = stdout_of(&dir.cmd().args(["--tree=1,1,255", "g"]).output().unwrap());
    let cases = [
        // A part left out (the first, a middle one, the last).
        (
            format!("{}{}", three[1], three[2]),
            "missing part: nodes 0..3 of level 1 (bytes 0..384)",
        ),
        (
            format!("{}{}", three[0], three[2]),
            "missing part: nodes 3..7 of level 1 (bytes 384..896)",
        ),
        (
            three[0].clone() + &three[1],
            "missing part: nodes 7..10 of level 1 (bytes 896..1280)",
        ),
        // The same part twice; parts of different splits that overlap.
        (
            format!("{}{}{}", two[0], two[1], two[0]),
            "range=1,0,5 given twice",
        ),
        (
            format!("{}{}{}", two[0], three[1], three[2]),
            "range=1,3,4 overlaps another part",
        ),
    ];
    for (lines, why) in cases {
        // The other file is still merged; the status is 1.
        let input = format!("{g_part}{lines}");
        assert_eq!(
            merge(&dir, &[], &input),
            (
                Some(1),
                g_line.clone(),
                format!("skeinsum: f: {why}; no digest\n")
            ),
            "{input}"
        );
    }
}

#[test]
fn parts_of_another_object_or_other_options_give_no_digest() {
    let (dir, two, _) = ten_leaves();
    // The file grew between its two parts: the lengths differ.
    fs::write(dir.path().join("f"), pattern(10 * 128 + 1, 5)).unwrap();
    let grown = stdout_of(
        &dir.cmd()
            .args(["--tree=1,1,255", "--part=2/2", "f"])
            .output()
            .unwrap(),
    );
    assert_eq!(
        merge(&dir, &[], &format!("{}{grown}", two[0])),
        (
            Some(1),
            String::new(),
            "skeinsum: f: parts of different objects (Skein-512-512 tree=1,1,255 length=1280 and \
             Skein-512-512 tree=1,1,255 length=1281); no digest\n"
                .to_string()
        )
    );
    // Options that are not those of the parts.
    let both = two.concat();
    for (args, why) in [
        (
            &["-a", "256"][..],
            "the parts are Skein-512-512, but -a/-l give Skein-256-256",
        ),
        (
            &["-l", "256"][..],
            "the parts are Skein-512-512, but -a/-l give Skein-512-256",
        ),
        (
            &["--tree=1,1,254"][..],
            "the parts were hashed with --tree 1,1,255, not --tree 1,1,254",
        ),
    ] {
        assert_eq!(
            merge(&dir, args, &both),
            (
                Some(1),
                String::new(),
                format!("skeinsum: f: {why}; no digest\n")
            ),
            "{args:?}"
        );
    }
    // Parts of splits into different levels: 64 leaves split in one are
    // the 8 nodes of level 4, in two 8 nodes of level 3 each.
    dir.file("h", &pattern(64 * 128, 7));
    let part = |k_n: &str| {
        let args = ["--tree=1,1,255", &format!("--part={k_n}"), "h"];
        stdout_of(&dir.cmd().args(args).output().unwrap())
    };
    let (one, half) = (part("1/1"), part("1/2"));
    assert!(
        one.contains(" range=4,0,8 ") && half.contains(" range=3,0,8 "),
        "{one}{half}"
    );
    assert_eq!(
        merge(&dir, &[], &format!("{one}{half}")),
        (
            Some(1),
            String::new(),
            "skeinsum: h: parts of levels 3 and 4 (from different N of --part K/N); no digest\n"
                .to_string()
        )
    );
}

/// The values of a keyed tree depend on the key: merged with another key
/// they give a digest that `-c` with the parts' key rejects (the line
/// cannot tell; `-c` can).
#[test]
fn a_merge_with_another_key_fails_the_check() {
    let dir = Dir::with(&[("f", &pattern(5000, 9)[..])]);
    let mut parts = String::new();
    for k in 1..=2 {
        let out = dir
            .cmd()
            .args(["--tree=1,1,255", KEY, &format!("--part={k}/2"), "f"])
            .output()
            .unwrap();
        parts.push_str(&stdout_of(&out));
    }
    assert!(
        !parts.contains("000102030405060708090a0b0c0d0e0f"),
        "the key is not in the line"
    );
    let merged = dir
        .cmd()
        .args(["--tree=1,1,255", "--key-hex=ff", "--merge"])
        .write_stdin(parts)
        .output()
        .unwrap();
    assert_eq!(merged.status.code(), Some(0));
    dir.cmd()
        .args(["--tree=1,1,255", KEY, "-c"])
        .write_stdin(merged.stdout)
        .exits(1, "skeinsum: WARNING: 1 computed checksum did NOT match\n");
}

#[test]
fn malformed_part_lines_are_reported_and_the_rest_merged() {
    let (dir, two, _) = ten_leaves();
    let f_line = stdout_of(&dir.cmd().args(["--tree=1,1,255", "f"]).output().unwrap());
    let good = two.concat();
    let version = two[0].replace("skein-part-v1", "skein-part-v9");
    // One byte of values short.
    let short = two[0].strip_suffix("  f\n").unwrap();
    let short = format!("{}  f\n", &short[..short.len() - 2]);
    let bad = [
        (
            "0123  f\n".to_string(),
            "not a part line (it starts with skein-part-v1)",
        ),
        (
            version,
            "skein-part-v9: a part line of another version (this skeinsum reads skein-part-v1)",
        ),
        (
            short,
            "the values are not those of Skein-512-512 range=1,0,5",
        ),
        (
            two[0].replace("range=1,0,5", "range=1,1,5"),
            "the values are not those of Skein-512-512 range=1,1,5",
        ),
    ];
    for (line, why) in bad {
        dir.file("list", format!("{good}{line}").as_bytes());
        assert_eq!(
            merge(&dir, &["list"], ""),
            (
                Some(1),
                f_line.clone(),
                format!("skeinsum: list: line 3: {why}\n")
            ),
            "{line}"
        );
    }
    // No part line at all; a list that cannot be read.
    assert_eq!(
        merge(&dir, &[], ""),
        (
            Some(1),
            String::new(),
            "skeinsum: --merge: no part lines found\n".to_string()
        )
    );
    assert_eq!(
        merge(&dir, &["missing"], ""),
        (
            Some(1),
            String::new(),
            "skeinsum: missing: No such file or directory\n".to_string()
        )
    );
}

/// Usage errors: exit 2, nothing on stdout, one line naming the option.
#[test]
fn part_and_merge_usage_errors() {
    let dir = Dir::with(&[("f", b"abc"), ("g", b"def")]);
    let cases: &[(&[&str], &str)] = &[
        (&["--part=1/2", "f"], "--tree"),
        (&["--merge", "f"], "--tree"),
        (&["--tree=1,1,255", "--part=0/2", "f"], "--part"),
        (&["--tree=1,1,255", "--part=3/2", "f"], "--part"),
        (&["--tree=1,1,255", "--part=1/0", "f"], "--part"),
        (&["--tree=1,1,255", "--part=2", "f"], "--part"),
        (&["--tree=1,1,255", "--part=+1/2", "f"], "--part"),
        (&["--tree=1,1,255", "--part=1/65537", "f"], "--part"),
        (&["--tree=1,1,255", "--part=1/2"], "--part"),
        (&["--tree=1,1,255", "--part=1/2", "f", "-"], "--part"),
        (&["--tree=1,1,255", "--part=1/2", "--merge", "f"], "--part"),
        (&["--tree=1,1,255", "--part=1/2", "-c", "f"], "--part"),
        (&["--tree=1,1,255", "--part=1/2", "--tag", "f"], "--part"),
        (&["--tree=1,1,255", "--part=1/2", "-z", "f"], "--part"),
        (&["--tree=1,1,255", "--part=1/2", "--raw", "f"], "--part"),
        (&["--tree=1,1,255", "--part=1/2", "-r", "f"], "--part"),
        (&["--tree=1,1,255", "--merge", "-c", "f"], "--merge"),
        (&["--tree=1,1,255", "--merge", "--raw", "f"], "--merge"),
    ];
    for (args, option) in cases {
        let out = dir.cmd().args(*args).write_stdin("").output().unwrap();
        assert_usage_error(&out, option, &format!("{args:?}"));
    }
}

/// Files `--part` cannot read: each its own message and status 1, the
/// others still hashed; a file with fewer ranges than K prints nothing.
#[test]
fn part_of_files_that_cannot_be_read_in_parts() {
    let dir = Dir::with(&[("f", &pattern(1000, 1)[..])]);
    fs::create_dir(dir.path().join("d")).unwrap();
    dir.fifo("pipe");
    // Bounded: a FIFO must be refused, not waited for.
    let mut cmd = std_skeinsum();
    cmd.current_dir(dir.path())
        .args(["--tree=1,1,255", "--part=1/2", "missing", "d", "pipe", "f"]);
    let out = run_with_timeout(cmd, Stdio::null(), None, Duration::from_secs(60));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr_of(&out),
        "skeinsum: missing: No such file or directory\nskeinsum: d: Is a directory\n\
         skeinsum: pipe: --part reads a range, which needs a regular file or a block device\n"
    );
    assert!(
        stdout_of(&out).starts_with("skein-part-v1 Skein-512-512 tree=1,1,255 length=1000 range=")
    );
    // One leaf: part 1 is the whole file (the root), part 2 is empty.
    dir.file("tiny", b"x");
    dir.cmd()
        .args(["--tree=1,1,255", "--part=2/2", "tiny"])
        .prints("");
    let one = dir
        .cmd()
        .args(["--tree=1,1,255", "--part=1/2", "tiny"])
        .output()
        .unwrap();
    assert!(
        stdout_of(&one).contains(" length=1 range=1,0,1 "),
        "{}",
        stdout_of(&one)
    );
}
