/**
 * Encounters (docs/rules.md §7): surprise, distance, reactions, side initiative and the turn an encounter takes — whole
 * results, both sides of every band, ties where some groups settle and some do not, and the whole errors (key and data).
 */
import { describe, expect, it } from "vitest";
import {
  encounterDistance,
  encounterEndAdvance,
  encounterRules,
  fixedDice,
  isSurprised,
  recordingDice,
  reaction,
  reactionRoll,
  reactionTotal,
  rollEncounterDistance,
  rollSideInitiative,
  sideInitiativeValues,
  sideOrder,
  sideTiesFor,
  surpriseOutcome,
  surprisedSides,
} from "../../src/rules/index.js";
import { rejectedKey, rulesError, throwsError } from "./helpers.js";

const NON_EMPTY = "a non-empty string";

describe("surprise (§7.2)", () => {
  it("1–2 on the d6 is surprised, 3–6 is not", () => {
    expect([1, 2, 3, 4, 5, 6].map(isSurprised)).toEqual([true, true, false, false, false, false]);
    throwsError(() => isSurprised(7), "OutOfRange", { name: "d6", value: 7, min: 1, max: 6 });
    throwsError(() => isSurprised(0), "OutOfRange", { name: "d6", value: 0, min: 1, max: 6 });
  });
  it("two sides: whole outcomes", () => {
    expect(surpriseOutcome("pmt", { aSurprised: true, bSurprised: true })).toEqual({
      firstRoundActs: "none",
      note: "bothSurprised",
      initiativeRound: 2,
      rules: "pmt",
    });
    expect(surpriseOutcome("ose", { aSurprised: true, bSurprised: true })).toEqual({
      firstRoundActs: "both",
      note: "bothSurprised",
      initiativeRound: 1,
      rules: "ose",
    });
    expect(surpriseOutcome("pmt", { aSurprised: true, bSurprised: false })).toEqual({
      firstRoundActs: "b",
      note: "oneSurprised",
      initiativeRound: 2,
      rules: "pmt",
    });
    expect(surpriseOutcome("rnp", { aSurprised: false, bSurprised: true })).toEqual({
      firstRoundActs: "a",
      note: "oneSurprised",
      initiativeRound: 2,
      rules: "ose",
    });
    expect(surpriseOutcome("pmt", { aSurprised: false, bSurprised: false })).toEqual({
      firstRoundActs: "both",
      note: "neither",
      initiativeRound: 1,
      rules: "pmt",
    });
    throwsError(() => surpriseOutcome("pmt", null as never), "Missing", { name: "opts" });
    throwsError(() => surpriseOutcome("pmt", { bSurprised: false } as never), "Missing", { name: "aSurprised" });
    throwsError(() => surpriseOutcome("pmt", { aSurprised: false, bSurprised: "x" as never }), "UnknownValue", {
      name: "bSurprised",
      value: "x",
      allowed: "true, false",
    });
  });
  it("N sides: whole outcomes, in input order", () => {
    const s = (id: string, surprised: boolean) => ({ id, surprised });
    expect(surprisedSides([s("a", false), s("b", true), s("c", false)])).toEqual({
      surprised: ["b"],
      alert: ["a", "c"],
      note: "someSurprised",
      firstRound: ["a", "c"],
      initiativeRound: 2,
      rules: null,
    });
    expect(surprisedSides([s("b", false), s("a", false)], "pmt")).toEqual({
      surprised: [],
      alert: ["b", "a"],
      note: "neither",
      firstRound: ["b", "a"],
      initiativeRound: 1,
      rules: "pmt",
    });
    expect(surprisedSides([s("b", true), s("a", true)])).toEqual({
      surprised: ["b", "a"],
      alert: [],
      note: "allSurprised",
      firstRound: null,
      initiativeRound: null,
      rules: null,
    });
    expect(surprisedSides([s("b", true), s("a", true)], "pmt")).toEqual({
      surprised: ["b", "a"],
      alert: [],
      note: "allSurprised",
      firstRound: [],
      initiativeRound: 2,
      rules: "pmt",
    });
    expect(surprisedSides([s("b", true), s("a", true)], "dnd5e")).toEqual({
      surprised: ["b", "a"],
      alert: [],
      note: "allSurprised",
      firstRound: ["b", "a"],
      initiativeRound: 1,
      rules: "ose",
    });
  });
  it("N sides: names what it refuses", () => {
    throwsError(() => surprisedSides([]), "EmptyParty", { name: "sides" });
    throwsError(() => surprisedSides(null as never), "Missing", { name: "sides" });
    throwsError(() => surprisedSides([{ id: "a", surprised: true }, null as never]), "Missing", { name: "sides[1]" });
    throwsError(
      () =>
        surprisedSides([
          { id: "a", surprised: true },
          { id: "", surprised: true },
        ]),
      "UnknownValue",
      { name: "sides[1].id", value: "", allowed: NON_EMPTY },
    );
    throwsError(
      () =>
        surprisedSides([
          { id: "a", surprised: true },
          { id: "a", surprised: false },
        ]),
      "UnknownValue",
      { name: "sides", value: "a", allowed: "unique side ids" },
    );
    throwsError(() => surprisedSides([{ id: "a" } as never]), "Missing", { name: "sides[0].surprised" });
    throwsError(
      () => surprisedSides(Array.from({ length: 501 }, (_, i) => ({ id: `s${i}`, surprised: false }))),
      "OutOfRange",
      { name: "sides", value: 501, min: 0, max: 500 },
    );
  });
});

