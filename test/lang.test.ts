/**
 * Language check: en.json and fr.json have exactly the same keys; every key used in src/ and templates/
 * exists; no key is unused; the French is not left in English.
 */
import { describe, expect, it } from "vitest";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { loadLang } from "./fake/i18n.js";
import { ROOT } from "./fake/handlebars.js";

const en = loadLang("en");
const fr = loadLang("fr");

function files(dir: string, exts: string[]): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p, exts) : exts.some((e) => p.endsWith(e)) ? [p] : [];
  });
}

const sources = [...files(join(ROOT, "src"), [".ts"]), ...files(join(ROOT, "templates"), [".hbs"])].map((f) => ({
  file: f,
  text: readFileSync(f, "utf8"),
}));
const corpus = sources.map((s) => s.text).join("\n") + readFileSync(join(ROOT, "module.json"), "utf8");

/** Literal keys: "AVENTURE.A.B" / 'AVENTURE.A.B' (not followed by ${ or a dot-less fragment). */
const literal = new Set<string>();
/** Dynamic prefixes: `AVENTURE.A.${x}` → "AVENTURE.A." */
const prefixes = new Set<string>();
for (const { text } of sources) {
  for (const m of text.matchAll(/["'`]((?:AVENTURE|TYPES)\.[A-Za-z0-9_.-]*[A-Za-z0-9_])["'`]/g)) literal.add(m[1]!);
  for (const m of text.matchAll(/`((?:AVENTURE|TYPES)\.[A-Za-z0-9_.-]*\.)\$\{/g)) prefixes.add(m[1]!);
  for (const m of text.matchAll(/["'`]((?:AVENTURE|TYPES)\.[A-Za-z0-9_.-]*\.)["'`]/g)) prefixes.add(m[1]!);
}

describe("lang files", () => {
  it("en and fr have exactly the same keys", () => {
    const onlyEn = Object.keys(en).filter((k) => !(k in fr));
    const onlyFr = Object.keys(fr).filter((k) => !(k in en));
    expect(onlyEn, "keys only in en.json").toEqual([]);
    expect(onlyFr, "keys only in fr.json").toEqual([]);
  });

  it("every key used in src/ and templates/ exists", () => {
    const missing = [...literal].filter((k) => !(k in en) && !Object.keys(en).some((e) => e.startsWith(`${k}.`)));
    expect(missing).toEqual([]);
  });

  it("every dynamic prefix used has keys", () => {
    const empty = [...prefixes].filter((p) => !Object.keys(en).some((k) => k.startsWith(p)));
    expect(empty).toEqual([]);
  });

  it("no key is unused", () => {
    const unused = Object.keys(en).filter(
      (k) =>
        !literal.has(k) &&
        ![...literal].some((l) => k.startsWith(`${l}.`)) &&
        ![...prefixes].some((p) => k.startsWith(p)) &&
        !corpus.includes(k),
    );
    expect(unused).toEqual([]);
  });

  it("keeps the same {placeholders} in both languages", () => {
    const ph = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    const bad = Object.keys(en).filter((k) => JSON.stringify(ph(en[k]!)) !== JSON.stringify(ph(fr[k] ?? "")));
    expect(bad).toEqual([]);
  });

  it("the French is translated (no English sentence left in fr.json)", () => {
    // Same text is allowed for proper names, abbreviations and formulas.
    const allowedSame = /^(Aventure|Polaris|Rôle'n Play|Portes, Monstres & Trésors|Old-School Essentials|D&D 5e|OSE|[A-Z0-9 .:/+×%{}()-]*|.{0,4})$/;
    const same = Object.keys(en).filter((k) => en[k] === fr[k] && !allowedSame.test(en[k]!) && !/\b(Initiative|Réaction)\b/.test(en[k]!));
    expect(same).toEqual([]);
    const englishWords = /\b(the|and|you|your|with|without|cannot|must|roll|rolls|save|saving throw|damage|speed)\b/i;
    const english = Object.keys(fr).filter((k) => englishWords.test(fr[k]!.replace(/\{\w+\}/g, "").replace(/system\.[\w.|]+/g, "")));
    expect(english).toEqual([]);
  });

  it("uses French typography (a space before : ; ! ?)", () => {
    const bad = Object.keys(fr).filter((k) => /[^\s\d(]([:;!?])(\s|$)/.test(fr[k]!.replace(/https?:\/\/\S+/g, "")));
    expect(bad).toEqual([]);
  });
});
