// The demo page's hashing, off the page's main thread: a long file or a long
// output (up to 2^27 bits) takes seconds, and on the main thread the tab
// would freeze for all of it. One job at a time; the page ends a job it no
// longer wants by terminating this worker.
//
// In:  {files: Blob[], state, bits, key (hex, "" for none)}
// Out: {type: "ready", backend} once the package is loaded, or
//      {type: "unavailable", message} if it could not be;
//      {type: "progress", bytes} (bytes of all files hashed so far);
//      {type: "result", index, hex} (hex: the digest's hex digits as ASCII
//      bytes, transferred: the page builds lines from them without
//      turning a 32 MiB digest into a string);
//      {type: "error", index, message} for a file that could not be read;
//      {type: "done"}.

// Pieces of 4 MiB: few enough calls into wasm, small enough for a smooth bar.
const CHUNK = 4 << 20;

// The listener is in place before the package loads (the import and its
// init()), so a job posted early waits for it instead of being lost.
const lib = import("../index.js").then(async (m) => {
  await m.init();
  return m;
});
lib.then(
  (m) => postMessage({ type: "ready", backend: m.backend() }),
  (e) => postMessage({ type: "unavailable", message: String(e?.message ?? e) }),
);

const DIGITS = new TextEncoder().encode("0123456789abcdef");

/** Lower-case hex of `bytes` as ASCII bytes; a table instead of string
 * concatenation, which takes seconds for a 16 MiB digest. */
function hexBytes(bytes) {
  const out = new Uint8Array(2 * bytes.length);
  for (let i = 0; i < bytes.length; i++) {
    out[2 * i] = DIGITS[bytes[i] >> 4];
    out[2 * i + 1] = DIGITS[bytes[i] & 15];
  }
  return out;
}

async function hashAll({ files, state, bits, key }) {
  const { Hasher, fromHex } = await lib;
  const options = { bits };
  if (key !== "") options.key = fromHex(key);
  let hashed = 0;
  for (let index = 0; index < files.length; index++) {
    const file = files[index];
    let h;
    try {
      h = new Hasher(state, options);
      for (let at = 0; at < file.size; at += CHUNK) {
        h.update(new Uint8Array(await file.slice(at, at + CHUNK).arrayBuffer()));
        hashed += Math.min(CHUNK, file.size - at);
        postMessage({ type: "progress", bytes: hashed });
      }
      const hex = hexBytes(h.digest());
      postMessage({ type: "result", index, hex }, [hex.buffer]);
    } catch (e) {
      postMessage({ type: "error", index, message: String(e?.message ?? e) });
    } finally {
      h?.free();
    }
  }
  postMessage({ type: "done" });
}

addEventListener("message", (e) => {
  hashAll(e.data).catch((err) => {
    postMessage({ type: "error", index: -1, message: String(err?.message ?? err) });
    postMessage({ type: "done" });
  });
});
