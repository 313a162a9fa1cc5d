/**
 * What each game gets (docs/rules.md §0): the features table against the §0 table, typed from the rules
 * specification (not from the code), and the borrowings.
 */
import { describe, expect, it } from "vitest";
import {
  FEATURES,
  OSE_WILDERNESS_TRAVEL,
  borrowableFeatures,
  featureLenders,
  featureOn,
  features,
  isFeature,
  isRulesError,
  type FeatureId,
  type RulesetId,
} from "../../src/rules/index.js";
import { throwsError } from "./helpers.js";

const RS: RulesetId[] = ["rnp", "dnd5e", "pmt", "ose", "polaris"];

/** §0, one row per feature, in the order rnp, dnd5e, pmt, ose, polaris (1 = on, 0 = off). */
const EXPECTED: Record<FeatureId, [number, number, number, number, number]> = {
  // light level at a token: on, on, shown (no effect) ×3
  lightLevel: [1, 1, 1, 1, 1],
  lightEffects: [1, 1, 0, 0, 0],
  hiding: [1, 1, 0, 0, 0],
  detection: [1, 1, 0, 0, 0],
  // pmt: encounter movement and running; ose: encounter movement, running (OSE rule); polaris off
  movementCosts: [1, 1, 1, 1, 0],
  jumps: [1, 1, 0, 0, 0],
  // pmt: "off unless its own rules say" (its book has none); ose: the OSE SRD has one (1d6 per 10′)
  falls: [1, 1, 0, 1, 0],
  suffocation: [1, 1, 0, 0, 0],
  foodWater: [1, 1, 0, 0, 0],
  // ose: off until OSE wilderness travel exists (checked below with the switch)
  travel: [1, 1, 0, 0, 0],
  marchingOrder: [1, 1, 0, 0, 0],
  // minutes (rnp), off (dnd5e), turns (pmt, ose)
  exploration: [1, 0, 1, 1, 0],
  wandering: [0, 0, 1, 1, 0],
  encounter: [0, 0, 1, 1, 0],
  sideInitiative: [0, 0, 1, 1, 0],
  pursuit: [0, 0, 1, 1, 0],
  polaris: [0, 0, 0, 0, 1],
};

