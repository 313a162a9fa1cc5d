/** The jumps panel recalls encounter movement and running (rules §2.8) where those rules exist (pmt, ose). */
import { describe, expect, it } from "vitest";
import { encounterMovementNotes, jumpPanelContext } from "../../src/apps/movement-context.js";
import { FakeI18n } from "../fake/i18n.js";

const en = new FakeI18n("en");
const fr = new FakeI18n("fr");
const l = (i18n: FakeI18n) => (k: string, d?: Record<string, string | number>) => (d ? i18n.format(k, d) : i18n.localize(k));

describe("encounter movement notes (§2.8)", () => {
  it("ose: a third of the rate for at most 60 rounds; running 30 rounds, OSE's own rule", () => {
    expect(encounterMovementNotes("ose", l(en))).toEqual([
      "Encounter movement: a third of the exploration rate per round (rate ÷ 3), for at most 60 rounds (one turn).",
      "Running: the exploration rate per round, for at most 30 rounds; then exhausted until 3 turns of rest (an Old-School Essentials rule; the French text Aventure follows has none).",
    ]);
    expect(encounterMovementNotes("ose", l(fr))[0]).toBe(
      "Déplacement en rencontre\u00a0: le tiers du déplacement d\u2019exploration par round (déplacement ÷ 3), pendant 60 rounds au plus (un tour).",
    );
  });
  it("pmt: no encounter movement limit; running 30 rounds then exhausted", () => {
    expect(encounterMovementNotes("pmt", l(en))).toEqual([
      "Encounter movement: a third of the exploration rate per round (rate ÷ 3).",
      "Running: the exploration rate per round, for at most 30 rounds; then the runner is exhausted.",
    ]);
  });
  it("nothing for the rulesets without these rules", () => {
    for (const rs of ["rnp", "dnd5e", "polaris"] as const) expect(encounterMovementNotes(rs, l(en))).toEqual([]);
  });
  it("is part of the jumps panel", () => {
    const ctx = jumpPanelContext({ name: "A", ruleset: "ose", rulesetLabel: "OSE", strScore: 10, strMod: 0, height: 1.8, lang: "en" }, l(en));
    expect(ctx.encounter).toHaveLength(2);
  });
});
