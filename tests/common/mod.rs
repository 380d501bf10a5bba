//! Shared test support: the official golden KAT file and hex helpers.
#![allow(dead_code)]

use std::path::PathBuf;

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

/// Where the golden file is: `SKEIN_GOLDEN_KAT`, else `../shared/kat/…` next
/// to the repository. `None` (after saying so) when it is missing and we are
/// not in CI; a panic when it is missing in CI.
pub fn golden_kat_path() -> Option<PathBuf> {
    let path = match std::env::var_os("SKEIN_GOLDEN_KAT") {
        Some(p) => PathBuf::from(p),
        None => {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/kat/skein_golden_kat.txt")
        }
    };
    if path.is_file() {
        return Some(path);
    }
    if std::env::var("CI").map(|v| v == "true").unwrap_or(false) {
        panic!(
            "golden KAT file {} is missing (CI=true: this is a failure)",
            path.display()
        );
    }
    eprintln!(
        "golden KAT file {} not found: set SKEIN_GOLDEN_KAT; skipping",
        path.display()
    );
    None
}

fn hex_bytes(line: &str) -> impl Iterator<Item = u8> + '_ {
    line.split_whitespace().map(move |h| {
        u8::from_str_radix(h, 16).unwrap_or_else(|_| panic!("bad hex {h:?} in KAT line {line:?}"))
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

pub fn parse_kat(text: &str) -> Vec<KatEntry> {
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
            let hex =
                |name: &str| u8::from_str_radix(&field_after(&header, name)[..2], 16).unwrap();
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

pub fn load_golden_kat() -> Option<Vec<KatEntry>> {
    let path = golden_kat_path()?;
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Some(parse_kat(&text))
}

pub fn hex(s: &str) -> Vec<u8> {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// Hash a KAT entry with the library, forcing `backend`.
pub fn hash_entry(e: &KatEntry, backend: skein_simd::Backend) -> Vec<u8> {
    use skein_simd::{DynSkein, Params, StateSize, TreeParams};
    let mut params = Params::new().output_bits(e.output_bits).backend(backend);
    if let Some(k) = &e.key {
        params = params.key(k);
    }
    if let Some((l, f, m)) = e.tree {
        params = params.tree(TreeParams::new(l, f, m).unwrap());
    }
    let mut h = DynSkein::new(StateSize::from_bits(e.state_bits).unwrap(), &params).unwrap();
    h.update_bits(&e.msg, e.msg_bits);
    h.finalize_vec()
}

/// Every backend usable on this machine (always includes `portable`).
pub fn backends() -> Vec<skein_simd::Backend> {
    skein_simd::Backend::available()
}
