//! Checksum lines: writing them (GNU or BSD tag style) and reading them back
//! (GNU, tag, and FreeBSD `Skein512 (FILE) = HEX`).
//!
//! Names in these lines are escaped as GNU coreutils escapes them: a name
//! with a backslash, newline or carriage return is written with `\\`, `\n`
//! and `\r` and the line starts with a backslash ([`escape_name`],
//! [`unescape_name`]). `--check`'s `NAME: OK` lines escape only names with a
//! newline, as GNU coreutils 9.1 does ([`status_line`]).

use skein_simd::StateSize;

use crate::cli::MAX_OUTPUT_BITS;

/// Whether a name must be escaped to fit on one line (as GNU coreutils does).
pub fn needs_escape(name: &[u8]) -> bool {
    name.iter().any(|&c| matches!(c, b'\\' | b'\n' | b'\r'))
}

/// `name` with backslash, newline and carriage return written as `\\`, `\n`
/// and `\r` (GNU's escaping; the line then starts with a backslash).
pub fn escape_name(name: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(name.len() + 8);
    escape_into(&mut out, name);
    out
}

fn escape_into(out: &mut Vec<u8>, name: &[u8]) {
    for &c in name {
        match c {
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            _ => out.push(c),
        }
    }
}

/// Undo [`escape_name`]; `None` for an unknown escape or a lone backslash.
pub fn unescape_name(name: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(name.len());
    let mut bytes = name.iter();
    while let Some(&c) = bytes.next() {
        if c != b'\\' {
            out.push(c);
            continue;
        }
        out.push(match bytes.next()? {
            b'\\' => b'\\',
            b'n' => b'\n',
            b'r' => b'\r',
            _ => return None,
        });
    }
    Some(out)
}

/// One output line for `digest` (printed in lowercase hex), terminator
/// included: `HEX  NAME`, or with `tag` = `Skein-512-256`:
/// `Skein-512-256 (NAME) = HEX`. A name with a backslash or line break is
/// escaped and the line starts with `\`, unless lines end with NUL (`-z`),
/// which needs no escaping.
pub fn result_line(digest: &[u8], name: &[u8], tag: Option<&str>, end: u8) -> Vec<u8> {
    let mut line = Vec::new();
    push_result_line(&mut line, digest, name, tag, end);
    line
}

/// [`result_line`] appended to `line`: the batch's thousands of lines a
/// second go straight into the output buffer, with no allocation of
/// their own.
pub fn push_result_line(
    line: &mut Vec<u8>,
    digest: &[u8],
    name: &[u8],
    tag: Option<&str>,
    end: u8,
) {
    let escape = end != 0 && needs_escape(name);
    line.reserve(name.len() + 2 * digest.len() + tag.map_or(0, str::len) + 8);
    if escape {
        line.push(b'\\');
    }
    let push_name = |line: &mut Vec<u8>| {
        if escape {
            escape_into(line, name)
        } else {
            line.extend_from_slice(name)
        }
    };
    match tag {
        Some(tag) => {
            line.extend_from_slice(tag.as_bytes());
            line.extend_from_slice(b" (");
            push_name(line);
            line.extend_from_slice(b") = ");
            push_hex(line, digest);
        }
        None => {
            push_hex(line, digest);
            line.extend_from_slice(b"  ");
            push_name(line);
        }
    }
    line.push(end);
}

/// `bytes` in lowercase hex, appended to `out` in place (`hex::encode`
/// would build a `String` one `char` at a time).
fn push_hex(out: &mut Vec<u8>, bytes: &[u8]) {
    let start = out.len();
    out.resize(start + 2 * bytes.len(), 0);
    hex::encode_to_slice(bytes, &mut out[start..]).expect("room for two digits a byte");
}

/// `NAME: STATUS` for --check, as GNU coreutils 9.1 writes it: a name with
/// a newline is escaped (`\\` and `\n`; a carriage return stays as it is)
/// and the line starts with a backslash; any other name is printed as it is.
pub fn status_line(name: &[u8], status: &str) -> Vec<u8> {
    let mut line = Vec::with_capacity(name.len() + status.len() + 4);
    if name.contains(&b'\n') {
        line.push(b'\\');
        for &c in name {
            match c {
                b'\\' => line.extend_from_slice(b"\\\\"),
                b'\n' => line.extend_from_slice(b"\\n"),
                _ => line.push(c),
            }
        }
    } else {
        line.extend_from_slice(name);
    }
    line.extend_from_slice(b": ");
    line.extend_from_slice(status.as_bytes());
    line.push(b'\n');
    line
}

