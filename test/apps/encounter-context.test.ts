/**
 * The encounter card's distance line, and a visible label for every checkbox of Aventure's windows (the Encounter,
 * Pursuit and Actor data windows, rendered from their samples with the real Handlebars and parsed by happy-dom).
 */
import { describe, expect, it } from "vitest";
import { Window } from "happy-dom";
import { distanceContext } from "../../src/encounter/encounter-context.js";
import { makeHandlebars, renderWith } from "../fake/handlebars.js";
import { FakeI18n } from "../fake/i18n.js";
import { SAMPLES } from "../templates/samples.js";

describe("the encounter card's distance", () => {
  it("one die: '1d4 → 3, × 10 m' (RULES.md §7.1: ose outdoors with surprise, 1d4 × 10 m)", () => {
    expect(distanceContext({ metres: 30, dice: [3], formula: "1d4*10", multiplier: 10 })).toEqual({
      metres: 30,
      dice: "1d4",
      roll: "3",
      multiplier: 10,
    });
  });
  it("several dice: each die, then their sum ('4d6 → 3 + 5 + 2 + 6 = 16'), then the metres per point", () => {
    expect(distanceContext({ metres: 160, dice: [3, 5, 2, 6], formula: "4d6*10", multiplier: 10 })).toEqual({
      metres: 160,
      dice: "4d6",
      roll: "3 + 5 + 2 + 6 = 16",
      multiplier: 10,
    });
    expect(distanceContext({ metres: 27, dice: [4, 5], formula: "2d6*3", multiplier: 3 })).toMatchObject({
      dice: "2d6",
      roll: "4 + 5 = 9",
      multiplier: 3,
    });
  });
  it("renders on the card without the old '1d4 × 10 m → 3'", () => {
    for (const lang of ["en", "fr"] as const) {
      const i18n = new FakeI18n(lang);
      const l = (k: string, d?: Record<string, unknown>) => (d ? i18n.format(k, d) : i18n.localize(k));
      const html = renderWith(
        makeHandlebars(l, lang),
        "modules/aventure/templates/encounter/card.hbs",
        SAMPLES["encounter/card.hbs"]!.context(l),
      );
      const text = html.replace(/<[^>]+>/g, "").replace(/\s+/g, " ");
      expect(text).toContain("30 m (1d4 → 3, × 10 m)");
      expect(text).not.toContain("× 10 m →");
    }
  });
});

describe("every checkbox of Aventure's windows has a visible label", () => {
  const windows = ["encounter/dialog.hbs", "pursuit/dialog.hbs", "actor-data.hbs"];
  it.each(windows)("%s", (name) => {
    const i18n = new FakeI18n("en");
    const l = (k: string, d?: Record<string, unknown>) => (d ? i18n.format(k, d) : i18n.localize(k));
    const html = renderWith(makeHandlebars(l, "en"), `modules/aventure/templates/${name}`, SAMPLES[name]!.context(l));
    const doc = new Window().document;
    doc.body.innerHTML = html;
    const boxes = [...doc.querySelectorAll("input[type=checkbox]")];
    const unlabelled = boxes.filter((box) => {
      const wrapping = box.closest("label");
      const byFor = box.id ? doc.querySelector(`label[for="${box.id}"]`) : null;
      const label = wrapping ?? byFor;
      return !label || !label.textContent!.trim();
    });
    expect(unlabelled.map((b) => b.getAttribute("name"))).toEqual([]);
  });
});
