/**
 * The architecture as a test over the import graph of src/ (runtime imports; `import type` is erased by the compiler
 * and counts for nothing at run time):
 * - the rules engine (src/rules/) imports nothing outside itself;
 * - no import cycle;
 * - a ratchet on what is still to be moved: glue (src/foundry/) importing a window or view model (src/apps/), and a
 *   feature reaching into another feature's files instead of its api.ts. The known edges are listed in
 *   test/architecture/known-edges.json: a new edge fails, and an edge that disappears must be taken off the list
 *   (`UPDATE_ARCHITECTURE=1 npx vitest run test/architecture.test.ts` rewrites it), so the list only shrinks.
 */
import { describe, expect, it } from "vitest";
import { readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { ROOT } from "./fake/handlebars.js";

const KNOWN = join(ROOT, "test/architecture/known-edges.json");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith(".ts") && !p.endsWith(".d.ts") ? [p] : [];
  });
}

/** The runtime imports of a file's text, as paths relative to the repository (".js" specifiers name ".ts" files). */
export function runtimeImports(file: string, text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(import|export)\s+(type\s+)?(?:[^"';]*?\s+from\s+)?["'](\.[^"']+)["']/gm)) {
    if (m[2]) continue; // import type / export type
    out.push(relative(ROOT, resolve(dirname(file), m[3]!.replace(/\.js$/, ".ts"))).replaceAll("\\", "/"));
  }
  return out;
}

export function importGraph(files: readonly { name: string; text: string }[]): Map<string, string[]> {
  return new Map(files.map((f) => [f.name, runtimeImports(join(ROOT, f.name), f.text)]));
}

export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const state = new Map<string, 1 | 2>();
  const found: string[] = [];
  const visit = (n: string, stack: string[]) => {
    state.set(n, 1);
    stack.push(n);
    for (const d of graph.get(n) ?? []) {
      if (state.get(d) === 1) found.push([...stack.slice(stack.indexOf(d)), d].join(" → "));
      else if (!state.has(d)) visit(d, stack);
    }
    stack.pop();
    state.set(n, 2);
  };
  for (const n of graph.keys()) if (!state.has(n)) visit(n, []);
  return found;
}

const feature = (f: string) => /^src\/foundry\/([^/]+)\/[^/]+\.ts$/.exec(f)?.[1] ?? null;

/** The edges still to be moved: glue → window, and feature → another feature's file that is not its api.ts. */
export function edgesToMove(graph: ReadonlyMap<string, readonly string[]>): {
  glueToApps: string[];
  acrossFeatures: string[];
} {
  const glueToApps: string[] = [];
  const acrossFeatures: string[] = [];
  for (const [f, deps] of graph) {
    for (const d of deps) {
      if (f.startsWith("src/foundry/") && d.startsWith("src/apps/")) glueToApps.push(`${f} → ${d}`);
      const a = feature(f);
      const b = feature(d);
      if (a && b && a !== b && !d.endsWith("/api.ts")) acrossFeatures.push(`${f} → ${d}`);
    }
  }
  return { glueToApps: [...new Set(glueToApps)].sort(), acrossFeatures: [...new Set(acrossFeatures)].sort() };
}

const graph = importGraph(
  sources(join(ROOT, "src")).map((f) => ({
    name: relative(ROOT, f).replaceAll("\\", "/"),
    text: readFileSync(f, "utf8"),
  })),
);

describe("the import graph of src/", () => {
  it("the rules engine imports nothing outside src/rules/", () => {
    const out = [...graph].flatMap(([f, deps]) =>
      f.startsWith("src/rules/") ? deps.filter((d) => !d.startsWith("src/rules/")).map((d) => `${f} → ${d}`) : [],
    );
    expect(out).toEqual([]);
  });

  it("has no import cycle", () => {
    expect(cycles(graph)).toEqual([]);
  });

  it("only shrinks: no new glue → window import, no new reach into another feature's files (test/architecture/known-edges.json)", () => {
    const now = edgesToMove(graph);
    if (process.env.UPDATE_ARCHITECTURE) writeFileSync(KNOWN, JSON.stringify(now, null, 2) + "\n");
    const known = JSON.parse(readFileSync(KNOWN, "utf8")) as typeof now;
    expect(
      now.glueToApps.filter((e) => !known.glueToApps.includes(e)),
      "new glue → window imports",
    ).toEqual([]);
    expect(
      now.acrossFeatures.filter((e) => !known.acrossFeatures.includes(e)),
      "new imports of another feature's files (use its api.ts)",
    ).toEqual([]);
    expect(
      known.glueToApps.filter((e) => !now.glueToApps.includes(e)),
      "edges gone: take them off the list",
    ).toEqual([]);
    expect(
      known.acrossFeatures.filter((e) => !now.acrossFeatures.includes(e)),
      "edges gone: take them off the list",
    ).toEqual([]);
  });

  it("the checks can fail: a cycle, a rules file importing glue, a glue file importing a window", () => {
    const planted = importGraph([
      { name: "src/rules/a.ts", text: 'import { x } from "../foundry/b.js";\nimport type { T } from "../apps/t.js";' },
      { name: "src/foundry/b.ts", text: 'import { y } from "../rules/a.js";\nimport { W } from "../apps/W.js";' },
      {
        name: "src/foundry/travel/c.ts",
        text: 'export { z } from "../light/hide.js";\nimport { api } from "../light/api.js";',
      },
    ]);
    expect(planted.get("src/rules/a.ts")).toEqual(["src/foundry/b.ts"]); // the type-only import is not a runtime edge
    expect(cycles(planted)).toEqual(["src/rules/a.ts → src/foundry/b.ts → src/rules/a.ts"]);
    expect(edgesToMove(planted)).toEqual({
      glueToApps: ["src/foundry/b.ts → src/apps/W.ts"],
      acrossFeatures: ["src/foundry/travel/c.ts → src/foundry/light/hide.ts"],
    });
  });
});