describe("encounter distance (§7.1): whole results", () => {
  it("pmt dungeon 1d6 × 5 m, outdoors 4d6 × 10 m, surprise or not", () => {
    expect(encounterDistance("pmt", { where: "dungeon" })).toEqual({
      count: 1,
      faces: 6,
      multiplier: 5,
      formula: "1d6*5",
      min: 5,
      max: 30,
      rules: "pmt",
    });
    expect(encounterDistance("pmt", { where: "water", surprised: true })).toEqual({
      count: 4,
      faces: 6,
      multiplier: 10,
      formula: "4d6*10",
      min: 40,
      max: 240,
      rules: "pmt",
    });
  });
  it("ose dungeon 2d6 × 3 m; wilderness and water 4d6 × 10 m, 1d4 × 10 m when either side is surprised", () => {
    expect(encounterDistance("ose", { where: "dungeon" })).toEqual({
      count: 2,
      faces: 6,
      multiplier: 3,
      formula: "2d6*3",
      min: 6,
      max: 36,
      rules: "ose",
    });
    expect(encounterDistance("rnp", { where: "wilderness", surprised: false })).toEqual({
      count: 4,
      faces: 6,
      multiplier: 10,
      formula: "4d6*10",
      min: 40,
      max: 240,
      rules: "ose",
    });
    expect(encounterDistance("ose", { where: "water", surprised: true })).toEqual({
      count: 1,
      faces: 4,
      multiplier: 10,
      formula: "1d4*10",
      min: 10,
      max: 40,
      rules: "ose",
    });
  });
  it("names what it refuses", () => {
    throwsError(() => encounterDistance("ose", { where: "water" }), "Missing", { name: "surprised" });
    throwsError(() => encounterDistance("ose", { where: "space" as never }), "UnknownValue", {
      name: "where",
      value: "space",
      allowed: "dungeon, wilderness, water",
    });
    throwsError(() => encounterDistance("ose", null as never), "Missing", { name: "opts" });
    throwsError(() => encounterDistance("pmt", { where: "dungeon", surprised: "x" as never }), "UnknownValue", {
      name: "surprised",
      value: "x",
      allowed: "true, false",
    });
  });
  it("rolls its dice and multiplies their sum", async () => {
    expect(await rollEncounterDistance("ose", { where: "dungeon" }, fixedDice([3, 4]))).toEqual({
      metres: 21,
      dice: [3, 4],
    });
    expect(await rollEncounterDistance("ose", { where: "wilderness", surprised: true }, fixedDice([2]))).toEqual({
      metres: 20,
      dice: [2],
    });
  });
});

