/**
 * The window base (src/core/application.ts) and Foundry's registry of rendered applications
 * (`foundry.applications.instances`, modelled in test/world/statics.ts): a window of fixed id is found there, never
 * kept in a variable of the module (opened twice: the same window, brought to the front; closed: a new one next
 * time); the base holds the defaults every window shares; the theme is Foundry's (no class of the base's own).
 */
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { bootWorld, GM, mergeOptions, type FakeApplicationV2, type FakeWorld } from "../world/index.js";

type Plain = Record<string, unknown>;
type WindowClass = typeof FakeApplicationV2;

interface Win {
  id: string;
  rendered: boolean;
  element: HTMLElement | null;
  close(): Promise<unknown>;
}
interface Api {
  openExploration(): Promise<Win | undefined>;
  openWelcome(): Promise<Win | null>;
}

const registry = (world: FakeWorld, user = "gm1") =>
  world.as(user, () => [...(foundry.applications as unknown as { instances: Map<string, Win> }).instances.entries()]);
const inDocument = (world: FakeWorld, id: string) => world.window.document.querySelectorAll(`#${id}`).length;

/** Opens a window twice, closes it, opens it again: one window while open, a new one after close. */
async function openTwiceThenAgain(world: FakeWorld, id: string, open: () => Promise<Win | null | undefined>) {
  const first = (await world.as("gm1", open))!;
  await world.settle();
  const z1 = Number(first.element!.style.zIndex || 0);
  const second = (await world.as("gm1", open))!;
  await world.settle();
  expect(second).toBe(first);
  expect(second.rendered).toBe(true);
  // Brought to the front, not opened a second time.
  expect(Number(second.element!.style.zIndex)).toBeGreaterThan(z1);
  expect(registry(world).filter(([key]) => key === id)).toEqual([[id, first]]);
  expect(inDocument(world, id)).toBe(1);

  await world.as("gm1", () => first.close());
  expect(registry(world).some(([key]) => key === id)).toBe(false);
  const third = (await world.as("gm1", open))!;
  await world.settle();
  expect(third).not.toBe(first);
  expect(third.rendered).toBe(true);
  expect(first.rendered).toBe(false);
  expect(registry(world).filter(([key]) => key === id)).toEqual([[id, third]]);
  expect(inDocument(world, id)).toBe(1);
}

describe("windows of fixed id, found in Foundry's registry", () => {
  it("the Exploration panel: opened twice, the same panel to the front; after close, a new one", async () => {
    const world = await bootWorld({ system: "ose", users: [GM] });
    await world.as("gm1", () => game.settings.set("aventure" as never, "ruleset" as never, "ose" as never));
    const api = world.api<Api>("gm1");
    await openTwiceThenAgain(world, "aventure-exploration", () => api.openExploration());
    expect(world.notifications.filter((n) => n.type !== "info")).toEqual([]);
  });

  it("the first-run window: the one opened at ready is the one api.openWelcome() brings forward; after close, a new one", async () => {
    const world = await bootWorld({ system: "dnd5e", users: [GM] });
    const atReady = registry(world).find(([key]) => key === "aventure-welcome")?.[1];
    expect(atReady?.rendered).toBe(true);
    const api = world.api<Api>("gm1");
    expect(await world.as("gm1", () => api.openWelcome())).toBe(atReady);
    await openTwiceThenAgain(world, "aventure-welcome", () => api.openWelcome());
  });

  it("the panel shown is the one the refresh renders: a closed panel is not rendered again", async () => {
    const world = await bootWorld({ system: "ose", users: [GM] });
    await world.as("gm1", () => game.settings.set("aventure" as never, "ruleset" as never, "ose" as never));
    const renders: unknown[] = [];
    world.as("gm1", () =>
      Hooks.on("renderExplorationPanel" as never, ((app: unknown) => void renders.push(app)) as never),
    );
    const api = world.api<Api>("gm1");
    const panel = (await world.as("gm1", () => api.openExploration()))!;
    await world.settle();
    renders.length = 0;
    // World time passes: the open panel renders again.
    await world.as("gm1", () => game.time.advance(60));
    await world.settle();
    expect(renders).toContain(panel);
    await world.as("gm1", () => panel.close());
    renders.length = 0;
    await world.as("gm1", () => game.time.advance(60));
    await world.settle();
    expect(renders).toEqual([]);
  });
});

