/**
 * npm run serve [-- --port N]: serves the built module on http://127.0.0.1:N (default 30002), so that a Foundry
 * running on the same machine installs Aventure by manifest URL, as it would from a release:
 *   /module.json   dist/module.json, with manifest = http://127.0.0.1:N/module.json and
 *                  download = http://127.0.0.1:N/aventure.zip
 *   /aventure.zip  dist/aventure.zip with that same module.json at its root: Foundry installs the module.json of
 *                  the zip, and later checks for updates at its manifest URL, so both must say the same
 *   /<file>        any other file of dist/ (the module folder), read-only
 * Builds first when dist/ is missing or older than its sources. Node's http module only; Ctrl+C stops it.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, resolve, sep } from "node:path";
import { unzip, zip } from "./zip.mjs";

const ROOT = resolve(import.meta.dirname, "..");
export const DEFAULT_PORT = 30002;
export const HOST = "127.0.0.1";

/** What the build reads: a file newer than dist/aventure.zip (written last) means dist/ is stale. */
const BUILD_INPUTS = [
  "src",
  "lang",
  "templates",
  "styles",
  "packs-src",
  "module.json",
  "package.json",
  "package-lock.json",
  "LICENSE",
  "vite.config.ts",
  "scripts/build.mjs",
  "scripts/zip.mjs",
  "scripts/manifest.mjs",
];

const TYPES = {
  ".json": "application/json; charset=utf-8",
  ".zip": "application/zip",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".hbs": "text/x-handlebars-template; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".png": "image/png",
  ".webp": "image/webp",
  ".svg": "image/svg+xml",
  ".jpg": "image/jpeg",
};

/**
 * @param {string[]} argv the arguments after the script
 * @returns {{ port: number, build: boolean, help: boolean }}
 */
export function parseArgs(argv) {
  const out = { port: DEFAULT_PORT, build: true, help: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? "";
    if (a === "--help" || a === "-h") out.help = true;
    else if (a === "--no-build") out.build = false;
    else if (a === "--port" || a === "-p" || a.startsWith("--port=")) {
      const v = a.startsWith("--port=") ? a.slice(7) : argv[++i];
      if (!v || !/^\d+$/.test(v) || Number(v) > 65535)
        throw new Error(`--port needs a port number (0-65535), not ${JSON.stringify(v ?? "")}`);
      out.port = Number(v);
    } else throw new Error(`unknown option ${JSON.stringify(a)} (options: --port N, --no-build)`);
  }
  return out;
}

/** @param {string} p @returns {string[]} every file under p (p itself when it is a file) */
function files(p) {
  if (!existsSync(p)) return [];
  if (!statSync(p).isDirectory()) return [p];
  return readdirSync(p).flatMap((f) => files(join(p, f)));
}

/**
 * Whether dist/ can be served as it is.
 * @param {string} root the repository
 * @returns {{ state: "missing" | "stale" | "fresh", newer?: string }}
 */
export function distState(root = ROOT) {
  const dist = join(root, "dist");
  if (!existsSync(join(dist, "module.json")) || !existsSync(join(dist, "aventure.zip"))) return { state: "missing" };
  const built = statSync(join(dist, "aventure.zip")).mtimeMs;
  for (const input of BUILD_INPUTS) {
    for (const f of files(join(root, input))) {
      if (statSync(f).mtimeMs > built) return { state: "stale", newer: f.slice(root.length + 1).replaceAll("\\", "/") };
    }
  }
  return { state: "fresh" };
}

/**
 * module.json and the zip as served from base (e.g. "http://127.0.0.1:30002"): dist's, with the local URLs.
 * @param {string} dist
 * @param {string} base
 */
export async function localPackage(dist, base) {
  const manifest = JSON.parse(readFileSync(join(dist, "module.json"), "utf8"));
  manifest.manifest = `${base}/module.json`;
  manifest.download = `${base}/aventure.zip`;
  const json = Buffer.from(JSON.stringify(manifest, null, 2) + "\n");
  const entries = await unzip(readFileSync(join(dist, "aventure.zip")));
  if (!entries.has("module.json"))
    throw new Error("dist/aventure.zip has no module.json at its root: rebuild with npm run build");
  entries.set("module.json", json);
  const archive = zip([...entries].map(([name, data]) => ({ name, data })));
  return { manifest, json, zip: archive };
}

/**
 * Starts the server; port 0 takes a free port. Resolves once it listens.
 * @param {{ port?: number, dist?: string, log?: (line: string) => void }} [options]
 * @returns {Promise<{ url: string, base: string, port: number, close: () => Promise<void> }>}
 */
