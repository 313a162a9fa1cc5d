/**
 * Checks dist/ after a build: module.json has the required fields and consistent release URLs (or none),
 * every path it names exists in dist,
 * the compendium reads back with one macro per feature, and the zip holds module.json at its root with
 * the same content as dist/. Exits non-zero with a list of problems.
 */
import { ClassicLevel } from "classic-level";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { MACROS } from "../packs-src/macros.mjs";
import { unzip } from "./zip.mjs";
import { urlProblems } from "./manifest.mjs";

const ROOT = resolve(import.meta.dirname, "..");
const DIST = join(ROOT, "dist");
const problems = [];
const fail = (m) => problems.push(m);

if (!existsSync(join(DIST, "module.json"))) {
  console.error("dist/module.json is missing: run npm run build first.");
  process.exit(1);
}
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
const m = JSON.parse(readFileSync(join(DIST, "module.json"), "utf8"));

for (const key of ["id", "title", "description", "version", "compatibility", "esmodules", "styles", "languages", "packs", "relationships", "authors"]) {
  if (m[key] === undefined) fail(`module.json: missing ${key}`);
}
if (m.id !== "aventure") fail(`module.json: id is ${m.id}`);
if (m.version !== pkg.version) fail(`module.json: version ${m.version} ≠ package.json ${pkg.version}`);
if (m.compatibility?.minimum !== "13" || m.compatibility?.verified !== "13") fail("module.json: compatibility must be minimum 13, verified 13");
if (m.compatibility?.maximum !== undefined) fail("module.json: no maximum compatibility (v14 users must be able to install it)");
const langs = new Set((m.languages ?? []).map((l) => l.lang));
if (!langs.has("en") || !langs.has("fr")) fail("module.json: languages must include en and fr");
const recommends = (m.relationships?.recommends ?? []).map((r) => r.id);
for (const id of ["dnd5e", "ose"]) if (!recommends.includes(id)) fail(`module.json: ${id} should be a recommended system`);
// url/manifest/download: exactly the release's in a release build (same environment as the build), none or
// all three and consistent otherwise.
for (const p of urlProblems(m, pkg.version, process.env)) fail(p);

const paths = [
  ...(m.esmodules ?? []),
  ...(m.styles ?? []),
  ...(m.languages ?? []).map((l) => l.path),
  ...(m.packs ?? []).map((p) => p.path),
];
for (const p of paths) if (!existsSync(join(DIST, p))) fail(`dist is missing ${p} (named in module.json)`);
for (const js of m.esmodules ?? []) if (!existsSync(join(DIST, `${js}.map`))) fail(`dist is missing the source map of ${js}`);
for (const [type, subtypes] of Object.entries(m.documentTypes ?? {})) {
  for (const sub of Object.keys(subtypes)) {
    const en = JSON.parse(readFileSync(join(DIST, "lang/en.json"), "utf8"));
    if (!en.TYPES?.[type]?.aventure?.[sub] && !en.TYPES?.[type]?.[`aventure.${sub}`]) fail(`lang/en.json: TYPES.${type}.aventure.${sub} missing for documentTypes`);
  }
}

// Compendium read-back.
for (const pack of m.packs ?? []) {
  // Open a copy: LevelDB writes to the folder it opens, and dist/ must stay exactly as built.
  const copy = mkdtempSync(join(tmpdir(), "aventure-pack-check-"));
  cpSync(join(DIST, pack.path), copy, { recursive: true });
  const db = new ClassicLevel(copy, { keyEncoding: "utf8", valueEncoding: "json" });
  const docs = [];
  for await (const [key, value] of db.iterator()) docs.push({ key, value });
  await db.close();
  rmSync(copy, { recursive: true, force: true });
  if (pack.type === "Macro") {
    const macros = docs.filter((d) => d.key.startsWith("!macros!"));
    if (macros.length !== MACROS.length) fail(`pack ${pack.name}: ${macros.length} macros read back, expected ${MACROS.length}`);
    for (const d of macros) {
      if (!/^[A-Za-z0-9]{16}$/.test(d.value._id)) fail(`pack ${pack.name}: bad _id ${d.value._id}`);
      if (d.value.type !== "script" || !d.value.command?.includes('game.modules.get("aventure")')) fail(`pack ${pack.name}: macro ${d.value.name} is not an Aventure script`);
    }
  }
}

// Zip: module.json at the root, same files as dist.
const entries = await unzip(readFileSync(join(DIST, "aventure.zip")));
if (!entries.has("module.json")) fail("aventure.zip: module.json is not at the root");
else if (!entries.get("module.json").equals(readFileSync(join(DIST, "module.json")))) fail("aventure.zip: module.json differs from dist/");
for (const p of paths.filter((x) => !x.startsWith("packs/"))) if (!entries.has(p)) fail(`aventure.zip: missing ${p}`);

if (problems.length) {
  console.error(`dist check: ${problems.length} problem(s)\n- ${problems.join("\n- ")}`);
  process.exit(1);
}
console.log(`dist check: module.json, ${paths.length} paths, ${MACROS.length} macros and the zip are fine.`);
