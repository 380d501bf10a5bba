// Types of skein-simd's Node entry (node.js): index.js and Node's streams.
import { Transform } from "node:stream";
import type { Bytes, SkeinOptions, StateBits } from "./index.js";

export * from "./index.js";

/** A Transform stream that hashes what is written to it and emits the
 * digest as its one chunk when the input ends (as node:crypto's Hash). */
export class HashStream extends Transform {
  constructor(stateBits?: StateBits, options?: SkeinOptions);
  /** The digest once the stream has finished; before that a TypeError. */
  digest(): Uint8Array;
  digest(encoding: "hex" | "base64"): string;
}

/** new HashStream(stateBits, options). */
export function createHashStream(stateBits?: StateBits, options?: SkeinOptions): HashStream;

/** The digest of what a readable stream (or async iterable of chunks)
 * yields, through stream.pipeline. */
export function hashStream(
  source: NodeJS.ReadableStream | AsyncIterable<Bytes>,
  stateBits?: StateBits,
  options?: SkeinOptions,
): Promise<Uint8Array>;
