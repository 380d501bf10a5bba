//! `--part K/N` and `--merge`: one file's tree digest computed on several
//! hosts. `--part` hashes only the bytes of the K-th of the N ranges that
//! `ObjectTree::split(N)` gives and prints a part line: everything the
//! merge needs to rebuild the same tree and to check that the parts fit
//! together (algorithm, output length, tree shape, the object's length,
//! the range), with the range's subtree values. `--merge` reads part
//! lines (any order, any number of files), groups them by file name and
//! prints the ordinary checksum line of each file, which `-c` verifies.
//!
//! The line never holds the key or the other Skein arguments: the merge
//! takes them from its own command line, as `-c` does. A part of another
//! object, shape or length is refused; a part hashed with another key
//! cannot be told apart (the values are keyed), and gives a digest that
//! `-c` rejects.

use std::fs::File;
use std::io::{self, BufRead, Read, Seek, SeekFrom};

use skein_simd::hazmat::{ObjectTree, Subtrees};
use skein_simd::{mask_unused_bits, Params, StateSize, TreeParams};
use zeroize::Zeroizing;

use crate::cli::{line_end, Args, Part, MAX_OUTPUT_BITS};
use crate::config::{bytes_os, os_bytes, tag_name, HashConfig};
use crate::files::open::{leased, open_named, open_nonblocking, stdin_descriptor};
use crate::files::{is_a_directory, unchanged, InputError, Origin, Snapshot};
use crate::format::{escape_name, needs_escape, push_result_line, unescape_name};
use crate::quote::quote_name;
use crate::readahead;
use crate::report::{io_reason, warn, Output, OutputClosed};

/// The first word of a part line, with the version of its format: a later
/// format gets another number, so an older merge refuses it by name.
const TAG: &str = "skein-part-v1";

/// Usage errors of `--part` and `--merge` that clap cannot express.
///
/// `--part` reads its range at an offset, which standard input cannot give
/// (a pipe cannot seek, and hashing it all to keep one range would read
/// every byte on every host).
pub fn check_usage(args: &Args) -> Result<(), String> {
    if args.part.is_some() && (args.files.is_empty() || args.files.iter().any(|f| f == "-")) {
        return Err(
            "--part: standard input cannot be read in parts; name the FILE to hash".to_string(),
        );
    }
    Ok(())
}

/// What one part line says.
struct PartLine {
    state: StateSize,
    output_bits: u64,
    tree: TreeParams,
    len: u64,
    level: u8,
    first: u64,
    count: u64,
    /// `Subtrees::to_bytes`: keyed values in a keyed tree, so wiped.
    values: Zeroizing<Vec<u8>>,
    name: Vec<u8>,
}

impl PartLine {
    /// Everything that must be the same in every part of one object.
    fn object(&self) -> (StateSize, u64, TreeParams, u64) {
        (self.state, self.output_bits, self.tree, self.len)
    }

    /// `Skein-512-256 tree=10,1,255 length=N`, for messages.
    fn object_text(&self) -> String {
        format!(
            "{} tree={} length={}",
            tag_name(self.state, self.output_bits),
            tree_text(self.tree),
            self.len
        )
    }

    /// The line, terminator included. A name with a backslash or a line
    /// break is escaped and the line starts with `\`, as in checksum lines.
    fn to_line(&self) -> Vec<u8> {
        let escape = needs_escape(&self.name);
        let mut line = Vec::new();
        if escape {
            line.push(b'\\');
        }
        line.extend_from_slice(
            format!(
                "{TAG} {} range={},{},{} {}  ",
                self.object_text(),
                self.level,
                self.first,
                self.count,
                hex::encode(&*self.values)
            )
            .as_bytes(),
        );
        if escape {
            line.extend_from_slice(&escape_name(&self.name));
        } else {
            line.extend_from_slice(&self.name);
        }
        line.push(b'\n');
        line
    }

