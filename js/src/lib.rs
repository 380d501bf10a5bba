//! WebAssembly bindings of skein-simd for the JavaScript package (js/index.js
//! wraps these in the public API; nothing here is called by users directly).
//!
//! Every call takes a [`Config`] (state size, output bits, the byte
//! arguments, tree shape), built once from the options object by the
//! wrapper and freed after use. Byte arguments arrive as owned `Vec`s (the
//! wrapper's copy in linear memory) so that the key is wiped when the
//! config is dropped, not left behind in freed wasm memory.

use skein_simd::{
    DynOutputReader, DynSkein, OwnedParams, Params, SkeinMany1024, SkeinMany256, SkeinMany512,
    StateSize, TreeParams,
};
use wasm_bindgen::prelude::*;

/// Largest output `digest()` returns at once; longer outputs go through
/// [`OutputReader`] (wasm32 memory is at most 4 GiB).
const MAX_DIGEST_BYTES: u64 = 1 << 30;

/// Everything of a Skein computation but the message.
#[wasm_bindgen]
pub struct Config {
    state: StateSize,
    bits: u64,
    /// Every other argument (the output length is set per hasher).
    arguments: OwnedParams,
}

#[wasm_bindgen]
impl Config {
    /// `bits == 0` means the state size; `tree` is used only when
    /// `has_tree`.
    #[wasm_bindgen(constructor)]
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        state_bits: u32,
        bits: u64,
        key: Vec<u8>,
        personalization: Vec<u8>,
        public_key: Vec<u8>,
        key_id: Vec<u8>,
        nonce: Vec<u8>,
        has_tree: bool,
        leaf: u8,
        fan_out: u8,
        max_height: u8,
    ) -> Result<Config, JsError> {
        // Held (and wiped on drop) before anything can fail.
        let mut arguments = OwnedParams::new()
            .key(key)
            .personalization(personalization)
            .public_key(public_key)
            .key_id(key_id)
            .nonce(nonce);
        let state = StateSize::from_bits(state_bits.into())
            .ok_or_else(|| JsError::new("skein: state size must be 256, 512 or 1024"))?;
        if has_tree {
            arguments = arguments.tree(TreeParams::new(leaf, fan_out, max_height).map_err(err)?);
        }
        Ok(Config {
            state,
            bits: if bits == 0 { state.bits() } else { bits },
            arguments,
        })
    }

    fn params(&self) -> Params<'_> {
        self.arguments.params().output_bits(self.bits)
    }

    fn hasher(&self) -> Result<DynSkein, JsError> {
        DynSkein::new(self.state, &self.params()).map_err(err)
    }
}

fn err(e: skein_simd::Error) -> JsError {
    JsError::new(&format!("skein: {e}"))
}

fn check_digest_len(bits: u64) -> Result<(), JsError> {
    if bits.div_ceil(8) > MAX_DIGEST_BYTES {
        return Err(JsError::new(
            "skein: output longer than 1 GiB: read it with xof() instead",
        ));
    }
    Ok(())
}

/// One-shot hash of `data`.
#[wasm_bindgen]
pub fn hash(config: &Config, data: &[u8]) -> Result<Vec<u8>, JsError> {
    check_digest_len(config.bits)?;
    let mut h = config.hasher()?;
    h.update(data);
    Ok(h.finalize_vec())
}

/// Digests of the messages packed in `data`, message `i` being the next
/// `lengths[i]` bytes; the digests are concatenated in the result.
#[wasm_bindgen(js_name = hashMany)]
pub fn hash_many(config: &Config, data: &[u8], lengths: &[u32]) -> Result<Vec<u8>, JsError> {
    check_digest_len(config.bits)?;
    let mut messages = Vec::with_capacity(lengths.len());
    let mut rest = data;
    for &len in lengths {
        let len = len as usize;
        if len > rest.len() {
            return Err(JsError::new("skein: hashMany lengths exceed the data"));
        }
        let (m, tail) = rest.split_at(len);
        messages.push(m);
        rest = tail;
    }
    let p = config.params();
    Ok(match config.state {
        StateSize::S256 => SkeinMany256::with_params(&p)
            .map_err(err)?
            .hash_many_vec_flat(&messages),
        StateSize::S512 => SkeinMany512::with_params(&p)
            .map_err(err)?
            .hash_many_vec_flat(&messages),
        StateSize::S1024 => SkeinMany1024::with_params(&p)
            .map_err(err)?
            .hash_many_vec_flat(&messages),
    })
}

