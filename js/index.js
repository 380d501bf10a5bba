// skein-simd for JavaScript: Skein-256/512/1024 (Skein 1.3) in WebAssembly.
//
// The package's one implementation, an ES module for browsers, bundlers and
// Node alike: no `node:` import, no top-level await, no asset to locate.
// `await init()` loads the WebAssembly (embedded in the package as base64:
// every bundler, IIFE bundles and CommonJS included, takes it as plain
// JavaScript); the API is synchronous after it. Two builds of the same
// code: SIMD128, and a portable one for engines without SIMD128, chosen by
// `WebAssembly.validate` on a tiny SIMD module. Each is its own module,
// imported only when chosen (bundlers that split chunks fetch only that
// one). node.js adds Node's streams; dist/*.cjs are the CommonJS builds of
// both (tools/bundle.mjs).

import * as wasm from "./wasm/skein_simd_js.js";

// A function returning one v128 (i32.const 0, i8x16.splat, i8x16.popcnt):
// valid only where the engine has SIMD128.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

/** Whether this engine runs WebAssembly SIMD128 (what init() picks by). */
export function simdSupported() {
  return WebAssembly.validate(SIMD_PROBE);
}

// The wasm module's memory once loaded (init() resolved), else null.
let memory = null;
// init()'s promise, and the build it loads ("simd128" or "portable").
let loading = null;
let loadingBuild = null;

