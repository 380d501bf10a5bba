// The demo page in headless Chromium (Debian's, driven by playwright-core),
// with skeinsum as the oracle: files through the page's file input (several
// at once, names that skeinsum escapes, an empty file) and dropped on it
// give the lines skeinsum prints for the same files and options, as shown,
// downloaded and copied; output lengths past skeinsum's limit are refused;
// a large file and a 2^27-bit output leave the page's main thread free.
//
// SKEIN_DEMO_MB: size of the big file (default 50); SKEINSUM: the skeinsum
// binary (default the root workspace's target/release/skeinsum, else its
// target/debug/skeinsum, which `cargo test --workspace` builds);
// CHROMIUM: the browser (default /usr/bin/chromium).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { serve } from "./serve.mjs";

const MB = Number(process.env.SKEIN_DEMO_MB ?? 50);
const built = (profile) => fileURLToPath(new URL(`../../target/${profile}/skeinsum`, import.meta.url));
const SKEINSUM =
  process.env.SKEINSUM ?? (existsSync(built("release")) ? built("release") : built("debug"));
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
// Generous for 50 MB on a loaded 2-core machine.
const HASH_TIMEOUT_MS = 240_000;
// skeinsum's longest output (MAX_OUTPUT_BITS in skeinsum/src/cli.rs).
const MAX_OUTPUT_BITS = 2 ** 27;
// The longest the page's main thread may be held up while the worker hashes.
// A responsiveness bound, not a speed one: the hashing itself takes seconds
// (a 2^25-bit output held the old main-thread page for seconds), while a
// page that leaves the work to its worker only handles a message now and
// then; the margin is for a loaded CI machine.
const LONGEST_GAP_MS = 100;

let dir, server, browser, page;
const pageErrors = [];

/** A file of `bytes` pseudo-random bytes (xorshift32), written in 1 MiB pieces. */
function generate(path, bytes) {
  const piece = new Uint8Array(1 << 20);
  const words = new Uint32Array(piece.buffer);
  let x = 0x9e3779b9;
  const parts = [];
  for (let left = bytes; left > 0; left -= piece.length) {
    for (let i = 0; i < words.length; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      words[i] = x >>> 0;
    }
    parts.push(Buffer.from(piece.subarray(0, Math.min(left, piece.length))));
  }
  writeFileSync(path, Buffer.concat(parts));
}

/** skeinsum's output (bytes) for these arguments, run in the test's directory. */
function skeinsumBytes(...args) {
  return execFileSync(SKEINSUM, args, { cwd: dir, maxBuffer: 1 << 30, stdio: ["ignore", "pipe", "pipe"] });
}

/** skeinsum's output as text, without its last line's terminator (as the page shows it). */
function skeinsum(...args) {
  return skeinsumBytes(...args).toString("utf8").replace(/\n$/, "");
}

/** skeinsum's options for the page's settings. */
function flags({ state = "512", bits = "", key = "" } = {}) {
  return ["-a", state, ...(bits ? ["-l", bits] : []), ...(key ? ["--key-hex", key] : [])];
}

// Names skeinsum escapes (a backslash, a newline, a carriage return, all
// three), plain ones, and an empty file among them.
const SEVERAL = [
  ["plain.txt", "plain\n"],
  ["back\\slash", "a backslash"],
  ["new\nline", "a newline"],
  ["empty", ""],
  ["carriage\rreturn", "a carriage return"],
  ["all\\three\n\r.txt", "all three"],
  ["spaces and ünïcödé", "x".repeat(1000)],
];
// A file whose length is not a multiple of any block (3 MiB + 5), for the
// settings tests.
const SETTINGS_FILE = "settings.bin";
const BIG_FILE = `generated-${MB}MB.bin`;

before(async () => {
  assert.ok(existsSync(SKEINSUM), `skeinsum not found at ${SKEINSUM} (cargo build -p skeinsum, or set SKEINSUM)`);
  assert.ok(existsSync(CHROMIUM), `chromium not found at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM)`);
  dir = mkdtempSync(join(tmpdir(), "skein-demo-"));
  generate(join(dir, SETTINGS_FILE), 3 * (1 << 20) + 5);
  generate(join(dir, BIG_FILE), MB * 1e6);
  for (const [name, text] of SEVERAL) writeFileSync(join(dir, name), text);
  server = await serve();
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    // A fresh profile per launch (playwright's own temporary one).
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  page = await browser.newPage({ acceptDownloads: true });
  // For the Copy buttons, and to read what they copied.
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(server.url).origin });
  page.on("pageerror", (e) => pageErrors.push(e.message));
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A freshly loaded page (no earlier result on it) with these settings. */
async function openPage({ state = "512", bits = "", key = "" } = {}) {
  await page.goto(`${server.url}demo/`);
  // The backend's name appears once the worker has loaded the wasm module.
  await page.waitForFunction(() => !document.getElementById("backend").textContent.includes("loading"), null, {
    timeout: 60_000,
  });
  assert.deepEqual(pageErrors, []);
  await page.selectOption("#state", state);
  await page.fill("#bits", bits);
  await page.fill("#key", key);
}