    /// A line written by [`to_line`](Self::to_line) (without its
    /// terminator), or why it is none.
    fn parse(line: &[u8]) -> Result<PartLine, String> {
        let (escaped, body) = match line.strip_prefix(b"\\") {
            Some(rest) => (true, rest),
            None => (false, line),
        };
        let mut fields = body.splitn(7, |&c| c == b' ');
        let mut field = |what: &str| {
            fields
                .next()
                .and_then(|f| std::str::from_utf8(f).ok())
                .ok_or_else(|| format!("no {what}"))
        };
        let tag = field("tag")?;
        if tag != TAG {
            return Err(if tag.starts_with("skein-part-") {
                format!("{tag}: a part line of another version (this skeinsum reads {TAG})")
            } else {
                format!("not a part line (it starts with {TAG})")
            });
        }
        let (state, output_bits) = algorithm(field("algorithm")?)?;
        let tree = keyed(field("tree")?, "tree=")?;
        let tree = match numbers::<3>(tree).as_deref() {
            Some(&[leaf, fan, height]) => u8::try_from(leaf)
                .ok()
                .zip(u8::try_from(fan).ok())
                .zip(u8::try_from(height).ok())
                .and_then(|((l, f), h)| TreeParams::new(l, f, h).ok()),
            _ => None,
        }
        .ok_or_else(|| format!("bad tree={tree}"))?;
        let len = keyed(field("length")?, "length=")?;
        let len = decimal(len).ok_or_else(|| format!("bad length={len}"))?;
        let range = keyed(field("range")?, "range=")?;
        let (level, first, count) = match numbers::<3>(range).as_deref() {
            Some(&[level, first, count]) => (u8::try_from(level).ok(), first, count),
            _ => (None, 0, 0),
        };
        let level = level
            .filter(|&l| l >= 1 && count >= 1)
            .ok_or_else(|| format!("bad range={range}"))?;
        let values = Zeroizing::new(
            hex::decode(field("values")?).map_err(|_| "the values are no hex".to_string())?,
        );
        // `HEX  NAME`: the seventh field is the name after one more space.
        let name = fields
            .next()
            .and_then(|rest| rest.strip_prefix(b" "))
            .filter(|name| !name.is_empty())
            .ok_or_else(|| "no file name after the values and two spaces".to_string())?;
        let name = if escaped {
            unescape_name(name).ok_or_else(|| "a bad escape in the file name".to_string())?
        } else {
            name.to_vec()
        };
        let part = PartLine {
            state,
            output_bits,
            tree,
            len,
            level,
            first,
            count,
            values,
            name,
        };
        // The values' own header (state size, level, first node) and their
        // count must be the range's.
        let fits = match state {
            StateSize::S256 => part.values_fit::<4>(),
            StateSize::S512 => part.values_fit::<8>(),
            StateSize::S1024 => part.values_fit::<16>(),
        };
        if !fits {
            return Err(format!(
                "the values are not those of {} range={},{},{}",
                tag_name(state, output_bits),
                level,
                first,
                count
            ));
        }
        Ok(part)
    }

    fn values_fit<const W: usize>(&self) -> bool {
        Subtrees::<W>::from_bytes(&self.values).is_ok_and(|s| {
            (s.level(), s.first(), s.count()) == (self.level, self.first, self.count)
        })
    }
}

/// `Skein-S-L` with S a state size and 1 <= L <= [`MAX_OUTPUT_BITS`].
fn algorithm(text: &str) -> Result<(StateSize, u64), String> {
    text.strip_prefix("Skein-")
        .and_then(|sizes| sizes.split_once('-'))
        .and_then(|(state, bits)| {
            let state = StateSize::from_bits(decimal(state)?)?;
            let bits = decimal(bits).filter(|&b| (1..=MAX_OUTPUT_BITS).contains(&b))?;
            Some((state, bits))
        })
        .ok_or_else(|| format!("bad algorithm {text}"))
}

/// The value of `KEY=VALUE`.
fn keyed<'a>(text: &'a str, key: &str) -> Result<&'a str, String> {
    text.strip_prefix(key)
        .ok_or_else(|| format!("no {key} where {text} is"))
}

/// `N` numbers separated by commas.
fn numbers<const N: usize>(text: &str) -> Option<Vec<u64>> {
    let numbers: Option<Vec<u64>> = text.split(',').map(decimal).collect();
    numbers.filter(|n| n.len() == N)
}

