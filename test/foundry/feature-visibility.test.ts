/**
 * Which settings and actor-data fields each game shows (docs/rules.md §0, src/core/feature-visibility.ts): the lists
 * per ruleset are read off the §0 table (which features are on) as literals; every setting of the form is classified;
 * a borrowed rule brings its settings and fields, labelled with the game it comes from.
 */
import { describe, expect, it } from "vitest";
import {
  borrowedFeatureOf,
  fieldVisibility,
  FIELD_NEEDS,
  SETTING_NEEDS,
  settingVisibility,
} from "../../src/core/feature-visibility.js";
import { ACTOR_DATA_FIELDS } from "../../src/core/core-settings.js";
import { declaredSettings } from "../fixtures/declared-settings.js";
import { features, RULESETS, type FeatureBorrowings, type RulesetId } from "../../src/rules/index.js";

const schema = declaredSettings("dnd5e");
const CONFIG_KEYS = Object.keys(schema).filter((k) => schema[k]!.config);
const shownSettings = (rs: RulesetId, borrowed: FeatureBorrowings = {}, values = {}) =>
  CONFIG_KEYS.filter((k) => settingVisibility(k, rs, features(rs, borrowed), values).show);
const shownFields = (rs: RulesetId, borrowed: FeatureBorrowings = {}) =>
  ACTOR_DATA_FIELDS.filter((k) => fieldVisibility(k, features(rs, borrowed)).show);

/** Settings that belong to no feature: every game shows them (the game, distances, the light level at a token). */
const ALWAYS = ["ruleset", "distanceDisplay", "feetFactor", "lightIcons", "lightThresholdBright", "lightThresholdDim"];
/** Settings decided case by case (settingVisibility's switch). */
const SPECIAL = ["travelPmtLostRoll", "sideInitiative", "sideTies"];

describe("every setting of the form is classified", () => {
  it("a feature's, a borrowing, a special case, or one that every game shows", () => {
    for (const k of CONFIG_KEYS) {
      const kinds = [k in SETTING_NEEDS, borrowedFeatureOf(k) !== null, SPECIAL.includes(k), ALWAYS.includes(k)].filter(
        Boolean,
      );
      expect(kinds, k).toHaveLength(1);
    }
    expect(Object.keys(FIELD_NEEDS).sort()).toEqual([...ACTOR_DATA_FIELDS].sort());
  });
});

describe("the actor-data fields of each game (§0)", () => {
  it("Portes, Monstres & Trésors: encounter movement only (speeds); no Perception, Survival, Constitution or exhaustion", () => {
    expect(shownFields("pmt")).toEqual(["walk", "climb", "swim", "fly", "speedUnit"]);
  });
  it("Old-School Essentials: Charisma for the reaction roll, speeds, hit points for falls", () => {
    expect(shownFields("ose")).toEqual(["chaMod", "walk", "climb", "swim", "fly", "speedUnit", "hp", "hpMax"]);
  });
  it("Polaris: its skills, attributes, Initiative and Réaction only", () => {
    expect(shownFields("polaris")).toEqual([
      "polarisInitiative",
      "polarisReaction",
      "polarisSkillLevel",
      "polarisSkillMastery",
      "polarisAttributeLevel",
    ]);
  });
  it("Rôle'n Play and D&D 5e: every 5e value, no Polaris path, no Charisma (their encounters are off)", () => {
    const fivee = [
      "strScore",
      "strMod",
      "dexMod",
      "conMod",
      "passivePerception",
      "survival",
      "darkvision",
      "blindsight",
      "truesight",
      "sensesUnit",
      "walk",
      "climb",
      "swim",
      "fly",
      "speedUnit",
      "hp",
      "hpMax",
      "exhaustion",
    ];
    expect(shownFields("rnp")).toEqual(fivee);
    expect(shownFields("dnd5e")).toEqual(fivee);
  });
  it("a borrowed rule brings its fields, labelled with its game; a field the game reads itself is not labelled", () => {
    const f = features("pmt", { hiding: "rnp" });
    expect(fieldVisibility("passivePerception", f)).toEqual({ show: true, borrowedFrom: "rnp" });
    expect(fieldVisibility("walk", f)).toEqual({ show: true, borrowedFrom: null });
    expect(shownFields("pmt", { hiding: "rnp" })).toContain("darkvision");
    // Polaris borrowing Old-School Essentials' falls: hit points and fly, labelled.
    expect(fieldVisibility("hp", features("polaris", { falls: "ose" }))).toEqual({ show: true, borrowedFrom: "ose" });
    // Old-School Essentials' own travel reads no Survival; D&D 5e's, borrowed by Portes, Monstres & Trésors, does.
    expect(shownFields("ose")).not.toContain("survival");
    expect(fieldVisibility("survival", features("pmt", { travel: "dnd5e" }))).toEqual({
      show: true,
      borrowedFrom: "dnd5e",
    });
  });
});