/// A well-formed line of a checksum file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckLine {
    pub name: Vec<u8>,
    pub expected: Vec<u8>,
    /// Number of hex digits as written (decides the length of GNU lines).
    pub hex_digits: usize,
    /// State size and output bits, when the line says them (tag lines).
    pub algorithm: Option<(StateSize, u64)>,
}

/// Parse one line (without its terminator); `None` if it is malformed.
/// Leading spaces and tabs are skipped, as GNU does. Which digest lengths
/// are acceptable is for the caller to decide: a plain line's length must be
/// the selected one, a tag line's the one it names (already checked here).
pub fn parse_check_line(line: &[u8]) -> Option<CheckLine> {
    let start = line
        .iter()
        .position(|&c| !is_blank(c))
        .unwrap_or(line.len());
    let line = &line[start..];
    let (escaped, body) = match line.strip_prefix(b"\\") {
        Some(rest) => (true, rest),
        None => (false, line),
    };
    let parsed = if body.starts_with(b"Skein") {
        parse_tagged(body)?
    } else {
        parse_gnu(body)?
    };
    let mut name = if escaped {
        unescape_name(&parsed.name)?
    } else {
        parsed.name
    };
    if name.is_empty() {
        return None;
    }
    // A name ends at a NUL, as in GNU (a C string there): no NUL reaches a
    // file name or a line of output.
    if let Some(nul) = name.iter().position(|&c| c == 0) {
        name.truncate(nul);
    }
    Some(CheckLine { name, ..parsed })
}

/// `Skein-S-L (NAME) = HEX` or FreeBSD's `SkeinS (NAME) = HEX`, spaced as
/// GNU coreutils accepts its own tag lines: at most one space before `(`,
/// the name up to the last `)`, any blanks around `=`, nothing after the
/// digest.
fn parse_tagged(body: &[u8]) -> Option<CheckLine> {
    let open = body.iter().position(|&c| c == b'(')?;
    let algorithm = std::str::from_utf8(&body[..open]).ok()?;
    let algorithm = algorithm.strip_suffix(' ').unwrap_or(algorithm);
    let (state, bits) = match algorithm.strip_prefix("Skein-") {
        Some(sizes) => {
            let (state, bits) = sizes.split_once('-')?;
            (state_of(state)?, decimal(bits)?)
        }
        None => {
            let state = state_of(algorithm.strip_prefix("Skein")?)?;
            (state, state.bits())
        }
    };
    // The name may itself contain ") = ", so the last `)` ends it.
    let rest = &body[open + 1..];
    let close = rest.iter().rposition(|&c| c == b')')?;
    let name = &rest[..close];
    let after = skip_blanks(&rest[close + 1..]);
    let digits = skip_blanks(after.strip_prefix(b"=")?);
    if bits == 0 || bits > MAX_OUTPUT_BITS || digits.len() as u64 != 2 * bits.div_ceil(8) {
        return None;
    }
    Some(CheckLine {
        name: name.to_vec(),
        expected: decode_hex(digits)?,
        hex_digits: digits.len(),
        algorithm: Some((state, bits)),
    })
}

/// `text` without its leading spaces and tabs.
fn skip_blanks(text: &[u8]) -> &[u8] {
    let start = text
        .iter()
        .position(|&c| !is_blank(c))
        .unwrap_or(text.len());
    &text[start..]
}

/// The bytes of hex digits (either case), or `None` for an odd count or a
/// byte that is no hex digit.
pub fn decode_hex(digits: &[u8]) -> Option<Vec<u8>> {
    hex::decode(digits).ok()
}

/// Space or tab (GNU's `ISWHITE`).
fn is_blank(c: u8) -> bool {
    matches!(c, b' ' | b'\t')
}

