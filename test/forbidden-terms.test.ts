/**
 * No D&D 5e word in a game that has none (docs/rules.md §0): the list catches a planted term; the windows, cards and
 * HUD parts of Portes, Monstres & Trésors, Old-School Essentials and Polaris, rendered in both languages, show none;
 * a borrowed rule shows labelled with the game it comes from.
 */
import { describe, expect, it, vi } from "vitest";
import { forbiddenTerms } from "./forbidden-terms.js";
import { makeHandlebars, renderWith } from "./fake/handlebars.js";
import { FakeI18n } from "./fake/i18n.js";
import { SAMPLES } from "./templates/samples.js";
import { addDnd5eActor, bootWorld, GM, viewScene, type FakeWorld } from "./world/index.js";
import { jumpPanelContext } from "../src/movement/movement-context.js";

vi.setConfig({ testTimeout: 60_000 });

const LANGS = ["en", "fr"] as const;
const render = (name: string, lang: "en" | "fr") => {
  const i18n = new FakeI18n(lang);
  const l = (k: string, d?: Record<string, unknown>) => (d ? i18n.format(k, d) : i18n.localize(k));
  return renderWith(
    makeHandlebars(l, lang),
    `modules/aventure/templates/${name.split("#")[0]}`,
    SAMPLES[name]!.context(l),
  );
};

/** The samples that show a game without 5e words, each as that game renders it (test/templates/samples/). */
const GAME_VIEWS = [
  // Portes, Monstres & Trésors and Old-School Essentials: encounters, side initiative, pursuit, exploration turns
  "encounter/dialog.hbs",
  "encounter/card.hbs",
  "encounter/side-round.hbs",
  "encounter/tracker-sides.hbs",
  "pursuit/dialog.hbs",
  "pursuit/card.hbs",
  "pursuit/log.hbs",
  "exploration/panel.hbs",
  "exploration/card.hbs",
  "movement/jumps.hbs#pmt",
  "movement/fall-card.hbs#ose",
  "movement/fall-dialog.hbs#ose",
  "light/hud.hbs#ose",
  // Every game: the first-run window, seen before any game is chosen
  "welcome.hbs",
  // Polaris
  "polaris/test-dialog.hbs",
  "polaris/test-dialog.hbs#attribute",
  "polaris/test-summary.hbs",
  "polaris/test-summary.hbs#critical",
  "polaris/test-card.hbs",
  "polaris/test-card.hbs#intention",
  "polaris/intention.hbs",
  "polaris/tracker-phases.hbs",
  "polaris/delay.hbs",
];

describe("the forbidden 5e terms", () => {
  it("catch a planted term, in each language, and only whole words", () => {
    expect(forbiddenTerms("<p>Make a <b>DC 10</b> Strength (Athletics) check.</p>", "en")).toEqual(["DC", "Athletics"]);
    expect(forbiddenTerms("Test de Dextérité (Discrétion) DD\u00a012", "fr")).toEqual(["DD", "Discrétion"]);
    expect(forbiddenTerms("apply 2 exhaustion levels by hand", "en")).toEqual(["exhaustion levels"]);
    expect(forbiddenTerms("Perception passive 14 ; JS de Constitution", "fr")).toEqual([
      "Perception passive",
      "JS de Constitution",
    ]);
    // Only whole words: "ADDED" holds "DD", "stealthy" holds "stealth", neither is the term.
    expect(forbiddenTerms("ADDED stealthy middle", "en")).toEqual([]);
    expect(forbiddenTerms("Le MJ décide. ADDED", "fr")).toEqual([]);
  });

  it("catch the 5e terms of Rôle'n Play's own jumps panel (the check is not vacuous)", () => {
    for (const lang of LANGS) {
      const i18n = new FakeI18n(lang);
      const l = (k: string, d?: Record<string, unknown>) => (d ? i18n.format(k, d) : i18n.localize(k));
      const ctx = jumpPanelContext(
        { name: "A", ruleset: "rnp", rulesetLabel: "R", strScore: 15, strMod: 2, height: 1.8, lang },
        l,
      );
      const html = renderWith(makeHandlebars(l, lang), "modules/aventure/templates/movement/jumps.hbs", ctx);
      expect(forbiddenTerms(html, lang).length).toBeGreaterThan(0);
    }
  });

  it.each(LANGS.flatMap((lang) => GAME_VIEWS.map((name) => [name, lang] as const)))("%s (%s): none", (name, lang) => {
    expect(SAMPLES[name], name).toBeDefined();
    expect(forbiddenTerms(render(name, lang), lang)).toEqual([]);
  });
});

describe("the Obscurity region behaviour, registered in every world", () => {
  it.each(LANGS)(
    "%s: its 5e hint starts with the games it comes from (the browser check leaves such a labelled row out)",
    (lang) => {
      const i18n = new FakeI18n(lang);
      const hint = i18n.localize("AVENTURE.Light.ObscurityRegion.FIELDS.level.hint");
      expect(hint.startsWith(i18n.localize("AVENTURE.Feature.from.rnpDnd5e"))).toBe(true);
      expect(forbiddenTerms(hint, lang).length).toBeGreaterThan(0);
    },
  );
});

describe("the token HUD of each game without 5e words", () => {
  async function hudText(ruleset: string, lang: "en" | "fr", borrow: Record<string, string> = {}) {
    const world: FakeWorld = await bootWorld({ users: [{ ...GM, lang }] });
    const scene = world.addScene({ _id: "s1" });
    for (const c of world.liveClients()) viewScene(world, c, scene);
    addDnd5eActor(world, { id: "aldric", name: "Aldric", abilities: { str: 15 } });
    const token = world.addToken(scene, {
      _id: "tA",
      name: "Aldric",
      actorId: "aldric",
      actorLink: true,
      disposition: 1,
    });
    await world.as("gm1", () => game.settings.set("aventure" as never, "ruleset" as never, ruleset as never));
    for (const [k, v] of Object.entries(borrow))
      await world.as("gm1", () => game.settings.set("aventure" as never, k as never, v as never));
    await world.settle();
    const root = world.renderTokenHUD(token, "gm1");
    return [...root.querySelectorAll(".aventure-hud-palette button")]
      .map((b) => `${b.textContent} ${b.getAttribute("data-tooltip") ?? ""} ${b.getAttribute("aria-label") ?? ""}`)
      .join(" | ");
  }

  it.each(LANGS.flatMap((lang) => (["pmt", "ose", "polaris"] as const).map((rs) => [rs, lang] as const)))(
    "%s (%s)",
    async (ruleset, lang) => {
      const text = await hudText(ruleset, lang);
      expect(text.length).toBeGreaterThan(0);
      expect(forbiddenTerms(text, lang)).toEqual([]);
    },
  );

  it("a borrowed rule brings its words with its label", async () => {
    const text = await hudText("pmt", "en", { borrowHiding: "rnp" });
    expect(text).toContain("(Rôle'n Play's rule)");
  });
});