/** Record, in the page, the longest gap between the beats of a 10 ms timer
 * whose previous beat fell while the page said it was hashing: how long
 * its main thread was held up while the worker ran. */
async function startHeartbeat() {
  await page.evaluate(() => {
    const status = document.getElementById("status");
    const beat = { longest: 0, beats: 0 };
    let last = performance.now();
    let hashing = status.textContent.startsWith("Hashing");
    window.heartbeat = beat;
    window.heartbeatTimer = setInterval(() => {
      const now = performance.now();
      if (hashing) {
        beat.longest = Math.max(beat.longest, now - last);
        beat.beats++;
      }
      hashing = status.textContent.startsWith("Hashing");
      last = now;
    }, 10);
  });
}

async function stopHeartbeat() {
  return page.evaluate(() => {
    clearInterval(window.heartbeatTimer);
    return window.heartbeat;
  });
}

/** Wait for the page to finish; what it shows. */
async function shown() {
  await page.waitForFunction(
    () => ["Done.", "Failed."].includes(document.getElementById("status").textContent),
    null,
    { timeout: HASH_TIMEOUT_MS, polling: 200 },
  );
  const read = (id) => page.$eval(id, (e) => e.value);
  return {
    status: await page.textContent("#status"),
    error: await page.textContent("#error"),
    plain: await read("#lines-plain"),
    tag: await read("#lines-tag"),
    shortened: !(await page.$eval("#shortened", (e) => e.hidden)),
    throughput: await page.textContent("#throughput"),
    progress: await page.$eval("#progress", (e) => e.value),
  };
}

/** The bytes of the page's Download of its sha256sum-style ("lines-plain")
 * or --tag ("lines-tag") lines. */
async function download(which) {
  const [file] = await Promise.all([page.waitForEvent("download"), page.click(`button[data-download="${which}"]`)]);
  return readFileSync(await file.path());
}

/** What the page's Copy of its sha256sum-style ("lines-plain") or --tag
 * ("lines-tag") lines put on the clipboard. */
async function copy(which) {
  const button = `button[data-copy="${which}"]`;
  await page.click(button);
  await page.waitForFunction((b) => document.querySelector(b).textContent !== "Copy", button);
  assert.equal(await page.textContent(button), "Copied");
  return page.evaluate(() => navigator.clipboard.readText());
}

/** Hash the files `names` (in the test's directory) through the file input. */
async function hashInPage(names, settings = {}) {
  await openPage(settings);
  await page.setInputFiles("#file", names.map((n) => join(dir, n)));
  return shown();
}

test(`a ${MB} MB file: Skein-512-512 lines equal skeinsum's, the main thread stays free`, async (t) => {
  const name = BIG_FILE;
  await openPage();
  await startHeartbeat();
  await page.setInputFiles("#file", join(dir, name));
  const s = await shown();
  const beat = await stopHeartbeat();
  t.diagnostic(`longest main-thread gap while hashing: ${beat.longest.toFixed(1)} ms (${beat.beats} beats)`);
  assert.equal(s.status, "Done.", s.error);
  assert.equal(s.plain, skeinsum(name));
  assert.equal(s.tag, skeinsum("--tag", name));
  assert.equal(s.progress, 1);
  assert.match(s.throughput, /MB\/s/);
  assert.ok(beat.beats > 0, "no heartbeat while hashing");
  assert.ok(beat.longest < LONGEST_GAP_MS, `main thread held up ${beat.longest.toFixed(0)} ms while hashing`);
});

test("a setting changed while hashing: the run is stopped and the lines are the new setting's", async (t) => {
  await openPage();
  await page.setInputFiles("#file", join(dir, BIG_FILE));
  // With the default size the worker is still hashing when the setting
  // changes, and the page ends it; either way the lines must be the new
  // setting's.
  t.diagnostic(`status when the setting changed: ${await page.textContent("#status")}`);
  await page.selectOption("#state", "256");
  const s = await shown();
  assert.equal(s.status, "Done.", s.error);
  assert.equal(s.plain, skeinsum("-a", "256", BIG_FILE));
  assert.deepEqual(pageErrors, []);
});

test("Skein-1024-384 and Skein-256-160 with a key: --tag lines equal skeinsum's", async () => {
  const name = SETTINGS_FILE;
  const a = { state: "1024", bits: "384" };
  assert.equal((await hashInPage([name], a)).tag, skeinsum(...flags(a), "--tag", name));
  const b = { state: "256", bits: "160", key: "000102030405060708090a0b0c0d0e0f1011" };
  const s = await hashInPage([name], b);
  assert.equal(s.tag, skeinsum(...flags(b), "--tag", name));
  assert.equal(s.plain, skeinsum(...flags(b), name));
});

