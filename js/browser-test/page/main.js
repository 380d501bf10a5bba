// A user's page (browser-test/bundlers.test.mjs bundles it with esbuild,
// vite and webpack, with no configuration beyond where files go): imports
// the package by name, loads it, shows a digest. `#portable` in the URL
// forces the portable build.
import { Hasher, backend, hashMany, init, skein, skein512, toHex } from "skein-simd";

const show = (id, text) => {
  document.getElementById(id).textContent = text;
};
init(location.hash === "#portable" ? { simd: false } : {}).then(
  () => {
    // For the test, which hashes the golden file's entries in the page.
    window.skeinPage = { Hasher, hashMany, skein, toHex };
    show("backend", backend());
    show("digest", toHex(skein512("")));
  },
  (e) => show("error", String(e?.message ?? e)),
);
