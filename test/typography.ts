/**
 * The checks behind docs/glossary.md: French typography and wording for lang/fr.json and the French guide pages,
 * English spacing for lang/en.json and the English guide pages, and the words the glossary forbids (its "Forbidden"
 * table, read from the file so that the document and the test cannot drift apart).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./fake/handlebars.js";

const NBSP = "\u00a0";
const NNBSP = "\u202f";

/**
 * The text a reader sees: placeholders `{x}` and `{{…}}`, URLs, HTML tags (with their attributes) and clock times
 * (10:30) are masked, so that their punctuation is not judged as prose.
 */
export function visibleText(s: string): string {
  return s
    .replace(/\{\{[^}]*\}\}|\{\w+\}/g, "N")
    .replace(/https?:\/\/[^\s)]+/g, "URL")
    .replace(/<[^>]*>/g, "")
    .replace(/\d:\d\d/g, "0h00");
}

/** French typography problems of one string (a lang value or a page's prose); empty when it is right. */
export function frenchTypographyProblems(raw: string): string[] {
  const s = visibleText(raw);
  const out: string[] = [];
  const at = (i: number) => JSON.stringify(s.slice(Math.max(0, i - 20), i + 3));
  for (const m of s.matchAll(/'/g)) out.push(`straight apostrophe ' (use ’): ${at(m.index)}`);
  for (const m of s.matchAll(/[:%]/g)) {
    const before = s[m.index - 1];
    if (m[0] === "%" && before === "(") continue; // "(%)": a unit in a field's label
    if (m.index === 0 || (before !== NBSP && before !== NNBSP))
      out.push(`"${m[0]}" needs a no-break space (U+00A0) before it: ${at(m.index)}`);
  }
  for (const m of s.matchAll(/[;!?]/g)) {
    const before = s[m.index - 1];
    if (m.index === 0 || (before !== NNBSP && before !== NBSP))
      out.push(`"${m[0]}" needs a narrow no-break space (U+202F) before it: ${at(m.index)}`);
  }
  for (const m of s.matchAll(/\([ \u00a0\u202f]+%/g)) out.push(`a space inside "(%)": ${at(m.index)}`);
  for (const m of s.matchAll(/«(.|$)/g))
    if (m[1] !== NBSP && m[1] !== NNBSP) out.push(`« needs a no-break space after it: ${at(m.index)}`);
  for (const m of s.matchAll(/(^|.)»/g))
    if (m[1] !== NBSP && m[1] !== NNBSP) out.push(`» needs a no-break space before it: ${at(m.index)}`);
  for (const m of s.matchAll(/\((s|x|e|es)\)/g))
    out.push(`"${m[0]}": choose the string by count or reword: ${at(m.index)}`);
  for (const m of s.matchAll(/\p{L}·\p{L}/gu)) out.push(`"${m[0]}": no gender mark, reword: ${at(m.index)}`);
  return out;
}

/** English spacing problems of one string: no space of any kind before : ; ! ? %. */
export function englishTypographyProblems(raw: string): string[] {
  const s = visibleText(raw);
  const out: string[] = [];
  for (const m of s.matchAll(/[ \u00a0\u202f\t]([:;!?%])/g))
    out.push(`space before "${m[1]}": ${JSON.stringify(s.slice(Math.max(0, m.index - 20), m.index + 3))}`);
  return out;
}

export interface ForbiddenTerm {
  lang: "en" | "fr";
  term: string;
  use: string;
}

/** The "Forbidden" table of docs/glossary.md (or of `text`). */
export function glossaryForbidden(text = readFileSync(join(ROOT, "docs", "glossary.md"), "utf8")): ForbiddenTerm[] {
  const section = text.split(/^## Forbidden\s*$/m)[1];
  if (!section) throw new Error('docs/glossary.md has no "## Forbidden" section');
  const rows: ForbiddenTerm[] = [];
  for (const line of section.split("\n")) {
    const cells = line
      .trim()
      .replace(/^\|/, "")
      .replace(/\|$/, "")
      .split("|")
      .map((c) => c.trim());
    if (cells.length !== 3 || (cells[0] !== "fr" && cells[0] !== "en")) continue;
    rows.push({ lang: cells[0], term: cells[1]!, use: cells[2]! });
  }
  return rows;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Where `term` appears in `text` as a whole word (any case): the matches. */
export function findTerm(text: string, term: string): string[] {
  const re = new RegExp(
    `(?<![\\p{L}\\p{N}])${escapeRegExp(term).replace(/ /g, "[\\s\\u00a0\\u202f]+")}(?![\\p{L}\\p{N}])`,
    "giu",
  );
  return [...text.matchAll(re)].map((m) => m[0]);
}