describe("features (docs/rules.md §0)", () => {
  it("lists exactly the features of the table", () => {
    expect([...FEATURES].sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(RS.map((r, i) => [r, i] as const))(
    "%s: each feature on or off as §0 says, with a source when on",
    (rs, i) => {
      const got = features(rs);
      for (const f of FEATURES) {
        const expected = f === "travel" && rs === "ose" ? OSE_WILDERNESS_TRAVEL : EXPECTED[f][i] === 1;
        expect({ f, on: got[f].on }).toEqual({ f, on: expected });
        expect(got[f].borrowed).toBe(false);
        if (got[f].on) {
          expect(typeof got[f].source).toBe("string");
          expect(got[f].from).toBe(rs);
        } else {
          expect(got[f].source).toBeNull();
          expect(got[f].from).toBeNull();
        }
      }
    },
  );

  it("names the sources: Old-School Essentials' falls from the OSE SRD, the scene's light with no effect", () => {
    expect(features("ose").falls.source).toMatch(/OSE SRD.*Hazards and Challenges/);
    expect(features("pmt").lightLevel.source).toMatch(/no rule effect/);
    expect(features("polaris").lightLevel.source).toMatch(/no rule effect/);
    expect(features("rnp").lightLevel.source).toBe("Rôle'n Play");
    expect(features("dnd5e").hiding.source).toMatch(/5e SRD/);
    expect(features("rnp").marchingOrder.source).toMatch(/5e SRD/);
    expect(features("pmt").encounter.source).toBe("Portes, Monstres & Trésors");
    expect(features("polaris").polaris.source).toBe("Polaris");
  });

  it("travel under ose follows the switch, and so does borrowing it from ose", () => {
    expect(featureLenders("travel").includes("ose")).toBe(OSE_WILDERNESS_TRAVEL);
    expect(features("pmt", { travel: "ose" }).travel.on).toBe(OSE_WILDERNESS_TRAVEL);
  });

  it("a feature may be borrowed only from a game whose own rule it is", () => {
    expect(featureLenders("falls")).toEqual(["rnp", "dnd5e", "ose"]);
    expect(featureLenders("jumps")).toEqual(["rnp", "dnd5e"]);
    expect(featureLenders("sideInitiative")).toEqual(["pmt", "ose"]);
    expect(featureLenders("polaris")).toEqual(["polaris"]);
    expect(featureLenders("exploration")).toEqual(["rnp", "pmt", "ose"]);
    expect(borrowableFeatures("pmt")).toContain("falls");
    expect(borrowableFeatures("pmt")).not.toContain("encounter");
    expect(borrowableFeatures("rnp")).not.toContain("lightLevel");
    expect(borrowableFeatures("polaris")).toContain("movementCosts");
  });

  it("a borrowed feature is on, labelled with the game it comes from and that game's source", () => {
    const pmt = features("pmt", { falls: "rnp", jumps: "dnd5e" });
    expect(pmt.falls).toEqual({ on: true, source: "Rôle'n Play", borrowed: true, from: "rnp" });
    expect(pmt.jumps).toMatchObject({ on: true, borrowed: true, from: "dnd5e" });
    expect(pmt.hiding.on).toBe(false);
    expect(featureOn("pmt", "falls", { falls: "rnp" })).toBe(true);
    expect(featureOn("pmt", "falls")).toBe(false);
    expect(features("rnp", { sideInitiative: "ose" }).sideInitiative).toMatchObject({
      on: true,
      borrowed: true,
      from: "ose",
    });
  });

  it("ignores a borrowing from a game without the rule, or of a feature the game has itself", () => {
    expect(features("pmt", { falls: "polaris" }).falls.on).toBe(false);
    expect(features("pmt", { falls: "pmt" }).falls.on).toBe(false);
    expect(features("pmt", { hiding: "nowhere" as RulesetId }).hiding.on).toBe(false);
    expect(features("rnp", { falls: "ose" }).falls).toEqual({
      on: true,
      source: "Rôle'n Play",
      borrowed: false,
      from: "rnp",
    });
  });

  it("refuses an unknown ruleset or feature with a RulesError", () => {
    for (const bad of [
      () => features("gurps" as RulesetId),
      () => featureLenders("flying" as FeatureId),
      () => featureOn("rnp", "x" as FeatureId),
      () => features("rnp", null as never),
    ]) {
      let error: unknown;
      try {
        bad();
      } catch (e) {
        error = e;
      }
      expect(isRulesError(error)).toBe(true);
    }
  });
});

describe("falls under Old-School Essentials (OSE SRD: 1d6 per 10′ fallen)", () => {
  it("1d6 per full 3 m, no 20d6 maximum, no damage type, no prone", async () => {
    const { fallDice, fallFormula, fallRules } = await import("../../src/rules/index.js");
    expect(fallFormula(9, "ose")).toBe("3d6");
    expect(fallDice(2.9, "ose")).toBe(0);
    expect(fallDice(90, "ose")).toBe(30); // Rôle'n Play stops at 20
    expect(fallDice(90, "rnp")).toBe(20);
    expect(fallRules("ose")).toMatchObject({ damageType: null, proneOnDamage: false });
    expect(fallRules("dnd5e")).toMatchObject({ damageType: "bludgeoning", proneOnDamage: true });
  });
});

describe("features (docs/rules.md §0): whole lists and whole errors", () => {
  const ALL =
    "lightLevel, lightEffects, hiding, detection, movementCosts, jumps, falls, suffocation, foodWater, travel, marchingOrder, exploration, wandering, encounter, sideInitiative, pursuit, polaris";
  it("each ruleset may borrow exactly the features off for it that another game has (the §0 table, in its order)", () => {
    expect(borrowableFeatures("rnp")).toEqual(["wandering", "encounter", "sideInitiative", "pursuit", "polaris"]);
    expect(borrowableFeatures("dnd5e")).toEqual([
      "exploration",
      "wandering",
      "encounter",
      "sideInitiative",
      "pursuit",
      "polaris",
    ]);
    expect(borrowableFeatures("pmt")).toEqual([
      "lightEffects",
      "hiding",
      "detection",
      "jumps",
      "falls",
      "suffocation",
      "foodWater",
      "travel",
      "marchingOrder",
      "polaris",
    ]);
    expect(borrowableFeatures("ose")).toEqual([
      "lightEffects",
      "hiding",
      "detection",
      "jumps",
      "suffocation",
      "foodWater",
      "marchingOrder",
      "polaris",
    ]);
    expect(borrowableFeatures("polaris")).toEqual([
      "lightEffects",
      "hiding",
      "detection",
      "movementCosts",
      "jumps",
      "falls",
      "suffocation",
      "foodWater",
      "travel",
      "marchingOrder",
      "exploration",
      "wandering",
      "encounter",
      "sideInitiative",
      "pursuit",
    ]);
  });
  it("lenders are the rulesets in whose column the feature is on, in the order rnp, dnd5e, pmt, ose, polaris", () => {
    expect(featureLenders("lightLevel")).toEqual(["rnp", "dnd5e", "pmt", "ose", "polaris"]);
    expect(featureLenders("movementCosts")).toEqual(["rnp", "dnd5e", "pmt", "ose"]);
    expect(featureLenders("wandering")).toEqual(["pmt", "ose"]);
  });
  it("a feature off and not borrowed is entirely off; a borrowing that is not own, not a string or from nowhere counts for nothing", () => {
    const off = { on: false, source: null, borrowed: false, from: null };
    expect(features("pmt").hiding).toEqual(off);
    expect(features("pmt", { hiding: "ose" }).hiding).toEqual(off);
    expect(features("pmt", { hiding: 1 as never }).hiding).toEqual(off);
    expect(features("pmt", { hiding: null }).hiding).toEqual(off);
    expect(features("pmt", Object.create({ hiding: "rnp" }) as never).hiding).toEqual(off);
    expect(features("pmt", { hiding: "dnd5e" }).hiding).toEqual({
      on: true,
      source: "D&D 5e SRD (the same numbers as Rôle'n Play)",
      borrowed: true,
      from: "dnd5e",
    });
    expect(features("dnd5e").marchingOrder).toEqual({ on: true, source: "D&D 5e SRD", borrowed: false, from: "dnd5e" });
    expect(features("rnp").marchingOrder).toEqual({
      on: true,
      source: "D&D 5e SRD (Rôle'n Play is derived from 5e)",
      borrowed: false,
      from: "rnp",
    });
  });
  it("every feature is on for at least one game, so it can be borrowed", () => {
    for (const f of FEATURES) expect({ f, lenders: featureLenders(f).length > 0 }).toEqual({ f, lenders: true });
  });
  it("is a feature: the §0 ids only", () => {
    expect(isFeature("falls")).toBe(true);
    expect(isFeature("flying")).toBe(false);
    expect(isFeature(7)).toBe(false);
  });
  it("names what it refuses: the feature and the allowed ids, the ruleset, the borrowings", () => {
    throwsError(() => featureLenders("flying" as FeatureId), "UnknownValue", {
      name: "feature",
      value: "flying",
      allowed: ALL,
    });
    throwsError(() => featureOn("rnp", "x" as FeatureId), "UnknownValue", {
      name: "feature",
      value: "x",
      allowed: ALL,
    });
    throwsError(() => features("gurps" as RulesetId), "UnknownRuleset", { value: "gurps" });
    throwsError(() => borrowableFeatures("gurps" as RulesetId), "UnknownRuleset", { value: "gurps" });
    throwsError(() => features("rnp", null as never), "Missing", { name: "borrowed" });
    throwsError(() => features("rnp", [] as never), "Missing", { name: "borrowed" });
  });
});