/// `HEX  NAME` or `HEX *NAME` (binary mark, ignored), or `HEX NAME` (one
/// space, as `md5 -r` writes); the first separator may be a tab, as in GNU.
fn parse_gnu(body: &[u8]) -> Option<CheckLine> {
    let digits_end = body.iter().position(|c| !c.is_ascii_hexdigit())?;
    let digits = &body[..digits_end];
    let rest = &body[digits_end..];
    if !is_blank(*rest.first()?) {
        return None;
    }
    let rest = &rest[1..];
    let name = match rest.first() {
        Some(b' ' | b'*') => &rest[1..],
        _ => rest,
    };
    if digits.is_empty() {
        return None;
    }
    Some(CheckLine {
        name: name.to_vec(),
        expected: decode_hex(digits)?,
        hex_digits: digits.len(),
        algorithm: None,
    })
}

fn state_of(bits: &str) -> Option<StateSize> {
    StateSize::from_bits(decimal(bits)?)
}

/// A plain decimal number (no sign, no spaces).
fn decimal(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_round_trips() {
        let name = b"a\\b\nc\rd";
        let line = result_line(&[0], name, None, b'\n');
        assert_eq!(line, b"\\00  a\\\\b\\nc\\rd\n");
        let parsed = parse_check_line(&line[..line.len() - 1]).unwrap();
        assert_eq!(parsed.name, name);
        // No escaping with NUL-terminated lines.
        assert_eq!(result_line(&[0], name, None, 0), b"00  a\\b\nc\rd\0");
    }

    #[test]
    fn tag_lines() {
        let l = parse_check_line(b"Skein-1024-8 (x) = y) = 00").unwrap();
        assert_eq!(l.name, b"x) = y");
        assert!(parse_check_line(b"Skein-1024-8 (f) = 0g").is_none());
        assert!(parse_check_line(b"Skein-1024-16 (f) = 00").is_none());
        let l = parse_check_line(b"Skein-256-12 (f) = abcd").unwrap();
        assert_eq!(l.algorithm, Some((StateSize::S256, 12)));
        let l = parse_check_line(
            b"Skein1024 (f) = "
                .iter()
                .chain(&[b'a'; 256])
                .copied()
                .collect::<Vec<_>>()
                .as_slice(),
        )
        .unwrap();
        assert_eq!(l.algorithm, Some((StateSize::S1024, 1024)));
        assert!(parse_check_line(b"Skein-384-256 (f) = 00").is_none());
        assert!(parse_check_line(b"Skein512(f) = 00").is_none());
    }

    #[test]
    fn gnu_lines() {
        let l = parse_check_line(b"abCD  name with  spaces").unwrap();
        assert_eq!(
            (l.name.as_slice(), l.expected.as_slice()),
            (&b"name with  spaces"[..], &[0xab, 0xcd][..])
        );
        assert_eq!(parse_check_line(b"abcd *bin").unwrap().name, b"bin");
        assert_eq!(parse_check_line(b"abcd   lead").unwrap().name, b" lead");
        assert!(parse_check_line(b"abc  odd").is_none());
        assert!(parse_check_line(b"abcd").is_none());
        assert!(parse_check_line(b"abcd  ").is_none());
        assert!(parse_check_line(b"xyz  f").is_none());
        assert!(parse_check_line(b"\\abcd  bad\\escape").is_none());
        // Leading blanks are skipped and a tab may separate (as in GNU).
        assert_eq!(parse_check_line(b"  \tabcd  f").unwrap().name, b"f");
        assert_eq!(parse_check_line(b" \\abcd  a\\nb").unwrap().name, b"a\nb");
        assert_eq!(parse_check_line(b"abcd\tf").unwrap().name, b"f");
        assert_eq!(
            parse_check_line(b"\t Skein-256-16 (f) = abcd")
                .unwrap()
                .algorithm,
            Some((StateSize::S256, 16))
        );
        assert!(parse_check_line(b"   ").is_none());
    }

    #[test]
    fn escaping_functions_round_trip() {
        let name = b"\\\n\r plain \\n";
        assert!(needs_escape(name));
        assert_eq!(escape_name(name), b"\\\\\\n\\r plain \\\\n");
        assert_eq!(unescape_name(&escape_name(name)).unwrap(), name);
        assert!(unescape_name(b"a\\").is_none());
        assert!(unescape_name(b"a\\t").is_none());
        assert!(!needs_escape(b"a\tb"));
    }
}