export function startServer({ port = DEFAULT_PORT, dist = join(ROOT, "dist"), log = () => {} } = {}) {
  const distRoot = resolve(dist);
  let base = "";
  /** @type {{ key: string, pkg: Promise<Awaited<ReturnType<typeof localPackage>>> } | null} */
  let cache = null;
  // Rebuilt when dist/ is rebuilt while serving.
  const current = () => {
    const key = ["module.json", "aventure.zip"]
      .map((f) => {
        const s = statSync(join(distRoot, f));
        return `${s.mtimeMs}:${s.size}`;
      })
      .join("|");
    if (cache?.key !== key) cache = { key, pkg: localPackage(distRoot, base) };
    return cache.pkg;
  };

  const server = createServer(async (req, res) => {
    const send = (/** @type {number} */ status, /** @type {string} */ type, /** @type {Buffer | string} */ body) => {
      const data = typeof body === "string" ? Buffer.from(body) : body;
      res.writeHead(status, { "Content-Type": type, "Content-Length": data.length, "Cache-Control": "no-store" });
      res.end(req.method === "HEAD" ? undefined : data);
      log(`${req.method} ${req.url} ${status}`);
    };
    try {
      if (req.method !== "GET" && req.method !== "HEAD") return send(405, TYPES[".txt"], "GET or HEAD only\n");
      let path;
      try {
        path = decodeURIComponent(new URL(req.url ?? "/", base).pathname);
      } catch {
        return send(400, TYPES[".txt"], "bad path\n");
      }
      if (path === "/" || path === "/module.json") {
        if (path === "/")
          return send(200, TYPES[".txt"], `Aventure: paste ${base}/module.json into Foundry's Install Module.\n`);
        return send(200, TYPES[".json"], (await current()).json);
      }
      if (path === "/aventure.zip") return send(200, TYPES[".zip"], (await current()).zip);
      const file = resolve(distRoot, `.${path}`);
      if (!file.startsWith(distRoot + sep) || !existsSync(file) || !statSync(file).isFile())
        return send(404, TYPES[".txt"], "not found\n");
      return send(
        200,
        TYPES[/** @type {keyof typeof TYPES} */ (extname(file))] ?? "application/octet-stream",
        readFileSync(file),
      );
    } catch (e) {
      return send(500, TYPES[".txt"], `${/** @type {Error} */ (e).message}\n`);
    }
  });

  return new Promise((resolvePromise, reject) => {
    server.once("error", reject);
    server.listen(port, HOST, () => {
      server.off("error", reject);
      const address = server.address();
      const actual = typeof address === "object" && address ? address.port : port;
      base = `http://${HOST}:${actual}`;
      resolvePromise({
        url: `${base}/module.json`,
        base,
        port: actual,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

async function main() {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`npm run serve: ${/** @type {Error} */ (e).message}`);
    process.exit(2);
  }
  if (args.help) {
    console.log(
      "npm run serve [-- --port N] [-- --no-build]: serves dist/ on http://127.0.0.1:N (default 30002) for Foundry's Install Module.",
    );
    return;
  }
  const { state, newer } = distState();
  if (state !== "fresh") {
    const why = state === "missing" ? "dist/ is not built" : `dist/ is older than ${newer}`;
    if (!args.build) {
      console.error(`${why}: run npm run build first (or leave out --no-build).`);
      process.exit(1);
    }
    console.log(`${why}: building (npm run build)…`);
    const r = spawnSync(process.execPath, [join(ROOT, "scripts", "build.mjs")], { cwd: ROOT, stdio: "inherit" });
    if (r.status !== 0) {
      console.error("The build failed: nothing to serve.");
      process.exit(r.status ?? 1);
    }
  }
  let served;
  try {
    served = await startServer({ port: args.port, log: (line) => console.log(line) });
  } catch (e) {
    const err = /** @type {NodeJS.ErrnoException} */ (e);
    console.error(
      err.code === "EADDRINUSE" ? `Port ${args.port} is in use: npm run serve -- --port ${args.port + 1}` : err.message,
    );
    process.exit(1);
  }
  const { version } = JSON.parse(readFileSync(join(ROOT, "dist", "module.json"), "utf8"));
  console.log(
    [
      `Aventure ${version} is served from dist/ on ${served.base}`,
      "In Foundry on this machine: Add-on Modules → Install Module → Manifest URL, paste:",
      "",
      `    ${served.url}`,
      "",
      "then Install. Rebuild (npm run build) to serve changes; Ctrl+C stops the server.",
    ].join("\n"),
  );
  const stop = () => served.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  await main();
}
