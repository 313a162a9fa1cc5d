/**
 * The module settings form and the Actor data menu show the world's game only (docs/rules.md §0), in the test world:
 * under Portes, Monstres & Trésors, Old-School Essentials and Polaris, in both languages, no visible row holds a 5e
 * term (test/forbidden-terms.ts); a borrowed rule's settings and fields show, labelled with the game they come from;
 * the form follows the game chosen in it before saving; hidden paths are kept when the menu is saved.
 */
import { describe, expect, it, vi } from "vitest";
import { addDnd5eActor, bootWorld, GM, type FakeWorld } from "../world/index.js";
import { forbiddenTerms } from "../forbidden-terms.js";
import { DND5E_PATHS } from "../../src/actors/presets.js";

vi.setConfig({ testTimeout: 30_000 });

const LANGS = ["en", "fr"] as const;
const GAMES = ["pmt", "ose", "polaris"] as const;
const set = (world: FakeWorld, key: string, value: unknown) =>
  world.as("gm1", () => game.settings.set("aventure" as never, key as never, value as never));

async function boot(ruleset: string, lang: "en" | "fr" = "en", borrow: Record<string, string> = {}) {
  const world = await bootWorld({
    system: ruleset === "ose" || ruleset === "pmt" ? "ose" : "dnd5e",
    users: [{ ...GM, lang }],
    lang,
  });
  await set(world, "ruleset", ruleset);
  await set(world, "actorData", { ...DND5E_PATHS });
  for (const [k, v] of Object.entries(borrow)) await set(world, k, v);
  await world.settle();
  return world;
}

/** The rows of the form a GM sees: setting id → text (label, options, hint). */
function visibleRows(form: HTMLElement): Map<string, string> {
  const out = new Map<string, string>();
  for (const row of form.querySelectorAll<HTMLElement>("[data-setting-id^='aventure.']")) {
    if (row.style.display === "none") continue;
    out.set(row.getAttribute("data-setting-id")!.slice("aventure.".length), row.textContent!.replace(/\s+/g, " "));
  }
  return out;
}

type Menu = { render(o: object): Promise<unknown>; submit(): Promise<void>; element: HTMLElement };
async function actorMenu(world: FakeWorld) {
  addDnd5eActor(world, { id: "aldric", name: "Aldric" });
  const menu = world.clientOf("gm1").menus.get("aventure.actorDataMenu") as unknown as { type: new () => Menu };
  const app = world.as("gm1", () => new menu.type());
  await world.as("gm1", () => app.render({ force: true }));
  await world.settle();
  return app;
}
const fieldNames = (app: Menu) =>
  [...app.element.querySelectorAll<HTMLTextAreaElement>("textarea[name^='paths.']")].map((f) =>
    f.name.slice("paths.".length),
  );