/** Every Aventure window class, loaded after boot (a window class needs Foundry), by name. */
async function windowClasses(): Promise<Record<string, WindowClass>> {
  await bootWorld({ system: "dnd5e", users: [GM] });
  const all = {
    ...(await import("../../src/core/application.js")),
    ...(await import("../../src/polaris/PolarisTestDialog.js")),
    ...(await import("../../src/actors/ActorDataMenu.js")),
    ...(await import("../../src/movement/JumpPanel.js")),
    ...(await import("../../src/movement/FallDialog.js")),
    ...(await import("../../src/encounter/EncounterDialog.js")),
    ...(await import("../../src/exploration/ExplorationPanel.js")),
    ...(await import("../../src/welcome/WelcomeDialog.js")),
    ...(await import("../../src/pursuit/PursuitDialog.js")),
    ...(await import("../../src/travel/TravelWindow.js")),
    ...(await import("../../src/travel/TravelDialog.js")),
    ...(await import("../../src/travel/OseTravelDialog.js")),
  } as unknown as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(all).filter(([, v]) => typeof v === "function" && "DEFAULT_OPTIONS" in (v as object)),
  ) as Record<string, WindowClass>;
}

const isObject = (v: unknown): v is Plain => typeof v === "object" && v !== null && !Array.isArray(v);

/** The paths where a class's own DEFAULT_OPTIONS repeats what it inherits (a value equal, a class already there). */
function repeats(own: Plain, inherited: Plain, path = ""): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(own)) {
    const p = path ? `${path}.${k}` : k;
    const was = inherited[k];
    if (k === "classes" && Array.isArray(v) && Array.isArray(was))
      out.push(...v.filter((c) => was.includes(c)).map((c) => `${p}: ${String(c)}`));
    else if (isObject(v) && isObject(was)) out.push(...repeats(v, was, p));
    else if (was !== undefined && v === was) out.push(p);
  }
  return out;
}

/** What a window's options are (as Foundry merges them), as they were before the base held the shared defaults. */
const EXPECTED: Record<string, { tag: string; classes: string[]; resizable: boolean; width: number; close?: boolean }> =
  {
    PolarisTestDialog: { tag: "form", classes: ["aventure-polaris"], resizable: true, width: 480 },
    ActorDataMenu: { tag: "form", classes: ["aventure-actor-data"], resizable: true, width: 620, close: true },
    JumpPanel: { tag: "form", classes: ["aventure-jumps"], resizable: false, width: 420 },
    FallDialog: { tag: "form", classes: ["aventure-fall"], resizable: false, width: 360, close: true },
    EncounterDialog: { tag: "form", classes: ["aventure-encounter"], resizable: true, width: 480 },
    ExplorationPanel: { tag: "form", classes: ["aventure-exploration"], resizable: true, width: 460 },
    WelcomeDialog: { tag: "div", classes: ["aventure-welcome"], resizable: false, width: 560 },
    PursuitDialog: { tag: "form", classes: ["aventure-pursuit"], resizable: true, width: 600 },
    TravelDialog: { tag: "form", classes: ["aventure-travel"], resizable: true, width: 880 },
    OseTravelDialog: { tag: "form", classes: ["aventure-travel", "aventure-ose-travel"], resizable: true, width: 880 },
  };

describe("the window base's defaults", () => {
  it("every window inherits the shared defaults and repeats none of what it inherits (no spread of its parent's)", async () => {
    const classes = await windowClasses();
    expect(Object.keys(classes).sort()).toEqual(
      ["AventureApplication", "TravelWindow", ...Object.keys(EXPECTED)].sort(),
    );
    for (const [name, cls] of Object.entries(classes)) {
      if (name === "AventureApplication") continue;
      const parent = Object.getPrototypeOf(cls) as WindowClass;
      const own = Object.hasOwn(cls, "DEFAULT_OPTIONS") ? cls.DEFAULT_OPTIONS : {};
      expect(repeats(own, mergeOptions(parent)), name).toEqual([]);
    }
    for (const [name, want] of Object.entries(EXPECTED)) {
      const options = mergeOptions(classes[name]!);
      expect(options, name).toMatchObject({
        tag: want.tag,
        classes: ["aventure", ...want.classes],
        window: { resizable: want.resizable },
        position: { width: want.width, height: "auto" },
      });
      expect((options.classes as string[]).length, name).toBe(1 + want.classes.length);
      if (want.tag !== "form") continue;
      const form = options.form as { handler?: unknown; submitOnChange?: boolean; closeOnSubmit?: boolean };
      expect(form, name).toMatchObject({ submitOnChange: false, closeOnSubmit: want.close ?? false });
      expect(typeof form.handler, name).toBe("function");
    }
    // The Travel windows keep their parent's actions and form handler through the merge, not through a spread.
    for (const name of ["TravelDialog", "OseTravelDialog"]) {
      const options = mergeOptions(classes[name]!);
      expect(Object.keys(options.actions as Plain).sort(), name).toEqual(["addMember", "apply", "removeMember"]);
      expect((options.form as Plain).handler, name).toBe((classes.TravelWindow!.DEFAULT_OPTIONS.form as Plain).handler);
    }
  });

  it("the base's form submits nothing by itself: Enter in a panel without a handler of its own closes nothing", async () => {
    const world = await bootWorld({ system: "ose", users: [GM] });
    await world.as("gm1", () => game.settings.set("aventure" as never, "ruleset" as never, "ose" as never));
    const api = world.api<Api>("gm1");
    const panel = (await world.as("gm1", () => api.openExploration()))! as unknown as Win & { submit(): Promise<void> };
    await world.settle();
    const mark = world.writes.length;
    await world.as("gm1", () => panel.submit());
    await world.settle();
    expect(panel.rendered).toBe(true);
    expect(world.writesSince(mark)).toEqual([]);
  });
});

