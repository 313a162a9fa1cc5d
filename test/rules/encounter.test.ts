import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  ENCOUNTER_BASE_RULESET,
  REACTION_TABLES,
  SIDE_INITIATIVE_MAX_REROLLS,
  encounterDistance,
  encounterRules,
  fixedDice,
  isSurprised,
  reaction,
  reactionRoll,
  recordingDice,
  rollEncounterDistance,
  rollSideInitiative,
  seededDice,
  sideInitiativeValues,
  sideOrder,
  sideTiesFor,
  SIDE_TIES_BY_RULES,
  surpriseOutcome,
  surprisedSides,
} from "../../src/rules/index.js";
import { rejectsKey, throwsKey } from "./helpers.js";

describe("ruleset fallback", () => {
  it("pmt and ose use their own rules, the others ose", () => {
    expect(encounterRules("pmt")).toBe("pmt");
    expect(encounterRules("ose")).toBe("ose");
    expect(encounterRules("rnp")).toBe("ose");
    expect(encounterRules("dnd5e")).toBe("ose");
    expect(encounterRules("polaris")).toBe("ose");
    expect(Object.keys(ENCOUNTER_BASE_RULESET).sort()).toEqual(["dnd5e", "ose", "pmt", "polaris", "rnp"]);
  });
  it("rejects an unknown ruleset", () => {
    throwsKey(() => encounterRules("gurps" as never), "UnknownRuleset");
    throwsKey(() => reaction("gurps" as never, 7), "UnknownRuleset");
    throwsKey(() => encounterDistance("gurps" as never, { where: "dungeon" }), "UnknownRuleset");
    throwsKey(() => surpriseOutcome("gurps" as never, { aSurprised: false, bSurprised: false }), "UnknownRuleset");
  });
});

describe("surprise (RULES.md §7.2)", () => {
  it("1 and 2 are surprised, 3 to 6 are not", () => {
    expect(isSurprised(1)).toBe(true);
    expect(isSurprised(2)).toBe(true);
    expect(isSurprised(3)).toBe(false);
    expect(isSurprised(4)).toBe(false);
    expect(isSurprised(5)).toBe(false);
    expect(isSurprised(6)).toBe(false);
  });
  it("rejects anything but a d6", () => {
    throwsKey(() => isSurprised(0), "OutOfRange");
    throwsKey(() => isSurprised(7), "OutOfRange");
    throwsKey(() => isSurprised(2.5), "NotAnInteger");
    throwsKey(() => isSurprised(Number.NaN), "NotANumber");
    throwsKey(() => isSurprised("2" as never), "NotANumber");
  });
  it("one side surprised: the other acts alone in round 1 (pmt and ose)", () => {
    for (const rs of ["pmt", "ose"] as const) {
      expect(surpriseOutcome(rs, { aSurprised: true, bSurprised: false })).toEqual({
        firstRoundActs: "b",
        note: "oneSurprised",
        initiativeRound: 2,
        rules: rs,
      });
      expect(surpriseOutcome(rs, { aSurprised: false, bSurprised: true })).toEqual({
        firstRoundActs: "a",
        note: "oneSurprised",
        initiativeRound: 2,
        rules: rs,
      });
    }
  });
  it("both surprised: pmt nobody acts in round 1, initiative in round 2", () => {
    expect(surpriseOutcome("pmt", { aSurprised: true, bSurprised: true })).toEqual({
      firstRoundActs: "none",
      note: "bothSurprised",
      initiativeRound: 2,
      rules: "pmt",
    });
  });
  it("both surprised: ose a moment of confusion, no advantage", () => {
    expect(surpriseOutcome("ose", { aSurprised: true, bSurprised: true })).toEqual({
      firstRoundActs: "both",
      note: "bothSurprised",
      initiativeRound: 1,
      rules: "ose",
    });
    expect(surpriseOutcome("rnp", { aSurprised: true, bSurprised: true }).firstRoundActs).toBe("both");
  });
  it("neither: initiative at once", () => {
    for (const rs of ["pmt", "ose", "dnd5e"] as const) {
      const o = surpriseOutcome(rs, { aSurprised: false, bSurprised: false });
      expect(o.firstRoundActs).toBe("both");
      expect(o.note).toBe("neither");
      expect(o.initiativeRound).toBe(1);
    }
  });
  it("requires both flags", () => {
    throwsKey(() => surpriseOutcome("pmt", { aSurprised: true } as never), "Missing");
    throwsKey(() => surpriseOutcome("pmt", { aSurprised: "yes", bSurprised: false } as never), "UnknownValue");
    throwsKey(() => surpriseOutcome("pmt", null as never), "Missing");
  });
});

