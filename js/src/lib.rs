//! WebAssembly bindings of skein-simd for the JavaScript package (js/index.js
//! wraps these in the public API; nothing here is called by users directly).
//!
//! Every call takes a [`Config`] (state size, output bits, the byte
//! arguments, tree shape), built once from the options object by the
//! wrapper and freed after use. Byte arguments arrive as owned `Vec`s (the
//! wrapper's copy in linear memory) so that the key is wiped when the
//! config is dropped, not left behind in freed wasm memory.
//!
//! No argument may reach a panic: the release build aborts on one (a wasm
//! `unreachable` trap), which skips the destructors that wipe the key,
//! leaves the shadow stack pointer where the trap found it (enough such
//! traps and every later call fails) and leaves a borrowed object that can
//! never be freed. So every size is checked before use, with checked
//! arithmetic, and every buffer an argument sizes is allocated fallibly.
//! The wrapper keeps each call's buffers small as well (it streams long
//! messages and outputs in pieces), and checks argument types and ranges
//! before they reach wasm-bindgen's conversions, which wrap silently.

use skein_simd::mask_unused_bits;
use skein_simd::{
    DynOutputReader, DynSkein, OwnedParams, Params, Skein1024, Skein256, Skein512, SkeinMany1024,
    SkeinMany256, SkeinMany512, StateSize, TreeParams,
};
use wasm_bindgen::prelude::*;
use zeroize::Zeroizing;

/// Largest output one call returns (a digest, one read, all of hashMany's
/// digests together); longer outputs go through [`OutputReader`] in several
/// reads (wasm32 memory is at most 4 GiB).
const MAX_OUTPUT_BYTES: u64 = 1 << 30;

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
    /// `has_tree`. The key comes last of the byte arguments: wasm-bindgen
    /// copies them into wasm memory in order, and a copy that fails aborts
    /// before this function runs, leaving the copies before it unfreed, so
    /// none of those may be the key.
    #[wasm_bindgen(constructor)]
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        state_bits: u32,
        bits: u64,
        personalization: Vec<u8>,
        public_key: Vec<u8>,
        key_id: Vec<u8>,
        nonce: Vec<u8>,
        key: Vec<u8>,
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

fn too_long() -> JsError {
    JsError::new("skein: output longer than 1 GiB: read it with xof() instead")
}

/// The byte length of a `bits`-bit digest, if one call may return it.
fn digest_len(bits: u64) -> Result<usize, JsError> {
    let len = bits.div_ceil(8);
    if len > MAX_OUTPUT_BYTES {
        return Err(too_long());
    }
    usize::try_from(len).map_err(|_| too_long())
}

/// `len` zero bytes, or an error where `vec!` would abort when wasm memory
/// cannot grow that far.
fn zeroed(len: usize) -> Result<Vec<u8>, JsError> {
    let mut out = Vec::new();
    out.try_reserve_exact(len)
        .map_err(|_| JsError::new("skein: out of WebAssembly memory for the output"))?;
    out.resize(len, 0);
    Ok(out)
}

/// The digest of what `h` hashed, `bits` bits with the unused low bits of
/// a partial last byte cleared (as pyskein, skeinsum and the Python package
/// give it; the library's finalize writes the output stage's whole bytes).
fn finish(h: DynSkein, bits: u64) -> Result<Vec<u8>, JsError> {
    let mut out = zeroed(digest_len(bits)?)?;
    h.finalize_into(&mut out);
    mask_unused_bits(&mut out, bits);
    Ok(out)
}

/// One-shot hash of `data`.
#[wasm_bindgen]
pub fn hash(config: &Config, data: &[u8]) -> Result<Vec<u8>, JsError> {
    digest_len(config.bits)?;
    let mut h = config.hasher()?;
    h.update(data);
    finish(h, config.bits)
}

/// Messages for [`hash_many`], packed in wasm memory: the wrapper writes
/// the bytes and lengths straight into [`data`](Self::data_offset) and
/// [`lengths`](Self::lengths_offset) through views of the memory, one copy
/// of each message (an argument `&[u8]` would be a second: the wrapper's
/// packed array, then wasm-bindgen's copy of it).
#[wasm_bindgen]
pub struct Batch {
    data: Vec<u8>,
    lengths: Vec<u32>,
}

#[wasm_bindgen]
impl Batch {
    /// Room for `count` messages of `bytes` bytes together (zeros).
    #[wasm_bindgen(constructor)]
    pub fn new(bytes: usize, count: usize) -> Result<Batch, JsError> {
        let mut lengths = Vec::new();
        lengths
            .try_reserve_exact(count)
            .map_err(|_| JsError::new("skein: out of WebAssembly memory for hashMany"))?;
        lengths.resize(count, 0);
        let mut data = Vec::new();
        data.try_reserve_exact(bytes)
            .map_err(|_| JsError::new("skein: out of WebAssembly memory for hashMany"))?;
        data.resize(bytes, 0);
        Ok(Batch { data, lengths })
    }

