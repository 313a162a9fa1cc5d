/**
 * The first-run window, "Which game do you play here?" (src/welcome/WelcomeDialog.ts, src/welcome/welcome.ts), in the
 * test world: it opens at the `ready` of the active GM while no game was chosen, never for a player nor for a second
 * GM; choosing a game writes the ruleset, the actor-data preset and the borrowed rules, then opens the game's First
 * steps page; `api.openWelcome()` and the settings menu open it again.
 */
import { describe, expect, it, vi } from "vitest";
import { bootWorld, GM, GM2, PLAYER, type FakeClient, type FakeWorld } from "../world/index.js";
import { DND5E_PATHS, OSE_PATHS } from "../../src/actors/presets.js";
import { GUIDE_JOURNALS, GUIDE_PAGES } from "../../packs-src/guide/pages.mjs";
import { GUIDE_PACK_ID } from "../../src/core/guide.js";
import { BORROWABLE_FEATURES, borrowSettingKey } from "../../src/core/core-settings.js";
import { choiceMatches, GAME_CHOICES, welcomeContext } from "../../src/welcome/welcome-context.js";
import { FakeI18n } from "../fake/i18n.js";

vi.setConfig({ testTimeout: 30_000 });

type Win = {
  click(selector: string): Promise<void>;
  element: HTMLElement;
  rendered: boolean;
  close(): Promise<unknown>;
};

/** Boots a world that records, per user, each first-run window opened and each guide page opened. */
async function boot(users: { id: string; isGM: boolean }[], system = "dnd5e") {
  const opened: { user: string; app: Win }[] = [];
  const pages: { user: string; journal: string; pageId: string }[] = [];
  const extend = (c: FakeClient) => {
    // The guide compendium (game.packs, a collection of packs by id; pack.getDocument(id) → the journal), as guide.test.ts stubs it.
    const getDocument = async (id: string) => ({
      sheet: { render: (o: { pageId: string }) => pages.push({ user: c.user.id, journal: id, pageId: o.pageId }) },
    });
    (c.game as Record<string, unknown>).packs = new Map([[GUIDE_PACK_ID, { getDocument }]]);
    // Each opening once: an open Aventure window renders again when the game or a borrowed rule changes.
    const open = new Set<unknown>();
    c.hooks.on(
      "renderWelcomeDialog",
      (app: unknown) => void (open.has(app) || (open.add(app), opened.push({ user: c.user.id, app: app as Win }))),
    );
    c.hooks.on("closeWelcomeDialog", (app: unknown) => void open.delete(app));
  };
  const world = await bootWorld({ system, users, extend });
  return { world, opened, pages };
}

const get = (world: FakeWorld, key: string, user = "gm1") =>
  world.as(user, () => game.settings.get("aventure" as never, key as never)) as unknown;
const pageId = (key: string, lang: "en" | "fr" = "en") => GUIDE_PAGES.find((p) => p.key === key)!.ids[lang];

