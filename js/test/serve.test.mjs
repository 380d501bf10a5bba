// The browser test's static server (browser-test/serve.mjs): a malformed
// percent escape is the client's error (400) and the server goes on serving.
import { test } from "node:test";
import assert from "node:assert/strict";
import { request } from "node:http";
import { serve } from "../browser-test/serve.mjs";

/** Status and body of a GET of the raw path `path` (not normalized by URL). */
function get(base, path) {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method: "GET" }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

test("malformed % escapes answer 400; the server keeps serving", async () => {
  const server = await serve(0);
  try {
    for (const path of ["/%", "/%zz", "/demo/%E0%A4%A", "/index.js%"]) {
      assert.equal((await get(server.url, path)).status, 400, path);
    }
    const ok = await get(server.url, "/package.json");
    assert.equal(ok.status, 200);
    assert.equal(JSON.parse(ok.body).name, "skein-simd");
    assert.equal((await get(server.url, "/no-such-file")).status, 404);
    assert.equal((await get(server.url, "/..%2f..%2fetc/passwd")).status, 404);
  } finally {
    await server.close();
  }
});