describe("surprise with N sides", () => {
  it("the surprised sides lose round 1", () => {
    const o = surprisedSides([
      { id: "party", surprised: false },
      { id: "orcs", surprised: true },
      { id: "wolves", surprised: false },
    ]);
    expect(o.surprised).toEqual(["orcs"]);
    expect(o.alert).toEqual(["party", "wolves"]);
    expect(o.note).toBe("someSurprised");
    expect(o.firstRound).toEqual(["party", "wolves"]);
    expect(o.initiativeRound).toBe(2);
  });
  it("nobody surprised: everyone acts, initiative at once", () => {
    const o = surprisedSides([
      { id: "a", surprised: false },
      { id: "b", surprised: false },
      { id: "c", surprised: false },
    ]);
    expect(o.note).toBe("neither");
    expect(o.firstRound).toEqual(["a", "b", "c"]);
    expect(o.initiativeRound).toBe(1);
  });
  it("all surprised depends on the ruleset", () => {
    const sides = [
      { id: "a", surprised: true },
      { id: "b", surprised: true },
      { id: "c", surprised: true },
    ];
    expect(surprisedSides(sides, "pmt")).toMatchObject({ note: "allSurprised", firstRound: [], initiativeRound: 2 });
    expect(surprisedSides(sides, "ose")).toMatchObject({
      note: "allSurprised",
      firstRound: ["a", "b", "c"],
      initiativeRound: 1,
    });
    expect(surprisedSides(sides)).toMatchObject({
      note: "allSurprised",
      firstRound: null,
      initiativeRound: null,
      rules: null,
    });
  });
  it("agrees with surpriseOutcome for two sides", () => {
    for (const rs of ["pmt", "ose"] as const) {
      for (const a of [false, true]) {
        for (const b of [false, true]) {
          const two = surpriseOutcome(rs, { aSurprised: a, bSurprised: b });
          const n = surprisedSides(
            [
              { id: "a", surprised: a },
              { id: "b", surprised: b },
            ],
            rs,
          );
          const acts = n.firstRound!.length === 2 ? "both" : n.firstRound!.length === 0 ? "none" : n.firstRound![0];
          expect(acts).toBe(two.firstRoundActs);
          expect(n.initiativeRound).toBe(two.initiativeRound);
        }
      }
    }
  });
  it("rejects empty, duplicate and malformed sides", () => {
    throwsKey(() => surprisedSides([]), "EmptyParty");
    throwsKey(
      () =>
        surprisedSides([
          { id: "a", surprised: true },
          { id: "a", surprised: false },
        ]),
      "UnknownValue",
    );
    throwsKey(() => surprisedSides([{ id: "", surprised: true }]), "UnknownValue");
    throwsKey(() => surprisedSides([{ id: "a" } as never]), "Missing");
    throwsKey(() => surprisedSides([{ id: "a", surprised: true }], "gurps" as never), "UnknownRuleset");
  });
});

