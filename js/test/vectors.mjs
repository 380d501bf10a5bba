// Readers of the test vectors: the Skein 1.3 golden KAT file and the
// pyskein-made JSON (origins in data/README.md).
import { readFileSync } from "node:fs";

const here = (p) => new URL(p, import.meta.url);

/** The pyskein vectors' message: message(length, seed)[i] = (i * 131 + seed * 7 + 1) % 256. */
export function message(length, seed) {
  const m = new Uint8Array(length);
  for (let i = 0; i < length; i++) m[i] = (i * 131 + seed * 7 + 1) % 256;
  return m;
}

export function hexBytes(hex) {
  return Uint8Array.from(Buffer.from(hex, "hex"));
}

export function pyskeinVectors() {
  return JSON.parse(readFileSync(here("data/pyskein-vectors.json"), "utf8"));
}

/** The JS options of a vector's pyskein arguments (hex strings, tree triple). */
export function options(args, bits) {
  const o = {};
  if (bits !== undefined) o.bits = bits;
  if (args.key) o.key = hexBytes(args.key);
  if (args.pers) o.personalization = hexBytes(args.pers);
  if (args.nonce) o.nonce = hexBytes(args.nonce);
  if (args.public_key) o.publicKey = hexBytes(args.public_key);
  if (args.key_id) o.keyId = hexBytes(args.key_id);
  if (args.tree) o.tree = { leaf: args.tree[0], fanOut: args.tree[1], maxHeight: args.tree[2] };
  return o;
}

const HEADER =
  /:Skein-(\d+):\s+(\d+)-bit hash, msgLen =\s*(\d+) bits(?:, data = '[^']*'|\. Tree: leaf=([0-9A-F]{2}), node=([0-9A-F]{2}), maxLevels=([0-9A-F]{2}))/;

function hexLines(lines) {
  // "(none)" stands for an empty field, sometimes followed by a C comment.
  return hexBytes(lines.filter((l) => !l.trim().startsWith("(none)")).join("").replace(/\s+/g, ""));
}

/** Every entry of the golden KAT file (tests/data/skein_golden_kat.txt, CRLF):
 * {state, bits, msgBits, tree, msg, key, result}. */
export function goldenKat() {
  const text = readFileSync(here("../../tests/data/skein_golden_kat.txt"), "latin1");
  const out = [];
  for (const block of text.replace(/\r\n/g, "\n").split("--------------------------------")) {
    const m = HEADER.exec(block);
    if (!m) continue;
    const sections = {};
    let current = null;
    for (const line of block.split("\n")) {
      if (line.startsWith("Message data:")) current = sections.msg = [];
      else if (line.startsWith("MAC key")) current = sections.key = [];
      else if (line.startsWith("Result:")) current = sections.result = [];
      else if (current && line.startsWith(" ")) current.push(line);
    }
    out.push({
      state: Number(m[1]),
      bits: Number(m[2]),
      msgBits: Number(m[3]),
      tree: m[4] ? [m[4], m[5], m[6]].map((x) => parseInt(x, 16)) : null,
      msg: hexLines(sections.msg),
      key: sections.key ? hexLines(sections.key) : null,
      result: hexLines(sections.result),
    });
  }
  return out;
}

/** tests/data/pyskein_output_slices.txt (tools/gen/pyskein_output_slices.py):
 * windows of outputs up to 2**64 - 1 bits, far ones from the specification
 * over pyskein's Threefish. Message of length n: bytes (7 * i + 3) % 256. */
export function outputSlices() {
  const text = readFileSync(here("../../tests/data/pyskein_output_slices.txt"), "utf8");
  return text
    .split("\n")
    .filter((l) => l && !l.startsWith("#"))
    .map((l) => {
      const [state, bits, msgLen, key, nonce, tree, start, stop, source, out] = l.split(" ");
      const field = (f) => (f === "-" ? undefined : hexBytes(f));
      const msg = new Uint8Array(Number(msgLen)).map((_, i) => (7 * i + 3) % 256);
      return {
        state: Number(state),
        bits: BigInt(bits),
        msg,
        key: field(key),
        nonce: field(nonce),
        tree: tree === "-" ? undefined : tree.split(",").map(Number),
        start: BigInt(start),
        stop: BigInt(stop),
        source,
        output: out === "-" ? "" : out,
      };
    });
}

/** tests/data/pyskein_output_lengths.txt (tools/gen/pyskein_output_lengths.py):
 * pyskein 1.0's digest of one message at every output length from 1 to
 * 1100 bits, {state, bits, msg, key, digest} (digest in hex). */
export function outputLengths() {
  const text = readFileSync(here("../../tests/data/pyskein_output_lengths.txt"), "utf8");
  return text
    .split("\n")
    .filter((l) => l && !l.startsWith("#"))
    .map((l) => {
      const [state, bits, msg, key, digest] = l.split(/\s+/);
      return {
        state: Number(state),
        bits: Number(bits),
        msg: msg === "-" ? new Uint8Array(0) : hexBytes(msg),
        key: key === "-" ? undefined : hexBytes(key),
        digest,
      };
    });
}
