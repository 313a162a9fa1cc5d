/**
 * Adds translations to lang/en.json and lang/fr.json at once from a fragment file
 * `{ "en": { "AVENTURE": { ... } }, "fr": { "AVENTURE": { ... } } }` (deep merge; existing keys are
 * overwritten; the two languages must bring the same keys). Usage: node scripts/lang-add.mjs fragment.json
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");
const flat = (o, p = "") =>
  Object.entries(o).flatMap(([k, v]) => (v && typeof v === "object" ? flat(v, p + k + ".") : [p + k]));
function merge(target, src) {
  for (const [k, v] of Object.entries(src)) {
    if (v && typeof v === "object" && !Array.isArray(v))
      target[k] = merge(target[k] && typeof target[k] === "object" ? target[k] : {}, v);
    else target[k] = v;
  }
  return target;
}
const frag = JSON.parse(readFileSync(process.argv[2], "utf8"));
const a = flat(frag.en ?? {})
  .sort()
  .join("\n");
const b = flat(frag.fr ?? {})
  .sort()
  .join("\n");
if (a !== b) {
  console.error("en and fr fragments do not have the same keys");
  process.exit(1);
}
for (const lang of ["en", "fr"]) {
  const file = join(ROOT, "lang", `${lang}.json`);
  const data = merge(JSON.parse(readFileSync(file, "utf8")), frag[lang]);
  writeFileSync(file, JSON.stringify(data, null, 2) + "\n");
}
console.log(`added ${flat(frag.en).length} keys to en and fr`);
