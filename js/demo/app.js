// The demo page: hashes the chosen or dropped files, one after the other, in
// a Web Worker (worker.js) so that a long file or a long output never holds
// up this page, showing progress and throughput, and prints the lines
// skeinsum prints for them, one line a file.

const $ = (id) => document.getElementById(id);

// skeinsum's own bound on -l (MAX_OUTPUT_BITS in skeinsum/src/cli.rs),
// written once in the page as the field's `max` next to the text that says it.
const MAX_OUTPUT_BITS = Number($("bits").max);
// Digests longer than this many hex digits are shortened on the page: laying
// out a line of millions of digits would freeze the tab for seconds. Copy and
// Download still give the whole lines.
const SHOWN_DIGITS = 4096;

const ascii = new TextDecoder();

let worker = null;
let busy = false;
let chosen = []; // the files of the latest choice, hashed again when a setting changes
let job = null; // the latest run: its settings, files, results and errors
let failed = false; // the worker died (an error event): the next run starts a new one
let downloadUrl = null; // the latest Download's Blob URL, revoked at the next

function startWorker() {
  const w = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  // A terminated worker's last messages can still arrive: only the current
  // worker's count.
  w.addEventListener("message", (e) => {
    if (w === worker) onMessage(e.data);
  });
  w.addEventListener("error", (e) => {
    if (w !== worker) return;
    e.preventDefault();
    busy = false;
    failed = true;
    fail(`The hashing worker failed: ${e.message || "it could not be started"}`);
  });
  return w;
}

/** The page's settings; throws an Error with the message for the page. */
function settings() {
  const state = Number($("state").value);
  const field = $("bits");
  let bits = null;
  if (field.validity.badInput) throw new Error("Output bits: a whole number of at least 1");
  const text = field.value.trim();
  if (text !== "") {
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1) throw new Error("Output bits: a whole number of at least 1");
    if (n > MAX_OUTPUT_BITS) throw new Error(`Output bits: at most ${MAX_OUTPUT_BITS} bits (skeinsum's limit)`);
    bits = n;
  }
  const key = $("key").value.trim();
  if (key.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(key)) {
    throw new Error("Key: an even number of hexadecimal digits");
  }
  return { state, bits: bits ?? state, key };
}

/** The page's error line for the settings as they are now ("" if fine). */
function checkSettings() {
  try {
    settings();
    $("error").textContent = "";
    return true;
  } catch (e) {
    $("error").textContent = e.message;
    return false;
  }
}

function clearLines() {
  $("lines-plain").value = "";
  $("lines-tag").value = "";
  $("shortened").hidden = true;
}

function fail(message) {
  $("status").textContent = "Failed.";
  $("error").textContent = message;
}

function describe(files) {
  const bytes = files.reduce((sum, f) => sum + f.size, 0);
  return files.length === 1
    ? `${files[0].name} (${bytes.toLocaleString()} bytes)`
    : `${files.length} files (${bytes.toLocaleString()} bytes)`;
}

function hash(files) {
  chosen = files;
  if (busy || failed) {
    // Terminating is the only way to stop a digest of millions of bits half way.
    worker.terminate();
    worker = startWorker();
  }
  busy = false;
  failed = false;
  job = null;
  clearLines();
  $("progress").value = 0;
  $("throughput").textContent = "";
  $("file-name").textContent = files.length > 0 ? describe(files) : "";
  if (files.length === 0) {
    $("status").textContent = "Choose files.";
    checkSettings();
    return;
  }
  let s;
  try {
    s = settings();
  } catch (e) {
    fail(e.message);
    return;
  }
  $("error").textContent = "";
  $("status").textContent = "Hashing…";
  job = {
    ...s,
    files,
    total: files.reduce((sum, f) => sum + f.size, 0),
    results: new Array(files.length).fill(null),
    errors: [],
    start: performance.now(),
  };
  busy = true;
  worker.postMessage({ files, state: s.state, bits: s.bits, key: s.key });
}

function onMessage(m) {
  switch (m.type) {
    case "ready":
      $("backend").textContent = m.backend;
      return;
    case "unavailable":
      $("backend").textContent = "unavailable";
      fail(`The WebAssembly package could not be loaded: ${m.message}`);
      return;
  }
  if (!job) return;
  switch (m.type) {
    case "progress":
      showProgress(m.bytes);
      break;
    case "result":
      job.results[m.index] = m.hex;
      showLines();
      break;
    case "error":
      job.errors.push(m.index >= 0 ? `${job.files[m.index].name}: ${m.message}` : m.message);
      $("error").textContent = job.errors.join("\n");
      break;
    case "done":
      busy = false;
      finish();
      break;
  }
}

