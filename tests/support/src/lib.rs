//! What the Rust test suites share: the official golden KAT file's loader
//! ([`load_golden_kat`]), the plain Skein oracle
//! ([`reference`](mod@reference)), the specification's constants the tests
//! write themselves ([`spec`]), pyskein's vectors and hex helpers. Used by the library's integration
//! suite (`tests/suite/`), skeinsum's CLI tests and the fuzz targets, as a
//! dev-dependency (a path dependency of fuzz/).

mod golden;
pub mod reference;
pub mod spec;
pub use golden::{
    load as load_golden_kat, parse as parse_kat, path as golden_kat_path, KatEntry, GOLDEN_ENTRIES,
};

/// Bytes of a hex string; whitespace between digits is ignored.
pub fn hex(s: &str) -> Vec<u8> {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    hex::decode(s).expect("hex digits")
}

/// Hash a KAT entry with the library, forcing `backend`.
pub fn hash_entry(e: &KatEntry, backend: skein_simd::Backend) -> Vec<u8> {
    let mut h = entry_hasher(e, Some(backend));
    h.update_bits(&e.msg, e.msg_bits);
    h.finalize_vec()
}

/// A hasher with a KAT entry's state size, output length, key and tree
/// shape, on `backend` when one is given.
pub fn entry_hasher(e: &KatEntry, backend: Option<skein_simd::Backend>) -> skein_simd::DynSkein {
    use skein_simd::{DynSkein, Params, StateSize, TreeParams};
    let mut params = Params::new().output_bits(e.output_bits);
    if let Some(k) = &e.key {
        params = params.key(k);
    }
    if let Some((l, f, m)) = e.tree {
        params = params.tree(TreeParams::new(l, f, m).unwrap());
    }
    if let Some(b) = backend {
        params = params.backend(b);
    }
    DynSkein::new(StateSize::from_bits(e.state_bits).unwrap(), &params).unwrap()
}

/// Every backend usable on this machine (always includes `portable`).
pub fn backends() -> Vec<skein_simd::Backend> {
    skein_simd::Backend::available()
}

/// One line of `tests/data/pyskein_vectors.txt` (`tools/gen/pyskein_vectors.py`):
/// the arguments pyskein 1.0 hashed and its digest.
pub struct PyskeinVector {
    pub state: u64,
    pub bits: u64,
    pub len: usize,
    pub fields: [Option<Vec<u8>>; 5],
    pub tree: Option<(u8, u8, u8)>,
    pub digest: Vec<u8>,
}

/// The message of `len` bytes that `tools/gen/pyskein_vectors.py` and
/// `tools/gen/pyskein_output_slices.py` hash: byte `i` is `7i + 3` (mod 256).
pub fn pyskein_message(len: usize) -> Vec<u8> {
    (0..len).map(|i| (7 * i + 3) as u8).collect()
}

impl PyskeinVector {
    /// The message this vector's digest is of.
    pub fn message(&self) -> Vec<u8> {
        pyskein_message(self.len)
    }

    /// A hasher with this vector's state size and arguments, on `backend`
    /// when one is given.
    pub fn hasher(&self, backend: Option<skein_simd::Backend>) -> skein_simd::DynSkein {
        use skein_simd::{DynSkein, Params, StateSize, TreeParams};
        let [key, pers, pk, kid, nonce] =
            self.fields.each_ref().map(|f| f.as_deref().unwrap_or(&[]));
        let mut params = Params::new()
            .output_bits(self.bits)
            .key(key)
            .personalization(pers)
            .public_key(pk)
            .key_id(kid)
            .nonce(nonce);
        if let Some((l, f, m)) = self.tree {
            params = params.tree(TreeParams::new(l, f, m).unwrap());
        }
        if let Some(b) = backend {
            params = params.backend(b);
        }
        DynSkein::new(StateSize::from_bits(self.state).unwrap(), &params).unwrap()
    }
}

/// Every vector of `tests/data/pyskein_vectors.txt`.
pub fn pyskein_vectors() -> Vec<PyskeinVector> {
    let text = include_str!("../../data/pyskein_vectors.txt");
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|line| {
            let f: Vec<&str> = line.split(' ').collect();
            let opt = |s: &str| (s != "-").then(|| hex(s));
            let tree = (f[8] != "-").then(|| {
                let t: Vec<u8> = f[8].split(',').map(|x| x.parse().unwrap()).collect();
                (t[0], t[1], t[2])
            });
            PyskeinVector {
                state: f[0].parse().unwrap(),
                bits: f[1].parse().unwrap(),
                len: f[2].parse().unwrap(),
                fields: [opt(f[3]), opt(f[4]), opt(f[5]), opt(f[6]), opt(f[7])],
                tree,
                digest: hex(f[9]),
            }
        })
        .collect()
}