/// `hash_many_into` with a freshly allocated output.
trait ManyFlat {
    fn hash_many_vec_flat(&self, messages: &[&[u8]]) -> Vec<u8>;
}

impl<const W: usize> ManyFlat for skein_simd::SkeinMany<W> {
    fn hash_many_vec_flat(&self, messages: &[&[u8]]) -> Vec<u8> {
        let mut out = vec![0u8; messages.len() * self.output_len()];
        self.hash_many_into(messages, &mut out);
        out
    }
}

/// The block-function backend this build uses for Skein-512 (`portable`,
/// `simd128`, ...), for benchmarks and the demo page.
#[wasm_bindgen]
pub fn backend() -> String {
    let many = SkeinMany512::with_params(&Params::new()).map(|m| m.backend());
    let h = DynSkein::new(StateSize::S512, &Params::new())
        .map(|h| h.platform().backend(StateSize::S512));
    match (h, many) {
        (Ok(h), Ok(m)) => format!("{h} (hashMany: {m})"),
        _ => String::from("unknown"),
    }
}

/// A streaming hasher.
#[wasm_bindgen]
pub struct Hasher {
    inner: DynSkein,
    bits: u64,
    /// A partial last byte was hashed: the message is complete.
    ended: bool,
}

#[wasm_bindgen]
impl Hasher {
    #[wasm_bindgen(constructor)]
    pub fn new(config: &Config) -> Result<Hasher, JsError> {
        Ok(Hasher {
            inner: config.hasher()?,
            bits: config.bits,
            ended: false,
        })
    }

    pub fn update(&mut self, data: &[u8]) -> Result<(), JsError> {
        self.check_open()?;
        self.inner.update(data);
        Ok(())
    }

    /// Hash the first `bits` bits of `data` (most significant bit first),
    /// which holds exactly `ceil(bits / 8)` bytes; a partial byte ends the
    /// message.
    #[wasm_bindgen(js_name = updateBits)]
    pub fn update_bits(&mut self, data: &[u8], bits: u64) -> Result<(), JsError> {
        self.check_open()?;
        if data.len() as u64 != bits.div_ceil(8) {
            return Err(JsError::new(
                "skein: update with bits needs ceil(bits / 8) bytes",
            ));
        }
        self.inner.update_bits(data, bits);
        self.ended = !bits.is_multiple_of(8);
        Ok(())
    }

    fn check_open(&self) -> Result<(), JsError> {
        if self.ended {
            return Err(JsError::new(
                "skein: no update after one that ended in a partial byte",
            ));
        }
        Ok(())
    }

    /// The digest of what was hashed so far; the hasher goes on.
    pub fn digest(&self) -> Result<Vec<u8>, JsError> {
        check_digest_len(self.bits)?;
        Ok(self.inner.clone().finalize_vec())
    }

    /// The output so far as a stream (for outputs of any length).
    pub fn xof(&self) -> OutputReader {
        OutputReader {
            inner: self.inner.clone().finalize_xof(),
        }
    }

    pub fn copy(&self) -> Hasher {
        Hasher {
            inner: self.inner.clone(),
            bits: self.bits,
            ended: self.ended,
        }
    }
}

/// A seekable stream of output bytes.
#[wasm_bindgen]
pub struct OutputReader {
    inner: DynOutputReader,
}

#[wasm_bindgen]
impl OutputReader {
    /// The next `n` bytes (fewer at the end of the output).
    pub fn read(&mut self, n: usize) -> Vec<u8> {
        let left = self.inner.len() - self.inner.position();
        let n = u64::try_from(n).map_or(left, |n| n.min(left));
        let mut out = vec![0u8; n as usize];
        self.inner.fill(&mut out);
        out
    }

    /// The byte position of the next read.
    pub fn position(&self) -> u64 {
        self.inner.position()
    }

    /// Move to byte `byte` of the output.
    pub fn seek(&mut self, byte: u64) {
        self.inner.set_position(byte);
    }

    /// Total output bytes.
    pub fn length(&self) -> u64 {
        self.inner.len()
    }
}