/// A plain decimal number (no sign, no spaces).
fn decimal(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// `10,1,255`, as `--tree` takes it.
fn tree_text(tree: TreeParams) -> String {
    format!(
        "{},{},{}",
        tree.leaf_log2(),
        tree.fan_out_log2(),
        tree.max_height()
    )
}

// ------------------------------------------------------------- --part

/// `--part K/N`: a part line for each FILE; true if all went well.
pub fn run_part(
    args: &Args,
    config: &HashConfig,
    part: Part,
    out: &mut Output,
) -> Result<bool, OutputClosed> {
    let mut ok = true;
    let mut blocks = readahead::Pool::default();
    for file in &args.files {
        let name = os_bytes(file);
        let hashed = match config.state {
            StateSize::S256 => hash_part::<4>(config, &name, part, &mut blocks),
            StateSize::S512 => hash_part::<8>(config, &name, part, &mut blocks),
            StateSize::S1024 => hash_part::<16>(config, &name, part, &mut blocks),
        };
        match hashed {
            Ok(Some(line)) => out.line(&line.to_line())?,
            // The file has fewer ranges than K: its other parts cover it.
            Ok(None) => {}
            Err(e) => {
                warn(format_args!("{}: {}", quote_name(&name), e.reason()));
                ok = false;
            }
        }
    }
    Ok(ok)
}

/// The part line of the K-th range of the file `name`, reading only that
/// range; `None` when the file splits into fewer than K ranges (one that
/// fits in a few nodes).
fn hash_part<const W: usize>(
    config: &HashConfig,
    name: &[u8],
    part: Part,
    blocks: &mut readahead::Pool,
) -> Result<Option<PartLine>, InputError> {
    // Opened without waiting, and never made to wait: a FIFO is refused
    // below, not waited for (its writer would give no range).
    let mut file = match open_nonblocking(name, Origin::Named) {
        Err(e) if leased(&e) => File::open(bytes_os(name))?,
        opened => opened?,
    };
    let meta = file.metadata()?;
    if meta.is_dir() {
        return Err(is_a_directory().into());
    }
    let before = Snapshot::of(&meta);
    let len = match before {
        Some(snapshot) => snapshot.len,
        None if is_block_device(&meta) => file.seek(SeekFrom::End(0))?,
        None => {
            return Err(io::Error::other(
                "--part reads a range, which needs a regular file or a block device",
            )
            .into())
        }
    };
    let params = config.params(config.output_bits);
    let tree = object_tree::<W>(&params, len)?;
    let ranges = tree.split(part.n as usize);
    let Some(range) = ranges.get(part.k as usize - 1) else {
        return Ok(None);
    };
    let bytes = range.bytes();
    let mut hasher = tree.hasher(range).map_err(io::Error::other)?;
    file.seek(SeekFrom::Start(bytes.start))?;
    // `take` keeps the hasher from being fed more than the range (it would
    // panic); fewer bytes (a file that shrank) fail at `finish`.
    let range_file = (&file).take(bytes.end - bytes.start);
    blocks.read_all(range_file, |piece| {
        hasher.update(piece);
    })?;
    let values = hasher.finish().map_err(|_| InputError::Changed)?;
    unchanged(before, Snapshot::of(&file.metadata()?))?;
    Ok(Some(PartLine {
        state: config.state,
        output_bits: config.output_bits,
        tree: tree.tree_params(),
        len,
        level: range.level(),
        first: range.first(),
        count: range.count(),
        values: Zeroizing::new(values.to_bytes()),
        name: name.to_vec(),
    }))
}

#[cfg(unix)]
fn is_block_device(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::FileTypeExt;
    meta.file_type().is_block_device()
}

#[cfg(not(unix))]
fn is_block_device(_meta: &std::fs::Metadata) -> bool {
    false
}

/// The tree of `len` bytes; the parameters were checked when the run
/// began, so an error here is unexpected (and still no panic).
fn object_tree<const W: usize>(params: &Params<'_>, len: u64) -> io::Result<ObjectTree<W>> {
    ObjectTree::<W>::new(params, len).map_err(io::Error::other)
}

// ------------------------------------------------------------ --merge

/// `--merge`: read the part lines of every FILE (standard input when
/// none, or `-`) and print a checksum line for each file they name, in
/// the order of their first part line; true if all went well. A line
/// that is no part line, or a file whose parts are missing, overlap or
/// disagree, is reported and makes the status 1; the other files are
/// still merged (each printed digest covers every byte of its file).
pub fn run_merge(args: &Args, config: &HashConfig, out: &mut Output) -> Result<bool, OutputClosed> {
    let stdin_only = [std::ffi::OsString::from("-")];
    let lists = if args.files.is_empty() {
        &stdin_only[..]
    } else {
        &args.files[..]
    };
    let mut ok = true;
    // Each file's lines, in the order their names first appear.
    let mut groups: Vec<(Vec<u8>, Vec<PartLine>)> = Vec::new();
    let mut index = std::collections::HashMap::new();
    for list in lists {
        let list = os_bytes(list);
        let label = if *list == *b"-" {
            quote_name(b"standard input")
        } else {
            quote_name(&list)
        };
        let read = read_lines(&list, |number, line| match PartLine::parse(line) {
            Ok(part) => {
                let at = *index.entry(part.name.clone()).or_insert_with(|| {
                    groups.push((part.name.clone(), Vec::new()));
                    groups.len() - 1
                });
                groups[at].1.push(part);
            }
            Err(why) => {
                warn(format_args!("{label}: line {number}: {why}"));
                ok = false;
            }
        });
        if let Err(e) = read {
            warn(format_args!("{label}: {}", io_reason(&e)));
            ok = false;
        }
    }
    if groups.is_empty() && ok {
        warn("--merge: no part lines found");
        return Ok(false);
    }
    let tag = args.tag.then(|| tag_name(config.state, config.output_bits));
    let end = line_end(args.zero);
    for (name, parts) in &groups {
        match merge(config, args.tree, parts) {
            Ok(digest) => {
                out.line_with(|line| push_result_line(line, &digest, name, tag.as_deref(), end))?
            }
            Err(why) => {
                warn(format_args!("{}: {why}", quote_name(name)));
                ok = false;
            }
        }
    }
    Ok(ok)
}

/// Call `each` with every line (without its terminator) of the list
/// `list` (`-`: standard input) and its number.
fn read_lines(list: &[u8], mut each: impl FnMut(u64, &[u8])) -> io::Result<()> {
    let input: Box<dyn Read> = if list == b"-" {
        Box::new(stdin_descriptor()?)
    } else {
        let (file, meta) = open_named(list)?;
        if meta.is_dir() {
            return Err(is_a_directory());
        }
        Box::new(file) as Box<dyn Read>
    };
    let mut input = io::BufReader::with_capacity(1 << 16, input);
    let mut line = Zeroizing::new(Vec::new());
    let mut number = 0;
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        number += 1;
        let text = line.strip_suffix(b"\n").unwrap_or(&line);
        each(number, text);
    }
}

