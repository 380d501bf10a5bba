//! skeinsum's checksum-line parser, GNU escaping and message quoting:
//! arbitrary bytes never panic them, every line skeinsum writes (GNU or
//! `--tag`, any name, any digest length a tag can name, with the spacing
//! around `(` and `=` that GNU accepts) parses back to the same name (cut
//! at its first NUL, as GNU cuts it) and digest, and a quoted name is one
//! line with no control byte.
#![no_main]

use libfuzzer_sys::arbitrary::{self, Arbitrary};
use libfuzzer_sys::fuzz_target;
use skeinsum::not_api::{escape_name, parse_check_line, quote_name, result_line, unescape_name};

#[derive(Arbitrary, Debug)]
struct Input {
    /// Parsed as a line of a checksum file, and quoted.
    raw: Vec<u8>,
    /// Written into a result line and read back.
    digest: Vec<u8>,
    name: Vec<u8>,
    /// Bits 0-1: state size; bit 2: tag line; bit 3: leading blanks;
    /// bits 4-5: the spacing of a tag line (` (` or `(`, ` = `, `=` or
    /// `\t=  `).
    style: u8,
}

fuzz_target!(|input: Input| {
    let Input {
        raw,
        digest,
        name,
        style,
    } = input;

    // Arbitrary bytes: never a panic; a parsed name holds no NUL, and the
    // digest has the length its hex digits say.
    if let Some(line) = parse_check_line(&raw) {
        assert!(!line.name.contains(&0));
        assert_eq!(2 * line.expected.len(), line.hex_digits);
    }
    let quoted = quote_name(&raw);
    assert!(
        !quoted.chars().any(|c| c.is_control()),
        "control character in quoted name {quoted:?}"
    );

    // Escaping is undone exactly.
    assert_eq!(
        unescape_name(&escape_name(&name)).as_deref(),
        Some(&name[..])
    );

    if digest.is_empty() || name.is_empty() {
        return;
    }
    let state = [256u64, 512, 1024][usize::from(style % 3)];
    let tag = format!("Skein-{state}-{}", 8 * digest.len());
    let tag = (style & 4 != 0).then_some(tag.as_str());
    let mut line = result_line(&digest, &name, tag, b'\n');
    assert_eq!(line.pop(), Some(b'\n'));
    if tag.is_some() {
        let (open, equals): (&[u8], &[u8]) = match (style >> 4) & 3 {
            0 => (b" (", b") = "),
            1 => (b"(", b")="),
            2 => (b" (", b")\t=  "),
            _ => (b"(", b") = "),
        };
        let name_at = line.iter().position(|&c| c == b'(').unwrap();
        let hex_at = line.len() - 2 * digest.len();
        let name_end = hex_at - 4;
        let mut spaced = line[..name_at - 1].to_vec();
        spaced.extend_from_slice(open);
        spaced.extend_from_slice(&line[name_at + 1..name_end]);
        spaced.extend_from_slice(equals);
        spaced.extend_from_slice(&line[hex_at..]);
        line = spaced;
    }
    if style & 8 != 0 {
        line.splice(0..0, *b" \t ");
    }
    let parsed = parse_check_line(&line).unwrap_or_else(|| {
        panic!(
            "own line not parsed back: {:?}",
            String::from_utf8_lossy(&line)
        )
    });
    let cut = name.iter().position(|&c| c == 0).unwrap_or(name.len());
    assert_eq!(parsed.name, name[..cut], "name");
    assert_eq!(parsed.expected, digest, "digest");
    assert_eq!(parsed.hex_digits, 2 * digest.len());
    match tag {
        Some(_) => {
            let (s, bits) = parsed.algorithm.expect("a tag line names its algorithm");
            assert_eq!((s.bits(), bits), (state, 8 * digest.len() as u64));
        }
        None => assert!(parsed.algorithm.is_none(), "a GNU line names no algorithm"),
    }
});