describe("reactions (§7.4): both sides of every row", () => {
  it("pmt: 2 friendly, 3–5 indifferent, 6–8 neutral, 9–11 aggressive, 12 hostile", () => {
    expect([2, 3, 5, 6, 8, 9, 11, 12].map((t) => reaction("pmt", t))).toEqual([
      "friendly",
      "indifferent",
      "indifferent",
      "neutral",
      "neutral",
      "aggressive",
      "aggressive",
      "hostile",
    ]);
    throwsError(() => reaction("pmt", 13), "OutOfRange", { name: "total", value: 13, min: 2, max: 12 });
    throwsError(() => reaction("pmt", 1), "OutOfRange", { name: "total", value: 1, min: 2, max: 12 });
  });
  it("ose: 2 or less hostile, 3–5 unfriendly, 6–8 neutral, 9–11 indifferent, 12 or more friendly", () => {
    expect([-5, 2, 3, 5, 6, 8, 9, 11, 12, 20].map((t) => reaction("ose", t))).toEqual([
      "hostile",
      "hostile",
      "unfriendly",
      "unfriendly",
      "neutral",
      "neutral",
      "indifferent",
      "indifferent",
      "friendly",
      "friendly",
    ]);
    throwsError(() => reaction("ose", 1001), "OutOfRange", { name: "total", value: 1001, min: -1000, max: 1000 });
    throwsError(() => reactionTotal("x" as never, 3), "UnknownValue", {
      name: "rules",
      value: "x",
      allowed: "pmt, ose",
    });
    throwsError(() => reactionTotal("ose", 2.5), "NotAnInteger", { name: "total", value: 2.5 });
  });
  it("a rolled reaction: ose adds the Charisma modifier, pmt nothing", () => {
    expect(reactionRoll("ose", [3, 4], -2)).toEqual({
      rules: "ose",
      dice: [3, 4],
      modifier: -2,
      total: 5,
      result: "unfriendly",
    });
    expect(reactionRoll("pmt", [3, 4], 2)).toEqual({
      rules: "pmt",
      dice: [3, 4],
      modifier: 0,
      total: 7,
      result: "neutral",
    });
    expect(reactionRoll("dnd5e", [6, 6], null)).toEqual({
      rules: "ose",
      dice: [6, 6],
      modifier: 0,
      total: 12,
      result: "friendly",
    });
    throwsError(() => reactionRoll("ose", [3], 0), "OutOfRange", { name: "dice", value: 1, min: 2, max: 2 });
    throwsError(() => reactionRoll("ose", [3, 4, 5], 0), "OutOfRange", { name: "dice", value: 3, min: 0, max: 2 });
    throwsError(() => reactionRoll("ose", [3, 7], 0), "OutOfRange", { name: "d6", value: 7, min: 1, max: 6 });
    throwsError(() => reactionRoll("ose", [3, 4], 1.5), "NotAnInteger", { name: "chaMod", value: 1.5 });
    expect(reactionRoll("ose", [3, 4], undefined as never)).toMatchObject({ modifier: 0, total: 7 });
  });
});