/// The digest of the file whose part lines are `parts`, or why there is
/// none.
fn merge(
    config: &HashConfig,
    tree: Option<TreeParams>,
    parts: &[PartLine],
) -> Result<Vec<u8>, String> {
    let head = &parts[0];
    if let Some(other) = parts.iter().find(|p| p.object() != head.object()) {
        return Err(format!(
            "parts of different objects ({} and {}); no digest",
            head.object_text(),
            other.object_text()
        ));
    }
    let wanted = tag_name(config.state, config.output_bits);
    let given = tag_name(head.state, head.output_bits);
    if wanted != given {
        return Err(format!(
            "the parts are {given}, but -a/-l give {wanted}; no digest"
        ));
    }
    let tree = tree.expect("clap requires --tree with --merge");
    if tree != head.tree {
        return Err(format!(
            "the parts were hashed with --tree {}, not --tree {}; no digest",
            tree_text(head.tree),
            tree_text(tree)
        ));
    }
    match head.state {
        StateSize::S256 => merge_w::<4>(config, parts),
        StateSize::S512 => merge_w::<8>(config, parts),
        StateSize::S1024 => merge_w::<16>(config, parts),
    }
}

fn merge_w<const W: usize>(config: &HashConfig, parts: &[PartLine]) -> Result<Vec<u8>, String> {
    let len = parts[0].len;
    let params = config.params(config.output_bits);
    let tree = object_tree::<W>(&params, len).map_err(|e| e.to_string())?;
    let mut sorted: Vec<&PartLine> = parts.iter().collect();
    sorted.sort_by_key(|p| (p.level, p.first));
    let level = sorted[0].level;
    if let Some(other) = sorted.iter().find(|p| p.level != level) {
        return Err(format!(
            "parts of levels {level} and {} (from different N of --part K/N); no digest",
            other.level
        ));
    }
    let nodes = tree.nodes_at(level);
    let mut next = 0;
    for part in &sorted {
        let range = format!("range={},{},{}", part.level, part.first, part.count);
        if tree.range(part.level, part.first, part.count).is_err() {
            return Err(format!(
                "{range} is not in the tree of {len} bytes; no digest"
            ));
        }
        if part.first < next {
            let twice = sorted
                .iter()
                .filter(|p| (p.first, p.count) == (part.first, part.count))
                .count()
                > 1;
            let what = if twice {
                "given twice"
            } else {
                "overlaps another part"
            };
            return Err(format!("{range} {what}; no digest"));
        }
        if part.first > next {
            return Err(missing(&tree, level, next, part.first));
        }
        next = part.first + part.count;
    }
    if next < nodes {
        return Err(missing(&tree, level, next, nodes));
    }
    let values: Vec<Subtrees<W>> = sorted
        .iter()
        .map(|p| Subtrees::<W>::from_bytes(&p.values).expect("checked when parsed"))
        .collect();
    let mut reader = tree.root(&values).map_err(|e| e.to_string())?;
    let mut digest = Vec::new();
    digest
        .try_reserve_exact(config.output_bits.div_ceil(8) as usize)
        .map_err(|_| "not enough memory for the digest".to_string())?;
    digest.resize(config.output_bits.div_ceil(8) as usize, 0);
    reader.fill(&mut digest);
    mask_unused_bits(&mut digest, config.output_bits);
    Ok(digest)
}

