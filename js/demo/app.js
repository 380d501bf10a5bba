// The demo page: hashes a chosen or dropped file in pieces with the
// package's streaming hasher, showing progress and throughput, and prints
// the lines skeinsum would print for it.
import { Hasher, backend, fromHex } from "../index.js";

// Pieces of 4 MiB: few enough calls into wasm, small enough for a smooth bar.
const CHUNK = 4 << 20;

const $ = (id) => document.getElementById(id);
let run = 0; // the latest hashing run; an older one stops when it sees a newer

$("backend").textContent = backend();

function options() {
  const o = {};
  const bits = $("bits").value.trim();
  if (bits !== "") {
    const n = Number(bits);
    if (!Number.isInteger(n) || n < 1) throw new Error("Output bits: a whole number of at least 1");
    o.bits = n;
  }
  const key = $("key").value.trim();
  if (key !== "") {
    try {
      o.key = fromHex(key);
    } catch {
      throw new Error("Key: an even number of hexadecimal digits");
    }
  }
  return o;
}

function lines(name, state, bits, hex) {
  // skeinsum's --tag names the algorithm Skein-STATE-BITS.
  return { plain: `${hex}  ${name}`, tag: `Skein-${state}-${bits} (${name}) = ${hex}` };
}

async function hashFile(file) {
  const mine = ++run;
  $("error").textContent = "";
  $("digest").value = "";
  $("line-plain").value = "";
  $("line-tag").value = "";
  $("file-name").textContent = `${file.name} (${file.size.toLocaleString()} bytes)`;
  let h;
  try {
    const state = Number($("state").value);
    const opts = options();
    h = new Hasher(state, opts);
    const bits = opts.bits ?? state;
    const start = performance.now();
    $("status").textContent = "Hashing…";
    $("progress").value = 0;
    for (let at = 0; at < file.size; at += CHUNK) {
      const piece = new Uint8Array(await file.slice(at, at + CHUNK).arrayBuffer());
      if (mine !== run) return;
      h.update(piece);
      const done = Math.min(at + CHUNK, file.size);
      const seconds = (performance.now() - start) / 1000;
      $("progress").value = done / file.size;
      $("throughput").textContent =
        seconds > 0 ? `${(done / 1e6 / seconds).toFixed(1)} MB/s` : "";
    }
    const hex = h.hexdigest();
    const seconds = (performance.now() - start) / 1000;
    $("progress").value = 1;
    $("digest").value = hex;
    const l = lines(file.name, state, bits, hex);
    $("line-plain").value = l.plain;
    $("line-tag").value = l.tag;
    $("throughput").textContent =
      `${(file.size / 1e6).toFixed(1)} MB in ${seconds.toFixed(2)} s` +
      (seconds > 0 ? `, ${(file.size / 1e6 / seconds).toFixed(1)} MB/s` : "");
    $("status").textContent = "Done.";
  } catch (e) {
    if (mine === run) {
      $("status").textContent = "Failed.";
      $("error").textContent = e.message;
    }
  } finally {
    h?.free();
  }
}

let current = null;
function choose(file) {
  current = file;
  if (file) hashFile(file);
}

$("file").addEventListener("change", (e) => choose(e.target.files[0] ?? null));
for (const id of ["state", "bits", "key"]) {
  $(id).addEventListener("change", () => choose(current));
}
$("form").addEventListener("submit", (e) => e.preventDefault());

const drop = $("drop");
drop.addEventListener("dragover", (e) => {
  e.preventDefault();
  drop.classList.add("over");
});
drop.addEventListener("dragleave", () => drop.classList.remove("over"));
drop.addEventListener("drop", (e) => {
  e.preventDefault();
  drop.classList.remove("over");
  choose(e.dataTransfer.files[0] ?? null);
});

for (const button of document.querySelectorAll("button[data-copy]")) {
  button.addEventListener("click", async () => {
    const text = $(button.dataset.copy).value;
    if (!text) return;
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = "Copied";
    } catch {
      $(button.dataset.copy).select();
      button.textContent = "Press Ctrl+C";
    }
    setTimeout(() => (button.textContent = "Copy"), 1500);
  });
}