describe("side initiative (§7.3)", () => {
  it("pmt ties are always simultaneous; ose follows the option", () => {
    expect(sideTiesFor("pmt", "reroll")).toBe("simultaneous");
    expect(sideTiesFor("ose", "reroll")).toBe("reroll");
    expect(sideTiesFor("rnp", "simultaneous")).toBe("simultaneous");
    expect(encounterRules("polaris")).toBe("ose");
    throwsError(() => sideTiesFor("ose", "x" as never), "UnknownValue", {
      name: "ties",
      value: "x",
      allowed: "simultaneous, reroll",
    });
  });
  it("orders the sides highest first; ties share a group in input order, listed for a reroll", () => {
    expect(sideOrder({ a: 3, b: 5, c: 3, d: 1 }, "reroll")).toEqual({
      groups: [["b"], ["a", "c"], ["d"]],
      reroll: [["a", "c"]],
    });
    expect(sideOrder({ c: 3, b: 5, a: 3 }, "simultaneous")).toEqual({ groups: [["b"], ["c", "a"]], reroll: [] });
    throwsError(() => sideOrder({}, "reroll"), "EmptyParty", { name: "rolls" });
    throwsError(() => sideOrder({ a: 1 }, "x" as never), "UnknownValue", {
      name: "ties",
      value: "x",
      allowed: "simultaneous, reroll",
    });
    throwsError(() => sideOrder({ "": 3 }, "simultaneous"), "UnknownValue", {
      name: "side",
      value: "",
      allowed: NON_EMPTY,
    });
    throwsError(() => sideOrder(null as never, "reroll"), "Missing", { name: "rolls" });
    throwsError(() => sideOrder({ a: 7 }, "reroll"), "OutOfRange", { name: "rolls.a", value: 7, min: 1, max: 6 });
    expect(
      sideOrder(Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`s${i}`, 1])), "simultaneous").groups[0],
    ).toHaveLength(500);
    throwsError(
      () => sideOrder(Object.fromEntries(Array.from({ length: 501 }, (_, i) => [`s${i}`, 1])), "reroll"),
      "OutOfRange",
      { name: "rolls", value: 501, min: 1, max: 500 },
    );
  });
  it("rerolls: one group settles, another stays tied and rerolls again; tie-break fractions keep the first roll", async () => {
    // pass 0: a 5, b 5, c 2, d 2; pass 1: a–b tie again (3, 3), c–d settle (6, 1); pass 2: a 2, b 4.
    const r = await rollSideInitiative(["a", "b", "c", "d"], "reroll", fixedDice([5, 5, 2, 2, 3, 3, 6, 1, 2, 4]));
    expect(r).toEqual({
      rolls: [
        { pass: 0, rolls: { a: 5, b: 5, c: 2, d: 2 } },
        { pass: 1, rolls: { a: 3, b: 3 } },
        { pass: 1, rolls: { c: 6, d: 1 } },
        { pass: 2, rolls: { a: 2, b: 4 } },
      ],
      groups: [["b"], ["a"], ["c"], ["d"]],
      fellBack: false,
      values: { b: 5.1, a: 5, c: 2.1, d: 2 },
    });
  });
  it("after 20 rerolls still tied: simultaneous (and no 21st roll)", async () => {
    const dice = fixedDice([3, 3, ...Array.from({ length: 40 }, () => 4)]);
    const r = await rollSideInitiative(["a", "b"], "reroll", dice);
    expect(r.rolls).toHaveLength(21);
    expect(r.rolls[20]).toEqual({ pass: 20, rolls: { a: 4, b: 4 } });
    expect(r).toMatchObject({ groups: [["a", "b"]], fellBack: true, values: { a: 3, b: 3 } });
    expect(dice.remaining()).toBe(0);
  });
  it("after 20 rerolls one tie remains among settled sides: it is left simultaneous", async () => {
    const dice = fixedDice([6, 3, 3, ...Array.from({ length: 40 }, () => 2)]);
    const r = await rollSideInitiative(["c", "a", "b"], "reroll", dice);
    expect(r).toMatchObject({ groups: [["c"], ["a", "b"]], fellBack: true, values: { c: 6, a: 3, b: 3 } });
    expect(r.rolls).toHaveLength(21);
  });
  it("says why it rolls: the first roll, then each reroll", async () => {
    const dice = recordingDice(fixedDice([4, 4, 5, 2]));
    await rollSideInitiative(["a", "b"], "reroll", dice);
    expect(dice.log).toEqual([
      { count: 2, faces: 6, reason: "sideInitiative", results: [4, 4] },
      { count: 2, faces: 6, reason: "sideInitiativeReroll", results: [5, 2] },
    ]);
  });
  it("simultaneous: no reroll", async () => {
    expect(await rollSideInitiative(["a", "b", "c"], "simultaneous", fixedDice([4, 6, 4]))).toEqual({
      rolls: [{ pass: 0, rolls: { a: 4, b: 6, c: 4 } }],
      groups: [["b"], ["a", "c"]],
      fellBack: false,
      values: { b: 6, a: 4, c: 4 },
    });
  });
  it("names what it refuses", async () => {
    const d = () => fixedDice([1, 2, 3]);
    expect(
      ((await rollSideInitiative(["a"], "x" as never, d()).catch((e: unknown) => e)) as { data: unknown }).data,
    ).toEqual({ name: "ties", value: "x", allowed: "simultaneous, reroll" });
    expect(await rejectedKey(() => rollSideInitiative([], "reroll", d()))).toBe("AVENTURE.Error.EmptyParty");
    for (const [ids, data] of [
      [[], { name: "sideIds" }],
      [["a", "a"], { name: "sideIds", value: "a", allowed: "unique side ids" }],
      [["a", ""], { name: "sideIds[1]", value: "", allowed: NON_EMPTY }],
      [null, { name: "sideIds" }],
    ] as const) {
      let err: unknown;
      try {
        await rollSideInitiative(ids as unknown as string[], "reroll", d());
      } catch (e) {
        err = e;
      }
      expect((err as { data: unknown }).data).toEqual(data);
    }
  });
  it("tracker values: ranks without rolls; the roll plus a fraction when consecutive groups share it", () => {
    expect(sideInitiativeValues([["a"], ["b", "c"], ["d"]])).toEqual({ a: 3, b: 2, c: 2, d: 1 });
    const ten = Array.from({ length: 10 }, (_, i) => [`s${i}`]);
    const v10 = sideInitiativeValues(ten, Object.fromEntries(ten.map(([id]) => [id!, 4])));
    expect([v10.s0, v10.s1, v10.s9]).toEqual([4.9, 4.8, 4]);
    const eleven = Array.from({ length: 11 }, (_, i) => [`s${i}`]);
    const v11 = sideInitiativeValues(eleven, Object.fromEntries(eleven.map(([id]) => [id!, 4])));
    expect([v11.s0, v11.s1, v11.s10]).toEqual([4.1, 4.09, 4]);
    expect(sideInitiativeValues([["a", "b"], ["c"]], { a: 6, b: 6, c: 1 })).toEqual({ a: 6, b: 6, c: 1 });
    // A run of ten groups after a first one: its own count (10) sets the step, 0.1.
    const after = [["top"], ...ten];
    const va = sideInitiativeValues(after, { top: 6, ...Object.fromEntries(ten.map(([id]) => [id!, 4])) });
    expect([va.top, va.s0, va.s9]).toEqual([6, 4.9, 4]);
    const full = (p: string, n: number) => Array.from({ length: n }, (_, i) => `${p}${i}`);
    expect(Object.keys(sideInitiativeValues([full("a", 250), full("b", 250)]))).toHaveLength(500);
  });
  it("tracker values: names what it refuses", () => {
    throwsError(() => sideInitiativeValues([]), "EmptyParty", { name: "groups" });
    throwsError(() => sideInitiativeValues([["a"], []]), "EmptyParty", { name: "groups[1]" });
    throwsError(() => sideInitiativeValues([["a"], ["a"]]), "UnknownValue", {
      name: "groups",
      value: "a",
      allowed: "unique side ids",
    });
    throwsError(() => sideInitiativeValues([["a"], [""]]), "UnknownValue", {
      name: "groups[1][0]",
      value: "",
      allowed: NON_EMPTY,
    });
    throwsError(() => sideInitiativeValues([["a"], ["b"]], { a: 3 }), "Missing", { name: "rolls.b" });
    throwsError(() => sideInitiativeValues([["a"], ["b"]], { a: 3, b: 2, c: 1 }), "Missing", { name: "groups: c" });
    throwsError(() => sideInitiativeValues([["a", "b"]], { a: 3, b: 2 }), "UnknownValue", {
      name: "groups[0]",
      value: "a, b",
      allowed: "sides with the same roll",
    });
    throwsError(() => sideInitiativeValues([["a"], ["b"]], { a: 2, b: 3 }), "UnknownValue", {
      name: "groups",
      value: "1",
      allowed: "groups in decreasing roll order",
    });
    const half = (p: string) => Array.from({ length: 251 }, (_, i) => `${p}${i}`);
    throwsError(() => sideInitiativeValues([half("a"), half("b")]), "OutOfRange", {
      name: "groups",
      value: 502,
      min: 1,
      max: 500,
    });
    expect(rulesError(() => sideInitiativeValues(null as never)).data).toEqual({ name: "groups" });
  });
});

describe("an encounter takes one turn (§1, §7.1)", () => {
  it("the rest of the 10-minute turn, never negative; nothing without turns", () => {
    expect(encounterEndAdvance("pmt", 0)).toBe(600);
    expect(encounterEndAdvance("ose", 60)).toBe(540);
    expect(encounterEndAdvance("pmt", 600)).toBe(0);
    expect(encounterEndAdvance("pmt", 700)).toBe(0);
    expect(encounterEndAdvance("rnp", 100)).toBe(0);
    throwsError(() => encounterEndAdvance("rnp", -1), "Negative", { name: "elapsedSeconds", value: -1 });
    throwsError(() => encounterEndAdvance("pmt", 86_400_001), "OutOfRange", {
      name: "elapsedSeconds",
      value: 86_400_001,
      min: 0,
      max: 86_400_000,
    });
  });
});
