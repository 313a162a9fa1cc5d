/**
 * The documents of the repository (README.md and every Markdown file under docs/) refer only to what a reader of the
 * repository can open: every relative link and every path in `code` leads to a file or folder that exists, and no
 * text cites the project's private material (the rules specification's own file, the source texts, issues, task
 * statements) or leaves a question to someone outside the repository ("needs the spec owner's decision").
 */
import { describe, expect, it } from "vitest";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { ROOT } from "./fake/handlebars.js";

/** Words that point outside the repository, each with what to write instead. */
export const FORBIDDEN: { pattern: RegExp; why: string; proseOnly?: boolean }[] = [
  { pattern: /RULES\.md/, why: "the rules specification is docs/rules.md in this repository" },
  { pattern: /\bseeds?\//i, why: "the source texts are not in the repository: name the book" },
  // In prose only: code may say `seededDice(seed)`, the pseudo-random dice's seed.
  {
    pattern: /\bseeds?\b(?! gives the same rolls)/i,
    why: "a 'seed' is a source text outside the repository: name the book",
    proseOnly: true,
  },
  { pattern: /\b\d{3}_[0-9a-f]{16}\.txt\b/, why: "a source text's file name: name the book" },
  { pattern: /\b(the|a|this|that) (pursuit |travel |feature )?issue\b/i, why: "issues are not in the repository" },
  { pattern: /\bissue #?\d+\b/i, why: "issues are not in the repository" },
  {
    pattern: /\btask statement\b|\bthe task that\b|\bthe brief\b/i,
    why: "the task statement is not in the repository",
  },
  { pattern: /spec(ification)? owner|owner's decision|needs (a|the) decision/i, why: "state the decision taken" },
];

const TOP_LEVEL = [
  "src",
  "docs",
  "test",
  "scripts",
  "templates",
  "lang",
  "styles",
  "packs-src",
  "bench",
  ".github",
  ".ci",
];

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? markdownFiles(p) : p.endsWith(".md") ? [p] : [];
  });
}

