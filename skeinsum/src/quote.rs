//! Names in messages on stderr, quoted as GNU coreutils quotes them there
//! (`quotef`: gnulib's shell-escape style, with `:` quoted too). A name read
//! from an untrusted checksum list can then put no control byte on the
//! terminal, every message stays one line, and the quoted form can be pasted
//! back into a shell.
//!
//! The rules, as GNU coreutils 9.1 applies them in a UTF-8 locale:
//! - a name of safe characters is shown as it is (`a.txt`, `x~`, `café`);
//! - a name with a shell-special character (space, `!"$&'()*:;<=>?[\^`|`,
//!   `#` or `~` first, `{` or `}` alone) is put in single quotes: `'a b'`;
//! - a single quote inside becomes `'\''`, unless every other character is
//!   also fine between double quotes; then the name is double-quoted:
//!   `"it's"`;
//! - a control character, a non-printable character or a byte that is not
//!   UTF-8 is written as an ANSI-C escape between `'$'` and `''`:
//!   `'a'$'\033''b'`, `'caf'$'\351'`.
//!
//! Where this differs from GNU: "printable" is decided without Unicode's
//! tables of unassigned code points (GNU escapes those; here only controls,
//! U+2028/U+2029 and noncharacters are escaped), and for a name with both a
//! single quote and an escape at its end GNU 9.1 emits a stray `''` or loses
//! a `$'` (`'\033'\'''$'\033'` for ESC ' ESC); this always emits the valid
//! form.

/// One piece of a name: a character (valid UTF-8) or a byte that is not.
#[derive(Clone, Copy)]
enum Unit {
    Char(char),
    Byte(u8),
}

/// `name` quoted for a message on stderr; see the module documentation.
///
/// ```
/// use skeinsum::not_api::quote_name;
/// assert_eq!(quote_name(b"a.txt"), "a.txt");
/// assert_eq!(quote_name(b"a b"), "'a b'");
/// assert_eq!(quote_name(b"a\x1bb"), "'a'$'\\033''b'");
/// ```
pub fn quote_name(name: &[u8]) -> String {
    let units = units(name);
    let single = units.len() == 1;
    let needs_quotes = name.is_empty()
        || units.iter().enumerate().any(|(i, &u)| match u {
            Unit::Char(c) => special(c, i == 0, single) || !printable(c),
            Unit::Byte(_) => true,
        });
    if !needs_quotes {
        return String::from_utf8_lossy(name).into_owned();
    }
    let has_single_quote = units.iter().any(|u| matches!(u, Unit::Char('\'')));
    let double_quote_fits = units.iter().enumerate().all(|(i, &u)| match u {
        Unit::Char(c) => printable(c) && double_quote_compatible(c, i == 0, single),
        Unit::Byte(_) => false,
    });
    if has_single_quote && double_quote_fits {
        let mut out = String::with_capacity(name.len() + 2);
        out.push('"');
        out.push_str(&String::from_utf8_lossy(name));
        out.push('"');
        return out;
    }

    let mut out = String::with_capacity(name.len() + 8);
    out.push('\'');
    // Inside `$'...'` since the last escape.
    let mut escaping = false;
    for unit in units {
        let escape = match unit {
            Unit::Char(c) if printable(c) => None,
            Unit::Char(c) => Some(c.to_string().into_bytes()),
            Unit::Byte(b) => Some(vec![b]),
        };
        match (escape, unit) {
            (Some(bytes), _) => {
                if !escaping {
                    out.push_str("'$'");
                    escaping = true;
                }
                for b in bytes {
                    push_escape(&mut out, b);
                }
            }
            (None, Unit::Char('\'')) => {
                // Closes the quote (or the `$'`), a quoted quote, reopens.
                out.push_str("'\\''");
                escaping = false;
            }
            (None, Unit::Char(c)) => {
                if escaping {
                    out.push_str("''");
                    escaping = false;
                }
                out.push(c);
            }
            (None, Unit::Byte(_)) => unreachable!("bytes are always escaped"),
        }
    }
    out.push('\'');
    out
}

fn units(name: &[u8]) -> Vec<Unit> {
    let mut units = Vec::with_capacity(name.len());
    for chunk in name.utf8_chunks() {
        units.extend(chunk.valid().chars().map(Unit::Char));
        units.extend(chunk.invalid().iter().map(|&b| Unit::Byte(b)));
    }
    units
}

