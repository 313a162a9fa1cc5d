/**
 * Checks dist/ after a build: module.json has the required fields and consistent release URLs (or none),
 * every path it names exists in dist,
 * the compendiums read back (one macro per feature; the guide with its two journals, every page in both languages,
 * HTML, placeholders resolved, every link to a page that exists), and the zip holds module.json at its root with
 * the same content as dist/. Exits non-zero with a list of problems.
 */
import { ClassicLevel } from "classic-level";
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { MACROS } from "../packs-src/macros.mjs";
import { GUIDE_JOURNALS, GUIDE_PACK_NAME, GUIDE_PAGES } from "../packs-src/guide/pages.mjs";
import { POLARIS_ACTOR_TYPE, POLARIS_IDS, POLARIS_PACK_NAME } from "../packs-src/polaris.mjs";
import { unzip } from "./zip.mjs";
import { urlProblems } from "./manifest.mjs";
import { CLIENT_LOAD_BUDGET, clientLoad } from "./build.mjs";

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
// The release archive, read once (the guide's pictures and the zip check below).
const entries = await unzip(readFileSync(join(DIST, "aventure.zip")));

for (const key of [
  "id",
  "title",
  "description",
  "version",
  "compatibility",
  "esmodules",
  "styles",
  "languages",
  "packs",
  "relationships",
  "authors",
]) {
  if (m[key] === undefined) fail(`module.json: missing ${key}`);
}
if (m.id !== "aventure") fail(`module.json: id is ${m.id}`);
if (m.version !== pkg.version) fail(`module.json: version ${m.version} ≠ package.json ${pkg.version}`);
if (m.compatibility?.minimum !== "13" || m.compatibility?.verified !== "13")
  fail("module.json: compatibility must be minimum 13, verified 13");
if (m.compatibility?.maximum !== undefined)
  fail("module.json: no maximum compatibility (v14 users must be able to install it)");
const langs = new Set((m.languages ?? []).map((l) => l.lang));
if (!langs.has("en") || !langs.has("fr")) fail("module.json: languages must include en and fr");
const recommends = (m.relationships?.recommends ?? []).map((r) => r.id);
for (const id of ["dnd5e", "ose"])
  if (!recommends.includes(id)) fail(`module.json: ${id} should be a recommended system`);
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
for (const js of m.esmodules ?? [])
  if (!existsSync(join(DIST, `${js}.map`))) fail(`dist is missing the source map of ${js}`);