describe("the module settings of each game (§0)", () => {
  it("Portes, Monstres & Trésors: no 5e setting (Athletics, light effects, detection, travel pace), its exploration and encounters", () => {
    const s = shownSettings("pmt");
    for (const k of [
      "athleticsReminder",
      "movementCosts",
      "jumpWarning",
      "lightEffects",
      "detectionMode",
      "travelHoursPerDay",
      "travelTrackFood",
      "fallRegions",
      "sideTies",
    ])
      expect(s, k).not.toContain(k);
    for (const k of [
      "movementRefuse",
      "encounterTurn",
      "pursuitAdvanceTime",
      "explorationWanderingEvery",
      "explorationTorchTurns",
    ])
      expect(s, k).toContain(k);
  });
  it("Old-School Essentials: falls and its own journeys (no hours a day, no food and water), tied sides", () => {
    const s = shownSettings("ose");
    for (const k of [
      "fallRegions",
      "fallOnDrop",
      "travelAdvanceTime",
      "travelPlayersApply",
      "sideTies",
      "explorationWanderingDie",
    ])
      expect(s, k).toContain(k);
    for (const k of [
      "travelHoursPerDay",
      "travelTrackFood",
      "athleticsReminder",
      "detectionObservers",
      "travelPmtLostRoll",
      "borrowFalls",
      "borrowTravel",
    ])
      expect(s, k).not.toContain(k);
  });
  it("Polaris: only the settings of every game and the borrowings", () => {
    expect(shownSettings("polaris").filter((k) => !k.startsWith("borrow"))).toEqual(ALWAYS);
    expect(shownSettings("polaris")).not.toContain("borrowPolaris");
  });
  it("Rôle'n Play: exploration without the wandering settings (its book has none); borrowed, they show labelled", () => {
    const s = shownSettings("rnp");
    expect(s).toContain("explorationTurnSeconds");
    expect(s).not.toContain("explorationWanderingEvery");
    expect(s).not.toContain("encounterTurn");
    const f = features("rnp", { wandering: "ose" });
    expect(settingVisibility("explorationWanderingChance", "rnp", f)).toEqual({ show: true, borrowedFrom: "ose" });
  });
  it("a borrow setting shows only for a feature the game lacks; pmt's d100 lost roll only on a borrowed OSE journey", () => {
    for (const rs of RULESETS) {
      const s = shownSettings(rs);
      expect(s.includes("borrowFalls"), rs).toBe(rs === "pmt" || rs === "polaris");
    }
    expect(shownSettings("pmt")).not.toContain("travelPmtLostRoll");
    expect(settingVisibility("travelPmtLostRoll", "pmt", features("pmt", { travel: "ose" }))).toEqual({
      show: true,
      borrowedFrom: "ose",
    });
    expect(settingVisibility("travelPmtLostRoll", "pmt", features("pmt", { travel: "rnp" })).show).toBe(false);
  });
  it("the old 'side initiative with any ruleset' shows only where it is on and the game has none; its ties with it", () => {
    expect(shownSettings("rnp")).not.toContain("sideInitiative");
    expect(shownSettings("rnp", {}, { sideInitiative: true })).toEqual(
      expect.arrayContaining(["sideInitiative", "sideTies"]),
    );
    expect(shownSettings("ose", {}, { sideInitiative: true })).not.toContain("sideInitiative");
    expect(settingVisibility("sideTies", "rnp", features("rnp", { sideInitiative: "ose" }))).toEqual({
      show: true,
      borrowedFrom: "ose",
    });
  });
});