    /// Where the message bytes are in wasm memory (a byte offset).
    #[wasm_bindgen(js_name = dataOffset)]
    pub fn data_offset(&self) -> usize {
        self.data.as_ptr() as usize
    }

    /// Where the lengths are in wasm memory (a byte offset, aligned to 4).
    #[wasm_bindgen(js_name = lengthsOffset)]
    pub fn lengths_offset(&self) -> usize {
        self.lengths.as_ptr() as usize
    }
}

/// Digests of the messages of `batch`, message `i` being the next
/// `lengths[i]` bytes; the digests are concatenated in the result.
#[wasm_bindgen(js_name = hashMany)]
pub fn hash_many(config: &Config, batch: &Batch) -> Result<Vec<u8>, JsError> {
    let (data, lengths) = (&batch.data[..], &batch.lengths[..]);
    let len = digest_len(config.bits)?;
    let total = lengths
        .len()
        .checked_mul(len)
        .filter(|&t| t as u64 <= MAX_OUTPUT_BYTES)
        .ok_or_else(|| JsError::new("skein: hashMany outputs longer than 1 GiB together"))?;
    let mut out = zeroed(total)?;
    let mut messages = Vec::new();
    messages
        .try_reserve_exact(lengths.len())
        .map_err(|_| JsError::new("skein: out of WebAssembly memory for hashMany"))?;
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
    // `out` is exactly `messages.len() * len` bytes, as hash_many_into
    // requires (its output length is the config's, checked above).
    match config.state {
        StateSize::S256 => SkeinMany256::with_params(&p)
            .map_err(err)?
            .hash_many_into(&messages, &mut out),
        StateSize::S512 => SkeinMany512::with_params(&p)
            .map_err(err)?
            .hash_many_into(&messages, &mut out),
        StateSize::S1024 => SkeinMany1024::with_params(&p)
            .map_err(err)?
            .hash_many_into(&messages, &mut out),
    }
    if len > 0 {
        for d in out.chunks_exact_mut(len) {
            mask_unused_bits(d, config.bits);
        }
    }
    Ok(out)
}

/// The block function of hashMany's lanes in this build: `simd128` in a
/// build with SIMD128, `portable` without (one stream, as in skein512() and
/// Hasher, runs the portable block function in both builds: a single
/// stream's rounds depend on each other, so two lanes do not help it).
#[wasm_bindgen]
pub fn backend() -> Result<String, JsError> {
    let many = SkeinMany512::with_params(&Params::new()).map_err(err)?;
    Ok(many.backend().to_string())
}

/// A hasher's state in a box of its own size. `DynSkein` and
/// `DynOutputReader` are enums, as large as their largest variant
/// (Skein-1024's), which a Skein-256 or Skein-512 object unboxed would take
/// in wasm memory for as long as it lives (until the collector comes, when
/// unfreed).
#[derive(Clone)]
enum State {
    S256(Box<Skein256>),
    S512(Box<Skein512>),
    S1024(Box<Skein1024>),
}

/// `$e` on the boxed value of whichever variant `$self` is.
macro_rules! each_size {
    ($ty:ident, $self:expr, $x:ident => $e:expr) => {
        match $self {
            $ty::S256($x) => $e,
            $ty::S512($x) => $e,
            $ty::S1024($x) => $e,
        }
    };
}

impl State {
    fn new(h: DynSkein) -> State {
        match h {
            DynSkein::S256(h) => State::S256(Box::new(h)),
            DynSkein::S512(h) => State::S512(Box::new(h)),
            DynSkein::S1024(h) => State::S1024(Box::new(h)),
        }
    }

    /// A copy to finalize.
    fn to_dyn(&self) -> DynSkein {
        match self {
            State::S256(h) => DynSkein::S256((**h).clone()),
            State::S512(h) => DynSkein::S512((**h).clone()),
            State::S1024(h) => DynSkein::S1024((**h).clone()),
        }
    }

    fn update(&mut self, data: &[u8]) {
        each_size!(State, self, h => h.update(data))
    }

    fn update_bits(&mut self, data: &[u8], bits: u64) {
        each_size!(State, self, h => h.update_bits(data, bits))
    }

    fn output_bits(&self) -> u64 {
        each_size!(State, self, h => h.output_bits())
    }

    fn state_bits(&self) -> u32 {
        match self {
            State::S256(_) => 256,
            State::S512(_) => 512,
            State::S1024(_) => 1024,
        }
    }

    fn export(&self) -> Zeroizing<Vec<u8>> {
        each_size!(State, self, h => h.export_state())
    }
}

/// Offset of the flags byte in a saved state (after the magic `SKEIN-ST`,
/// the version and the state words: src/saved_state/versioned.rs), and its
/// bit-pad flag: the message ended in a partial byte.
const SAVED_FLAGS: usize = 10;
const SAVED_BIT_PAD: u8 = 1;

