/**
 * Install by manifest URL, as Foundry's installer does it, against `npm run serve` (scripts/serve.mjs) on a free
 * port: fetch the manifest, follow its download URL, unzip the archive, read the archive's module.json (the one
 * Foundry installs) and check it is the same package (id, version, URLs) and that every path it names is in the
 * archive. The archive is read by its own local headers here (not by scripts/zip.mjs, which wrote it), with CRCs.
 * `npm test` builds before Vitest; run alone without a build, the server part is skipped.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync, existsSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { crc32, inflateRawSync } from "node:zlib";
import { DEFAULT_PORT, distState, parseArgs, startServer } from "../scripts/serve.mjs";
import { unzip, zip } from "../scripts/zip.mjs";

const ROOT = resolve(import.meta.dirname, "..");
const DIST = join(ROOT, "dist");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };

type Manifest = {
  id?: string;
  version?: string;
  manifest?: string;
  download?: string;
  esmodules?: string[];
  scripts?: string[];
  styles?: string[];
  languages?: { path: string }[];
  packs?: { path: string }[];
};

/** Reads a zip by walking its local file headers, checking each entry's CRC-32 and size. */
function readZip(buf: Buffer): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  let p = 0;
  while (buf.readUInt32LE(p) === 0x04034b50) {
    const flags = buf.readUInt16LE(p + 6);
    const method = buf.readUInt16LE(p + 8);
    const crc = buf.readUInt32LE(p + 14);
    const size = buf.readUInt32LE(p + 18);
    const length = buf.readUInt32LE(p + 22);
    const nameLength = buf.readUInt16LE(p + 26);
    const extraLength = buf.readUInt16LE(p + 28);
    if (flags & 0x0008) throw new Error("entry with a data descriptor: sizes unknown in the local header");
    const name = buf.subarray(p + 30, p + 30 + nameLength).toString("utf8");
    const start = p + 30 + nameLength + extraLength;
    const raw = buf.subarray(start, start + size);
    if (method !== 0 && method !== 8) throw new Error(`${name}: compression method ${method}`);
    const data = method === 8 ? inflateRawSync(raw) : Buffer.from(raw);
    if (data.length !== length) throw new Error(`${name}: ${data.length} bytes, the header says ${length}`);
    if (crc32(data) >>> 0 !== crc) throw new Error(`${name}: CRC-32 mismatch`);
    if (out.has(name)) throw new Error(`${name} twice`);
    out.set(name, data);
    p = start + size;
  }
  if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error(`no central directory after the entries (offset ${p})`);
  return out;
}

/**
 * What Foundry's installer would stumble on, given the manifest it fetched from manifestUrl and the entries of
 * the archive it downloaded from that manifest's download URL. Empty when the install goes through.
 */
function installProblems(manifestUrl: string, fetched: Manifest, entries: Map<string, Buffer>): string[] {
  const problems: string[] = [];
  if (fetched.id !== "aventure") problems.push(`manifest: id ${fetched.id}`);
  if (fetched.version !== pkg.version)
    problems.push(`manifest: version ${fetched.version}, package.json ${pkg.version}`);
  if (fetched.manifest !== manifestUrl)
    problems.push(`manifest: manifest ${fetched.manifest}, fetched from ${manifestUrl}`);
  for (const name of entries.keys()) {
    if (name.startsWith("/") || name.includes("\\") || name.split("/").includes(".."))
      problems.push(`archive: unsafe entry ${name}`);
  }
  const json = entries.get("module.json");
  if (!json) return [...problems, "archive: no module.json at its root"];
  let zipped: Manifest;
  try {
    zipped = JSON.parse(json.toString("utf8")) as Manifest;
  } catch {
    return [...problems, "archive: module.json is not JSON"];
  }
  for (const key of ["id", "version", "manifest", "download"] as const) {
    if (zipped[key] !== fetched[key])
      problems.push(`archive: module.json ${key} ${zipped[key]}, the manifest says ${fetched[key]}`);
  }
  const files = [
    ...(zipped.esmodules ?? []),
    ...(zipped.scripts ?? []),
    ...(zipped.styles ?? []),
    ...(zipped.languages ?? []).map((l) => l.path),
  ];
  for (const f of files) if (!entries.has(f)) problems.push(`archive: ${f} is missing (named in module.json)`);
  // A compendium is a LevelDB folder: its CURRENT file names the live manifest.
  for (const { path } of zipped.packs ?? []) {
    const current = entries.get(`${path}/CURRENT`)?.toString("utf8").trim();
    if (!current || !entries.has(`${path}/${current}`))
      problems.push(`archive: pack ${path} is missing or not a LevelDB folder`);
  }
  if (files.length === 0) problems.push("archive: module.json names no file");
  return problems;
}

