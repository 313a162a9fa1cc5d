/**
 * docs/compat.md lists every Foundry/system touchpoint (issue 11, item 5): every hook that src/ registers has a row
 * (a new touchpoint without a row fails here), and the verified version it states is module.json's.
 *
 * Two independent checks: a scan of the sources (Hooks.on / Hooks.once, and the typed helpers onHook / onceHook,
 * with a literal name, or a variable fed by a literal array in a `for … of [...]` loop), and the hooks the module
 * really registered in a booted test world (dnd5e and core), minus the system's own.
 */
import { describe, expect, it } from "vitest";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { ROOT } from "./fake/handlebars.js";
import { bootWorld, FakeWorld, coreSystem, dnd5eSystem, GM } from "./world/index.js";

const compat = readFileSync(join(ROOT, "docs/compat.md"), "utf8");
/** A hook is documented when its name appears in backticks, alone or followed by its arguments. */
const documented = (hook: string): boolean => [`\`${hook}\``, `\`${hook}(`].some((form) => compat.includes(form));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return /\.(ts|js|mjs)$/.test(f) && !f.endsWith(".d.ts") ? [p] : [];
  });
}

const REGISTER = String.raw`(?<!function\s)(?<![\w.])(?:Hooks\.(?:on|once)|onHook|onceHook)\s*(?:<[^>()]*>)?\(\s*`;
const LITERAL = new RegExp(REGISTER + String.raw`(["'\x60])([^"'\x60]+)\1`, "g");
const VARIABLE = new RegExp(REGISTER + String.raw`([A-Za-z_$][\w$]*)\s*[,)]`, "g");

/** Hook names registered in a source text; `unresolved` lists registrations whose name the scan cannot know. */
function registeredHookNames(text: string): { names: string[]; unresolved: string[] } {
  const names = new Set<string>();
  const unresolved: string[] = [];
  for (const m of text.matchAll(LITERAL)) names.add(m[2]!);
  for (const m of text.matchAll(VARIABLE)) {
    const variable = m[1]!;
    // The variable of a loop over a literal array before it: `for (const hook of ["a", "b"] as const) Hooks.on(hook, …)`.
    const before = text.slice(0, m.index);
    const loops = [...before.matchAll(new RegExp(String.raw`for\s*\(\s*const\s+${variable}\s+of\s+\[([^\]]*)\]`, "g"))];
    const loop = loops.at(-1);
    const items = loop ? [...loop[1]!.matchAll(/["'`]([^"'`]+)["'`]/g)].map((x) => x[1]!) : [];
    if (items.length) items.forEach((x) => names.add(x));
    else unresolved.push(variable);
  }
  return { names: [...names].sort(), unresolved };
}

describe("docs/compat.md covers every hook src/ registers", () => {
  // hooks-typed.ts is the helper itself: it passes names through, it registers none of its own.
  const files = sourceFiles(join(ROOT, "src")).filter((f) => !f.endsWith(join("core", "hooks-typed.ts")));
  const perFile = files.map((f) => ({ file: relative(ROOT, f), ...registeredHookNames(readFileSync(f, "utf8")) }));
  const all = [...new Set(perFile.flatMap((f) => f.names))].sort();

  it("the scan finds the registrations (literal names, typed helpers, loops over literal arrays)", () => {
    expect(
      registeredHookNames(`Hooks.on("a", f); Hooks.once('b', g); onHook("c", h); onceHook<"d">("d", i);`).names,
    ).toEqual(["a", "b", "c", "d"]);
    expect(registeredHookNames(`for (const hook of ["x", "y"] as const) {\n  Hooks.on(hook, fn);\n}`).names).toEqual([
      "x",
      "y",
    ]);
    expect(registeredHookNames(`export function onHook<K extends string>(name: K, fn: F) {}`).names).toEqual([]);
    expect(registeredHookNames(`Hooks.on(someName, fn)`).unresolved).toEqual(["someName"]);
    // A sanity floor: the module registers dozens of hooks; a broken scan would find few.
    expect(all.length).toBeGreaterThan(30);
    expect(all).toEqual(
      expect.arrayContaining([
        "init",
        "renderCombatTracker",
        "preMoveToken",
        "createAmbientLight",
        "dnd5e.postRollAttack",
      ]),
    );
  });

  it("every registration names its hook in a way the scan can read (a literal, or a loop over a literal array)", () => {
    expect(perFile.filter((f) => f.unresolved.length).map((f) => `${f.file}: ${f.unresolved.join(", ")}`)).toEqual([]);
  });

  it("every hook registered in src/ has a row in docs/compat.md", () => {
    expect(all.filter((h) => !documented(h))).toEqual([]);
  });

  it("every hook the module registers in a running world (dnd5e and core) has a row", async () => {
    const missing = new Set<string>();
    for (const system of [dnd5eSystem(), coreSystem()]) {
      // The system's own handlers, without the module.
      const bare = await FakeWorld.boot({ system, users: [GM], load: async () => ({}) });
      const systemOnly = new Set(bare.clientOf("gm1").hooks.registered());
      const world = await bootWorld({ system: system.id === "dnd5e" ? "dnd5e" : "worldbuilding" });
      const hooks = world.clientOf("gm1").hooks;
      for (const name of hooks.registered()) {
        const mine = systemOnly.has(name)
          ? (hooks.handlers.get(name)?.length ?? 0) > (bare.clientOf("gm1").hooks.handlers.get(name)?.length ?? 0)
          : true;
        if (mine && !name.startsWith("__fake") && !documented(name)) missing.add(name);
      }
    }
    expect([...missing]).toEqual([]);
  });
});

describe("docs/compat.md states module.json's compatibility honestly", () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, "module.json"), "utf8")) as {
    compatibility: { minimum: string; verified: string; maximum?: string };
  };

  it("quotes the manifest's minimum and verified versions", () => {
    const { minimum, verified } = manifest.compatibility;
    expect(compat).toContain(`compatibility: { minimum: "${minimum}", verified: "${verified}" }`);
  });

  it("says plainly that no real Foundry ran, and does not claim v14", () => {
    expect(manifest.compatibility.verified).toBe("13");
    expect(compat).toMatch(/No real Foundry ran/);
    expect(compat).toMatch(/v14 is \*\*not\*\* claimed/);
  });
});