// The chunks the entry imports, statically or on demand (the windows, the GM's executors, the Quench batches), exist
// with their source maps (but the bundler's helpers, aventure-runtime.js, which have no source of ours).
const RUNTIME = "aventure-runtime.js";
{
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name)) return;
    seen.add(name);
    if (!existsSync(join(DIST, name))) return fail(`dist is missing ${name} (imported by the module)`);
    if (!existsSync(join(DIST, `${name}.map`)) && name !== RUNTIME) fail(`dist is missing the source map of ${name}`);
    const code = readFileSync(join(DIST, name), "utf8");
    for (const c of code.matchAll(/["'`]\.\/(aventure[\w.-]*\.js)["'`]/g)) visit(c[1]);
  };
  for (const js of m.esmodules ?? []) visit(js);
  if (!seen.has("aventure-quench.js"))
    fail("dist: the Quench batches chunk (aventure-quench.js) is not imported on demand");
  // Every chunk is one the module imports (nothing stray) and ships in the zip with its source map.
  for (const name of readdirSync(DIST).filter((f) => f.endsWith(".js"))) {
    if (!seen.has(name)) fail(`dist: ${name} is imported by nothing`);
    // A chunk importing the entry would run a second copy of the module if Foundry loaded it under another URL.
    if (/["'`]\.\/aventure\.js["'`]/.test(readFileSync(join(DIST, name), "utf8")))
      fail(`dist: ${name} imports the entry aventure.js`);
    for (const f of name === RUNTIME ? [name] : [name, `${name}.map`])
      if (!entries.has(f)) fail(`aventure.zip: missing ${f}`);
  }
  // What every client loads (the entry and its static imports) stays within the budget; the windows load on demand.
  const load = clientLoad(DIST, "aventure.js");
  if (load.gzipped > CLIENT_LOAD_BUDGET)
    fail(
      `dist: every client loads ${(load.gzipped / 1024).toFixed(1)} KB gzipped, over ${CLIENT_LOAD_BUDGET / 1024} KB`,
    );
  for (const w of ["TravelDialog", "PursuitDialog", "EncounterDialog", "ExplorationPanel", "travel-apply", "encounter"])
    if (load.files.includes(`aventure-${w}.js`) || !seen.has(`aventure-${w}.js`))
      fail(`dist: aventure-${w}.js is not loaded on demand`);
}
for (const [type, subtypes] of Object.entries(m.documentTypes ?? {})) {
  for (const sub of Object.keys(subtypes)) {
    const en = JSON.parse(readFileSync(join(DIST, "lang/en.json"), "utf8"));
    if (!en.TYPES?.[type]?.aventure?.[sub] && !en.TYPES?.[type]?.[`aventure.${sub}`])
      fail(`lang/en.json: TYPES.${type}.aventure.${sub} missing for documentTypes`);
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
    if (macros.length !== MACROS.length)
      fail(`pack ${pack.name}: ${macros.length} macros read back, expected ${MACROS.length}`);
    for (const d of macros) {
      if (!/^[A-Za-z0-9]{16}$/.test(d.value._id)) fail(`pack ${pack.name}: bad _id ${d.value._id}`);
      if (d.value.type !== "script" || !d.value.command?.includes('game.modules.get("aventure")'))
        fail(`pack ${pack.name}: macro ${d.value.name} is not an Aventure script`);
    }
  }
  if (pack.type === "JournalEntry") for (const p of guideProblems(pack, docs)) fail(p);
  if (pack.type === "Adventure") for (const p of polarisProblems(pack, docs)) fail(p);
}

/** The Polaris templates as read back: one adventure per language, each with its character and creature of the type. */
function polarisProblems(pack, docs) {
  if (pack.name !== POLARIS_PACK_NAME) return [`pack ${pack.name}: the only Adventure pack is ${POLARIS_PACK_NAME}`];
  if (pack.system) return [`pack ${pack.name}: it must not name a system (the templates work under any)`];
  const out = [];
  for (const [lang, ids] of Object.entries(POLARIS_IDS)) {
    const adventure = docs.find((d) => d.key === `!adventures!${ids.adventure}`);
    if (!adventure) {
      out.push(`pack ${pack.name}: no ${lang} adventure ${ids.adventure}`);
      continue;
    }
    const actors = adventure.value.actors ?? [];
    for (const id of [ids.character, ids.creature]) {
      const a = actors.find((x) => x._id === id);
      if (!a) out.push(`pack ${pack.name}: ${lang} adventure without actor ${id}`);
      else if (a.type !== POLARIS_ACTOR_TYPE) out.push(`pack ${pack.name}: ${lang} actor ${id} is of type ${a.type}`);
    }
  }
  return out;
}

/** The guide compendium as read back: one journal per language, its pages in order, each an HTML text page whose links lead to pages that exist. */
function guideProblems(pack, docs) {
  const out = [];
  if (pack.name !== GUIDE_PACK_NAME) return [`pack ${pack.name}: the only JournalEntry pack is ${GUIDE_PACK_NAME}`];
  const journals = docs.filter((d) => d.key.startsWith("!journal!"));
  const pages = new Map(docs.filter((d) => d.key.startsWith("!journal.pages!")).map((d) => [d.key, d.value]));
  const langs = Object.keys(GUIDE_JOURNALS);
  if (journals.length !== langs.length)
    out.push(`pack ${pack.name}: ${journals.length} journals read back, expected ${langs.length}`);
  for (const lang of langs) {
    const { id } = GUIDE_JOURNALS[lang];
    const journal = journals.find((d) => d.value._id === id);
    if (!journal) {
      out.push(`pack ${pack.name}: no ${lang} journal ${id}`);
      continue;
    }
    const expected = GUIDE_PAGES.map((p) => p.ids[lang]);
    if (JSON.stringify(journal.value.pages) !== JSON.stringify(expected))
      out.push(
        `pack ${pack.name}: ${lang} journal pages ${JSON.stringify(journal.value.pages)}, expected ${JSON.stringify(expected)}`,
      );
    for (const g of GUIDE_PAGES) {
      const page = pages.get(`!journal.pages!${id}.${g.ids[lang]}`);
      const where = `pack ${pack.name}: ${lang} page ${g.key}`;
      if (!page) {
        out.push(`${where} is missing`);
        continue;
      }
      const html = page.text?.content ?? "";
      if (page.type !== "text" || page.text?.format !== 1) out.push(`${where} is not an HTML text page`);
      if (!page.name || html.length < 200) out.push(`${where} has no title or almost no text`);
      if (page.flags?.aventure?.guide !== g.key) out.push(`${where} lacks flags.aventure.guide`);
      if (/\{\{|\]\((page|image):/.test(html)) out.push(`${where} keeps an unresolved placeholder or link`);
      // Every picture the page shows is shipped (modules/aventure/images/<name> → dist/images/<name>).
      for (const m of html.matchAll(/<img src="modules\/aventure\/([^"]+)"/g)) {
        if (!existsSync(join(DIST, m[1]))) out.push(`${where} shows a picture the module does not ship: ${m[1]}`);
        else if (!entries.has(m[1])) out.push(`${where}: aventure.zip lacks its picture ${m[1]}`);
      }
      for (const m of html.matchAll(
        /@UUID\[Compendium\.aventure\.([\w-]+)\.JournalEntry\.(\w+)\.JournalEntryPage\.(\w+)\]/g,
      )) {
        if (m[1] !== pack.name || !pages.has(`!journal.pages!${m[2]}.${m[3]}`))
          out.push(`${where} links to a page that does not exist: ${m[0]}`);
      }
    }
  }
  return out;
}

// Zip: module.json at the root, same files as dist.
if (!entries.has("module.json")) fail("aventure.zip: module.json is not at the root");
else if (!entries.get("module.json").equals(readFileSync(join(DIST, "module.json"))))
  fail("aventure.zip: module.json differs from dist/");
for (const p of paths.filter((x) => !x.startsWith("packs/"))) if (!entries.has(p)) fail(`aventure.zip: missing ${p}`);

if (problems.length) {
  console.error(`dist check: ${problems.length} problem(s)\n- ${problems.join("\n- ")}`);
  process.exit(1);
}
console.log(
  `dist check: module.json, ${paths.length} paths, ${MACROS.length} macros, the guide (${GUIDE_PAGES.length} pages in ${Object.keys(GUIDE_JOURNALS).length} languages), the Polaris templates (${Object.keys(POLARIS_IDS).length} adventures) and the zip are fine.`,
);