function showProgress(bytes) {
  const seconds = (performance.now() - job.start) / 1000;
  $("progress").value = job.total > 0 ? bytes / job.total : 1;
  $("throughput").textContent = seconds > 0 ? `${(bytes / 1e6 / seconds).toFixed(1)} MB/s` : "";
}

function finish() {
  const seconds = (performance.now() - job.start) / 1000;
  const mb = job.total / 1e6;
  $("progress").value = 1;
  $("throughput").textContent =
    `${mb.toFixed(1)} MB in ${seconds.toFixed(2)} s` + (seconds > 0 ? `, ${(mb / seconds).toFixed(1)} MB/s` : "");
  $("status").textContent = job.errors.length === 0 ? "Done." : "Failed.";
}

// skeinsum's line format (skeinsum/src/format.rs, as GNU coreutils): a name
// with a backslash, newline or carriage return is written with `\\`, `\n`
// and `\r`, and its line starts with a backslash.
const ESCAPES = { "\\": "\\\\", "\n": "\\n", "\r": "\\r" };
const needsEscape = (name) => /[\\\n\r]/.test(name);
const escapeName = (name) => name.replace(/[\\\n\r]/g, (c) => ESCAPES[c]);

/** One line as [text before the digest, the digest's hex bytes, text after],
 * terminator included: `HEX  NAME` or `Skein-S-L (NAME) = HEX`. */
function lineParts(name, hex, tag) {
  const mark = needsEscape(name) ? "\\" : "";
  const shown = mark ? escapeName(name) : name;
  return tag
    ? [`${mark}Skein-${job.state}-${job.bits} (${shown}) = `, hex, "\n"]
    : [mark, hex, `  ${shown}\n`];
}

/** The lines of the files hashed so far, in the order chosen, as Blob parts. */
function lineList(tag) {
  const lines = [];
  job.results.forEach((hex, i) => {
    if (hex) lines.push(lineParts(job.files[i].name, hex, tag));
  });
  return lines;
}

function showLines() {
  let shortened = false;
  const text = (tag) =>
    lineList(tag)
      .map(([before, hex, after]) => {
        if (hex.length <= SHOWN_DIGITS) return before + ascii.decode(hex) + after;
        shortened = true;
        const rest = (hex.length - SHOWN_DIGITS).toLocaleString();
        return `${before}${ascii.decode(hex.subarray(0, SHOWN_DIGITS))}… (${rest} more digits)${after}`;
      })
      .join("")
      .replace(/\n$/, "");
  $("lines-plain").value = text(false);
  $("lines-tag").value = text(true);
  $("shortened").hidden = !shortened;
}

/** The whole lines, exactly as skeinsum prints them. */
function linesBlob(tag) {
  return new Blob(lineList(tag).flat(), { type: "text/plain" });
}

for (const button of document.querySelectorAll("button[data-copy]")) {
  button.addEventListener("click", async () => {
    if (!job || busy) return;
    const field = $(button.dataset.copy);
    try {
      await navigator.clipboard.writeText(await linesBlob(field.id === "lines-tag").text());
      button.textContent = "Copied";
    } catch {
      // Without clipboard access the user copies by hand, which works only
      // for lines shown whole.
      field.select();
      button.textContent = $("shortened").hidden ? "Press Ctrl+C" : "Use Download";
    }
    setTimeout(() => (button.textContent = "Copy"), 1500);
  });
}

for (const button of document.querySelectorAll("button[data-download]")) {
  button.addEventListener("click", () => {
    if (!job || busy) return;
    const tag = $(button.dataset.download).id === "lines-tag";
    // Revoked only at the next Download: the browser reads the Blob after
    // this click returns.
    if (downloadUrl) URL.revokeObjectURL(downloadUrl);
    downloadUrl = URL.createObjectURL(linesBlob(tag));
    const a = document.createElement("a");
    a.href = downloadUrl;
    a.download = `skein-${job.state}-${job.bits}${tag ? "-tag" : ""}.txt`;
    a.click();
  });
}

worker = startWorker();

$("file").addEventListener("change", (e) => hash([...e.target.files]));
$("bits").addEventListener("input", checkSettings);
$("key").addEventListener("input", checkSettings);
// A field also fires "change" when it loses focus after an edit, e.g. on a
// click on Copy after files were dropped: hashing again then would only
// throw away the lines the click was for.
function settingChanged() {
  try {
    const s = settings();
    if (job && s.state === job.state && s.bits === job.bits && s.key === job.key) return;
  } catch {
    // hash() shows the error.
  }
  hash(chosen);
}
for (const id of ["state", "bits", "key"]) {
  $(id).addEventListener("change", settingChanged);
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
  hash([...e.dataTransfer.files]);
});