describe("encounter distance (RULES.md §7.1)", () => {
  it("pmt: dungeon 1d6 × 5 m, outdoors 4d6 × 10 m, surprise or not", () => {
    for (const surprised of [false, true, undefined]) {
      expect(encounterDistance("pmt", { where: "dungeon", surprised })).toEqual({
        count: 1,
        faces: 6,
        multiplier: 5,
        formula: "1d6*5",
        min: 5,
        max: 30,
        rules: "pmt",
      });
      for (const where of ["wilderness", "water"] as const) {
        expect(encounterDistance("pmt", { where, surprised })).toEqual({
          count: 4,
          faces: 6,
          multiplier: 10,
          formula: "4d6*10",
          min: 40,
          max: 240,
          rules: "pmt",
        });
      }
    }
  });
  it("ose: dungeon 2d6 × 3 m, surprise or not", () => {
    for (const surprised of [false, true, undefined]) {
      expect(encounterDistance("ose", { where: "dungeon", surprised })).toEqual({
        count: 2,
        faces: 6,
        multiplier: 3,
        formula: "2d6*3",
        min: 6,
        max: 36,
        rules: "ose",
      });
    }
  });
  it("ose: wilderness and water 4d6 × 10 m, or 1d4 × 10 m if either side is surprised", () => {
    for (const where of ["wilderness", "water"] as const) {
      expect(encounterDistance("ose", { where, surprised: false })).toMatchObject({
        count: 4,
        faces: 6,
        multiplier: 10,
        formula: "4d6*10",
      });
      expect(encounterDistance("ose", { where, surprised: true })).toMatchObject({
        count: 1,
        faces: 4,
        multiplier: 10,
        formula: "1d4*10",
        min: 10,
        max: 40,
      });
    }
  });
  it("the other rulesets use ose", () => {
    for (const rs of ["rnp", "dnd5e", "polaris"] as const) {
      expect(encounterDistance(rs, { where: "dungeon" }).formula).toBe("2d6*3");
      expect(encounterDistance(rs, { where: "wilderness", surprised: false }).formula).toBe("4d6*10");
      expect(encounterDistance(rs, { where: "water", surprised: true }).formula).toBe("1d4*10");
      expect(encounterDistance(rs, { where: "water", surprised: true }).rules).toBe("ose");
    }
  });
  it("requires surprise only where it matters, and a known place", () => {
    throwsKey(() => encounterDistance("ose", { where: "wilderness" }), "Missing");
    throwsKey(() => encounterDistance("ose", { where: "water" }), "Missing");
    throwsKey(() => encounterDistance("pmt", { where: "space" as never }), "UnknownValue");
    throwsKey(() => encounterDistance("pmt", { where: "dungeon", surprised: 1 as never }), "UnknownValue");
  });
  it("rolls the distance in metres", async () => {
    const d = recordingDice(fixedDice([3, 5]));
    expect(await rollEncounterDistance("ose", { where: "dungeon" }, d)).toEqual({ metres: 24, dice: [3, 5] });
    expect(d.log).toEqual([{ count: 2, faces: 6, reason: "encounterDistance", results: [3, 5] }]);
    expect(await rollEncounterDistance("pmt", { where: "dungeon" }, fixedDice([4]))).toEqual({ metres: 20, dice: [4] });
    expect(await rollEncounterDistance("pmt", { where: "water" }, fixedDice([1, 2, 3, 4]))).toEqual({
      metres: 100,
      dice: [1, 2, 3, 4],
    });
    expect(await rollEncounterDistance("ose", { where: "water", surprised: true }, fixedDice([4]))).toEqual({
      metres: 40,
      dice: [4],
    });
  });
  it("rolled distances stay within the range (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("rnp", "dnd5e", "pmt", "ose", "polaris" as const),
        fc.constantFrom("dungeon", "wilderness", "water" as const),
        fc.boolean(),
        fc.integer(),
        async (rs, where, surprised, seed) => {
          const spec = encounterDistance(rs, { where, surprised });
          const r = await rollEncounterDistance(rs, { where, surprised }, seededDice(seed));
          expect(r.dice).toHaveLength(spec.count);
          expect(r.metres).toBeGreaterThanOrEqual(spec.min);
          expect(r.metres).toBeLessThanOrEqual(spec.max);
          expect(r.metres % spec.multiplier).toBe(0);
        },
      ),
    );
  });
});