describe("the first-run window", () => {
  it("opens at the active GM's ready in a world where no game was chosen, and again while none is", async () => {
    const { world, opened } = await boot([GM]);
    expect(opened.map((o) => o.user)).toEqual(["gm1"]);
    expect(opened[0]!.app.element.querySelector(".window-title")!.textContent).toBe("Your game");
    expect(opened[0]!.app.element.querySelector(".aventure-welcome-question")!.textContent).toBe(
      "Which game do you play here?",
    );
    // Closed without a choice: no game was chosen, so the next start asks again.
    await world.as("gm1", () => opened[0]!.app.close());
    await world.reload("gm1");
    expect(opened.map((o) => o.user)).toEqual(["gm1", "gm1"]);
    expect(world.notifications.filter((n) => n.type !== "info")).toEqual([]);
  });

  it("never opens for a player, nor for a second GM", async () => {
    const { world, opened } = await boot([GM, GM2, PLAYER]);
    expect(opened.map((o) => o.user)).toEqual(["gm1"]);
    await world.reload("gm2");
    await world.reload("p1");
    expect(opened.map((o) => o.user)).toEqual(["gm1"]);
    // A player alone in the world (no GM): nothing either.
    const alone = await boot([{ ...GM, active: false } as never, PLAYER]);
    expect(alone.opened).toEqual([]);
  });

  it("marks the games that fit the running system", async () => {
    const { opened } = await boot([GM], "ose");
    const marked = [...opened[0]!.app.element.querySelectorAll(".aventure-welcome-choice.aventure-match")].map(
      (b) => (b as HTMLElement).dataset.game,
    );
    expect(marked).toEqual(["pmt", "ose", "polaris"]); // Polaris fits every system (Aventure's own character type)
    const buttons = [...opened[0]!.app.element.querySelectorAll("[data-action='choose']")].map(
      (b) => (b as HTMLElement).dataset.game,
    );
    expect(buttons).toEqual(["rnp", "dnd5e", "pmt", "ose", "polaris", "other"]);
    expect(opened[0]!.app.element.textContent).toContain("This world runs the ose game system.");
  });

  it("choosing a game sets the ruleset, the actor-data preset and the borrowed rules, then opens its First steps page; it does not open again", async () => {
    const { world, opened, pages } = await boot([GM, PLAYER], "ose");
    await world.as("gm1", async () => {
      await game.settings.set("aventure" as never, "ruleset" as never, "pmt" as never);
      await game.settings.set("aventure" as never, "borrowFalls" as never, "rnp" as never);
      await game.settings.set("aventure" as never, "borrowTravel" as never, "ose" as never);
    });
    await world.settle(); // the open window renders again in the new game's words
    await world.as("gm1", () => opened[0]!.app.click("[data-game='ose']"));
    await world.settle();
    expect(get(world, "ruleset")).toBe("ose");
    expect(get(world, "actorData")).toEqual(OSE_PATHS);
    for (const f of BORROWABLE_FEATURES) expect(get(world, borrowSettingKey(f)), f).toBe("none");
    expect(get(world, "welcomeDone")).toBe(true);
    expect(get(world, "ruleset", "p1")).toBe("ose"); // a world setting: every client reads it
    expect(opened[0]!.app.rendered).toBe(false);
    expect(pages).toEqual([{ user: "gm1", journal: GUIDE_JOURNALS.en.id, pageId: pageId("start-ose") }]);
    expect(world.notifications).toContainEqual({
      user: "gm1",
      type: "info",
      message: "Aventure follows Old-School Essentials in this world.",
    });
    // The game is chosen: the next start does not ask again.
    await world.reload("gm1");
    expect(opened).toHaveLength(1);
  });

  it("Rôle'n Play on dnd5e takes the D&D 5e preset; Polaris keeps the paths; another game changes no rule", async () => {
    const { world, opened, pages } = await boot([GM], "dnd5e");
    await world.as("gm1", () => opened[0]!.app.click("[data-game='rnp']"));
    await world.settle();
    expect(get(world, "ruleset")).toBe("rnp");
    expect(get(world, "actorData")).toEqual(DND5E_PATHS);

    const api = world.api<{ openWelcome(): Promise<Win | null> }>("gm1");
    const custom = { ...DND5E_PATHS, polarisInitiative: "system.attributes.init.value" };
    await world.as("gm1", () => game.settings.set("aventure" as never, "actorData" as never, custom as never));
    const again = (await world.as("gm1", () => api.openWelcome()))!;
    await world.settle();
    expect(again.element.querySelector(".aventure-current")!.getAttribute("data-game")).toBe("rnp");
    await world.as("gm1", () => again.click("[data-game='polaris']"));
    await world.settle();
    expect(get(world, "ruleset")).toBe("polaris");
    expect(get(world, "actorData")).toEqual(custom);

    const third = (await world.as("gm1", () => api.openWelcome()))!;
    await world.as("gm1", () => third.click("[data-game='other']"));
    await world.settle();
    expect(get(world, "ruleset")).toBe("polaris");
    expect(pages.map((p) => p.pageId)).toEqual([pageId("start-rnp"), pageId("start-polaris"), pageId("settings")]);
  });

  it("api.openWelcome() opens it for a GM, in the GM's language; a player is told only a GM chooses, and nothing opens", async () => {
    const { world, opened } = await boot([GM, { ...PLAYER, lang: "fr" } as never]);
    await world.as("gm1", () => opened[0]!.app.click("[data-game='dnd5e']"));
    await world.settle();
    const api = world.api<{ openWelcome(): Promise<Win | null> }>("gm1");
    const app = await world.as("gm1", () => api.openWelcome());
    expect(app).not.toBeNull();
    expect(opened).toHaveLength(2);
    const playerApi = world.api<{ openWelcome(): Promise<Win | null> }>("p1");
    expect(await world.as("p1", () => playerApi.openWelcome())).toBeNull();
    expect(opened).toHaveLength(2);
    expect(world.notifications).toContainEqual({
      user: "p1",
      type: "warn",
      message: "Seul un MJ choisit le jeu du monde.",
    });
    expect(world.writes.filter((w) => w.user === "p1")).toEqual([]);
  });

  it("is a settings menu for GMs (restricted), whose button opens the same window", async () => {
    const { world, opened } = await boot([GM]);
    const menu = world.clientOf("gm1").menus.get("aventure.welcomeMenu") as unknown as {
      type: new () => { render(o: object): Promise<unknown> };
      restricted: boolean;
      label: string;
    };
    expect(menu.restricted).toBe(true);
    expect(menu.label).toBe("AVENTURE.Welcome.menuLabel");
    await world.as("gm1", () => new menu.type().render({ force: true }));
    expect(opened).toHaveLength(2);
  });
});

describe("the window's choices (pure)", () => {
  it("say for each game what Aventure does and which system it expects, and mark the running system's", () => {
    const i18n = new FakeI18n("en");
    const ctx = welcomeContext(
      { systemId: "worldbuilding", systemTitle: "Simple Worldbuilding", ruleset: null },
      (k, d) => (d ? i18n.format(k, d) : i18n.localize(k)),
    );
    expect(ctx.choices.map((c) => c.id)).toEqual([...GAME_CHOICES]);
    expect(ctx.choices.filter((c) => c.matches).map((c) => c.id)).toEqual(["polaris", "other"]);
    expect(ctx.choices.find((c) => c.id === "rnp")!.expects).toBe("Foundry system: D&D Fifth Edition (dnd5e).");
    expect(ctx.choices.find((c) => c.id === "pmt")!.expects).toBe("Foundry system: Old-School Essentials (ose).");
    expect(ctx.choices.find((c) => c.id === "polaris")!.expects).toMatch(/^Foundry system: none exists for Polaris/);
    expect(ctx.system).toBe("This world runs the Simple Worldbuilding (worldbuilding) game system.");
    expect(choiceMatches("dnd5e", "dnd5e") && choiceMatches("rnp", "dnd5e") && !choiceMatches("ose", "dnd5e")).toBe(
      true,
    );
    expect(choiceMatches("ose", "ose-dev")).toBe(true);
    // Polaris needs no system: its characters are Aventure's own actor type, on any system.
    expect(["dnd5e", "ose", "worldbuilding"].map((s) => choiceMatches("polaris", s))).toEqual([true, true, true]);
  });
});
