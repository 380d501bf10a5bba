// A tiny static file server for js/ (or another folder) on 127.0.0.1 (an
// ephemeral port), for the demo page and the browser tests:
// `node browser-test/serve.mjs [port]` serves js/ until stopped.
import { createServer } from "node:http";
import { createReadStream, statSync } from "node:fs";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  // instantiateStreaming needs this type.
  ".wasm": "application/wasm",
};

/** Serve `root` (default js/) on 127.0.0.1:port (0: any free port);
 * resolves to {url, close()}. */
export function serve(port = 0, root = ROOT) {
  const server = createServer((req, res) => {
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    } catch {
      // A malformed escape (a lone %): the client's error, not the server's end.
      res.writeHead(400).end("bad request");
      return;
    }
    const file = normalize(join(root, path.endsWith("/") ? path + "index.html" : path));
    let size = -1;
    try {
      if (file.startsWith(root.endsWith(sep) ? root : root + sep)) size = statSync(file).isFile() ? statSync(file).size : -1;
    } catch {
      size = -1;
    }
    if (size < 0 || file.includes(`${sep}node_modules${sep}`)) {
      res.writeHead(404).end("not found");
      return;
    }
    res.writeHead(200, {
      "content-type": TYPES[extname(file)] ?? "application/octet-stream",
      "content-length": size,
      "cache-control": "no-store",
    });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}/`,
        close: () => new Promise((r) => server.close(r)),
      });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { url } = await serve(Number(process.argv[2] ?? 8080));
  console.log(`serving js/ at ${url}demo/`);
}