/** The bytes of a base64 string (the embedded module). */
function fromBase64(text) {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

async function load(build) {
  const { default: base64 } = await (build === "simd128" ? import("./wasm/simd128.js") : import("./wasm/portable.js"));
  const exports = await wasm.default({ module_or_path: fromBase64(base64) });
  memory = exports.memory;
}

/** Load the WebAssembly; call (and await) once before anything else. Picks
 * the SIMD128 build where the engine has SIMD128, the portable one
 * elsewhere; `{simd: false}` forces the portable build, `{simd: true}` the
 * SIMD128 one. Later calls return the same promise (a call that asks for
 * the other build is refused). */
export function init(options = {}) {
  let build;
  try {
    build = chosenBuild(options);
  } catch (e) {
    return Promise.reject(e);
  }
  if (loading !== null) {
    if (options.simd !== undefined && build !== loadingBuild) {
      return Promise.reject(new Error(`skein: init() already loaded the ${loadingBuild} build`));
    }
    return loading;
  }
  loadingBuild = build;
  loading = load(build).catch((e) => {
    loading = loadingBuild = null;
    throw e;
  });
  return loading;
}

/** The build init(options) asks for, the options checked. */
function chosenBuild(options) {
  checkOptions(options);
  for (const name of Object.keys(options)) {
    if (name !== "simd") throw new TypeError(`skein: unknown init option '${name}'`);
  }
  const { simd } = options;
  if (simd !== undefined && typeof simd !== "boolean") {
    throw new TypeError("skein: init's simd must be true, false or undefined");
  }
  return (simd ?? simdSupported()) ? "simd128" : "portable";
}

/** Throws unless init() has finished. */
function ready() {
  if (memory === null) throw new Error("skein: call (and await) init() first");
}

const encoder = new TextEncoder();
const EMPTY = new Uint8Array(0);

// Largest piece of a message or an output handed to or from wasm in one
// call: longer ones go in pieces, so that wasm memory never has to grow to
// the size of the whole (wasm-bindgen's copy of an argument into wasm aborts
// the module when memory cannot grow, and wasm memory never shrinks).
const PIECE = 1 << 20;
// Largest output one call returns: a digest, one read(), all of hashMany's
// digests together.
const MAX_OUTPUT = 2 ** 30;
// Largest key, personalization, publicKey, keyId and nonce together: they
// are copied into wasm memory whole.
const MAX_OPTION_BYTES = 2 ** 30;
const U64_END = 1n << 64n;
// Longer than any saved state (the longest, a Skein-1024 tree with its 254
// possible open levels, is about 105 KB): a longer one is refused before
// it is copied into wasm memory.
const MAX_STATE_BYTES = 1 << 20;

/** Whether `buffer` was detached (transferred): its views read as empty. */
function isDetached(buffer) {
  if (typeof buffer.detached === "boolean") return buffer.detached;
  if (buffer.byteLength !== 0) return false;
  try {
    new Uint8Array(buffer);
    return false;
  } catch {
    return true;
  }
}

/** Bytes of a message or argument: a Uint8Array, other views and
 * ArrayBuffers as their bytes, a string as UTF-8. A detached buffer is an
 * error, not an empty message. */
function bytes(value, name) {
  if (value === undefined || value === null) return EMPTY;
  if (typeof value === "string") return encoder.encode(value);
  if (ArrayBuffer.isView(value)) {
    let length;
    try {
      // A typed array on a detached buffer has length 0; a DataView throws.
      length = value.byteLength;
    } catch {
      length = -1;
    }
    if (length === -1 || (length === 0 && isDetached(value.buffer))) {
      throw new TypeError(`skein: ${name} is a view of a detached ArrayBuffer`);
    }
    if (value instanceof Uint8Array) return value;
    return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  }
  if (value instanceof ArrayBuffer) {
    if (isDetached(value)) throw new TypeError(`skein: ${name} is a detached ArrayBuffer`);
    return new Uint8Array(value);
  }
  throw new TypeError(`skein: ${name} must be a Uint8Array, ArrayBuffer, typed array or string`);
}

/** An integer from 0 to 2**64 - 1 (a number or BigInt) as a BigInt: what
 * the wasm side takes as a u64, whose conversion would wrap anything else. */
function u64(value, what) {
  if (typeof value === "bigint") {
    if (value >= 0n && value < U64_END) return value;
  } else if (typeof value === "number") {
    if (Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  } else {
    throw new TypeError(`skein: ${what} must be a number or BigInt`);
  }
  throw new RangeError(`skein: ${what} must be an integer from 0 to 2**64 - 1`);
}

/** Output bits as the u64 the wasm side takes: 0 for the state size. */
function outputBits(bits) {
  if (bits === undefined || bits === null) return 0n;
  if (typeof bits === "number" && Number.isSafeInteger(bits) && bits >= 1) return BigInt(bits);
  if (typeof bits === "bigint" && bits >= 1n && bits < U64_END) return bits;
  throw new RangeError("skein: bits must be an integer from 1 to 2**64 - 1");
}

/** Output bytes of a `bits`-bit output (bits 0: the state size). */
function outputLength(stateBits, bits) {
  return Number(((bits === 0n ? BigInt(stateBits) : bits) + 7n) / 8n);
}

function checkOutputLength(len) {
  if (len > MAX_OUTPUT) throw new RangeError("skein: output longer than 1 GiB: read it with xof() instead");
}

function treeShape(tree) {
  if (tree === undefined || tree === null) return [false, 0, 0, 0];
  const shape = Array.isArray(tree) ? tree : [tree.leaf, tree.fanOut, tree.maxHeight];
  if (shape.length !== 3 || !shape.every((v) => Number.isInteger(v) && v >= 0 && v <= 255)) {
    throw new RangeError("skein: tree must be {leaf, fanOut, maxHeight} (or [leaf, fanOut, maxHeight]) of integers");
  }
  return [true, ...shape];
}

const OPTIONS = new Set(["bits", "key", "personalization", "publicKey", "keyId", "nonce", "tree"]);

function checkOptions(options) {
  if (typeof options !== "object" || options === null) {
    throw new TypeError("skein: options must be an object");
  }
  return options;
}

/** The checked arguments of an options object, each option read once. */
function settings(stateBits, options = {}) {
  checkOptions(options);
  for (const name of Object.keys(options)) {
    if (!OPTIONS.has(name)) throw new TypeError(`skein: unknown option '${name}'`);
  }
  const { bits, key, personalization, publicKey, keyId, nonce, tree } = options;
  const outBits = outputBits(bits);
  return {
    stateBits,
    bits: outBits,
    length: outputLength(stateBits, outBits),
    tree: treeShape(tree),
    // Converted last: no getter runs between a conversion and the use.
    // In Config's order, the key last.
    bytes: [
      [personalization, "personalization"],
      [publicKey, "publicKey"],
      [keyId, "keyId"],
      [nonce, "nonce"],
      [key, "key"],
    ],
  };
}

/** A wasm Config of checked settings; the caller frees it (which wipes its
 * copy of the key). */
function config(s) {
  const args = s.bytes.map(([value, name]) => bytes(value, name));
  const key = args.length - 1;
  try {
    if (args.reduce((n, a) => n + a.length, 0) > MAX_OPTION_BYTES) {
      throw new RangeError("skein: key, personalization, publicKey, keyId and nonce longer than 1 GiB together");
    }
    return new wasm.Config(s.stateBits, s.bits, ...args, ...s.tree);
  } catch (e) {
    // wasm-bindgen's copy of an argument into wasm memory aborts when the
    // memory cannot grow, before any Rust code of the call runs (the key,
    // copied last, is not in wasm memory then).
    if (e instanceof WebAssembly.RuntimeError) {
      throw new RangeError("skein: out of WebAssembly memory for the options");
    }
    throw e;
  } finally {
    // The UTF-8 copy of a string key is ours: not left for the collector.
    if (typeof s.bytes[key][0] === "string") args[key].fill(0);
  }
}

function withConfig(s, f) {
  const c = config(s);
  try {
    return f(c);
  } finally {
    c.free();
  }
}

function stateSize(stateBits) {
  if (stateBits !== 256 && stateBits !== 512 && stateBits !== 1024) {
    throw new RangeError("skein: stateBits must be 256, 512 or 1024");
  }
  return stateBits;
}

/** Hash `msg` into the wasm hasher `inner` in pieces (at least one call,
 * which checks that the hasher still takes input). */
function updatePieces(inner, msg) {
  let at = 0;
  do {
    inner.update(msg.subarray(at, at + PIECE));
    at += PIECE;
  } while (at < msg.length);
}

/** The next `n` bytes of the wasm reader `reader` (n at most what is left),
 * read in pieces. */
function readPieces(reader, n) {
  if (n <= PIECE) return reader.read(n);
  let out;
  try {
    out = new Uint8Array(n);
  } catch {
    throw new RangeError(`skein: no memory for ${n} bytes of output`);
  }
  for (let at = 0; at < n; at += PIECE) out.set(reader.read(Math.min(PIECE, n - at)), at);
  return out;
}

/** The digest (`len` bytes) of the wasm hasher `inner`. */
function digestOf(inner, len) {
  checkOutputLength(len);
  if (len <= PIECE) return inner.digest();
  const reader = inner.xof();
  try {
    return readPieces(reader, len);
  } finally {
    reader.free();
  }
}

/** The digest of `msg` with config `c`, through a wasm hasher. */
function streamed(c, msg, len) {
  const h = new wasm.Hasher(c);
  try {
    updatePieces(h, msg);
    return digestOf(h, len);
  } finally {
    h.free();
  }
}

/** Lower-case hexadecimal digits of `data`. */
export function toHex(data) {
  let s = "";
  for (const b of bytes(data, "data")) s += b.toString(16).padStart(2, "0");
  return s;
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Base64 (RFC 4648, with padding) of `data`. */
export function toBase64(data) {
  const b = bytes(data, "data");
  let s = "";
  let i = 0;
  for (; i + 2 < b.length; i += 3) {
    const n = (b[i] << 16) | (b[i + 1] << 8) | b[i + 2];
    s += BASE64[n >> 18] + BASE64[(n >> 12) & 63] + BASE64[(n >> 6) & 63] + BASE64[n & 63];
  }
  if (i + 1 === b.length) {
    const n = b[i] << 16;
    s += BASE64[n >> 18] + BASE64[(n >> 12) & 63] + "==";
  } else if (i + 2 === b.length) {
    const n = (b[i] << 16) | (b[i + 1] << 8);
    s += BASE64[n >> 18] + BASE64[(n >> 12) & 63] + BASE64[(n >> 6) & 63] + "=";
  }
  return s;
}

/** Checks a digest encoding: "hex", "base64" or undefined (bytes). */
function checkEncoding(encoding) {
  if (encoding !== undefined && encoding !== "hex" && encoding !== "base64") {
    throw new TypeError("skein: digest encoding must be 'hex', 'base64' or none (bytes)");
  }
  return encoding;
}

/** `digest` (bytes) in a checked encoding. */
function encoded(digest, encoding) {
  if (encoding === "hex") return toHex(digest);
  if (encoding === "base64") return toBase64(digest);
  return digest;
}

/** The bytes of an even-length string of hexadecimal digits. */
export function fromHex(hex) {
  if (typeof hex !== "string" || hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) {
    throw new TypeError("skein: fromHex needs an even number of hexadecimal digits");
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
  return out;
}

/** Skein with a `stateBits`-bit state of `data` (one-shot). */
export function skein(stateBits, data, options) {
  ready();
  const s = settings(stateSize(stateBits), options);
  checkOutputLength(s.length);
  const msg = bytes(data, "data");
  return withConfig(s, (c) =>
    msg.length <= PIECE && s.length <= PIECE ? wasm.hash(c, msg) : streamed(c, msg, s.length),
  );
}

export const skein256 = (data, options) => skein(256, data, options);
export const skein512 = (data, options) => skein(512, data, options);
export const skein1024 = (data, options) => skein(1024, data, options);

/** Digests of each message, computed side by side on SIMD lanes. */
export function hashMany(messages, options = {}) {
  ready();
  if (
    typeof messages === "string" ||
    messages instanceof String ||
    typeof messages?.[Symbol.iterator] !== "function"
  ) {
    throw new TypeError("skein: hashMany needs an iterable of messages (an array, not a string)");
  }
  const { stateBits = 512, ...rest } = checkOptions(options);
  const s = settings(stateSize(stateBits), rest);
  checkOutputLength(s.length);
  // Lengths as converted: the iterator's code that yields a later message
  // may detach an earlier one's buffer.
  const sizes = [];
  const list = Array.from(messages, (m, i) => {
    const b = bytes(m, `messages[${i}]`);
    sizes.push(b.length);
    return b;
  });
  if (list.length * s.length > MAX_OUTPUT) {
    throw new RangeError("skein: hashMany outputs longer than 1 GiB together");
  }
  return withConfig(s, (c) => {
    const out = [];
    let i = 0;
    while (i < list.length) {
      if (list[i].length !== sizes[i]) throw new TypeError(`skein: messages[${i}] was detached`);
      if (sizes[i] > PIECE || s.length > PIECE) {
        out.push(streamed(c, list[i], s.length));
        i++;
        continue;
      }
      // The next messages that fit in one piece, and their digests too.
      let end = i;
      let total = 0;
      while (
        end < list.length &&
        total + sizes[end] <= PIECE &&
        (end - i + 1) * s.length <= PIECE &&
        list[end].length === sizes[end]
      ) {
        total += sizes[end];
        end++;
      }
      // Each message copied once, straight into wasm memory (views made
      // after the allocation, which may grow the memory and detach older
      // views; nothing allocates in wasm between it and the call).
      const batch = new wasm.Batch(total, end - i);
      let flat;
      try {
        const packed = new Uint8Array(memory.buffer, batch.dataOffset(), total);
        const lengths = new Uint32Array(memory.buffer, batch.lengthsOffset(), end - i);
        for (let k = i, at = 0; k < end; k++) {
          packed.set(list[k], at);
          lengths[k - i] = sizes[k];
          at += sizes[k];
        }
        flat = wasm.hashMany(c, batch);
      } finally {
        batch.free();
      }
      for (let k = 0; k < end - i; k++) out.push(flat.subarray(k * s.length, (k + 1) * s.length));
      i = end;
    }
    return out;
  });
}

/** The block function hashMany's lanes use in this build: "simd128" (the
 * package's build) or "portable" (a build without SIMD128). One stream
 * (skein512(), Hasher) runs the portable one in both. */
export function backend() {
  ready();
  return wasm.backend();
}

/** A seekable stream of output bytes, for outputs of any length. */
export class OutputReader {
  // The wasm reader, null once freed. wasm-bindgen's finalizer frees it if
  // this object is collected unfreed.
  #inner;
  constructor(inner) {
    this.#inner = inner;
  }
  #live() {
    if (this.#inner === null) throw new TypeError("skein: OutputReader used after free()");
    return this.#inner;
  }
  /** The next `n` bytes (fewer at the end of the output); `n` at most 2**30. */
  read(n) {
    const inner = this.#live();
    if (typeof n !== "number") throw new TypeError("skein: read needs a byte count (a number)");
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError("skein: read needs a byte count >= 0");
    if (n > MAX_OUTPUT) throw new RangeError("skein: read at most 1 GiB at a time (read again for more)");
    const left = inner.length() - inner.position();
    return readPieces(inner, left <= 0n ? 0 : Number(left < BigInt(n) ? left : BigInt(n)));
  }
  /** Byte position of the next read (a BigInt: outputs reach 2**61 bytes). */
  get position() {
    return this.#live().position();
  }
  /** Move to byte `byte` of the output (a number or BigInt from 0 to
   * 2**64 - 1; past the end, reads return no bytes). */
  seek(byte) {
    const inner = this.#live();
    inner.seek(u64(byte, "seek position"));
    return this;
  }
  /** Total output bytes, a BigInt. */
  get length() {
    return this.#live().length();
  }
  /** Free the wasm memory now rather than at garbage collection; a second
   * free() does nothing. */
  free() {
    const inner = this.#inner;
    this.#inner = null;
    inner?.free();
  }
}

// Lets copy() and importState() hand a wasm hasher to the constructor.
const WRAP = Symbol("wrap");

/** A streaming Skein hasher: update() as often as needed, then digest(). */
export class Hasher {
  // The wasm hasher, null once freed (wasm-bindgen's finalizer frees it if
  // this object is collected unfreed).
  #inner;
  // Digest bytes.
  #length;
  /** stateBits: 256, 512 or 1024; options as for skein512(). */
  constructor(stateBits = 512, options = {}) {
    this.stateBits = stateSize(stateBits);
    checkOptions(options);
    if (options[WRAP]) {
      [this.#inner, this.#length] = options[WRAP];
    } else {
      ready();
      const s = settings(stateBits, options);
      this.#inner = withConfig(s, (c) => new wasm.Hasher(c));
      this.#length = s.length;
    }
  }
  #live() {
    if (this.#inner === null) throw new TypeError("skein: Hasher used after free()");
    return this.#inner;
  }
  /** Hash more message bytes; with `bits`, only the first `bits` bits of
   * `data` (most significant first; `data` holds exactly ceil(bits / 8)
   * bytes), and a partial byte ends the message. Returns this. */
  update(data, bits = undefined) {
    const inner = this.#live();
    const msg = bytes(data, "data");
    if (bits === undefined) {
      updatePieces(inner, msg);
      return this;
    }
    const n = u64(bits, "bits");
    if (BigInt(msg.length) !== (n + 7n) / 8n) {
      throw new RangeError("skein: update with bits needs ceil(bits / 8) bytes");
    }
    const partial = n % 8n;
    if (partial === 0n) {
      updatePieces(inner, msg);
    } else {
      updatePieces(inner, msg.subarray(0, msg.length - 1));
      inner.updateBits(msg.subarray(msg.length - 1), partial);
    }
    return this;
  }
  /** The digest of everything so far, as bytes, or as a string with
   * `encoding` "hex" or "base64"; the hasher can go on. */
  digest(encoding = undefined) {
    const inner = this.#live();
    return encoded(digestOf(inner, this.#length), checkEncoding(encoding));
  }
  /** digest() as lower-case hex. */
  hexdigest() {
    return this.digest("hex");
  }
  /** The output so far as a stream, for any output length. */
  xof() {
    return new OutputReader(this.#live().xof());
  }
  /** The hasher's saved state: the library's versioned format, the bytes
   * the Rust (`export_state`) and Python (pickle) APIs save for the same
   * hash. A keyed hash's state holds key-derived values: treat it as the
   * key. */
  exportState() {
    const saved = this.#live().exportState();
    try {
      // Copied out of wasm memory; free() wipes the wasm copy.
      return new Uint8Array(memory.buffer, saved.ptr(), saved.len()).slice();
    } finally {
      saved.free();
    }
  }
  /** A hasher continued from a saved state (exportState(), Rust's
   * `export_state`, or the saved hasher of a Python pickle), its state size
   * and output length those it was saved with. A malformed state throws
   * an Error saying what is wrong. */
  static importState(state) {
    ready();
    if (typeof state === "string") throw new TypeError("skein: a saved state is bytes, not a string");
    const b = bytes(state, "state");
    if (b.length > MAX_STATE_BYTES) throw new RangeError("skein: not a saved Skein state (longer than any)");
    let inner;
    try {
      inner = wasm.Hasher.importState(b);
    } catch (e) {
      if (e instanceof WebAssembly.RuntimeError) throw new RangeError("skein: out of WebAssembly memory for the state");
      throw e;
    }
    const stateBits = inner.stateBits();
    return new Hasher(stateBits, { [WRAP]: [inner, outputLength(stateBits, inner.outputBits())] });
  }
  /** An independent copy of the hasher's state. */
  copy() {
    return new Hasher(this.stateBits, { [WRAP]: [this.#live().copy(), this.#length] });
  }
  /** Free the wasm memory now (the key schedule with it) rather than at
   * garbage collection; a second free() does nothing. */
  free() {
    const inner = this.#inner;
    this.#inner = null;
    inner?.free();
  }
}

/** A new streaming hasher: createHasher(512, {bits: 256, key}). */
export function createHasher(stateBits = 512, options = {}) {
  return new Hasher(stateBits, options);
}
