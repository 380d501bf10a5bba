// Work to count executed instructions of (not a timer): `node
// bench/instructions.mjs DIR N` loads the package copy at DIR (its
// index.js) with the SIMD128 build, then hashes N MiB through one
// streaming Skein-512 hasher (1 MiB updates) and N MiB of hashMany (256
// messages of 4 KiB a call), and prints the start of the digest. Run under
// valgrind's callgrind with N and with 0; the difference is the hashing:
//   valgrind --tool=callgrind node --no-liftoff --no-wasm-tier-up bench/instructions.mjs DIR 2
const [dir, mib] = [process.argv[2], Number(process.argv[3])];
const m = await import(dir + "/index.js");
await m.init({ simd: true });
const piece = new Uint8Array(1 << 20).map((_, i) => i * 131);
const h = new m.Hasher(512);
for (let i = 0; i < mib; i++) h.update(piece);
const msgs = Array.from({ length: 256 }, (_, i) => piece.subarray(i * 4096, (i + 1) * 4096));
for (let i = 0; i < mib; i++) m.hashMany(msgs);
console.log(h.digest("hex").slice(0, 16));
