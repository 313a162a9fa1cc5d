/**
 * The small travel rules (docs/rules.md §2.1, §2.3, §2.4, §2.7, §2.8) and travelPlan's remaining edges: whole errors,
 * both sides of each threshold, and the bounds of a plan given back.
 */
import { describe, expect, it } from "vitest";
import {
  encounterMovement,
  forcedMarchDC,
  paceDistance,
  routePosition,
  travelLostCheck,
  travelOutcome,
  travelPlan,
  type TravelPlan,
} from "../../src/rules/travel.js";
import { throwsError } from "./helpers.js";
import { aria, trip } from "./travel-fixtures.js";

describe("the small travel rules", () => {
  it("paceDistance: §2.1's table, halved in difficult terrain (§2.3)", () => {
    expect(paceDistance("slow", "day")).toBe(27_000);
    expect(paceDistance("fast", "hour")).toBe(6000);
    expect(paceDistance("normal", "minute")).toBe(90);
    expect(paceDistance("normal", "day", { difficult: true })).toBe(18_000);
    expect(paceDistance("normal", "day", { difficult: false })).toBe(36_000);
    throwsError(() => paceDistance("run" as never, "day"), "UnknownValue", {
      name: "pace",
      value: "run",
      allowed: "slow, normal, fast",
    });
    throwsError(() => paceDistance("slow", "week" as never), "UnknownValue", {
      name: "per",
      value: "week",
      allowed: "minute, hour, day",
    });
    throwsError(() => paceDistance("slow", "day", "hard" as never), "UnknownValue", {
      name: "options",
      value: "hard",
      allowed: "object",
    });
    throwsError(() => paceDistance("slow", "day", { difficult: 1 as never }), "UnknownValue", {
      name: "difficult",
      value: "1",
      allowed: "true, false",
    });
  });
  it("forcedMarchDC: none up to 8 h, then 10 + the hours beyond (§2.4)", () => {
    expect([0, 8, 9, 10, 24].map(forcedMarchDC)).toEqual([null, null, 11, 12, 26]);
    throwsError(() => forcedMarchDC(25), "OutOfRange", { name: "hoursMarched", value: 25, min: 0, max: 24 });
    throwsError(() => forcedMarchDC(8.5), "NotAnInteger", { name: "hoursMarched", value: 8.5 });
  });
  it("encounterMovement: a third of the exploration rate (§2.8)", () => {
    expect(encounterMovement(36)).toBe(12);
    expect(encounterMovement(0)).toBe(0);
    throwsError(() => encounterMovement(-3), "Negative", { name: "explorationRate", value: -3 });
  });
  it("travelLostCheck: lost when the d100 is at most the chance (§2.7)", () => {
    expect(travelLostCheck(5, 5)).toBe(true);
    expect(travelLostCheck(5, 6)).toBe(false);
    expect(travelLostCheck(0, 1)).toBe(false);
    expect(travelLostCheck(100, 100)).toBe(true);
    throwsError(() => travelLostCheck(101, 1), "OutOfRange", { name: "chance", value: 101, min: 0, max: 100 });
    throwsError(() => travelLostCheck(-1, 1), "Negative", { name: "chance", value: -1 });
    throwsError(() => travelLostCheck(5, 0), "OutOfRange", { name: "roll", value: 0, min: 1, max: 100 });
    throwsError(() => travelLostCheck(5, 101), "OutOfRange", { name: "roll", value: 101, min: 1, max: 100 });
    throwsError(() => travelLostCheck(5, 5.5), "NotAnInteger", { name: "roll", value: 5.5 });
  });
});

