/**
 * Aventure's windows. Titles follow one pattern across Aventure's windows: the feature's name, capitalised, with no "Aventure:"
 * prefix and no punctuation ("Travel", "Encounter", "Pursuit", "Polaris test", "Fall", "Exploration time", "Jumps — Aldric",
 * "Actor data", "Change of intention — Aldric", "Your game"); a window about one creature adds its name after an em dash. Every window of src/ (a PascalCase file in its feature folder) is read, so a
 * new window is checked too. Each window has the guide's "?" button opening its page (WINDOW_GUIDE_PAGES).
 */
import { describe, expect, it, vi } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../fake/handlebars.js";
import { windowFiles } from "../fake/windows.js";
import { FakeI18n } from "../fake/i18n.js";
import { WINDOW_GUIDE_PAGES } from "../../src/core/guide.js";
import { bootWorld, GM } from "../world/index.js";

vi.setConfig({ testTimeout: 30_000 });

const WINDOWS = windowFiles();
const source = (cls: string) => readFileSync(join(ROOT, WINDOWS.get(cls) ?? `src/${cls}.ts`), "utf8");
const titleKeys = [...WINDOWS.keys()]
  .map((c) => `${c}.ts`)
  .flatMap((f) =>
    [...source(f.slice(0, -3)).matchAll(/window: \{ title: "([\w.]+)"/g)].map((m) => [f, m[1]!] as const),
  );

describe("window titles", () => {
  it("every Aventure window has one", () => {
    expect(titleKeys.map(([f]) => f).sort()).toEqual([
      "ActorDataMenu.ts",
      "EncounterDialog.ts",
      "ExplorationPanel.ts",
      "FallDialog.ts",
      "JumpPanel.ts",
      "PolarisTestDialog.ts",
      "PursuitDialog.ts",
      "TravelWindow.ts", // the Travel window and its Old-School Essentials form
      "WelcomeDialog.ts",
    ]);
  });

  it.each([
    [
      "en",
      [
        "Actor data",
        "Encounter",
        "Exploration time",
        "Fall",
        "Jumps",
        "Polaris test",
        "Pursuit",
        "Travel",
        "Your game",
      ],
    ],
    [
      "fr",
      [
        "Données d’acteur",
        "Rencontre",
        "Temps d’exploration",
        "Chute",
        "Sauts",
        "Test Polaris",
        "Poursuite",
        "Voyage",
        "Votre jeu",
      ],
    ],
  ] as const)("read as the feature's name (%s)", (lang, expected) => {
    const i18n = new FakeI18n(lang);
    const titles = [...titleKeys].sort(([a], [b]) => a.localeCompare(b)).map(([, k]) => i18n.localize(k));
    expect(titles).toEqual(expected);
    for (const title of titles) expect(title).toMatch(/^\p{Lu}[^:.!?]*$/u);
    expect(i18n.format("AVENTURE.Movement.Jump.titleFor", { name: "Aldric" })).toBe(
      lang === "en" ? "Jumps — Aldric" : "Sauts — Aldric",
    );
  });
});

describe("the guide's ? button", () => {
  it("every window extends the base that adds the ? button, naming its own page", () => {
    for (const [cls, key] of Object.entries(WINDOW_GUIDE_PAGES)) {
      const text = source(cls);
      // A document sheet extends Foundry's sheet class: it adds the button itself.
      if (cls.endsWith("Sheet")) {
        expect(text, cls).toContain(`withGuideButton(await super._renderFrame(options), "${key}")`);
        continue;
      }
      // The two Travel windows share TravelWindow, which extends the base and names their page.
      const base = /extends TravelWindow</.test(text) ? source("TravelWindow") : text;
      expect(base, cls).toContain(`extends AventureApplication`);
      expect(base, cls).toContain(`static override GUIDE = "${key}" as const;`);
    }
    expect(readFileSync(join(ROOT, "src/core/application.ts"), "utf8")).toContain(
      "withGuideButton(await super._renderFrame(options), (this.constructor as typeof AventureApplication).GUIDE)",
    );
  });

  it("is in the title bar of the Encounter and Pursuit windows", async () => {
    const world = await bootWorld({ users: [GM] });
    const api = world.api<{
      openEncounter(): Promise<{ element: HTMLElement } | null>;
      openPursuit(): Promise<{ element: HTMLElement | null }>;
    }>("gm1");
    await world.as("gm1", () => game.settings.set("aventure", "ruleset", "ose")); // encounters and pursuit are Old-School Essentials' (docs/rules.md §0)
    const encounter = await world.as("gm1", () => api.openEncounter());
    const pursuit = await world.as("gm1", () => api.openPursuit());
    await world.settle();
    for (const app of [encounter!, pursuit]) {
      const button = app.element!.querySelector(".window-header .aventure-guide-button");
      expect(button).not.toBeNull();
      expect(button!.getAttribute("aria-label")).toBe("Open this window's page of the Aventure guide");
    }
  });
});

describe("forms", () => {
  it("every window and dialog reads its form through Foundry's FormDataExtended (src/core/forms.ts), never field by field", () => {
    const sources = [...WINDOWS.values(), "src/combat/hooks.ts", "src/combat/polaris-ask.ts"].map((f) => [
      f,
      readFileSync(join(ROOT, f), "utf8"),
    ]);
    const byField = sources.filter(([, text]) => /namedItem\(|querySelector[^(]*\(\s*['"`]\[name=/.test(text!));
    expect(byField.map(([f]) => f)).toEqual([]);
    expect(readFileSync(join(ROOT, "src/core/forms.ts"), "utf8")).toContain("foundry.applications.ux.FormDataExtended");
  });
});