describe("monster reactions (RULES.md §7.4)", () => {
  it("pmt table at every total", () => {
    const expected: Record<number, string> = {
      2: "friendly",
      3: "indifferent",
      4: "indifferent",
      5: "indifferent",
      6: "neutral",
      7: "neutral",
      8: "neutral",
      9: "aggressive",
      10: "aggressive",
      11: "aggressive",
      12: "hostile",
    };
    for (const [t, r] of Object.entries(expected)) expect(reaction("pmt", Number(t))).toBe(r);
  });
  it("pmt rejects totals outside 2..12 and non-integers", () => {
    throwsKey(() => reaction("pmt", 1), "OutOfRange");
    throwsKey(() => reaction("pmt", 13), "OutOfRange");
    throwsKey(() => reaction("pmt", 7.5), "NotAnInteger");
    throwsKey(() => reaction("pmt", Number.POSITIVE_INFINITY), "NotANumber");
  });
  it("ose table at every boundary, open-ended with the CHA modifier", () => {
    expect(reaction("ose", -1)).toBe("hostile");
    expect(reaction("ose", 0)).toBe("hostile");
    expect(reaction("ose", 2)).toBe("hostile");
    expect(reaction("ose", 3)).toBe("unfriendly");
    expect(reaction("ose", 5)).toBe("unfriendly");
    expect(reaction("ose", 6)).toBe("neutral");
    expect(reaction("ose", 8)).toBe("neutral");
    expect(reaction("ose", 9)).toBe("indifferent");
    expect(reaction("ose", 11)).toBe("indifferent");
    expect(reaction("ose", 12)).toBe("friendly");
    expect(reaction("ose", 15)).toBe("friendly");
    throwsKey(() => reaction("ose", 4.5), "NotAnInteger");
    throwsKey(() => reaction("ose", Number.NaN), "NotANumber");
  });
  it("a reaction roll: ose adds the speaker's CHA modifier, pmt adds nothing", () => {
    expect(reactionRoll("ose", [1, 2], -2)).toEqual({
      rules: "ose",
      dice: [1, 2],
      modifier: -2,
      total: 1,
      result: "hostile",
    });
    expect(reactionRoll("ose", [6, 5], 1)).toEqual({
      rules: "ose",
      dice: [6, 5],
      modifier: 1,
      total: 12,
      result: "friendly",
    });
    expect(reactionRoll("ose", [3, 3], null)).toMatchObject({ modifier: 0, total: 6, result: "neutral" });
    expect(reactionRoll("dnd5e", [4, 4], 3)).toMatchObject({
      rules: "ose",
      modifier: 3,
      total: 11,
      result: "indifferent",
    });
    expect(reactionRoll("pmt", [6, 6], 3)).toEqual({
      rules: "pmt",
      dice: [6, 6],
      modifier: 0,
      total: 12,
      result: "hostile",
    });
    expect(reactionRoll("pmt", [1, 1], -3)).toMatchObject({ modifier: 0, total: 2, result: "friendly" });
    throwsKey(() => reactionRoll("ose", [7, 1], 0), "OutOfRange");
    throwsKey(() => reactionRoll("ose", [3], 0), "OutOfRange");
    throwsKey(() => reactionRoll("ose", [3, 3], 0.5), "NotAnInteger");
  });
  it("the other rulesets use the ose table", () => {
    expect(reaction("rnp", 2)).toBe("hostile");
    expect(reaction("dnd5e", 14)).toBe("friendly");
    expect(reaction("polaris", 10)).toBe("indifferent");
  });
  it("the tables are data with contiguous rows", () => {
    expect(REACTION_TABLES.pmt.map((r) => r.reaction)).toEqual([
      "friendly",
      "indifferent",
      "neutral",
      "aggressive",
      "hostile",
    ]);
    expect(REACTION_TABLES.ose.map((r) => r.reaction)).toEqual([
      "hostile",
      "unfriendly",
      "neutral",
      "indifferent",
      "friendly",
    ]);
  });
  it("every ose total has exactly one reaction (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: -50, max: 50 }), (t) => {
        const hits = REACTION_TABLES.ose.filter(
          (r) => (r.min === null || t >= r.min) && (r.max === null || t <= r.max),
        );
        expect(hits).toHaveLength(1);
        expect(reaction("ose", t)).toBe(hits[0]!.reaction);
      }),
    );
  });
});