/// The message for nodes `from .. to` of `level` that no part holds.
fn missing<const W: usize>(tree: &ObjectTree<W>, level: u8, from: u64, to: u64) -> String {
    let bytes = |node: u64| {
        tree.range(level, node, 1)
            .map_or(tree.len(), |r| r.bytes().start)
    };
    format!(
        "missing part: nodes {from}..{to} of level {level} (bytes {}..{}); no digest",
        bytes(from),
        bytes(to)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(values: &[u8]) -> PartLine {
        PartLine {
            state: StateSize::S256,
            output_bits: 12,
            tree: TreeParams::new(1, 2, 3).unwrap(),
            len: 1000,
            level: 1,
            first: 2,
            count: 1,
            values: Zeroizing::new(values.to_vec()),
            name: b"a\nb\\c d".to_vec(),
        }
    }

    #[test]
    fn part_lines_round_trip() {
        let mut values = vec![4, 1, 2, 0, 0, 0, 0, 0, 0, 0];
        values.extend([7u8; 32]);
        let text = line(&values).to_line();
        let shown = String::from_utf8_lossy(&text);
        assert!(
            shown.starts_with(
                "\\skein-part-v1 Skein-256-12 tree=1,2,3 length=1000 range=1,2,1 04010200"
            ),
            "{shown}"
        );
        assert!(shown.ends_with("  a\\nb\\\\c d\n"), "{shown}");
        let back = PartLine::parse(&text[..text.len() - 1]).unwrap();
        assert_eq!(back.name, b"a\nb\\c d");
        assert_eq!(*back.values, values);
        assert_eq!(back.object(), line(&values).object());
        // Values of another range, state size or count are refused.
        values[2] = 3;
        let text = line(&values).to_line();
        assert!(PartLine::parse(&text[..text.len() - 1]).is_err());
        for bad in [
            "skein-part-v2 Skein-256-12 tree=1,2,3 length=1 range=1,0,1 00  f",
            "skein-part-v1 Skein-384-12 tree=1,2,3 length=1 range=1,0,1 00  f",
            "skein-part-v1 Skein-256-12 tree=1,2 length=1 range=1,0,1 00  f",
            "skein-part-v1 Skein-256-12 tree=1,2,3 length=-1 range=1,0,1 00  f",
            "skein-part-v1 Skein-256-12 tree=1,2,3 length=1 range=0,0,1 00  f",
            "skein-part-v1 Skein-256-12 tree=1,2,3 length=1 range=1,0,1 0g  f",
            "skein-part-v1 Skein-256-12 tree=1,2,3 length=1 range=1,0,1 00 f",
            "skein-part-v1 Skein-256-12 tree=1,2,3 length=1 range=1,0,1 00  ",
            "0123  f",
        ] {
            assert!(PartLine::parse(bad.as_bytes()).is_err(), "{bad}");
        }
    }
}
