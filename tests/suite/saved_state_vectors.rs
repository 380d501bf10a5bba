//! The committed saved states of `tests/data/saved_states.txt`, which the
//! Python (`python/tests/test_saved_state_vectors.py`) and JavaScript
//! (`js/test/state.test.mjs`) packages check too: the library saves exactly
//! those bytes after the line's first `cut` message bytes, and resuming
//! from them gives the whole message's digest, which the plain Skein of
//! `tests/support/src/reference.rs` computes. So a state saved by any of the
//! three APIs resumes in the others, and format version 1 stays the same.
//!
//! `SKEIN_WRITE_SAVED_STATES=1 cargo test --test suite saved_state_vectors`
//! writes the file anew from the cases below (after a deliberate change of
//! the cases; the format itself never changes: docs/design.md).

use skein_simd_test_support as support;

use skein_simd::{DynSkein, Params, StateSize, TreeParams};
use support::reference::{skein_dyn, Args};
use support::{hex, pyskein_message};

const FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/saved_states.txt");

/// Tree parameters (Yl, Yf, Ym).
type Tree = Option<(u8, u8, u8)>;

/// state, output bits, key length (key bytes 0, 1, ...; 0: none), tree,
/// message length, cut: sequential hashes cut at the start, mid-block and on
/// block boundaries; output lengths that are not whole bytes; trees with
/// open levels, a held child, an open top node.
const CASES: &[(u64, u64, usize, Tree, usize, usize)] = &[
    (256, 256, 0, None, 100, 0),
    (256, 256, 0, None, 100, 33),
    (256, 129, 16, None, 64, 64),
    (512, 512, 0, None, 200, 64),
    (512, 256, 32, None, 300, 130),
    (512, 1001, 0, None, 1000, 999),
    (1024, 1024, 0, None, 500, 257),
    (1024, 384, 64, None, 1000, 128),
    (512, 512, 0, Some((1, 1, 8)), 3000, 1000),
    (256, 256, 32, Some((2, 2, 3)), 4000, 2500),
    (1024, 512, 0, Some((1, 2, 255)), 5000, 4500),
    (512, 160, 0, Some((1, 1, 2)), 2000, 1500),
];

struct Line {
    state: u64,
    bits: u64,
    key: Vec<u8>,
    tree: Tree,
    len: usize,
    cut: usize,
    saved: Vec<u8>,
    digest: Vec<u8>,
}

fn hasher(state: u64, bits: u64, key: &[u8], tree: Tree) -> DynSkein {
    let mut p = Params::new().output_bits(bits).key(key);
    if let Some((l, f, m)) = tree {
        p = p.tree(TreeParams::new(l, f, m).unwrap());
    }
    DynSkein::new(StateSize::from_bits(state).unwrap(), &p).unwrap()
}

/// The plain Skein's digest, the unused low bits of a partial last byte
/// cleared (as the Python and JavaScript packages give it).
fn reference(state: u64, bits: u64, key: &[u8], tree: Tree, msg: &[u8]) -> Vec<u8> {
    let args = Args {
        output_bits: bits,
        key,
        tree,
        ..Args::default()
    };
    let mut d = skein_dyn(state, &args, msg, 8 * msg.len() as u64);
    skein_simd::mask_unused_bits(&mut d, bits);
    d
}

fn parse(text: &str) -> Vec<Line> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            assert_eq!(f.len(), 8, "{l}");
            let tree = (f[3] != "-").then(|| {
                let t: Vec<u8> = f[3].split(',').map(|x| x.parse().unwrap()).collect();
                (t[0], t[1], t[2])
            });
            Line {
                state: f[0].parse().unwrap(),
                bits: f[1].parse().unwrap(),
                key: if f[2] == "-" { Vec::new() } else { hex(f[2]) },
                tree,
                len: f[4].parse().unwrap(),
                cut: f[5].parse().unwrap(),
                saved: hex(f[6]),
                digest: hex(f[7]),
            }
        })
        .collect()
}

fn write_file() {
    let mut text = String::from(
        "# Saved hasher states (format version 1: src/saved_state/versioned.rs) that the Rust,\n\
         # Python and JavaScript APIs save byte for byte and resume (tests/suite/saved_state_vectors.rs).\n\
         # Columns: state output_bits key tree message_length cut saved digest\n\
         # message: byte i is 7i + 3 (mod 256); key: bytes 0, 1, 2, ... in hex, - for none;\n\
         # tree: Yl,Yf,Ym or -; saved: the state after the first `cut` bytes (hex);\n\
         # digest: of the whole message, from the plain Skein of tests/support/src/reference.rs.\n",
    );
    for &(state, bits, key_len, tree, len, cut) in CASES {
        let key: Vec<u8> = (0..key_len as u8).collect();
        let msg = pyskein_message(len);
        let mut h = hasher(state, bits, &key, tree);
        h.update(&msg[..cut]);
        let tree_field = tree.map_or("-".to_string(), |(l, f, m)| format!("{l},{f},{m}"));
        let key_field = if key.is_empty() {
            "-".to_string()
        } else {
            ::hex::encode(&key)
        };
        text += &format!(
            "{state} {bits} {key_field} {tree_field} {len} {cut} {} {}\n",
            ::hex::encode(&*h.export_state()),
            ::hex::encode(reference(state, bits, &key, tree, &msg)),
        );
    }
    std::fs::write(FILE, text).unwrap();
}

#[test]
fn committed_states_are_saved_and_resumed() {
    if std::env::var_os("SKEIN_WRITE_SAVED_STATES").is_some() {
        write_file();
    }
    let lines = parse(&std::fs::read_to_string(FILE).unwrap());
    assert_eq!(lines.len(), CASES.len(), "one line per case");
    for (i, l) in lines.iter().enumerate() {
        let msg = pyskein_message(l.len);
        let what = format!(
            "line {i}: Skein-{}-{} tree {:?} cut {}",
            l.state, l.bits, l.tree, l.cut
        );
        assert_eq!(
            l.digest,
            reference(l.state, l.bits, &l.key, l.tree, &msg),
            "{what}: digest column"
        );
        let mut h = hasher(l.state, l.bits, &l.key, l.tree);
        h.update(&msg[..l.cut]);
        assert_eq!(*h.export_state(), l.saved, "{what}: saved bytes");
        let mut resumed = DynSkein::import_state(&l.saved).unwrap();
        resumed.update(&msg[l.cut..]);
        let mut got = resumed.finalize_vec();
        skein_simd::mask_unused_bits(&mut got, l.bits);
        assert_eq!(got, l.digest, "{what}: resumed digest");
    }
}