/// A saved state held in wasm memory until JavaScript has copied it out
/// (`ptr()`, `len()`, then `free()`), and wiped when freed: returned as a
/// `Vec`, it would be copied to JavaScript and its wasm copy freed unwiped.
#[wasm_bindgen]
pub struct SavedState {
    bytes: Zeroizing<Vec<u8>>,
}

#[wasm_bindgen]
impl SavedState {
    /// Address of the bytes in wasm memory.
    pub fn ptr(&self) -> usize {
        self.bytes.as_ptr() as usize
    }

    /// Byte length.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Never empty (a saved state has at least its header); for clippy's
    /// `len_without_is_empty`.
    #[wasm_bindgen(js_name = isEmpty)]
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
}

/// An output stage in a box of its own size (see [`State`]).
enum Output {
    S256(Box<skein_simd::OutputReader<4>>),
    S512(Box<skein_simd::OutputReader<8>>),
    S1024(Box<skein_simd::OutputReader<16>>),
}

impl Output {
    fn new(r: DynOutputReader) -> Output {
        match r {
            DynOutputReader::S256(r) => Output::S256(Box::new(r)),
            DynOutputReader::S512(r) => Output::S512(Box::new(r)),
            DynOutputReader::S1024(r) => Output::S1024(Box::new(r)),
        }
    }

    fn len(&self) -> u64 {
        each_size!(Output, self, r => r.len())
    }

    fn position(&self) -> u64 {
        each_size!(Output, self, r => r.position())
    }

    fn set_position(&mut self, byte: u64) {
        each_size!(Output, self, r => r.set_position(byte))
    }

    fn fill(&mut self, out: &mut [u8]) -> usize {
        each_size!(Output, self, r => r.fill(out))
    }
}

/// A streaming hasher.
#[wasm_bindgen]
pub struct Hasher {
    inner: State,
    bits: u64,
    /// A partial last byte was hashed: the message is complete.
    ended: bool,
}

#[wasm_bindgen]
impl Hasher {
    #[wasm_bindgen(constructor)]
    pub fn new(config: &Config) -> Result<Hasher, JsError> {
        Ok(Hasher {
            inner: State::new(config.hasher()?),
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
        digest_len(self.bits)?;
        finish(self.inner.to_dyn(), self.bits)
    }

    /// The output so far as a stream (for outputs of any length).
    pub fn xof(&self) -> OutputReader {
        OutputReader {
            inner: Output::new(self.inner.to_dyn().finalize_xof()),
            bits: self.bits,
        }
    }

    pub fn copy(&self) -> Hasher {
        Hasher {
            inner: self.inner.clone(),
            bits: self.bits,
            ended: self.ended,
        }
    }

    /// The library's saved state (`export_state`, format version 1, the
    /// bytes the Rust and Python APIs save), to copy out of wasm memory.
    #[wasm_bindgen(js_name = exportState)]
    pub fn export_state(&self) -> SavedState {
        SavedState {
            bytes: self.inner.export(),
        }
    }

    /// A hasher continued from a saved state; the library validates it
    /// (a clear error, never a trap). Owned, so that it is wiped on drop.
    #[wasm_bindgen(js_name = importState)]
    pub fn import_state(state: Vec<u8>) -> Result<Hasher, JsError> {
        let state = Zeroizing::new(state);
        let h = DynSkein::import_state(&state).map_err(|e| JsError::new(&format!("skein: {e}")))?;
        let inner = State::new(h);
        Ok(Hasher {
            bits: inner.output_bits(),
            inner,
            // Accepted, so the header is there.
            ended: state[SAVED_FLAGS] & SAVED_BIT_PAD != 0,
        })
    }

    /// The state size in bits: 256, 512 or 1024.
    #[wasm_bindgen(js_name = stateBits)]
    pub fn state_bits(&self) -> u32 {
        self.inner.state_bits()
    }

    /// The output length in bits.
    #[wasm_bindgen(js_name = outputBits)]
    pub fn output_bits(&self) -> u64 {
        self.bits
    }
}

/// A seekable stream of output bytes.
#[wasm_bindgen]
pub struct OutputReader {
    inner: Output,
    /// Output bits: the last byte of `inner` may hold unused bits.
    bits: u64,
}

#[wasm_bindgen]
impl OutputReader {
    /// The next `n` bytes (fewer at the end of the output, none past it),
    /// the unused low bits of the output's last byte cleared.
    pub fn read(&mut self, n: u32) -> Result<Vec<u8>, JsError> {
        if u64::from(n) > MAX_OUTPUT_BYTES {
            return Err(JsError::new(
                "skein: read at most 1 GiB at a time (read again for more)",
            ));
        }
        let start = self.inner.position();
        // A position past the end (seek allows it) reads nothing.
        let left = self.inner.len().saturating_sub(start);
        let mut out = zeroed(u64::from(n).min(left) as usize)?;
        self.inner.fill(&mut out);
        if !out.is_empty() && start + out.len() as u64 == self.inner.len() {
            // `out` ends with the output: its bits from 8 * start on.
            mask_unused_bits(&mut out, self.bits - 8 * start);
        }
        Ok(out)
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