describe("the settings form of each game", () => {
  it.each(LANGS.flatMap((lang) => GAMES.map((rs) => [rs, lang] as const)))(
    "%s (%s): no 5e term in a visible row",
    async (ruleset, lang) => {
      const world = await boot(ruleset, lang);
      const form = world.renderSettingsConfig("gm1");
      const rows = visibleRows(form);
      expect(rows.size).toBeGreaterThan(5);
      const hits = [...rows].flatMap(([k, text]) => forbiddenTerms(text, lang).map((term) => `${k}: ${term}`));
      expect(hits).toEqual([]);
      // The check is not vacuous: the hidden rows hold them (the Athletics reminder, light effects' disadvantage).
      expect(forbiddenTerms(form.textContent!, lang).length).toBeGreaterThan(0);
    },
  );

  it("Rôle'n Play shows its own rows, hides the wandering checks and the borrowings of what it has", async () => {
    const world = await boot("rnp");
    const rows = visibleRows(world.renderSettingsConfig("gm1"));
    expect(rows.has("athleticsReminder")).toBe(true);
    expect(rows.has("explorationTurnSeconds")).toBe(true);
    expect(rows.has("explorationWanderingEvery")).toBe(false);
    expect(rows.has("borrowFalls")).toBe(false);
    expect(rows.has("borrowWandering")).toBe(true);
  });

  it("the old 'side initiative with any ruleset': shown where it is on and the game has none, so it can be turned off", async () => {
    const world = await boot("rnp", "en", { sideInitiative: true as unknown as string });
    const form = world.renderSettingsConfig("gm1");
    expect(visibleRows(form).has("sideInitiative")).toBe(true);
    expect(visibleRows(form).has("sideTies")).toBe(true);
    // Unticked in the open form: its row stays until the form is saved.
    const box = form.querySelector<HTMLInputElement>("[name='aventure.sideInitiative']")!;
    box.checked = false;
    world.as("gm1", () =>
      box.dispatchEvent(new (world.window as unknown as { Event: typeof Event }).Event("change", { bubbles: true })),
    );
    expect(visibleRows(form).has("sideInitiative")).toBe(true);
    expect(visibleRows((await boot("rnp")).renderSettingsConfig("gm1")).has("sideInitiative")).toBe(false);
  });

  it("a borrowed rule's settings show, labelled with its game", async () => {
    const world = await boot("pmt", "en", { borrowFalls: "rnp" });
    const rows = visibleRows(world.renderSettingsConfig("gm1"));
    expect(rows.get("fallRegions")).toContain("Fall regions (Rôle'n Play's rule)");
    expect(rows.get("fallOnDrop")).toContain("(Rôle'n Play's rule)");
    expect(rows.get("encounterTurn")).not.toContain("rule)");
  });

  it("follows the game and the borrowings chosen in the open form, before they are saved", async () => {
    const world = await boot("pmt");
    const form = world.renderSettingsConfig("gm1");
    expect(visibleRows(form).has("athleticsReminder")).toBe(false);
    const select = form.querySelector<HTMLSelectElement>("[name='aventure.ruleset']")!;
    select.value = "rnp";
    world.as("gm1", () =>
      select.dispatchEvent(new (world.window as unknown as { Event: typeof Event }).Event("change", { bubbles: true })),
    );
    expect(visibleRows(form).has("athleticsReminder")).toBe(true);
    expect(visibleRows(form).has("encounterTurn")).toBe(false);
    // Nothing saved: the world's game is still Portes, Monstres & Trésors.
    expect(world.as("gm1", () => game.settings.get("aventure" as never, "ruleset" as never))).toBe("pmt");
    const borrow = form.querySelector<HTMLSelectElement>("[name='aventure.borrowWandering']")!;
    borrow.value = "ose";
    world.as("gm1", () =>
      borrow.dispatchEvent(new (world.window as unknown as { Event: typeof Event }).Event("change", { bubbles: true })),
    );
    expect(visibleRows(form).get("explorationWanderingDie")).toContain("(Old-School Essentials' rule)");
  });
});

describe("the Actor data menu of each game", () => {
  it.each(LANGS.flatMap((lang) => GAMES.map((rs) => [rs, lang] as const)))(
    "%s (%s): no 5e field, no 5e term",
    async (ruleset, lang) => {
      const world = await boot(ruleset, lang);
      const app = await actorMenu(world);
      const names = fieldNames(app);
      expect(names.length).toBeGreaterThan(0);
      for (const k of ["passivePerception", "survival", "exhaustion", "conMod", "strScore"])
        expect(names, k).not.toContain(k);
      expect(forbiddenTerms(app.element.querySelector(".aventure-fields")!.innerHTML, lang)).toEqual([]);
    },
  );

  it("Polaris: its five paths only, and only the Polaris preset (the D&D 5e and OSE ones would empty them)", async () => {
    const app = await actorMenu(await boot("polaris"));
    expect(fieldNames(app)).toEqual([
      "polarisInitiative",
      "polarisReaction",
      "polarisSkillLevel",
      "polarisSkillMastery",
      "polarisAttributeLevel",
    ]);
    expect(
      [...app.element.querySelectorAll<HTMLElement>("[data-action='preset']")].map((b) => b.dataset.preset),
    ).toEqual(["polaris"]);
  });

  it("Old-School Essentials: both presets fill its speeds and hit points", async () => {
    const app = await actorMenu(await boot("ose"));
    expect(
      [...app.element.querySelectorAll<HTMLElement>("[data-action='preset']")].map((b) => b.dataset.preset),
    ).toEqual(["dnd5e", "ose"]);
  });

  it("a borrowed rule's fields show labelled; saving keeps the paths of the hidden fields", async () => {
    const world = await boot("pmt", "en", { borrowHiding: "rnp" });
    const app = await actorMenu(world);
    const label = app.element.querySelector("label[for='aventure-path-passivePerception']")!;
    expect(label.textContent).toContain("(Rôle'n Play's rule)");
    expect(fieldNames(app)).not.toContain("exhaustion");
    await world.as("gm1", () => app.submit());
    await world.settle();
    const saved = world.as("gm1", () => game.settings.get("aventure" as never, "actorData" as never)) as Record<
      string,
      string
    >;
    expect(saved.exhaustion).toBe(DND5E_PATHS.exhaustion);
    expect(saved.survival).toBe(DND5E_PATHS.survival);
  });
});
