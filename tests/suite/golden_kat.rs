//! The official Skein 1.3 golden known-answer file, committed as
//! `tests/data/skein_golden_kat.txt`: the file is whole, and every entry
//! hashes to its answer on every usable backend. A failure lists every entry
//! that did not match.
use skein_simd::Backend;
use skein_simd_test_support as support;

/// The committed copy is the published file: every entry (a truncated copy
/// fails) and CRLF line ends throughout (a copy that git converted fails).
#[test]
fn committed_file_has_every_entry_with_crlf_line_ends() {
    let path = support::golden_kat_path();
    let bytes = std::fs::read(&path).unwrap();
    let text = std::str::from_utf8(&bytes).expect("ASCII text");
    let headers = text.lines().filter(|l| l.starts_with(":Skein-")).count();
    assert_eq!(headers, support::GOLDEN_ENTRIES, "{}", path.display());
    assert_eq!(support::parse_kat(text).len(), support::GOLDEN_ENTRIES);
    let lf = bytes.iter().filter(|&&b| b == b'\n').count();
    let crlf = bytes.windows(2).filter(|w| w == b"\r\n").count();
    assert!(
        lf > 0 && lf == crlf,
        "{}: {lf} LF, {crlf} CRLF",
        path.display()
    );
    assert!(
        bytes.ends_with(b"\r\n"),
        "{}: ends mid-line",
        path.display()
    );
}

/// Every entry on `backend`: the headers of those that did not match.
fn mismatches(entries: &[support::KatEntry], backend: Backend) -> Vec<String> {
    entries
        .iter()
        .filter_map(|e| {
            let got = support::hash_entry(e, backend);
            (got != e.result).then(|| {
                format!(
                    "[{backend}] {}\n  want {}\n  got  {}",
                    e.header,
                    hex::encode(&e.result),
                    hex::encode(&got)
                )
            })
        })
        .collect()
}

#[test]
fn every_entry_on_every_backend() {
    let entries = support::load_golden_kat();
    let backends = support::backends();
    assert!(backends.contains(&Backend::Portable));
    let mut failed = Vec::new();
    for backend in backends {
        let bad = mismatches(&entries, backend);
        println!(
            "[{backend}] golden KAT: {} passed, {} failed",
            entries.len() - bad.len(),
            bad.len()
        );
        failed.extend(bad);
    }
    assert!(
        failed.is_empty(),
        "{} mismatches:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

/// The one-shot `hash_into` (no hasher object) on every plain entry: no key,
/// no tree, whole bytes of message.
#[test]
fn hash_into_on_every_plain_entry() {
    let entries = support::load_golden_kat();
    let mut checked = 0;
    let mut failed = Vec::new();
    for e in entries
        .iter()
        .filter(|e| e.key.is_none() && e.tree.is_none() && e.msg_bits % 8 == 0)
    {
        let mut got = vec![0u8; e.result.len()];
        match e.state_bits {
            256 => skein_simd::Skein256::hash_into(e.output_bits, &e.msg, &mut got),
            512 => skein_simd::Skein512::hash_into(e.output_bits, &e.msg, &mut got),
            _ => skein_simd::Skein1024::hash_into(e.output_bits, &e.msg, &mut got),
        }
        checked += 1;
        if got != e.result {
            failed.push(e.header.clone());
        }
    }
    // Entries without "Tree:" in the header, without a MAC key and with a
    // message of whole bytes (counted in the file with a script).
    assert_eq!(checked, 189, "plain entries of whole bytes");
    assert!(
        failed.is_empty(),
        "hash_into: {} mismatches:\n{}",
        failed.len(),
        failed.join("\n")
    );
}
