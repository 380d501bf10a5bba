//! The official Skein 1.3 golden known-answer file, on every usable backend.
//!
//! A plain `main` (harness = false) so the summary line is always printed:
//! `golden KAT: N passed, M failed` for the portable backend, and one
//! `[backend] golden KAT: …` line per backend. A missing golden file fails
//! (see `tests/common/golden.rs`).
mod common;

fn main() {
    let entries = common::load_golden_kat();
    let mut all_ok = true;
    for backend in common::backends() {
        let (mut passed, mut failed) = (0usize, 0usize);
        for e in &entries {
            let got = common::hash_entry(e, backend);
            if got == e.result {
                passed += 1;
            } else {
                failed += 1;
                if failed <= 5 {
                    eprintln!(
                        "[{backend}] mismatch: {}\n  want {}\n  got  {}",
                        e.header,
                        hex::encode(&e.result),
                        hex::encode(&got)
                    );
                }
            }
        }
        println!("[{backend}] golden KAT: {passed} passed, {failed} failed");
        if backend == skein_simd::Backend::Portable {
            println!("golden KAT: {passed} passed, {failed} failed");
        }
        all_ok &= failed == 0 && passed == common::GOLDEN_ENTRIES;
    }
    // The one-shot `hash_into` (no hasher object) on every plain entry:
    // no key, no tree, whole bytes of message.
    let (mut passed, mut failed) = (0usize, 0usize);
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
        if got == e.result {
            passed += 1;
        } else {
            failed += 1;
            eprintln!("[hash_into] mismatch: {}", e.header);
        }
    }
    println!("[hash_into] golden KAT (plain entries): {passed} passed, {failed} failed");
    all_ok &= failed == 0 && passed > 0;
    if !all_ok {
        eprintln!(
            "golden KAT: FAILED (every backend must pass all {} entries)",
            common::GOLDEN_ENTRIES
        );
        std::process::exit(1);
    }
}
