/**
 * Language check: en.json and fr.json have exactly the same keys; every key used in src/ and templates/
 * exists; no key is unused; the French is not left in English.
 */
import { describe, expect, it } from "vitest";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { loadLang } from "./fake/i18n.js";
import { ROOT } from "./fake/handlebars.js";
import { englishTypographyProblems, findTerm, frenchTypographyProblems, glossaryForbidden } from "./typography.js";
import { guidePages } from "../packs-src/guide.mjs";

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
// Foundry reads a module sub-type's label itself, at TYPES.<Document>.<module>.<sub-type> (module.json documentTypes).
const typeLabels = Object.entries(
  (JSON.parse(readFileSync(join(ROOT, "module.json"), "utf8")) as { documentTypes?: Record<string, object> })
    .documentTypes ?? {},
).flatMap(([doc, subs]) => Object.keys(subs).map((s) => `TYPES.${doc}.aventure.${s}`));

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
        !corpus.includes(k) &&
        !typeLabels.includes(k),
    );
    expect(unused).toEqual([]);
  });

  it("keeps the same {placeholders} in both languages", () => {
    const ph = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    const bad = Object.keys(en).filter((k) => JSON.stringify(ph(en[k]!)) !== JSON.stringify(ph(fr[k] ?? "")));
    expect(bad).toEqual([]);
  });

  it('French argument names carry their article: composed errors read as French ("pour la taille du groupe")', () => {
    const args = Object.keys(fr).filter((k) => k.startsWith("AVENTURE.Arg."));
    expect(args.length).toBeGreaterThan(40);
    const bare = args.filter((k) => !/^(le|la|les|l’|un|une|des) /.test(fr[k]!) && !/^l’/.test(fr[k]!));
    expect(bare).toEqual([]);
    // The check catches a planted bare name.
    expect(/^(le|la|les|l’|un|une|des) /.test("taille du groupe")).toBe(false);
  });

  it("the French is translated (no English sentence left in fr.json)", () => {
    // Same text is allowed for proper names, abbreviations and formulas.
    const allowedSame =
      /^(Aventure|Polaris|Rôle['’]n Play|Portes, Monstres & Trésors|Old-School Essentials|D&D 5e|OSE|[A-Z0-9 .:/+×%{}()-]*|.{0,4})$/;
    // Polaris's own names of its attributes (Chance, Réaction, Initiative…) are the same words in both languages.
    const polarisNames = /^(Constitution|Coordination|Adaptation|Perception|Intelligence|Chance)$/;
    const same = Object.keys(en).filter(
      (k) =>
        en[k] === fr[k] &&
        !allowedSame.test(en[k]!) &&
        !/\b(Initiative|Réaction)\b/.test(en[k]!) &&
        !polarisNames.test(en[k]!),
    );
    expect(same).toEqual([]);
    const englishWords = /\b(the|and|you|your|with|without|cannot|must|roll|rolls|save|saving throw|damage|speed)\b/i;
    const english = Object.keys(fr).filter((k) =>
      englishWords.test(fr[k]!.replace(/\{\w+\}/g, "").replace(/system\.[\w.|]+/g, "")),
    );
    expect(english).toEqual([]);
  });

  it("uses French typography in fr.json (no-break spaces, ’, no (s) plurals)", () => {
    const bad = Object.keys(fr).flatMap((k) => frenchTypographyProblems(fr[k]!).map((p) => `${k}: ${p}`));
    expect(bad).toEqual([]);
  });

  it("uses English spacing in en.json (no space before : ; ! ? %)", () => {
    const bad = Object.keys(en).flatMap((k) => englishTypographyProblems(en[k]!).map((p) => `${k}: ${p}`));
    expect(bad).toEqual([]);
  });
});