describe("side initiative (RULES.md §7.3)", () => {
  it("two sides: highest first", () => {
    expect(sideOrder({ party: 2, monsters: 5 }, "simultaneous")).toEqual({
      groups: [["monsters"], ["party"]],
      reroll: [],
    });
    expect(sideOrder({ party: 6, monsters: 1 }, "reroll")).toEqual({ groups: [["party"], ["monsters"]], reroll: [] });
  });
  it("two sides tied: simultaneous shares a group, reroll asks for a reroll", () => {
    expect(sideOrder({ party: 4, monsters: 4 }, "simultaneous")).toEqual({
      groups: [["party", "monsters"]],
      reroll: [],
    });
    expect(sideOrder({ party: 4, monsters: 4 }, "reroll")).toEqual({
      groups: [["party", "monsters"]],
      reroll: [["party", "monsters"]],
    });
  });
  it("three sides in decreasing order", () => {
    expect(sideOrder({ friendly: 3, neutral: 6, hostile: 1 }, "simultaneous")).toEqual({
      groups: [["neutral"], ["friendly"], ["hostile"]],
      reroll: [],
    });
  });
  it("three sides with a tie: the tied pair keeps its place", () => {
    expect(sideOrder({ friendly: 2, neutral: 5, hostile: 2 }, "simultaneous")).toEqual({
      groups: [["neutral"], ["friendly", "hostile"]],
      reroll: [],
    });
    expect(sideOrder({ friendly: 2, neutral: 5, hostile: 2 }, "reroll")).toEqual({
      groups: [["neutral"], ["friendly", "hostile"]],
      reroll: [["friendly", "hostile"]],
    });
    expect(sideOrder({ a: 3, b: 3, c: 3 }, "reroll")).toEqual({ groups: [["a", "b", "c"]], reroll: [["a", "b", "c"]] });
  });
  it("rejects bad rolls, no sides and unknown tie modes", () => {
    throwsKey(() => sideOrder({}, "simultaneous"), "EmptyParty");
    throwsKey(() => sideOrder({ a: 7 }, "simultaneous"), "OutOfRange");
    throwsKey(() => sideOrder({ a: 0 }, "simultaneous"), "OutOfRange");
    throwsKey(() => sideOrder({ a: 2.5 }, "simultaneous"), "NotAnInteger");
    throwsKey(() => sideOrder({ a: 3 }, "coinflip" as never), "UnknownValue");
    throwsKey(() => sideOrder(null as never, "reroll"), "Missing");
  });
  it("every side appears once, groups strictly decreasing (property)", () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom("a", "b", "c", "d", "e"), fc.integer({ min: 1, max: 6 }), { minKeys: 1 }),
        fc.constantFrom("simultaneous", "reroll" as const),
        (rolls, ties) => {
          const o = sideOrder(rolls, ties);
          expect(o.groups.flat().sort()).toEqual(Object.keys(rolls).sort());
          const heads = o.groups.map((g) => rolls[g[0]!]!);
          for (let i = 1; i < heads.length; i++) expect(heads[i]!).toBeLessThan(heads[i - 1]!);
          for (const g of o.groups) for (const id of g) expect(rolls[id]).toBe(rolls[g[0]!]);
          if (ties === "simultaneous") expect(o.reroll).toEqual([]);
          else expect(o.reroll).toEqual(o.groups.filter((g) => g.length > 1));
        },
      ),
    );
  });
});

