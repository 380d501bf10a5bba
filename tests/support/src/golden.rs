//! The official Skein 1.3 golden known-answer file (`skein_golden_kat.txt`,
//! 491 entries), committed as `tests/data/skein_golden_kat.txt` (its origin:
//! `tests/data/README.md`): the one loader of every Rust test suite (the
//! library's tests and skeinsum's CLI tests).

use std::path::{Path, PathBuf};

/// Entries in the official file.
pub const GOLDEN_ENTRIES: usize = 491;

/// The file, relative to the repository root.
const GOLDEN_PATH: &str = "tests/data/skein_golden_kat.txt";

/// One entry of `skein_golden_kat.txt`.
#[derive(Debug, Clone)]
pub struct KatEntry {
    pub header: String,
    pub state_bits: u64,
    pub output_bits: u64,
    pub msg_bits: u64,
    pub msg: Vec<u8>,
    pub key: Option<Vec<u8>>,
    pub tree: Option<(u8, u8, u8)>,
    pub result: Vec<u8>,
}

/// The committed golden file of this checkout, found by walking up from
/// this crate's directory (`tests/support/`) rather than through `..`: a
/// plain path inside the repository, which the WASI runner
/// (`tools/ci/wasi-run.mjs`) maps (skein-simd's package directory).
pub fn path() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .map(|d| d.join(GOLDEN_PATH))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("no {GOLDEN_PATH} in or above {}", manifest.display()))
}

/// Every entry of the golden file; panics (a test failure) when the file
/// does not hold all [`GOLDEN_ENTRIES`] entries.
pub fn load() -> Vec<KatEntry> {
    let path = path();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let entries = parse(&text);
    assert_eq!(
        entries.len(),
        GOLDEN_ENTRIES,
        "{}: expected {GOLDEN_ENTRIES} entries",
        path.display()
    );
    entries
}

fn hex_bytes(line: &str) -> impl Iterator<Item = u8> + '_ {
    line.split_whitespace().map(move |h| {
        let [byte] = hex::decode(h)
            .ok()
            .and_then(|b| <[u8; 1]>::try_from(b).ok())
            .unwrap_or_else(|| panic!("bad hex {h:?} in KAT line {line:?}"));
        byte
    })
}

fn field_after<'a>(header: &'a str, name: &str) -> &'a str {
    let at = header
        .find(name)
        .unwrap_or_else(|| panic!("no `{name}` in {header}"))
        + name.len();
    header[at..].trim_start()
}

fn leading_number(s: &str) -> u64 {
    s.chars()
        .take_while(|c| c.is_ascii_digit())
        .collect::<String>()
        .parse()
        .unwrap()
}

/// The entries of a golden file's text (CRLF or LF line ends).
pub fn parse(text: &str) -> Vec<KatEntry> {
    let mut entries = Vec::new();
    let mut lines = text.lines().map(|l| l.trim_end_matches('\r')).peekable();
    while let Some(line) = lines.next() {
        if !line.starts_with(":Skein-") {
            continue;
        }
        let header = line.to_string();
        let state_bits = leading_number(&header[":Skein-".len()..]);
        let output_bits = leading_number(header.split(':').nth(2).unwrap().trim_start());
        let msg_bits = leading_number(field_after(&header, "msgLen ="));
        let tree = header.find("Tree:").map(|_| {
            let hex = |name: &str| hex::decode(&field_after(&header, name)[..2]).unwrap()[0];
            (hex("leaf="), hex("node="), hex("maxLevels="))
        });
        let (mut msg, mut key, mut result) = (Vec::new(), None::<Vec<u8>>, Vec::new());
        let mut section = "";
        for line in lines.by_ref() {
            let t = line.trim();
            if t.starts_with("----") {
                break;
            } else if t.starts_with("Message data:") {
                section = "msg";
            } else if t.starts_with("MAC key") {
                section = "key";
                key = Some(Vec::new());
            } else if t.starts_with("Result:") {
                section = "result";
            } else if t.is_empty() || t.starts_with("(none)") {
            } else {
                let dst = match section {
                    "msg" => &mut msg,
                    "key" => key.as_mut().unwrap(),
                    "result" => &mut result,
                    _ => panic!("unexpected KAT line {t:?} in {header}"),
                };
                dst.extend(hex_bytes(t));
            }
        }
        assert_eq!(msg.len() as u64, msg_bits.div_ceil(8), "{header}");
        assert_eq!(result.len() as u64, output_bits.div_ceil(8), "{header}");
        entries.push(KatEntry {
            header,
            state_bits,
            output_bits,
            msg_bits,
            msg,
            key,
            tree,
            result,
        });
    }
    entries
}
