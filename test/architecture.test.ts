/**
 * The architecture as a test over the import graph of src/: every import counts, `import type` (erased at run time,
 * but a type from a feature still ties its importer to that feature) and dynamic `import()` (a lazy import is still
 * an import) included. The layers (CONTRIBUTING.md):
 * - src/rules/ — the pure rules engine: imports nothing outside itself;
 * - src/core/ — the shared Foundry helpers and formatting, below every feature: imports only itself and the rules;
 * - src/<feature>/ — a feature's glue, windows and view models; it reaches another feature only through that
 *   feature's api.ts;
 * - a window (a `PascalCase.ts` file holding its class) is imported only by its feature's api.ts, another window of
 *   the feature, or the composition root — glue never imports a window;
 * - the composition root (src/*.ts: module.ts, api.ts, hooks.ts…) wires the features through their api.ts and
 *   hooks.ts, and registers their windows (settings menus, sheets); src/quench/ holds the in-world test batches, which may read a feature's files as the tests do.
 * - no import cycle.
 * Every rule holds with no exception (the ratchet of edges still to be moved, test/architecture/known-edges.json, was
 * emptied and removed).
 */
import { describe, expect, it } from "vitest";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { ROOT } from "./fake/handlebars.js";

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith(".ts") && !p.endsWith(".d.ts") ? [p] : [];
  });
}

/**
 * The imports of a file's text, as paths relative to the repository (".js" specifiers name ".ts" files): static
 * imports and re-exports, type-only ones too (a type from a feature still couples its importer to that feature), and
 * dynamic `import("…")` (a lazy import is still an edge), `typeof import("…")` included.
 */