describe("tied sides per ruleset (RULES.md §7.3)", () => {
  it("pmt ties are always simultaneous: seed 002 gives pmt no reroll", () => {
    expect(SIDE_TIES_BY_RULES.pmt).toEqual(["simultaneous"]);
    expect(sideTiesFor("pmt", "reroll")).toBe("simultaneous");
    expect(sideTiesFor("pmt", "simultaneous")).toBe("simultaneous");
  });
  it("ose (and the rulesets that use its encounter rules) follow the option", () => {
    expect(SIDE_TIES_BY_RULES.ose).toEqual(["simultaneous", "reroll"]);
    for (const rs of ["ose", "rnp", "dnd5e", "polaris"] as const) {
      expect(sideTiesFor(rs, "reroll")).toBe("reroll");
      expect(sideTiesFor(rs, "simultaneous")).toBe("simultaneous");
    }
  });
  it("a pmt round with tied sides rolls once, whatever the option", async () => {
    const dice = recordingDice(fixedDice([4, 4, 2]));
    const r = await rollSideInitiative(["friendly", "neutral", "hostile"], sideTiesFor("pmt", "reroll"), dice);
    expect(r.groups).toEqual([["friendly", "neutral"], ["hostile"]]);
    expect(dice.log).toHaveLength(1);
  });
  it("rejects an unknown ruleset or option", () => {
    throwsKey(() => sideTiesFor("gurps" as never, "reroll"), "UnknownRuleset");
    throwsKey(() => sideTiesFor("ose", "coinflip" as never), "UnknownValue");
  });
});

describe("rolling side initiative", () => {
  it("rolls one d6 per side, simultaneous ties stay together", async () => {
    const d = recordingDice(fixedDice([3, 5, 3]));
    const r = await rollSideInitiative(["party", "orcs", "wolves"], "simultaneous", d);
    expect(r.rolls).toEqual([{ pass: 0, rolls: { party: 3, orcs: 5, wolves: 3 } }]);
    expect(r.groups).toEqual([["orcs"], ["party", "wolves"]]);
    expect(r.fellBack).toBe(false);
    expect(r.values).toEqual({ orcs: 5, party: 3, wolves: 3 });
    expect(d.log).toEqual([{ count: 3, faces: 6, reason: "sideInitiative", results: [3, 5, 3] }]);
  });
  it("rerolls ties among the tied sides only", async () => {
    // party 3, orcs 5, wolves 3 → party and wolves reroll: 2, 2 (tied again) → 6, 1.
    const r = await rollSideInitiative(["party", "orcs", "wolves"], "reroll", fixedDice([3, 5, 3, 2, 2, 6, 1]));
    expect(r.rolls).toEqual([
      { pass: 0, rolls: { party: 3, orcs: 5, wolves: 3 } },
      { pass: 1, rolls: { party: 2, wolves: 2 } },
      { pass: 2, rolls: { party: 6, wolves: 1 } },
    ]);
    expect(r.groups).toEqual([["orcs"], ["party"], ["wolves"]]);
    expect(r.fellBack).toBe(false);
    expect(r.values).toEqual({ orcs: 5, party: 3.1, wolves: 3 });
  });
  it("two sides tied with reroll", async () => {
    const r = await rollSideInitiative(["a", "b"], "reroll", fixedDice([4, 4, 1, 5]));
    expect(r.groups).toEqual([["b"], ["a"]]);
    expect(r.values.b).toBeGreaterThan(r.values.a!);
  });
  it("falls back to simultaneous after the bounded rerolls", async () => {
    expect(SIDE_INITIATIVE_MAX_REROLLS).toBe(20);
    const dice = fixedDice(Array.from({ length: 2 + 2 * 20 }, () => 4));
    const r = await rollSideInitiative(["a", "b"], "reroll", dice);
    expect(r.fellBack).toBe(true);
    expect(r.groups).toEqual([["a", "b"]]);
    expect(r.rolls).toHaveLength(21);
    expect(dice.remaining()).toBe(0);
    expect(r.values).toEqual({ a: 4, b: 4 });
  });
  it("rejects empty or duplicate sides", async () => {
    await rejectsKey(rollSideInitiative([], "reroll", fixedDice([])), "EmptyParty");
    await rejectsKey(rollSideInitiative(["a", "a"], "reroll", fixedDice([1, 2])), "UnknownValue");
    await rejectsKey(rollSideInitiative(["a"], "x" as never, fixedDice([1])), "UnknownValue");
  });
  it("final groups are singletons unless simultaneous or fallen back (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer(), fc.integer({ min: 1, max: 6 }), async (seed, n) => {
        const ids = ["a", "b", "c", "d", "e", "f"].slice(0, n);
        const r = await rollSideInitiative(ids, "reroll", seededDice(seed));
        expect(r.groups.flat().sort()).toEqual([...ids].sort());
        if (!r.fellBack) expect(r.groups.every((g) => g.length === 1)).toBe(true);
        const order = r.groups.map((g) => r.values[g[0]!]!);
        for (let i = 1; i < order.length; i++) expect(order[i]!).toBeLessThan(order[i - 1]!);
      }),
    );
  });
});