describe("the glossary (docs/glossary.md)", () => {
  const forbidden = glossaryForbidden();
  const strings = { en, fr };
  const guide = (lang: "en" | "fr") => guidePages(ROOT).filter((p) => p.lang === lang);

  it("forbids at least the terms the module settled", () => {
    const terms = (lang: string) => forbidden.filter((f) => f.lang === lang).map((f) => f.term.toLowerCase());
    for (const t of [
      "pénombre",
      "tchat",
      "journal de discussion",
      "horloge du monde",
      "chuter",
      "taille de la créature",
      "arbitre",
      "meneur de jeu",
      "maître du jeu",
    ]) {
      expect(terms("fr")).toContain(t);
    }
    for (const t of ["referee", "game master", "world clock"]) expect(terms("en")).toContain(t);
  });

  it("no forbidden term in the lang files", () => {
    const found = forbidden.flatMap(({ lang, term, use }) =>
      Object.entries(strings[lang]).flatMap(([k, v]) =>
        findTerm(v, term).map((m) => `${lang} ${k}: "${m}" — use ${use}`),
      ),
    );
    expect(found).toEqual([]);
  });

  it("no forbidden term in the guide pages", () => {
    const found = forbidden.flatMap(({ lang, term, use }) =>
      guide(lang).flatMap((p) =>
        findTerm(`${p.title}\n${p.markdown}`, term).map((m) => `${lang}/${p.key}: "${m}" — use ${use}`),
      ),
    );
    expect(found).toEqual([]);
  });

  it("the French guide pages follow the same typography", () => {
    // Code, link targets, the "?" button's name and a picture's "!" are not prose.
    const prose = (md: string) =>
      md
        .replace(/`[^`]*`/g, "code")
        .replace(/!\[/g, "[")
        .replace(/\]\([^)]*\)/g, "]")
        .replace(/\*\*\?\*\*/g, "");
    const bad = guide("fr").flatMap((p) =>
      frenchTypographyProblems(prose(`${p.title}\n${p.markdown}`)).map((x) => `fr/${p.key}: ${x}`),
    );
    expect(bad).toEqual([]);
    const badEn = guide("en").flatMap((p) =>
      englishTypographyProblems(prose(`${p.title}\n${p.markdown}`)).map((x) => `en/${p.key}: ${x}`),
    );
    expect(badEn).toEqual([]);
  });
});

describe("the typography and glossary checks can fail", () => {
  it("flags each French mistake once", () => {
    const one = (s: string) => frenchTypographyProblems(s).length;
    expect(one("Distance : 3 m")).toBe(1); // ordinary space before :
    expect(one("Distance: 3 m")).toBe(1); // no space before :
    expect(one("Risque 50 %")).toBe(1);
    expect(one("Fuir !")).toBe(1);
    expect(one("Fuir!")).toBe(1);
    expect(one("Vraiment ?")).toBe(1);
    expect(one("Oui ; non")).toBe(1);
    expect(one("Risque (\u00a0%)")).toBe(1);
    expect(one("la règle « Chute\u00a0»")).toBe(1);
    expect(one("la règle «\u00a0Chute »")).toBe(1);
    expect(one("l'heure du monde")).toBe(1);
    expect(one("+{n} niveau(x)")).toBe(1);
    expect(one("{count} observateur(s)")).toBe(1);
    expect(one("{name} est caché(e)")).toBe(1);
    expect(one("{name} est caché·e")).toBe(1);
  });

  it("accepts right French, placeholders, URLs, times and HTML attributes", () => {
    const none = (s: string) => expect(frenchTypographyProblems(s)).toEqual([]);
    none("Distance\u00a0: 3 m\u202f; risque 50\u00a0%, «\u00a0Chute\u00a0», l’heure du monde\u202f!");
    none("Risque quotidien de se perdre (%)");
    none("{{t:AVENTURE.Travel.title}} à 10:30 pour {n} sur https://example.com/a:b?x=1");
    none('<span class="a:b" title="c;d">texte</span>');
  });

  it("flags English spacing and accepts plain English", () => {
    expect(englishTypographyProblems("Chance to escape: 50 %")).toHaveLength(1);
    expect(englishTypographyProblems("Stealth : 12")).toHaveLength(1);
    expect(englishTypographyProblems("Run !")).toHaveLength(1);
    expect(englishTypographyProblems("Chance to escape: 50%; run! Why? At 10:30.")).toEqual([]);
  });

  it("reads the forbidden table and finds whole words in any case", () => {
    const table = glossaryForbidden(
      "# G\n## Forbidden\n\n| Language | Forbidden | Use instead |\n|---|---|---|\n| fr | pénombre | lumière faible |\n| en | referee | GM |\n",
    );
    expect(table).toEqual([
      { lang: "fr", term: "pénombre", use: "lumière faible" },
      { lang: "en", term: "referee", use: "GM" },
    ]);
    expect(findTerm("Dans la Pénombre", "pénombre")).toEqual(["Pénombre"]);
    expect(findTerm("Le meneur\u00a0de jeu décide", "meneur de jeu")).toHaveLength(1);
    expect(findTerm("The referee's call", "referee")).toHaveLength(1);
    expect(findTerm("Chuter, chutes", "chuter")).toEqual(["Chuter"]);
    expect(findTerm("refereed", "referee")).toEqual([]);
    expect(() => glossaryForbidden("# no table")).toThrow();
  });
});
