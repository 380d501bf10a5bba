//! The fuzz targets' reference Skein (`src/lib.rs`) against every entry of
//! the official golden file: plain, MAC and tree entries, all three state
//! sizes. Fails when the file is missing.

// The repository's parser of the golden file.
#[path = "../../tests/common/mod.rs"]
mod common;

use skein_simd_fuzz::{skein_dyn, Args};
use std::path::PathBuf;

/// `$SKEIN_GOLDEN_KAT`, else `../shared/kat/` beside the repository, else the
/// repository's `.cache/kat/` (filled by `tools/fetch-golden-kat.sh`).
fn golden_file() -> PathBuf {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let candidates = std::env::var_os("SKEIN_GOLDEN_KAT").map(PathBuf::from).into_iter().chain([
        repo.join("../shared/kat/skein_golden_kat.txt"),
        repo.join(".cache/kat/skein_golden_kat.txt"),
    ]);
    let tried: Vec<PathBuf> = candidates.collect();
    tried.iter().find(|p| p.is_file()).cloned().unwrap_or_else(|| {
        panic!("golden KAT file not found (tried {tried:?}); set SKEIN_GOLDEN_KAT")
    })
}

#[test]
fn reference_matches_every_golden_entry() {
    let text = std::fs::read_to_string(golden_file()).unwrap();
    let entries = common::parse_kat(&text);
    assert_eq!(entries.len(), 491, "entries in the golden file");
    let mut trees = 0;
    for e in &entries {
        let key = e.key.clone().unwrap_or_default();
        let args = Args { output_bits: e.output_bits, key: &key, tree: e.tree, ..Args::default() };
        trees += usize::from(e.tree.is_some());
        assert_eq!(skein_dyn(e.state_bits, &args, &e.msg, e.msg_bits), e.result, "{}", e.header);
    }
    assert!(trees > 0, "the golden file has tree entries");
}