// ------------------------------------------------------------------------------------------------ theme

const STYLES = join(import.meta.dirname, "../../styles");
const COLOUR = /#[0-9a-f]{3,8}\b|\b(?:rgba?|hsla?)\(|\b(?:white|black)\b/i;

/** The rules of a stylesheet (no nesting in styles/): selector and declarations, comments removed. */
function rules(css: string): { selector: string; decls: [string, string][] }[] {
  const flat = css.replace(/\/\*[\s\S]*?\*\//g, "");
  return [...flat.matchAll(/([^{}]+)\{([^{}]*)\}/g)].map((m) => ({
    selector: m[1]!.trim().replace(/\s+/g, " "),
    decls: m[2]!
      .split(";")
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => [d.slice(0, d.indexOf(":")).trim(), d.slice(d.indexOf(":") + 1).trim()] as [string, string]),
  }));
}

/** A value's own colour, core's and the palette's variables (and their fallbacks) left out. */
const literal = (value: string) => COLOUR.test(value.replace(/var\([^()]*(?:\([^()]*\)[^()]*)*\)/g, ""));

describe("the theme: Foundry's", () => {
  it("the base adds no theme class of its own (core themes the window)", async () => {
    const classes = await windowClasses();
    for (const [name, cls] of Object.entries(classes))
      expect(
        (mergeOptions(cls).classes as string[]).filter((c) => c === "themed" || c.startsWith("theme-")),
        name,
      ).toEqual([]);
  });

  it("styles/aventure.css gives the palette for each of Foundry's themes, the same variables in both", () => {
    const all = rules(readFileSync(join(STYLES, "aventure.css"), "utf8"));
    const palette = (theme: "dark" | "light") => {
      const rule = all.find((r) => r.selector.split(",").some((s) => s.trim() === `.aventure.themed.theme-${theme}`));
      expect(rule, theme).toBeDefined();
      // The window's own theme, and the interface's (or a chat log's) around it.
      expect(rule!.selector).toContain(`.theme-${theme} .aventure`);
      return rule!.decls.filter(([p]) => p.startsWith("--aventure-")).map(([p]) => p);
    };
    const dark = palette("dark");
    expect(dark.length).toBeGreaterThan(10);
    expect(palette("light")).toEqual(dark);
  });

  it("no colour of the styles is fixed over a themed background: each comes from a palette or core, or carries its own background", () => {
    const found: string[] = [];
    for (const file of readdirSync(STYLES).filter((f) => f.endsWith(".css"))) {
      for (const { selector, decls } of rules(readFileSync(join(STYLES, file), "utf8"))) {
        const themed = /theme-(dark|light)/.test(selector);
        const own = (prop: RegExp) => decls.some(([p, v]) => prop.test(p) && literal(v));
        const ownBackground = own(/^background(-color)?$/) && own(/^color$/);
        for (const [prop, value] of decls) {
          if (!literal(value) || /shadow$/.test(prop)) continue;
          if (prop.startsWith("--aventure-") && (themed || prop.startsWith("--aventure-badge-"))) continue;
          if (!prop.startsWith("--") && ownBackground) continue;
          found.push(`${file} ${selector} { ${prop}: ${value} }`);
        }
      }
    }
    expect(found).toEqual([]);
  });
});
