// Types of skein-simd for JavaScript (index.js).

/** Load the WebAssembly; await it once before any other call (which
 * throws until then). Picks the SIMD128 build where the engine has SIMD128
 * and the portable one elsewhere; `simd` forces one (a later call asking
 * for the other build than the one loaded is rejected). */
export function init(options?: { simd?: boolean }): Promise<void>;

/** Whether this engine runs WebAssembly SIMD128 (`WebAssembly.validate`
 * of a tiny SIMD module): what init() chooses by. */
export function simdSupported(): boolean;

/** Message and argument bytes: a string is hashed as its UTF-8 bytes. */
export type Bytes = Uint8Array | ArrayBuffer | ArrayBufferView | string;

/** The arguments of a Skein computation besides the message. The byte
 * options (key, personalization, publicKey, keyId, nonce) are limited to
 * 1 GiB together. */
export interface SkeinOptions {
  /** Output length in bits, 1 to 2**64 - 1 (default: the state size).
   * One-shot digests are limited to 1 GiB: read longer outputs with xof().
   * When not a multiple of 8, the last byte's unused low bits are zero. */
  bits?: number | bigint;
  /** MAC key (Skein-MAC; with keyId, the KDF). */
  key?: Bytes;
  /** Personalization string. */
  personalization?: Bytes;
  /** Public key, for hashing messages to be signed. */
  publicKey?: Bytes;
  /** Key identifier (KDF use, with a key). */
  keyId?: Bytes;
  /** Nonce (randomized hashing, stream cipher). */
  nonce?: Bytes;
  /** Tree hashing: leaves of 2**leaf blocks, nodes of 2**fanOut children,
   * at most maxHeight levels (1..56, 1..56, 2..255); or [leaf, fanOut, maxHeight]. */
  tree?: { leaf: number; fanOut: number; maxHeight: number } | [number, number, number];
}

export type StateBits = 256 | 512 | 1024;

/** Skein-256 of `data` (256 output bits unless `options.bits`). */
export function skein256(data: Bytes, options?: SkeinOptions): Uint8Array;
/** Skein-512 of `data` (512 output bits unless `options.bits`). */
export function skein512(data: Bytes, options?: SkeinOptions): Uint8Array;
/** Skein-1024 of `data` (1024 output bits unless `options.bits`). */
export function skein1024(data: Bytes, options?: SkeinOptions): Uint8Array;
/** Skein with a `stateBits`-bit state of `data`. */
export function skein(stateBits: StateBits, data: Bytes, options?: SkeinOptions): Uint8Array;

/** Digests of each message (same options for all), computed side by side on SIMD lanes.
 * `messages` is an array or other iterable object of messages; a string is
 * refused (it would be iterated as one-character messages). All digests
 * together are limited to 1 GiB. */
export function hashMany(
  messages: Iterable<Bytes> & object,
  options?: SkeinOptions & { stateBits?: StateBits },
): Uint8Array[];

/** A seekable stream of output bytes, for outputs of any length. */
export class OutputReader {
  private constructor();
  /** The next `n` bytes (fewer at the end of the output); `n` is at most
   * 2**30 (1 GiB): read again for more. */
  read(n: number): Uint8Array;
  /** Byte position of the next read. */
  readonly position: bigint;
  /** Move to byte `byte` of the output (0 to 2**64 - 1; past the end,
   * reads return no bytes), in constant time. */
  seek(byte: number | bigint): this;
  /** Total output bytes. */
  readonly length: bigint;
  /** Release the wasm memory now instead of at garbage collection; any
   * later call but free() throws a TypeError, a second free() does nothing. */
  free(): void;
}

/** A streaming Skein hasher. */
export class Hasher {
  constructor(stateBits?: StateBits, options?: SkeinOptions);
  readonly stateBits: StateBits;
  /** Hash more bytes; with `bits` (an integer, 0 to 2**64 - 1), only the
   * first `bits` bits of `data` (which holds exactly ceil(bits / 8) bytes);
   * a partial byte ends the message. */
  update(data: Bytes, bits?: number | bigint): this;
  /** The digest so far; the hasher can go on. */
  digest(): Uint8Array;
  /** The digest so far as lower-case hexadecimal or base64 (with padding). */
  digest(encoding: "hex" | "base64"): string;
  /** digest() as lower-case hexadecimal. */
  hexdigest(): string;
  /** The output so far as a stream. */
  xof(): OutputReader;
  /** An independent copy. */
  copy(): Hasher;
  /** The saved state: the library's versioned format, the same bytes the
   * Rust (`export_state`) and Python (pickle) APIs save. A keyed hash's
   * state holds key-derived values: treat it as the key. */
  exportState(): Uint8Array;
  /** A hasher continued from a saved state, with the state size and output
   * length it was saved with; an Error says what is wrong with a malformed
   * one. */
  static importState(state: Uint8Array | ArrayBuffer | ArrayBufferView): Hasher;
  /** Release the wasm memory (and wipe the state) now instead of at garbage
   * collection; any later call but free() throws a TypeError, a second
   * free() does nothing. */
  free(): void;
}

/** createHasher(512, {bits: 256, key}) is new Hasher(512, {bits: 256, key}). */
export function createHasher(stateBits?: StateBits, options?: SkeinOptions): Hasher;

/** Lower-case hexadecimal digits of `data`. */
export function toHex(data: Bytes): string;
/** Base64 (RFC 4648, with padding) of `data`. */
export function toBase64(data: Bytes): string;
/** Bytes of an even-length hexadecimal string. */
export function fromHex(hex: string): Uint8Array;
/** The block function of hashMany's lanes in this build: "simd128" (the
 * package's build) or "portable" (a build without SIMD128). One stream
 * (skein512(), Hasher) runs the portable block function in both builds. */
export function backend(): "simd128" | "portable";
