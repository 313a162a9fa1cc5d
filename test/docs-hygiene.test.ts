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

/** The problems of one source file: a cited RULES.md or NOTES.md, an issue number, a docs/rules.md § that does not exist. */
export function sourceProblems(name: string, text: string, sections: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  text.split("\n").forEach((line, i) => {
    const at = `${name}:${i + 1}`;
    if (/(?<![\w/])RULES\.md/.test(line)) problems.push(`${at}: cites RULES.md (the repository has docs/rules.md)`);
    if (/NOTES\.md/.test(line)) problems.push(`${at}: cites NOTES.md (the repository has docs/compat.md)`);
    if (/\(issue \d+|\bissue \d+\)/.test(line)) problems.push(`${at}: cites an issue number`);
    for (const m of line.matchAll(/docs\/rules\.md §\s?(\d+(?:\.\d+)?)/g))
      if (!sections.has(m[1]!)) problems.push(`${at}: docs/rules.md has no §${m[1]}`);
  });
  return problems;
}

describe("comments in src/ point into the repository", () => {
  const rules = readFileSync(join(ROOT, "docs/rules.md"), "utf8");
  const sections = new Set([...rules.matchAll(/^#{2,3} (\d+(?:\.\d+)?)[. ]/gm)].map((m) => m[1]!));

  it("cite docs/rules.md sections that exist, never RULES.md, NOTES.md or an issue", () => {
    expect(sections.size).toBeGreaterThan(30);
    const problems = sourceFiles(join(ROOT, "src")).flatMap((f) =>
      sourceProblems(relative(ROOT, f), readFileSync(f, "utf8"), sections),
    );
    expect(problems).toEqual([]);
  });

  it("the check can fail", () => {
    expect(
      sourceProblems("x.ts", "// RULES.md §3.1\n// see NOTES.md\n// (issue 14)\n// docs/rules.md §99", sections),
    ).toHaveLength(4);
  });
});
