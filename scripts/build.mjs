/**
 * npm run build: writes dist/ = exactly the installable module folder, and dist/aventure.zip with
 * module.json at its root. Building twice gives identical files.
 *  1. vite builds src/module.ts → dist/aventure.js and the files it loads (+ .map, vite.config.ts); the build fails
 *     when what every client loads (aventure.js and its static imports) is over CLIENT_LOAD_BUDGET gzipped
 *  2. module.json gets its version from package.json; a release build (a GitHub Actions run for the tag
 *     v<version>) adds url/manifest/download from GITHUB_REPOSITORY and the tag, any other build none
 *     (scripts/manifest.mjs)
 *  3. lang/, templates/, styles/ and the guide's pictures (images/) are copied; the compendiums are compiled from
 *     packs-src/ with the Foundry CLI's compilePack: the macros (packs-src/macros.mjs), the GM guide
 *     (packs-src/guide.mjs: one JournalEntry per language, its pages generated from the Markdown in packs-src/guide/)
 *     and the Polaris templates (packs-src/polaris.mjs: one Adventure per language, a character and a creature of
 *     Aventure's Polaris type)
 *  4. the zip is written deterministically
 */
import { build } from "vite";
import { compilePack } from "@foundryvtt/foundryvtt-cli";
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { tmpdir } from "node:os";
import { gzipSync } from "node:zlib";
import { mkdtempSync } from "node:fs";
import { zip } from "./zip.mjs";
import { manifestFor } from "./manifest.mjs";
import { macroDocuments } from "../packs-src/macros.mjs";
import { guideDocuments, guideImages } from "../packs-src/guide.mjs";
import { polarisDocuments } from "../packs-src/polaris.mjs";

const ROOT = resolve(import.meta.dirname, "..");
const DIST = join(ROOT, "dist");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));

function listFiles(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((f) => {
      const p = join(dir, f);
      return statSync(p).isDirectory() ? listFiles(p) : [p];
    });
}

async function main() {
  // First, so that a release build with a wrong tag fails before anything is written.
  const source = JSON.parse(readFileSync(join(ROOT, "module.json"), "utf8"));
  const manifest = manifestFor(source, pkg.version, process.env);

  rmSync(DIST, { recursive: true, force: true });
  mkdirSync(DIST, { recursive: true });

  await build({ configFile: join(ROOT, "vite.config.ts"), logLevel: "warn", root: ROOT });

  const loaded = clientLoad(DIST, "aventure.js");
  if (loaded.gzipped > CLIENT_LOAD_BUDGET)
    throw new Error(
      `What every client loads is ${kb(loaded.gzipped)} KB gzipped, over the budget of ${kb(CLIENT_LOAD_BUDGET)} KB: ` +
        "load the new code on demand (CONTRIBUTING.md).",
    );
  writeFileSync(join(DIST, "module.json"), JSON.stringify(manifest, null, 2) + "\n");

  for (const dir of ["lang", "templates", "styles"]) cpSync(join(ROOT, dir), join(DIST, dir), { recursive: true });
  cpSync(join(ROOT, "LICENSE"), join(DIST, "LICENSE"));
  // The pictures the guide's pages show (packs-src/guide.mjs: modules/aventure/images/<name>).
  for (const name of guideImages(ROOT)) cpSync(join(ROOT, "docs", "images", name), join(DIST, "images", name));

  await compile("macros", macroDocuments());
  await compile("guide", guideDocuments(ROOT));
  await compile("polaris", polarisDocuments());

  const files = listFiles(DIST)
    .filter((f) => !f.endsWith(".zip"))
    .map((f) => ({ name: relative(DIST, f).replaceAll("\\", "/"), data: readFileSync(f) }));
  writeFileSync(join(DIST, "aventure.zip"), zip(files));
  console.log(
    `Aventure ${pkg.version} built: the module is in dist/ (${files.length} files), the release archive is dist/aventure.zip.`,
  );
  console.log(
    `Every client loads ${loaded.files.join(" + ")}: ${kb(loaded.bytes)} KB, ${kb(loaded.gzipped)} KB gzipped ` +
      `(budget ${kb(CLIENT_LOAD_BUDGET)} KB); the windows and the GM's executors load on demand, the in-world test ` +
      "batches (aventure-quench.js) only in a world where Quench is active.",
  );
  console.log(
    manifest.manifest
      ? `Release manifest URL: ${manifest.manifest}`
      : "No public manifest URL (only a release build for a tag writes one): `npm run serve` serves this build to a local Foundry.",
  );
}

const kb = (n) => (n / 1024).toFixed(1);

/** The most every client may load, gzipped (the entry and its static imports): the build fails above it. */
export const CLIENT_LOAD_BUDGET = 120 * 1024;

/** The entry and every chunk it imports statically (not the ones it imports on demand): what every client loads. */
export function clientLoad(dir, entry) {
  const files = [];
  const visit = (name) => {
    if (files.includes(name)) return;
    files.push(name);
    const code = readFileSync(join(dir, name), "utf8");
    // Static imports of the ES module chunks: import{…}from"./x.js" (a dynamic import is import("./x.js")).
    for (const m of code.matchAll(
      /(?:^|[;\s}])(?:import|export)\s*(?:[\w$*{][^;]*?from\s*)?["'`]\.\/([\w.-]+\.js)["'`]/g,
    ))
      visit(m[1]);
  };
  visit(entry);
  const data = files.map((f) => readFileSync(join(dir, f)));
  return {
    files,
    bytes: data.reduce((a, d) => a + d.length, 0),
    gzipped: data.reduce((a, d) => a + gzipSync(d, { level: 9 }).length, 0),
  };
}

/** Writes a compendium's sources as JSON to a temp folder, then compiles the LevelDB pack dist/packs/<name>. */
async function compile(name, documents) {
  const tmp = mkdtempSync(join(tmpdir(), "aventure-packs-"));
  for (const doc of documents) writeFileSync(join(tmp, `${doc._id}.json`), JSON.stringify(doc, null, 2));
  const packDir = join(DIST, "packs", name);
  await compilePack(tmp, packDir, { log: false });
  rmSync(tmp, { recursive: true, force: true });
  // LevelDB leaves a LOCK file and a LOG with timestamps: not part of the data, not reproducible.
  for (const f of ["LOCK", "LOG", "LOG.old"]) rmSync(join(packDir, f), { force: true });
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  await main();
}
