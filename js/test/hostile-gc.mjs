// Run by hostile-gc.test.mjs as `node --expose-gc test/hostile-gc.mjs`: the
// hostile calls of test/hostile.test.mjs, each object dropped after its
// failure and collected (gc(), then a few turns of the event loop for the
// finalizers), then digests. Prints them as JSON on one line; an uncaught
// error in a finalizer makes Node exit non-zero.
import "./setup.mjs";
import { Hasher, hashMany, skein512, toHex } from "../index.js";


if (typeof globalThis.gc !== "function") {
  console.error("hostile-gc.mjs: run with node --expose-gc");
  process.exit(2);
}

async function collect() {
  for (let i = 0; i < 3; i++) {
    globalThis.gc();
    await new Promise((r) => setTimeout(r, 10));
  }
}

// Errors other than the expected skein: ones (reported, not thrown: the
// run goes on to the collection, where a broken finalizer shows).
const unexpected = [];
function fails(f) {
  try {
    f();
    unexpected.push("no error");
  } catch (e) {
    if (!/^skein: /.test(e.message) && unexpected.length < 5) unexpected.push(`${e.constructor.name}: ${e.message}`);
  }
}

// A failed read on a reader, the reader then dropped.
{
  let r = new Hasher(512, { bits: 2n ** 64n - 1n }).xof();
  fails(() => r.read(2 ** 32 - 1));
  r = null;
}
await collect();

// Failed calls of every kind on objects that are dropped unfreed.
for (let i = 0; i < 1000; i++) {
  const h = new Hasher(1024, { key: "k", bits: 2n ** 64n - 1n }).update("abc");
  const r = h.xof();
  fails(() => r.read(2 ** 32 - 1));
  fails(() => r.seek(-1));
  fails(() => h.digest());
  fails(() => h.update("x", 9));
  fails(() => hashMany(["a", "b", "c", "d"], { bits: 2 ** 33 }));
}
await collect();

// Many failures in a row, then the module must still work.
const r = new Hasher(512, { bits: 2n ** 64n - 1n }).xof();
for (let i = 0; i < 100_000; i++) {
  fails(() => (i % 2 ? hashMany(["a", "b", "c", "d"], { bits: 2 ** 33 }) : r.read(2 ** 32 - 1)));
}
await collect();

const h = new Hasher(512).update("abc");
const freed = h.copy();
freed.free();
freed.free();
await collect();

console.log(
  JSON.stringify({
    skein512: toHex(skein512("abc")),
    hasher: h.hexdigest(),
    hashMany: hashMany(["abc", "abc", "abc"]).map(toHex),
    bits9: toHex(skein512("abc", { bits: 9 })),
    unexpected,
  }),
);
