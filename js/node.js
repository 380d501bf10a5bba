// skein-simd for Node: everything of index.js, and Node's streams. The
// package's "node" entry (package.json `exports`); browsers and bundlers
// for browsers get index.js, which imports nothing of Node.

import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Hasher, toBase64, toHex } from "./index.js";

export * from "./index.js";

/** A Transform stream that hashes what is written to it and, when the input
 * ends, emits the digest as its one chunk, as the Hash of node:crypto's
 * createHash() does; digest(encoding) gives it after the stream finished.
 * Strings written are hashed as UTF-8 (the writable side's default). */
export class HashStream extends Transform {
  #hasher;
  #digest = null;
  /** stateBits and options as for `new Hasher()`. */
  constructor(stateBits = 512, options = {}) {
    super();
    this.#hasher = new Hasher(stateBits, options);
  }
  _transform(chunk, _encoding, callback) {
    try {
      this.#hasher.update(chunk);
    } catch (e) {
      callback(e);
      return;
    }
    callback();
  }
  _flush(callback) {
    try {
      this.#digest = this.#hasher.digest();
    } catch (e) {
      callback(e);
      return;
    } finally {
      this.#hasher.free();
    }
    callback(null, this.#digest);
  }
  _destroy(error, callback) {
    this.#hasher.free();
    callback(error);
  }
  /** The digest once the stream has finished (as bytes, or "hex" or
   * "base64"); before that a TypeError. */
  digest(encoding = undefined) {
    if (this.#digest === null) throw new TypeError("skein: HashStream has no digest before its input ended");
    if (encoding === "hex") return toHex(this.#digest);
    if (encoding === "base64") return toBase64(this.#digest);
    if (encoding === undefined) return this.#digest.slice();
    throw new TypeError("skein: digest encoding must be 'hex', 'base64' or none (bytes)");
  }
}

/** new HashStream(stateBits, options). */
export function createHashStream(stateBits = 512, options = {}) {
  return new HashStream(stateBits, options);
}

/** The digest of everything a readable stream (or any async iterable of
 * chunks) yields, through stream.pipeline: `await hashStream(
 * fs.createReadStream(path), 512, {bits: 256})`. */
export async function hashStream(source, stateBits = 512, options = {}) {
  const sink = new HashStream(stateBits, options);
  await pipeline(source, sink);
  return sink.digest();
}
