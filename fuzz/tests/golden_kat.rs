//! The fuzz targets' reference Skein (`src/lib.rs`) against every entry of
//! the official golden file: plain, MAC and tree entries, all three state
//! sizes. Fails when the file is missing.

// The repository's one loader of the golden file.
#[path = "../../tests/common/golden.rs"]
mod golden;

use skein_simd_fuzz::{skein_dyn, Args};

#[test]
fn reference_matches_every_golden_entry() {
    let entries = golden::load();
    let mut trees = 0;
    for e in &entries {
        let key = e.key.clone().unwrap_or_default();
        let args = Args {
            output_bits: e.output_bits,
            key: &key,
            tree: e.tree,
            ..Args::default()
        };
        trees += usize::from(e.tree.is_some());
        assert_eq!(
            skein_dyn(e.state_bits, &args, &e.msg, e.msg_bits),
            e.result,
            "{}",
            e.header
        );
    }
    assert!(trees > 0, "the golden file has tree entries");
}