describe("travelPlan's remaining edges", () => {
  it("a gallop capped on one day and not on the last is still capped", () => {
    // A full gallop day: 12 km + 7 h × 4.5 km = 43.5 km; the second day's 6 km fit in its gallop.
    const p = travelPlan(trip({ mode: "gallop", distance: 49_500 }));
    expect(p.days.map((d) => [d.marchSeconds, d.gallopSeconds, d.distance])).toEqual([
      [28_800, 3600, 43_500],
      [1800, 1800, 6000],
    ]);
    expect(p.warnings).toEqual(["gallopCapped"]);
  });
  it("difficult terrain on foot warns of nothing", () => {
    expect(travelPlan(trip({ terrain: "difficult" })).warnings).toEqual([]);
    expect(
      travelPlan(trip({ terrain: undefined, distance: undefined, legs: [{ metres: 1000, terrain: "difficult" }] }))
        .warnings,
    ).toEqual([]);
  });
  it("nothing to travel with almost no hours a day is no day; something is too many days", () => {
    expect(travelPlan(trip({ distance: 0, hoursPerDay: 1e-12 })).days).toEqual([]);
    throwsError(() => travelPlan(trip({ distance: 1, hoursPerDay: 1e-12 })), "OutOfRange", {
      name: "days",
      value: "Infinity",
      min: 0,
      max: 1000,
    });
  });
  it("legs of no length: reached at the start, or with the leg before", () => {
    const p = travelPlan(
      trip({
        terrain: undefined,
        distance: undefined,
        legs: [
          { metres: 0, terrain: "normal" },
          { metres: 4500, terrain: "normal" },
          { metres: 0, terrain: "difficult" },
        ],
      }),
    );
    expect(p.legs.map((l) => l.arrivalSeconds)).toEqual([0, 3600, 3600]);
    expect(routePosition(p, 0)).toEqual({ leg: 1, metresAlongRoute: 0, fraction: 0 });
    expect(routePosition(p, 3600)).toEqual({ leg: 2, metresAlongRoute: 4500, fraction: 1 });
  });
  it("the best passive Perception of a position, whichever member comes first", () => {
    const m = (id: string, pp: number) => ({ ...aria, id, passivePerception: pp });
    expect(travelPlan(trip({ party: [m("a", 10), m("b", 14)] })).noticeByPosition.front).toBe(14);
    expect(travelPlan(trip({ party: [m("a", 14), m("b", 10)] })).noticeByPosition.front).toBe(14);
    expect(travelPlan(trip({ party: [m("a", 14), m("b", 14)] })).noticeByPosition.front).toBe(14);
  });
  it("a lookout of passive Perception 0 still counts", () => {
    expect(travelPlan(trip({ party: [{ ...aria, passivePerception: 0 }] })).noticeByPosition).toEqual({
      front: 0,
      middle: null,
      rear: null,
    });
  });
  it("without a day of travel: starving only beyond the fasting days, dehydrated only after a dehydrated day", () => {
    const none = (fasting: number, thirst: number) =>
      travelOutcome(travelPlan(trip({ distance: 0, party: [{ ...aria, fasting, thirst }] })), {}).members[0]!;
    expect(none(3, 0)).toMatchObject({ starving: false, dehydrated: false, recoveryBlocked: false });
    expect(none(3.5, 1)).toMatchObject({ starving: true, dehydrated: true, recoveryBlocked: true });
  });
  it("full water: no extra dehydration level possible", () => {
    expect(travelPlan(trip()).members[0]!.days[0]).toEqual({
      day: 1,
      forcedMarch: [],
      food: "full",
      fastingAfter: 0,
      hungerLevels: 0,
      water: "full",
      thirstAutomatic: 0,
      dehydrationDC: null,
      dehydrationSaveId: null,
      dehydrationExtraIfExhausted: false,
    });
  });
});

describe("the bounds of a plan given back", () => {
  it("routePosition: at most 10,005 stretches a day", () => {
    const plan = travelPlan(trip());
    const withStretches = (n: number) =>
      ({ ...plan, days: [{ ...plan.days[0], stretches: new Array(n).fill(null) }] }) as unknown as TravelPlan;
    throwsError(() => routePosition(withStretches(10_006), 0), "OutOfRange", {
      name: "plan.days[0].stretches",
      value: 10_006,
      min: 0,
      max: 10_005,
    });
    throwsError(() => routePosition(withStretches(10_005), 0), "Missing", { name: "plan.days[0].stretches[0]" });
  });
  it("travelOutcome: at most 340,000 saves (20,000 member-days × 17 hours)", () => {
    const plan = travelPlan(trip());
    const withSaves = (n: number) => ({ ...plan, saves: new Array(n).fill(null) }) as unknown as TravelPlan;
    throwsError(() => travelOutcome(withSaves(340_001), {}), "OutOfRange", {
      name: "plan.saves",
      value: 340_001,
      min: 0,
      max: 340_000,
    });
    throwsError(() => travelOutcome(withSaves(340_000), {}), "Missing", { name: "plan.saves[0]" });
  });
  it("travelOutcome: a member's save missing from plan.saves", () => {
    const plan = travelPlan(trip({ party: [{ ...aria, water: "half" }] }));
    throwsError(() => travelOutcome({ ...plan, saves: [] }, {}), "Missing", { name: "aria:1:dehydration" });
  });
});