/// Printable as glibc's `iswprint` says for the characters it can judge
/// without tables (see the module documentation).
fn printable(c: char) -> bool {
    let noncharacter = matches!(c as u32, 0xFDD0..=0xFDEF) || (c as u32 & 0xFFFE) == 0xFFFE;
    !(c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') || noncharacter)
}

/// A printable character that makes the shell-escape style quote the name.
fn special(c: char, first: bool, alone: bool) -> bool {
    match c {
        ' ' | '!' | '"' | '$' | '&' | '\'' | '(' | ')' | '*' | ':' | ';' | '<' | '=' | '>'
        | '?' | '[' | '\\' | '^' | '`' | '|' => true,
        '#' | '~' => first,
        '{' | '}' => alone,
        _ => false,
    }
}

/// Whether `c` may stand between double quotes as it is, with nothing
/// expanded (GNU's "c and shell quote compatible").
fn double_quote_compatible(c: char, first: bool, alone: bool) -> bool {
    match c {
        ' ' | '\'' | ':' | '%' | '+' | ',' | '-' | '.' | '/' | ']' | '_' | '@' => true,
        '#' | '~' => first,
        '{' | '}' => alone,
        c if c.is_ascii_alphanumeric() => true,
        c => !c.is_ascii(),
    }
}

/// One byte in ANSI-C `$'...'` form: a named escape or three octal digits.
fn push_escape(out: &mut String, b: u8) {
    let named = match b {
        0x07 => Some('a'),
        0x08 => Some('b'),
        0x0c => Some('f'),
        b'\n' => Some('n'),
        b'\r' => Some('r'),
        b'\t' => Some('t'),
        0x0b => Some('v'),
        _ => None,
    };
    out.push('\\');
    match named {
        Some(letter) => out.push(letter),
        None => {
            for shift in [6, 3, 0] {
                out.push(char::from(b'0' + ((b >> shift) & 7)));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::quote_name;

    /// Each name with what GNU coreutils 9.1 `sha256sum` printed for it in
    /// `sha256sum: NAME: No such file or directory` (C.UTF-8 locale).
    #[test]
    fn as_gnu_quotes_them() {
        let cases: &[(&[u8], &str)] = &[
            (b"plain", "plain"),
            (b"a b", "'a b'"),
            (b"a\x1bb", "'a'$'\\033''b'"),
            (b"a\nb", "'a'$'\\n''b'"),
            (b"a\rb", "'a'$'\\r''b'"),
            (b"a\tb", "'a'$'\\t''b'"),
            (b"\t", "''$'\\t'"),
            (b"\x7f", "''$'\\177'"),
            (b"\x01\x02", "''$'\\001\\002'"),
            (b"a\x07\x08\x0c\x0b\t", "'a'$'\\a\\b\\f\\v\\t'"),
            (b"\x1ba", "''$'\\033''a'"),
            (b"a\x1b", "'a'$'\\033'"),
            (b"a'b", "\"a'b\""),
            (b"a' b", "\"a' b\""),
            (b"a'b:c", "\"a'b:c\""),
            (b"#a'b", "\"#a'b\""),
            (b"'", "\"'\""),
            (b"''", "\"''\""),
            (b"a'b$c", "'a'\\''b$c'"),
            (b"a'b\\c", "'a'\\''b\\c'"),
            (b"a'b*c", "'a'\\''b*c'"),
            (b"a'b#c", "'a'\\''b#c'"),
            (b"a\x1b'b", "'a'$'\\033'\\''b'"),
            (b"\x1b'", "''$'\\033'\\'''"),
            (b"a'\x1bb", "'a'\\'''$'\\033''b'"),
            (b"a:b", "'a:b'"),
            (b"a$b", "'a$b'"),
            (b"a\\b", "'a\\b'"),
            (b"a\"b", "'a\"b'"),
            (b"a\\\\b c", "'a\\\\b c'"),
            (b"~x", "'~x'"),
            (b"x~", "x~"),
            (b"#x", "'#x'"),
            (b"a#", "a#"),
            (b"{", "'{'"),
            (b"a{", "a{"),
            (b"{}", "{}"),
            (b"a,b", "a,b"),
            (b"-x", "-x"),
            (b"a%b", "a%b"),
            (b"a@b", "a@b"),
            (b"a+b", "a+b"),
            (b"a]b", "a]b"),
            (b"a^b", "'a^b'"),
            (b"a[b", "'a[b'"),
            (b"a=b", "'a=b'"),
            (b" ", "' '"),
            (b"\n", "''$'\\n'"),
            (b"", "''"),
            (b"caf\xe9", "'caf'$'\\351'"),
            (b"\xe9", "''$'\\351'"),
            (b"\xe9'", "''$'\\351'\\'''"),
            (b"a\x80", "'a'$'\\200'"),
            (b"a\xc0\x80", "'a'$'\\300\\200'"),
            (b"\xed\xa0\x80", "''$'\\355\\240\\200'"),
            ("café".as_bytes(), "café"),
            ("\u{fb00}".as_bytes(), "\u{fb00}"),
            ("\u{200b}".as_bytes(), "\u{200b}"),
            ("x\u{e000}y".as_bytes(), "x\u{e000}y"),
            ("\u{85}".as_bytes(), "''$'\\302\\205'"),
            ("\u{fffe}".as_bytes(), "''$'\\357\\277\\276'"),
            ("x\u{2028}y".as_bytes(), "'x'$'\\342\\200\\250''y'"),
            ("x\u{fdd0}y".as_bytes(), "'x'$'\\357\\267\\220''y'"),
            ("x\u{10ffff}y".as_bytes(), "'x'$'\\364\\217\\277\\277''y'"),
        ];
        for (name, expected) in cases {
            assert_eq!(
                quote_name(name),
                *expected,
                "{}",
                String::from_utf8_lossy(name)
            );
        }
    }
}
