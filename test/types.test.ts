/**
 * The type holes of src/ stay closed: what the pinned Foundry types lack is declared once in src/declarations.d.ts,
 * hooks are registered only through the typed helper (src/core/hooks-typed.ts, checked against `AventureHooks`),
 * at most CAST_BUDGET `as unknown as` remain and every `as unknown as` / `as never` says why on its line or the line
 * above (`// cast: <reason>`).
 */
import { describe, expect, it } from "vitest";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { ROOT } from "./fake/handlebars.js";

export const CAST_BUDGET = 15;
const HOOK_HELPER = "src/core/hooks-typed.ts";

export interface CastReport {
  /** "file:line" of every `as unknown as`. */
  doubleCasts: string[];
  /** "file:line" of every `as never`. */
  neverCasts: string[];
  /** "file:line" of a cast without a `// cast:` reason on its line or the line above. */
  unexplained: string[];
  /** "file:line" of a `Hooks.on(` / `Hooks.once(` outside the typed helper. */
  rawHooks: string[];
}

/** The code of a line, without a trailing `//` comment (a cast named in a comment is not a cast). */
function code(line: string): string {
  const i = line.indexOf("//");
  return i < 0 ? line : line.slice(0, i);
}

const hasReason = (line: string | undefined): boolean => !!line && /\/\/ cast: \S/.test(line);

/** Looks at source files given as path → text. */
export function castReport(files: Record<string, string>): CastReport {
  const report: CastReport = { doubleCasts: [], neverCasts: [], unexplained: [], rawHooks: [] };
  for (const [path, text] of Object.entries(files)) {
    const lines = text.split("\n");
    lines.forEach((line, i) => {
      const where = `${path}:${i + 1}`;
      const c = code(line);
      const double = (c.match(/\bas unknown as\b/g) ?? []).length;
      const never = (c.match(/\bas never\b/g) ?? []).length;
      for (let k = 0; k < double; k++) report.doubleCasts.push(where);
      for (let k = 0; k < never; k++) report.neverCasts.push(where);
      if ((double || never) && !hasReason(line) && !hasReason(lines[i - 1])) report.unexplained.push(where);
      if (path !== HOOK_HELPER && /\bHooks\.(on|once)\(/.test(c)) report.rawHooks.push(where);
    });
  }
  return report;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : /\.(ts|mts|js|mjs)$/.test(f) ? [p] : [];
  });
}

function srcFiles(): Record<string, string> {
  return Object.fromEntries(
    sources(join(ROOT, "src")).map((p) => [relative(ROOT, p).split("\\").join("/"), readFileSync(p, "utf8")]),
  );
}

describe("type holes in src/", () => {
  const report = castReport(srcFiles());

  it(`at most ${CAST_BUDGET} \`as unknown as\``, () => {
    expect(report.doubleCasts.length, report.doubleCasts.join("\n")).toBeLessThanOrEqual(CAST_BUDGET);
  });

  it("every `as unknown as` and `as never` gives its reason (`// cast: …` on its line or the line above)", () => {
    expect(report.unexplained).toEqual([]);
  });

  it("hooks are registered only through onHook / onceHook (src/core/hooks-typed.ts)", () => {
    expect(report.rawHooks).toEqual([]);
  });

  it("the typed helper is the one place that calls Hooks.on / Hooks.once", () => {
    const helper = srcFiles()[HOOK_HELPER] ?? "";
    expect(helper).toMatch(/export function onHook<K extends keyof AventureHooks>/);
    expect(helper).toMatch(/export function onceHook<K extends keyof AventureHooks>/);
  });
});

describe("castReport finds what it must", () => {
  it("counts casts, reasons and raw hook registrations", () => {
    const r = castReport({
      "src/a.ts": [
        "const x = y as unknown as Z;", // no reason
        "// cast: the pinned types lack Z",
        "const w = y as unknown as Z;",
        "const v = y as never; // cast: a reason on the same line",
        "// a comment mentioning as unknown as is no cast",
        'Hooks.on("ready", f);',
        'Hooks.once("init", f);',
        "Hooks.off(name, id);",
      ].join("\n"),
      [HOOK_HELPER]: "return Hooks.on(name, fn);",
    });
    expect(r.doubleCasts).toEqual(["src/a.ts:1", "src/a.ts:3"]);
    expect(r.neverCasts).toEqual(["src/a.ts:4"]);
    expect(r.unexplained).toEqual(["src/a.ts:1"]);
    expect(r.rawHooks).toEqual(["src/a.ts:6", "src/a.ts:7"]);
  });

  it("a budget overrun is seen", () => {
    const r = castReport({
      "src/b.ts": Array.from({ length: CAST_BUDGET + 1 }, () => "a as unknown as B; // cast: x").join("\n"),
    });
    expect(r.doubleCasts.length).toBeGreaterThan(CAST_BUDGET);
    expect(r.unexplained).toEqual([]);
  });
});