/** A raw GET, for paths that fetch() would normalise. */
function rawGet(base: string, path: string): Promise<number> {
  return new Promise((done, fail) => {
    const req = request(`${base}${path}`, (res) => {
      res.resume();
      res.on("end", () => done(res.statusCode ?? 0));
    });
    req.path = path;
    req.on("error", fail);
    req.end();
  });
}

describe("npm run serve: options and when to build", () => {
  it("takes --port N or --port=N, 30002 by default, and refuses anything else", () => {
    expect(parseArgs([])).toEqual({ port: DEFAULT_PORT, build: true, help: false });
    expect(DEFAULT_PORT).toBe(30002);
    expect(parseArgs(["--port", "30005"]).port).toBe(30005);
    expect(parseArgs(["--port=0"]).port).toBe(0);
    expect(parseArgs(["--no-build"]).build).toBe(false);
    expect(() => parseArgs(["--port"])).toThrow(/port/);
    expect(() => parseArgs(["--port", "70000"])).toThrow(/port/);
    expect(() => parseArgs(["8080"])).toThrow(/unknown option/);
  });

  it("builds when dist/ is missing or older than a source, not when it is fresh", () => {
    const root = mkdtempSync(join(tmpdir(), "aventure-serve-"));
    try {
      mkdirSync(join(root, "src"));
      writeFileSync(join(root, "src", "module.ts"), "");
      expect(distState(root).state).toBe("missing");
      mkdirSync(join(root, "dist"));
      writeFileSync(join(root, "dist", "module.json"), "{}");
      writeFileSync(join(root, "dist", "aventure.zip"), "");
      const past = new Date(Date.now() - 60_000);
      utimesSync(join(root, "src", "module.ts"), past, past);
      expect(distState(root).state).toBe("fresh");
      utimesSync(join(root, "dist", "aventure.zip"), new Date(past.getTime() - 1000), new Date(past.getTime() - 1000));
      expect(distState(root)).toEqual({ state: "stale", newer: "src/module.ts" });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("the install check itself", () => {
  const manifestUrl = "http://127.0.0.1:1/module.json";
  const fetched: Manifest = {
    id: "aventure",
    version: pkg.version,
    manifest: manifestUrl,
    download: "http://127.0.0.1:1/aventure.zip",
    esmodules: ["aventure.js"],
    styles: ["styles/aventure.css"],
    languages: [{ path: "lang/en.json" }, { path: "lang/fr.json" }],
    packs: [{ path: "packs/macros" }],
  };
  const good = (m: Manifest = fetched) =>
    new Map<string, Buffer>([
      ["module.json", Buffer.from(JSON.stringify(m))],
      ["aventure.js", Buffer.from("")],
      ["styles/aventure.css", Buffer.from("")],
      ["lang/en.json", Buffer.from("{}")],
      ["lang/fr.json", Buffer.from("{}")],
      ["packs/macros/CURRENT", Buffer.from("MANIFEST-000002\n")],
      ["packs/macros/MANIFEST-000002", Buffer.from("")],
    ]);

  it("passes a good archive and fails a missing file, another version, a missing pack, a misplaced module.json", () => {
    expect(installProblems(manifestUrl, fetched, good())).toEqual([]);
    const noFr = good();
    noFr.delete("lang/fr.json");
    expect(installProblems(manifestUrl, fetched, noFr)).toEqual([
      "archive: lang/fr.json is missing (named in module.json)",
    ]);
    expect(installProblems(manifestUrl, fetched, good({ ...fetched, version: "0.0.9" }))).toEqual([
      `archive: module.json version 0.0.9, the manifest says ${pkg.version}`,
    ]);
    expect(
      installProblems(manifestUrl, { ...fetched, version: "9.9.9" }, good({ ...fetched, version: "9.9.9" })),
    ).toHaveLength(1);
    expect(
      installProblems(manifestUrl, fetched, good({ ...fetched, download: "https://example.invalid/aventure.zip" })),
    ).toHaveLength(1);
    const noPack = good();
    noPack.delete("packs/macros/MANIFEST-000002");
    expect(installProblems(manifestUrl, fetched, noPack)).toEqual([
      "archive: pack packs/macros is missing or not a LevelDB folder",
    ]);
    const nested = new Map([...good()].map(([k, v]) => [`aventure/${k}`, v]));
    expect(installProblems(manifestUrl, fetched, nested)).toEqual(["archive: no module.json at its root"]);
  });

  it("reads a zip by its local headers and refuses a corrupted entry", () => {
    const files = [...good()].map(([name, data]) => ({ name, data }));
    const archive = zip(files) as Buffer;
    expect([...readZip(archive).keys()].sort()).toEqual(files.map((f) => f.name).sort());
    // Two bytes are stored, not deflated: flip one of them in place.
    const corrupted = zip([{ name: "a.txt", data: Buffer.from("ok") }]) as Buffer;
    expect(readZip(corrupted).get("a.txt")?.toString()).toBe("ok");
    corrupted[30 + "a.txt".length] = "K".charCodeAt(0);
    expect(() => readZip(corrupted)).toThrow(/CRC-32/);
  });
});

describe.skipIf(!existsSync(join(DIST, "aventure.zip")))("install by manifest URL from npm run serve", () => {
  let served: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    served = await startServer({ port: 0 });
  });
  afterAll(async () => {
    await served?.close();
  });

  it("serves a manifest pointing at itself, whose download is an archive Foundry can install", async () => {
    // 1. The GM pastes the URL; Foundry fetches the manifest.
    expect(served.url).toBe(`http://127.0.0.1:${served.port}/module.json`);
    expect(served.port).toBeGreaterThan(0);
    const res = await fetch(served.url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const fetched = (await res.json()) as Manifest;
    expect(fetched.download).toBe(`http://127.0.0.1:${served.port}/aventure.zip`);

    // 2. It follows download.
    const zipRes = await fetch(fetched.download!);
    expect(zipRes.status).toBe(200);
    expect(zipRes.headers.get("content-type")).toBe("application/zip");
    const archive = Buffer.from(await zipRes.arrayBuffer());
    expect(Number(zipRes.headers.get("content-length"))).toBe(archive.length);

    // 3. It unzips and installs the archive's module.json: same package, every path present.
    const entries = readZip(archive);
    expect(installProblems(served.url, fetched, entries)).toEqual([]);
    expect(entries.size).toBeGreaterThan(10);

    // The archive is the release zip with only module.json changed (the local URLs).
    const release = (await unzip(readFileSync(join(DIST, "aventure.zip")))) as Map<string, Buffer>;
    expect([...entries.keys()].sort()).toEqual([...release.keys()].sort());
    for (const [name, data] of release)
      if (name !== "module.json") expect(entries.get(name)!.equals(data), name).toBe(true);
    const built = JSON.parse(readFileSync(join(DIST, "module.json"), "utf8")) as Record<string, unknown>;
    const zipped = JSON.parse(entries.get("module.json")!.toString("utf8")) as Record<string, unknown>;
    expect({ ...zipped, manifest: built.manifest, download: built.download }).toEqual(built);
  });

  it("serves the module's files with their content types, and nothing outside dist/", async () => {
    const js = await fetch(`${served.base}/aventure.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(await js.text()).toBe(readFileSync(join(DIST, "aventure.js"), "utf8"));
    expect((await fetch(`${served.base}/styles/aventure.css`)).headers.get("content-type")).toMatch(/^text\/css/);
    expect((await fetch(`${served.base}/lang/fr.json`)).headers.get("content-type")).toMatch(/^application\/json/);
    expect((await fetch(`${served.base}/nothing-here.js`)).status).toBe(404);
    expect(await rawGet(served.base, "/..%2fpackage.json")).toBe(404);
    expect(await rawGet(served.base, "/%2e%2e/%2e%2e/etc/passwd")).toBe(404);
    expect((await fetch(served.url, { method: "POST" })).status).toBe(405);
    const head = await fetch(served.url, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  it("tells which port is taken instead of serving on another", async () => {
    await expect(startServer({ port: served.port })).rejects.toMatchObject({ code: "EADDRINUSE" });
  });
});

/**
 * The command line itself, as a GM runs it: `node scripts/serve.mjs --port 0 --no-build` as a child process (port 0:
 * a free port; --no-build: never rebuilds, refuses a stale dist/ instead). Its output is read until it prints the
 * manifest URL, the manifest is fetched from that URL, then the process is stopped (SIGTERM, as Ctrl+C) and exits 0.
 */
describe.skipIf(!existsSync(join(DIST, "aventure.zip")))("npm run serve as a command (a child process)", () => {
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  });

  /** Starts the script; resolves with its output once `until` matches it, or once it exits. */
  function run(args: string[], until: RegExp) {
    const child = spawn(process.execPath, [join(ROOT, "scripts", "serve.mjs"), ...args], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    let out = "";
    const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
    const ready = new Promise<{ out: string; code?: number | null }>((done, fail) => {
      const timer = setTimeout(
        () => fail(new Error(`serve.mjs printed nothing matching ${until} in 20 s:\n${out}`)),
        20_000,
      );
      const read = (chunk: Buffer) => {
        out += chunk.toString("utf8");
        if (until.test(out)) {
          clearTimeout(timer);
          done({ out });
        }
      };
      child.stdout!.on("data", read);
      child.stderr!.on("data", read);
      void exited.then((code) => (clearTimeout(timer), done({ out, code })));
    });
    return { child, ready, exited };
  }

  it("prints the manifest URL on a free port, serves it, and stops on SIGTERM; with a stale dist/ --no-build refuses", async () => {
    const fresh = distState().state === "fresh";
    const { child, ready, exited } = run(
      ["--port", "0", "--no-build"],
      /http:\/\/127\.0\.0\.1:\d+\/module\.json|run npm run build first/,
    );
    const { out, code } = await ready;
    if (!fresh) {
      // Sources changed since the last build (a developer's tree): the command says so and serves nothing.
      expect(out).toMatch(/dist\/ is (not built|older than .+): run npm run build first/);
      expect(code ?? (await exited)).toBe(1);
      return;
    }
    expect(code).toBeUndefined(); // still running
    const url = /(http:\/\/127\.0\.0\.1:(\d+)\/module\.json)/.exec(out)!;
    expect(Number(url[2])).toBeGreaterThan(0);
    expect(out).toContain(`is served from dist/ on http://127.0.0.1:${url[2]}`);
    const res = await fetch(url[1]!);
    expect(res.status).toBe(200);
    const manifest = (await res.json()) as Manifest;
    expect(manifest).toMatchObject({
      id: "aventure",
      version: pkg.version,
      manifest: url[1],
      download: `http://127.0.0.1:${url[2]}/aventure.zip`,
    });
    expect((await fetch(manifest.download!, { method: "HEAD" })).status).toBe(200);
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    await expect(fetch(url[1]!)).rejects.toThrow(); // nothing listens any more
  });
});