/** The problems of one document's text; `file` is its path (links are relative to its folder). */
export function documentProblems(file: string, text: string, root = ROOT): string[] {
  const name = relative(root, file).replaceAll("\\", "/");
  const problems: string[] = [];
  let fenced = false;
  text.split("\n").forEach((line, i) => {
    if (/^\s*```/.test(line)) fenced = !fenced;
    // A link to a public page (another project's issue, documentation) can be opened: its label is not checked.
    const text = line.replace(/\[[^\]]*\]\(https?:[^)]*\)/g, "[link]");
    const prose = fenced ? "" : text.replace(/`[^`]*`/g, "`…`");
    for (const { pattern, why, proseOnly } of FORBIDDEN) {
      const m = pattern.exec(proseOnly ? prose : text);
      if (m) problems.push(`${name}:${i + 1}: "${m[0]}" — ${why}`);
    }
  });
  for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = m[1]!;
    if (/^(https?:|mailto:|#)/.test(target)) continue;
    const path = resolve(dirname(file), decodeURI(target.split("#")[0]!));
    if (!existsSync(path)) problems.push(`${name}: link to ${target}, which is not in the repository`);
  }
  for (const line of text.split("\n")) {
    // A line naming a commit (`path` @ `0728b760…`) describes another project's repository.
    if (/@ `[0-9a-f]{6,}/.test(line)) continue;
    for (const m of line.matchAll(/`([^`\s]+)`/g)) {
      const raw = m[1]!.replace(/[:#].*$/, "");
      if (
        !TOP_LEVEL.some((d) => raw.startsWith(`${d}/`)) &&
        !/^(README|CHANGELOG|LICENSE|module\.json|package\.json)/.test(raw)
      )
        continue;
      if (/[*<>{}…]/.test(raw)) continue; // a pattern, not a path
      if (!existsSync(join(root, raw))) problems.push(`${name}: \`${m[1]}\` is not in the repository`);
    }
  }
  return problems;
}

const documents = [join(ROOT, "README.md"), ...markdownFiles(join(ROOT, "docs"))];

describe("documents refer only to what is in the repository", () => {
  it("finds the documents", () => {
    expect(documents.length).toBeGreaterThan(10);
    expect(documents.some((f) => f.endsWith(join("docs", "rules.md")))).toBe(true);
  });

  it.each(documents.map((f) => [relative(ROOT, f), f]))("%s", (_name, file) => {
    expect(documentProblems(file, readFileSync(file, "utf8"))).toEqual([]);
  });

  it("catches a cited specification, a source text, an issue, a missing file and an open question", () => {
    const file = join(ROOT, "docs", "example.md");
    const problems = documentProblems(
      file,
      [
        "As RULES.md §2 says, and seed 002 too (`seeds/002_2a6b41b0780a97d8.txt`).",
        "The pursuit issue asks for it; this needs the spec owner's decision.",
        "See [the API](api/nowhere.md) and `src/foundry/nowhere.ts`.",
        "Fine: [rules](rules.md), `src/core/guide.ts`, `docs/api/*.md`, `seededDice(seed)`, the same seed gives the same rolls.",
      ].join("\n"),
    );
    expect(problems.join("\n")).toMatch(/RULES\.md/);
    expect(problems.join("\n")).toMatch(/"seed" —/);
    expect(problems.join("\n")).toMatch(/seeds\//);
    expect(problems.join("\n")).toMatch(/pursuit issue/);
    expect(problems.join("\n")).toMatch(/spec owner/);
    expect(problems.join("\n")).toMatch(/api\/nowhere\.md/);
    expect(problems.join("\n")).toMatch(/src\/foundry\/nowhere\.ts/);
    expect(problems.filter((p) => p.includes(":4:") || /rules\.md,|guide\.ts|\*\.md/.test(p))).toEqual([]);
  });
});

/**
 * What the user reads in Foundry stands on its own too: no lang string, and no title or message of the in-world
 * (Quench) tests, cites a file outside the repository, a source text, an issue or an open question. src/ comments may
 * cite the rules' sections: they are notes for developers, not shown to users.
 */
export const UI_FORBIDDEN: { pattern: RegExp; why: string; lang?: "en" | "fr" }[] = [
  { pattern: /RULES\.md/, why: "the rules are docs/rules.md: say 'the rules'" },
  { pattern: /\bseeds?\//i, why: "the source texts are not in the repository" },
  { pattern: /\bsource texts?\b|\btextes? sources?\b/i, why: "name the book instead of 'the source text'" },
  { pattern: /spec(ification)? owner|owner's decision|task statement/i, why: "state the decision taken" },
  { pattern: /\bissue #?\d*\b/i, why: "issues are not in the repository", lang: "en" },
];

function flattenLang(obj: Record<string, unknown>, prefix = ""): [string, string][] {
  return Object.entries(obj).flatMap(([k, v]) =>
    v && typeof v === "object"
      ? flattenLang(v as Record<string, unknown>, `${prefix}${k}.`)
      : [[`${prefix}${k}`, String(v)] as [string, string]],
  );
}

/** The problems of the user-visible strings `strings` (key → text) in `lang`. */
export function uiStringProblems(lang: "en" | "fr", strings: [string, string][]): string[] {
  return strings.flatMap(([key, text]) =>
    UI_FORBIDDEN.filter((f) => !f.lang || f.lang === lang)
      .filter((f) => f.pattern.test(text))
      .map((f) => `${lang} ${key}: ${JSON.stringify(text.slice(0, 80))} — ${f.why}`),
  );
}

describe("what the user reads refers only to what is in the repository", () => {
  it.each(["en", "fr"] as const)("lang/%s.json", (lang) => {
    const strings = flattenLang(
      JSON.parse(readFileSync(join(ROOT, "lang", `${lang}.json`), "utf8")) as Record<string, unknown>,
    );
    expect(strings.length).toBeGreaterThan(500);
    expect(uiStringProblems(lang, strings)).toEqual([]);
  });

  it("the titles and messages of the in-world tests", () => {
    const dir = join(ROOT, "src", "quench");
    const literals = readdirSync(dir)
      .filter((f) => f.endsWith(".ts"))
      .flatMap((f) =>
        readFileSync(join(dir, f), "utf8")
          .split("\n")
          .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line))
          .flatMap((line, i) =>
            [...line.matchAll(/"([^"\\]*)"|`([^`\\]*)`/g)].map(
              (m) => [`${f}:${i + 1}`, m[1] ?? m[2]!] as [string, string],
            ),
          ),
      );
    expect(literals.length).toBeGreaterThan(100);
    expect(uiStringProblems("en", literals)).toEqual([]);
  });

  it("catches a cited file, a source text and an issue in a string", () => {
    const problems = uiStringProblems("en", [
      ["a", "Running (RULES.md §8.2)"],
      ["b", "The seed's column headings are damaged (seeds/002.txt)"],
      ["c", "Old-School Essentials' own rule, not in the source text"],
      ["d", "as the pursuit issue asks"],
      ["e", "needs the spec owner's decision"],
      ["f", "Running: at most 30 rounds (an Old-School Essentials rule)"],
    ]);
    expect(problems.map((p) => p.split(":")[0])).toEqual(["en a", "en b", "en c", "en d", "en e"]);
    expect(uiStringProblems("fr", [["g", "son issue est déjà connue"]])).toEqual([]);
  });
});

/** Comments in src/ point somewhere a reader of the repository can go. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sourceFiles(p) : p.endsWith(".ts") ? [p] : [];
  });
}

/** The numbered sections of a Markdown document: "2" for "## 2. Travel", "4.3" for "### 4.3 Food" (any depth). */
export function sectionNumbers(markdown: string): Set<string> {
  return new Set([...markdown.matchAll(/^#{2,6} (\d+(?:\.\d+)*)[. ]/gm)].map((m) => m[1]!));
}

/** What may stand between the parts of a citation: spaces, and a comment's line break (`\n *` or `\n //`). */
const GAP = String.raw`(?:[ \t]|\n[ \t]*(?:\*(?!\/)|\/\/)?)*`;

/**
 * The § citations of a source text, wrapped across a comment's line break or not: each with its line, the section
 * number as written (every level: "4.3.1", not its prefix) and the document it names just before (`docs/x.md §N`),
 * or null for a bare `§N`.
 */
export function citations(text: string): { line: number; section: string; doc: string | null }[] {
  const re = new RegExp(String.raw`(?:(docs\/[\w./-]+\.md)${GAP})?§${GAP}(\d+(?:\.\d+)*)`, "g");
  return [...text.matchAll(re)].map((m) => ({
    line: text.slice(0, m.index + (m[0].indexOf("§") || 0)).split("\n").length,
    section: m[2]!,
    doc: m[1] ?? null,
  }));
}

/**
 * The problems of one source file: a cited RULES.md or NOTES.md, an issue number, a § that names no section. Every
 * `§N(.N)*` counts, bare or after `docs/rules.md`, wrapped across a comment's line break or not: it must name a
 * section of docs/rules.md exactly (or of the document named just before it, `docs/x.md §N`); a file citing a bare
 * `§N` names docs/rules.md somewhere, so a reader knows where to look.
 */
export function sourceProblems(
  name: string,
  text: string,
  sections: ReadonlySet<string>,
  docSections: (doc: string) => ReadonlySet<string> | null = () => null,
): string[] {
  const problems: string[] = [];
  text.split("\n").forEach((line, i) => {
    const at = `${name}:${i + 1}`;
    if (/(?<![\w/])RULES\.md/.test(line)) problems.push(`${at}: cites RULES.md (the repository has docs/rules.md)`);
    if (/NOTES\.md/.test(line)) problems.push(`${at}: cites NOTES.md (the repository has docs/compat.md)`);
    if (/\(issue \d+|\bissue \d+\)/.test(line)) problems.push(`${at}: cites an issue number`);
  });
  const cited = citations(text);
  for (const c of cited) {
    const doc = c.doc ?? "docs/rules.md";
    const known = doc === "docs/rules.md" ? sections : docSections(doc);
    if (!known) problems.push(`${name}:${c.line}: §${c.section} cites ${doc}, which has no numbered section`);
    else if (!known.has(c.section)) problems.push(`${name}:${c.line}: ${doc} has no §${c.section}`);
  }
  if (cited.some((c) => !c.doc) && !/docs\/rules\.md/.test(text))
    problems.push(`${name}: cites a bare §N but never names docs/rules.md (write "docs/rules.md §N")`);
  return problems;
}

describe("comments in src/ point into the repository", () => {
  const sections = sectionNumbers(readFileSync(join(ROOT, "docs/rules.md"), "utf8"));
  const docSections = (doc: string) =>
    existsSync(join(ROOT, doc)) ? sectionNumbers(readFileSync(join(ROOT, doc), "utf8")) : null;

  it("cite docs/rules.md sections that exist, never RULES.md, NOTES.md or an issue", () => {
    expect(sections.size).toBeGreaterThan(30);
    expect(sections).toContain("0");
    expect(sections).toContain("4.3");
    const problems = sourceFiles(join(ROOT, "src")).flatMap((f) =>
      sourceProblems(relative(ROOT, f).replaceAll("\\", "/"), readFileSync(f, "utf8"), sections, docSections),
    );
    expect(problems).toEqual([]);
  });

  it("the check can fail", () => {
    expect(
      sourceProblems("x.ts", "// RULES.md §3.1\n// see NOTES.md\n// (issue 14)\n// docs/rules.md §99", sections),
    ).toHaveLength(4);
  });

  it("every § counts, to its last level, bare or wrapped across a comment's line break", () => {
    const text = [
      "/**",
      " * The fall (docs/rules.md",
      " * §4.1), a food rule (§4.3.1) and a bare §13.",
      " */",
      "// see docs/rules.md §",
      "// 99 and docs/research/systems.md §1, docs/research/systems.md §7",
    ].join("\n");
    expect(citations(text)).toEqual([
      { line: 3, section: "4.1", doc: "docs/rules.md" },
      { line: 3, section: "4.3.1", doc: null },
      { line: 3, section: "13", doc: null },
      { line: 5, section: "99", doc: "docs/rules.md" },
      { line: 6, section: "1", doc: "docs/research/systems.md" },
      { line: 6, section: "7", doc: "docs/research/systems.md" },
    ]);
    expect(sourceProblems("x.ts", text, sections, docSections)).toEqual([
      "x.ts:3: docs/rules.md has no §4.3.1",
      "x.ts:3: docs/rules.md has no §13",
      "x.ts:5: docs/rules.md has no §99",
      "x.ts:6: docs/research/systems.md has no §7",
    ]);
    expect(sourceProblems("y.ts", "// the fall (§4.1)", sections)).toEqual([
      'y.ts: cites a bare §N but never names docs/rules.md (write "docs/rules.md §N")',
    ]);
  });
});
