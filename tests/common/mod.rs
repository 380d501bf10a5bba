//! Shared test support: the official golden KAT file (`golden.rs`) and hex helpers.
#![allow(dead_code, unused_imports)]

mod golden;
pub use golden::{
    find as find_golden_kat, load as load_golden_kat, parse as parse_kat, repo_root, KatEntry,
    GOLDEN_ENTRIES,
};

/// Bytes of a hex string; whitespace between digits is ignored.
pub fn hex(s: &str) -> Vec<u8> {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    hex::decode(s).expect("hex digits")
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