describe("initiative values for the tracker", () => {
  it("without rolls: rank from the end, ties share a value", () => {
    expect(sideInitiativeValues([["a"], ["b", "c"], ["d"]])).toEqual({ a: 3, b: 2, c: 2, d: 1 });
  });
  it("with rolls: the roll, plus a tie-break fraction for rerolled ties", () => {
    expect(sideInitiativeValues([["a"], ["b"]], { a: 6, b: 2 })).toEqual({ a: 6, b: 2 });
    expect(sideInitiativeValues([["a", "b"], ["c"]], { a: 4, b: 4, c: 1 })).toEqual({ a: 4, b: 4, c: 1 });
    expect(sideInitiativeValues([["b"], ["c"], ["a"]], { a: 3, b: 3, c: 3 })).toEqual({ b: 3.2, c: 3.1, a: 3 });
  });
  it("many tied sides still sort below the next roll", () => {
    const ids = Array.from({ length: 12 }, (_, i) => `s${i}`);
    const v = sideInitiativeValues(
      ids.map((id) => [id]),
      Object.fromEntries(ids.map((id) => [id, 2])),
    );
    expect(v.s0).toBe(2.11);
    expect(v.s11).toBe(2);
    expect(v.s0!).toBeLessThan(3);
  });
  it("rejects groups that contradict the rolls, duplicates and missing sides", () => {
    throwsKey(() => sideInitiativeValues([]), "EmptyParty");
    throwsKey(() => sideInitiativeValues([[]]), "EmptyParty");
    throwsKey(() => sideInitiativeValues([["a"], ["a"]]), "UnknownValue");
    throwsKey(() => sideInitiativeValues([["a"], ["b"]], { a: 2, b: 5 }), "UnknownValue");
    throwsKey(() => sideInitiativeValues([["a", "b"]], { a: 2, b: 5 }), "UnknownValue");
    throwsKey(() => sideInitiativeValues([["a"], ["b"]], { a: 2 }), "Missing");
    throwsKey(() => sideInitiativeValues([["a"]], { a: 2, b: 1 }), "Missing");
  });
});

describe("encounterEndAdvance (an encounter takes one turn)", () => {
  it("completes the 10-minute turn in pmt and ose", async () => {
    const { encounterEndAdvance } = await import("../../src/rules/encounter.js");
    expect(encounterEndAdvance("pmt", 0)).toBe(600);
    expect(encounterEndAdvance("ose", 30)).toBe(570); // three 10 s rounds already counted
    expect(encounterEndAdvance("ose", 600)).toBe(0);
    expect(encounterEndAdvance("pmt", 900)).toBe(0); // never negative
  });
  it("adds nothing where the ruleset has no turn", async () => {
    const { encounterEndAdvance } = await import("../../src/rules/encounter.js");
    expect(encounterEndAdvance("dnd5e", 0)).toBe(0);
    expect(encounterEndAdvance("polaris", 12)).toBe(0);
  });
  it("refuses a negative or non-numeric elapsed time", async () => {
    const { encounterEndAdvance } = await import("../../src/rules/encounter.js");
    expect(() => encounterEndAdvance("ose", -1)).toThrow(/Negative/);
    expect(() => encounterEndAdvance("ose", Number.NaN)).toThrow(/NotANumber/);
  });
});
