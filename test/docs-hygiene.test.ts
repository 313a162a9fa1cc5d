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
  { pattern: /\bseeds?\b(?! gives the same rolls)/i, why: "a 'seed' is a source text outside the repository: name the book", proseOnly: true },
  { pattern: /\b\d{3}_[0-9a-f]{16}\.txt\b/, why: "a source text's file name: name the book" },
  { pattern: /\b(the|a|this|that) (pursuit |travel |feature )?issue\b/i, why: "issues are not in the repository" },
  { pattern: /\bissue #?\d+\b/i, why: "issues are not in the repository" },
  { pattern: /\btask statement\b|\bthe task that\b|\bthe brief\b/i, why: "the task statement is not in the repository" },
  { pattern: /spec(ification)? owner|owner's decision|needs (a|the) decision/i, why: "state the decision taken" },
];

const TOP_LEVEL = ["src", "docs", "test", "scripts", "templates", "lang", "styles", "packs-src", "bench", ".github", ".ci"];

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
      if (!TOP_LEVEL.some((d) => raw.startsWith(`${d}/`)) && !/^(README|CHANGELOG|LICENSE|module\.json|package\.json)/.test(raw)) continue;
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
        "Fine: [rules](rules.md), `src/foundry/guide.ts`, `docs/api/*.md`, `seededDice(seed)`, the same seed gives the same rolls.",
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