test("13 output bits: the last digit's unused bits are zero, as skeinsum prints them", async () => {
  const name = SETTINGS_FILE;
  for (const settings of [
    { state: "512", bits: "13" },
    { state: "256", bits: "13", key: "0f1e2d" },
  ]) {
    const s = await hashInPage([name], settings);
    assert.equal(s.status, "Done.", s.error);
    assert.equal(s.plain, skeinsum(...flags(settings), name));
    assert.equal(s.tag, skeinsum(...flags(settings), "--tag", name));
    // The click moves the focus off the key field just typed in, which fires
    // its "change": the lines must stay, not be hashed away again.
    assert.equal(await copy("lines-tag"), skeinsumBytes(...flags(settings), "--tag", name).toString());
  }
});

test("several files through the file input: one line each, equal to skeinsum's", async () => {
  const names = SEVERAL.map(([n]) => n);
  const settings = { state: "256", bits: "200" };
  const s = await hashInPage(names, settings);
  assert.equal(s.status, "Done.", s.error);
  const plain = skeinsumBytes(...flags(settings), ...names);
  const tag = skeinsumBytes(...flags(settings), "--tag", ...names);
  assert.equal(plain.toString().split("\n").length - 1, names.length);
  assert.equal(s.plain, plain.toString().replace(/\n$/, ""));
  assert.equal(s.tag, tag.toString().replace(/\n$/, ""));
  assert.deepEqual(await download("lines-plain"), plain);
  assert.deepEqual(await download("lines-tag"), tag);
  assert.match(await page.textContent("#file-name"), new RegExp(`^${names.length} files`));
});

test("several files dropped on the page: one line each, equal to skeinsum's", async () => {
  await openPage();
  const files = await page.evaluateHandle((several) => {
    const data = new DataTransfer();
    for (const [name, text] of several) data.items.add(new File([text], name));
    return data;
  }, SEVERAL);
  await page.dispatchEvent("#drop", "drop", { dataTransfer: files });
  const s = await shown();
  assert.equal(s.status, "Done.", s.error);
  const names = SEVERAL.map(([n]) => n);
  assert.equal(s.plain, skeinsum(...names));
  assert.equal(s.tag, skeinsum("--tag", ...names));
});

test("output bits past skeinsum's limit are refused with the page's message", async () => {
  const limit = `Output bits: at most ${MAX_OUTPUT_BITS} bits (skeinsum's limit)`;
  await openPage();
  const hint = await page.textContent("#bits-limit");
  assert.match(hint, new RegExp(`\\b${MAX_OUTPUT_BITS}\\b`));
  assert.match(hint, /2\s*27/);
  assert.ok(await page.isVisible("#bits-limit"));
  assert.equal(await page.getAttribute("#bits", "max"), String(MAX_OUTPUT_BITS));
  // Said as soon as it is typed, before any file is chosen.
  await page.fill("#bits", String(MAX_OUTPUT_BITS + 1));
  assert.equal(await page.textContent("#error"), limit);
  // skeinsum refuses the same length (its message: "at most 134217728 bits").
  assert.throws(() => skeinsumBytes("-l", String(MAX_OUTPUT_BITS + 1), SETTINGS_FILE));
  for (const bits of [String(MAX_OUTPUT_BITS + 1), "8589934592", "1e30"]) {
    const s = await hashInPage([SETTINGS_FILE], { bits });
    assert.equal(s.status, "Failed.");
    assert.equal(s.error, limit);
    assert.equal(s.plain, "");
  }
  const s = await hashInPage([SETTINGS_FILE], { bits: "0" });
  assert.equal(s.error, "Output bits: a whole number of at least 1");
  // The page goes on: the limit itself is taken (the same files, hashed
  // again when the setting changes).
  await page.fill("#bits", String(MAX_OUTPUT_BITS));
  await page.dispatchEvent("#bits", "change");
  const again = await shown();
  assert.equal(again.status, "Done.", again.error);
  assert.equal(again.error, "");
  assert.deepEqual(pageErrors, []);
});

test("a 2^27-bit output: computed in the worker with the main thread free, equal to skeinsum's", async (t) => {
  const name = SEVERAL[0][0];
  const settings = { bits: String(MAX_OUTPUT_BITS) };
  await openPage(settings);
  await startHeartbeat();
  await page.setInputFiles("#file", join(dir, name));
  const s = await shown();
  const beat = await stopHeartbeat();
  t.diagnostic(`longest main-thread gap while hashing: ${beat.longest.toFixed(1)} ms (${beat.beats} beats)`);
  assert.equal(s.status, "Done.", s.error);
  assert.ok(beat.beats > 0, "no heartbeat while hashing");
  assert.ok(beat.longest < LONGEST_GAP_MS, `main thread held up ${beat.longest.toFixed(0)} ms while hashing`);
  // The page shows the start of the digest; Download gives the whole line.
  assert.ok(s.shortened);
  const expected = skeinsumBytes(...flags(settings), name);
  assert.ok(expected.toString().startsWith(s.plain.slice(0, 4096)));
  assert.ok((await download("lines-plain")).equals(expected), "downloaded line differs from skeinsum's");
  assert.deepEqual(pageErrors, []);
});

test("a bad key is a clear error on the page", async () => {
  const s = await hashInPage([SETTINGS_FILE], { key: "xyz" });
  assert.equal(s.status, "Failed.");
  assert.match(s.error, /^Key: /);
});
