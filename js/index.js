// skein-simd for JavaScript: Skein-256/512/1024 (Skein 1.3) in WebAssembly.
//
// One ESM entry for Node and browsers. wasm-bindgen's `--target web` glue
// (wasm/) loads its module with fetch(), which Node cannot do for file:
// URLs, so in Node the bytes are read with node:fs and handed over instead.
// Top-level await: the module is ready once the import resolves.

import init, * as wasm from "./wasm/skein_simd_js.js";

const wasmUrl = new URL("./wasm/skein_simd_js_bg.wasm", import.meta.url);
if (wasmUrl.protocol === "file:") {
  const { readFile } = await import("node:fs/promises");
  await init({ module_or_path: await readFile(wasmUrl) });
} else {
  await init({ module_or_path: wasmUrl });
}

const encoder = new TextEncoder();
const EMPTY = new Uint8Array(0);

/** Bytes of a message or argument: a Uint8Array, other views and
 * ArrayBuffers as their bytes, a string as UTF-8. */
function bytes(value, name) {
  if (value === undefined || value === null) return EMPTY;
  if (value instanceof Uint8Array) return value;
  if (typeof value === "string") return encoder.encode(value);
  if (ArrayBuffer.isView(value)) {
    return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  }
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  throw new TypeError(`skein: ${name} must be a Uint8Array, ArrayBuffer, typed array or string`);
}

/** Output bits as the u64 the wasm side takes: 0 for the state size. */
function outputBits(bits) {
  if (bits === undefined || bits === null) return 0n;
  if (typeof bits === "number" && Number.isSafeInteger(bits) && bits >= 1) return BigInt(bits);
  if (typeof bits === "bigint" && bits >= 1n && bits < 1n << 64n) return bits;
  throw new RangeError("skein: bits must be an integer from 1 to 2**64 - 1");
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

/** A wasm Config from the state size and an options object; the caller
 * frees it (which wipes its copy of the key). */
function config(stateBits, options = {}) {
  if (typeof options !== "object" || options === null) {
    throw new TypeError("skein: options must be an object");
  }
  for (const name of Object.keys(options)) {
    if (!OPTIONS.has(name)) throw new TypeError(`skein: unknown option '${name}'`);
  }
  const [hasTree, leaf, fanOut, maxHeight] = treeShape(options.tree);
  return new wasm.Config(
    stateBits,
    outputBits(options.bits),
    bytes(options.key, "key"),
    bytes(options.personalization, "personalization"),
    bytes(options.publicKey, "publicKey"),
    bytes(options.keyId, "keyId"),
    bytes(options.nonce, "nonce"),
    hasTree,
    leaf,
    fanOut,
    maxHeight,
  );
}

function withConfig(stateBits, options, f) {
  const c = config(stateBits, options);
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

/** Lower-case hexadecimal digits of `data`. */
export function toHex(data) {
  let s = "";
  for (const b of bytes(data, "data")) s += b.toString(16).padStart(2, "0");
  return s;
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
  const msg = bytes(data, "data");
  return withConfig(stateSize(stateBits), options, (c) => wasm.hash(c, msg));
}

export const skein256 = (data, options) => skein(256, data, options);
export const skein512 = (data, options) => skein(512, data, options);
export const skein1024 = (data, options) => skein(1024, data, options);

/** Digests of each message, computed side by side on SIMD lanes. */
export function hashMany(messages, options = {}) {
  const { stateBits = 512, ...rest } = options;
  const list = Array.from(messages, (m, i) => bytes(m, `messages[${i}]`));
  const lengths = new Uint32Array(list.length);
  let total = 0;
  list.forEach((m, i) => {
    lengths[i] = m.length;
    total += m.length;
  });
  const packed = new Uint8Array(total);
  let at = 0;
  for (const m of list) {
    packed.set(m, at);
    at += m.length;
  }
  const out = withConfig(stateSize(stateBits), rest, (c) => wasm.hashMany(c, packed, lengths));
  const n = list.length === 0 ? 0 : out.length / list.length;
  return list.map((_, i) => out.subarray(i * n, (i + 1) * n));
}

/** The build's Skein-512 backend, e.g. "simd128 (hashMany: simd128)". */
export function backend() {
  return wasm.backend();
}

const finalizer =
  typeof FinalizationRegistry === "function" ? new FinalizationRegistry((f) => f()) : null;

/** A seekable stream of output bytes, for outputs of any length. */
export class OutputReader {
  #inner;
  constructor(inner) {
    this.#inner = inner;
    finalizer?.register(this, () => inner.free(), this);
  }
  /** The next `n` bytes (fewer at the end of the output). */
  read(n) {
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError("skein: read needs a byte count >= 0");
    return this.#inner.read(n);
  }
  /** Byte position of the next read (a BigInt: outputs reach 2**61 bytes). */
  get position() {
    return this.#inner.position();
  }
  /** Move to byte `byte` of the output (a number or BigInt). */
  seek(byte) {
    this.#inner.seek(BigInt(byte));
    return this;
  }
  /** Total output bytes, a BigInt. */
  get length() {
    return this.#inner.length();
  }
  /** Free the wasm memory now rather than at garbage collection. */
  free() {
    finalizer?.unregister(this);
    this.#inner.free();
  }
}

// Lets copy() hand a wasm hasher to the constructor.
const WRAP = Symbol("wrap");

/** A streaming Skein hasher: update() as often as needed, then digest(). */
export class Hasher {
  #inner;
  /** stateBits: 256, 512 or 1024; options as for skein512(). */
  constructor(stateBits = 512, options = {}) {
    this.stateBits = stateSize(stateBits);
    this.#inner = options[WRAP] ?? withConfig(stateBits, options, (c) => new wasm.Hasher(c));
    const inner = this.#inner;
    finalizer?.register(this, () => inner.free(), this);
  }
  /** Hash more message bytes; with `bits`, only the first `bits` bits of
   * `data` (most significant first; `data` holds exactly ceil(bits / 8)
   * bytes), and a partial byte ends the message. Returns this. */
  update(data, bits = undefined) {
    const msg = bytes(data, "data");
    if (bits === undefined) this.#inner.update(msg);
    else this.#inner.updateBits(msg, BigInt(bits));
    return this;
  }
  /** The digest of everything so far; the hasher can go on. */
  digest() {
    return this.#inner.digest();
  }
  /** digest() as lower-case hex. */
  hexdigest() {
    return toHex(this.digest());
  }
  /** The output so far as a stream, for any output length. */
  xof() {
    return new OutputReader(this.#inner.xof());
  }
  /** An independent copy of the hasher's state. */
  copy() {
    return new Hasher(this.stateBits, { [WRAP]: this.#inner.copy() });
  }
  /** Free the wasm memory now (the key schedule with it) rather than at garbage collection. */
  free() {
    finalizer?.unregister(this);
    this.#inner.free();
  }
}

/** A new streaming hasher: createHasher(512, {bits: 256, key}). */
export function createHasher(stateBits = 512, options = {}) {
  return new Hasher(stateBits, options);
}
