/** The jumps panel recalls encounter movement and running (rules §2.8) where those rules exist (pmt, ose). */
import { describe, expect, it } from "vitest";
import { encounterMovementNotes, jumpPanelContext, parseHeight } from "../../src/movement/movement-context.js";
import { FakeI18n } from "../fake/i18n.js";

const en = new FakeI18n("en");
const fr = new FakeI18n("fr");
const l = (i18n: FakeI18n) => (k: string, d?: Record<string, string | number>) =>
  d ? i18n.format(k, d) : i18n.localize(k);

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
    const ctx = jumpPanelContext(
      { name: "A", ruleset: "ose", rulesetLabel: "OSE", strScore: 10, strMod: 0, height: 1.8, lang: "en" },
      l(en),
    );
    expect(ctx.encounter).toHaveLength(2);
  });
});

describe("the jumps panel reads as the tables do", () => {
  // rnp, Strength 15 (+2), 1.8 m (rules §3.2): long 0.3 × 15 = 4.5 m, standing 2.25; high 1 + 0.3 × 2 = 1.6 m,
  // standing 0.8; reach + 1.5 × 1.8; obstacle ¼ × 4.5 = 1.125 m.
  const ctx = (lang: "en" | "fr") =>
    jumpPanelContext(
      { name: "A", ruleset: "rnp", rulesetLabel: "R", strScore: 15, strMod: 2, height: 1.8, lang },
      l(lang === "fr" ? fr : en),
    ) as ReturnType<typeof jumpPanelContext> & {
      rows: { runUp: string; standing: string }[];
      obstacle: string;
      checks: string[];
      height: string;
    };
  it("to the tenth of a metre, in the user's language: the obstacle is 1,1 m, not 1,13 m", () => {
    const c = ctx("fr");
    expect(c.rows.map((r) => [r.runUp, r.standing])).toEqual([
      ["4,5 m", "2,3 m"],
      ["1,6 m", "0,8 m"],
      ["4,3 m", "3,5 m"],
    ]);
    expect(c.obstacle).toBe("Obstacle franchi pendant un saut en longueur\u00a0: jusqu’à 1,1 m.");
    expect(ctx("en").obstacle).toBe("Obstacle cleared during a long jump: up to 1.1 m.");
  });
  it("the height field shows the height as the text writes it, and reads both decimal marks", () => {
    expect(ctx("fr").height).toBe("1,8");
    expect(ctx("en").height).toBe("1.8");
    expect([
      parseHeight("1,8"),
      parseHeight(" 1.75 "),
      parseHeight("2"),
      parseHeight("-1"),
      parseHeight("abc"),
      parseHeight(""),
    ]).toEqual([1.8, 1.75, 2, null, null, null]);
  });
  it("Aventure's choice of DC is a sentence of its own (rnp gives none for the landing)", () => {
    expect(ctx("fr").checks[1]).toBe(
      "Atterrir en terrain difficile\u00a0: Dextérité (Acrobaties) DD 10, sinon la créature tombe à terre. Le DD 10 est un choix d’Aventure\u00a0: les règles n’en donnent pas.",
    );
    expect(ctx("en").checks[1]).toMatch(/prone\. The DC 10 is Aventure’s choice: the rules give none\.$/);
  });
});