export function imports(file: string, text: string): string[] {
  const specifiers = [
    ...[...text.matchAll(/^\s*(?:import|export)\s+(?:type\s+)?(?:[^"';]*?\s+from\s+)?["'](\.[^"']+)["']/gm)].map(
      (m) => m[1]!,
    ),
    ...[...text.matchAll(/\bimport\s*\(\s*["'](\.[^"']+)["']\s*\)/g)].map((m) => m[1]!),
  ];
  const out = specifiers.map((s) =>
    relative(ROOT, resolve(dirname(file), s.replace(/\.js$/, ".ts"))).replaceAll("\\", "/"),
  );
  return [...new Set(out)];
}

export function importGraph(files: readonly { name: string; text: string }[]): Map<string, string[]> {
  return new Map(files.map((f) => [f.name, imports(join(ROOT, f.name), f.text)]));
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

const feature = (f: string) => {
  const m = /^src\/([^/]+)\/.+\.ts$/.exec(f);
  return m && !["rules", "core", "quench"].includes(m[1]!) ? m[1]! : null;
};
const isWindow = (f: string) => /\/[A-Z]\w+\.ts$/.test(f);
const isRoot = (f: string) => /^src\/[^/]+\.ts$/.test(f);

/** The edges the layers forbid: core → feature, glue → window, feature → another feature's file that is not its api.ts. */
export function edgesToMove(graph: ReadonlyMap<string, readonly string[]>): {
  coreToFeatures: string[];
  glueToWindows: string[];
  acrossFeatures: string[];
} {
  const coreToFeatures: string[] = [];
  const glueToWindows: string[] = [];
  const acrossFeatures: string[] = [];
  for (const [f, deps] of graph) {
    for (const d of deps) {
      const a = feature(f);
      const b = feature(d);
      const edge = `${f} → ${d}`;
      if (f.startsWith("src/core/") && d.startsWith("src/") && !/^src\/(core|rules)\//.test(d))
        coreToFeatures.push(edge);
      if (
        b &&
        isWindow(d) &&
        !isRoot(f) &&
        !f.startsWith("src/quench/") &&
        !isWindow(f) &&
        !(a === b && f.endsWith("/api.ts"))
      )
        glueToWindows.push(edge);
      if (a && b && a !== b && !d.endsWith("/api.ts")) acrossFeatures.push(edge);
      if (isRoot(f) && b && !/\/(api|hooks)\.ts$/.test(d) && !isWindow(d)) acrossFeatures.push(edge);
    }
  }
  const tidy = (l: string[]) => [...new Set(l)].sort();
  return {
    coreToFeatures: tidy(coreToFeatures),
    glueToWindows: tidy(glueToWindows),
    acrossFeatures: tidy(acrossFeatures),
  };
}

/** The imports of a rules file that leave src/rules/. */
export function rulesOutside(graph: ReadonlyMap<string, readonly string[]>): string[] {
  return [...graph].flatMap(([f, deps]) =>
    f.startsWith("src/rules/") ? deps.filter((d) => !d.startsWith("src/rules/")).map((d) => `${f} → ${d}`) : [],
  );
}

const graph = importGraph(
  sources(join(ROOT, "src")).map((f) => ({
    name: relative(ROOT, f).replaceAll("\\", "/"),
    text: readFileSync(f, "utf8"),
  })),
);

describe("the import graph of src/", () => {
  it("the rules engine imports nothing outside src/rules/", () => {
    expect(rulesOutside(graph)).toEqual([]);
  });

  it("has no import cycle", () => {
    expect(cycles(graph)).toEqual([]);
  });

  it("no core → feature import, no glue → window import, no reach into another feature's files", () => {
    expect(edgesToMove(graph)).toEqual({ coreToFeatures: [], glueToWindows: [], acrossFeatures: [] });
  });

  it("the checks can fail: a cycle, a rules file importing glue, core importing a feature, glue importing a window, a reach into another feature", () => {
    const planted = importGraph([
      { name: "src/rules/a.ts", text: 'import { x } from "../core/b.js";\nimport type { T } from "../travel/T.js";' },
      {
        name: "src/core/b.ts",
        text: 'import { y } from "../rules/a.js";\nimport { h } from "../light/hide.js";\nimport type { ActorLike } from "../actors/adapter.js";',
      },
      {
        name: "src/travel/c.ts",
        text: 'export { z } from "../light/hide.js";\nimport { api } from "../light/api.js";\nimport { W } from "./Win.js";\nconst lazy = () => import("../pursuit/chase.js");',
      },
      { name: "src/travel/api.ts", text: 'import { W } from "./Win.js";' },
      {
        name: "src/travel/d.ts",
        text: 'import type { Options } from "./e.js";\nlet m: typeof import("./Dialog.js") | null = null;',
      },
      { name: "src/travel/e.ts", text: 'const load = () => import ( "./d.js" );' },
      { name: "src/api.ts", text: 'import { a } from "../src/travel/api.js";\nimport { c } from "./travel/c.js";' },
    ]);
    // A type-only import and a dynamic import() are edges too: each still ties its file to the other.
    expect(planted.get("src/rules/a.ts")).toEqual(["src/core/b.ts", "src/travel/T.ts"]);
    expect(planted.get("src/travel/d.ts")).toEqual(["src/travel/e.ts", "src/travel/Dialog.ts"]);
    expect(rulesOutside(planted)).toEqual(["src/rules/a.ts → src/core/b.ts", "src/rules/a.ts → src/travel/T.ts"]);
    expect(cycles(planted)).toEqual([
      "src/rules/a.ts → src/core/b.ts → src/rules/a.ts",
      "src/travel/d.ts → src/travel/e.ts → src/travel/d.ts",
    ]);
    expect(edgesToMove(planted)).toEqual({
      coreToFeatures: ["src/core/b.ts → src/actors/adapter.ts", "src/core/b.ts → src/light/hide.ts"],
      glueToWindows: ["src/travel/c.ts → src/travel/Win.ts", "src/travel/d.ts → src/travel/Dialog.ts"],
      acrossFeatures: [
        "src/api.ts → src/travel/c.ts",
        "src/travel/c.ts → src/light/hide.ts",
        "src/travel/c.ts → src/pursuit/chase.ts",
      ],
    });
  });
});
