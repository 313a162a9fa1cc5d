/**
 * travelPlan's effects (docs/rules.md §2.2, §2.5, §2.6, §2.7, §4.4): whole warning lists, in their order, for each
 * mode and pace; the passive Perception after the pace; the marching positions; both sides of each threshold.
 */
import { describe, expect, it } from "vitest";
import { travelPlan } from "../../src/rules/travel.js";
import { aria, trip } from "./travel-fixtures.js";

const warnings = (over: Record<string, unknown>) => travelPlan(trip(over)).warnings;

describe("travelPlan's warnings, whole and in order", () => {
  it("none for a plain day on foot in rnp or dnd5e", () => {
    expect(warnings({})).toEqual([]);
    expect(warnings({ ruleset: "dnd5e" })).toEqual([]);
  });
  it("pmt, ose and polaris borrow the rules", () => {
    for (const ruleset of ["pmt", "ose", "polaris"]) expect(warnings({ ruleset })).toEqual(["rulesetFallback"]);
  });
  it("a gallop: capped only when the day goes on after the gallop hour", () => {
    expect(warnings({ mode: "gallop", distance: 12_000 })).toEqual([]);
    expect(warnings({ mode: "gallop", distance: 20_000 })).toEqual(["gallopCapped"]);
    expect(warnings({ mode: "gallop", distance: 20_000, hoursPerDay: 1 })).toEqual([]);
  });
  it("a boat: its own speed, crew beyond 8 h, no terrain, no stealth", () => {
    expect(warnings({ mode: "boat", speedKmh: 5, distance: 10_000 })).toEqual([]);
    expect(warnings({ mode: "boat", speedKmh: 5, distance: 10_000, hoursPerDay: 8 })).toEqual([]);
    expect(
      warnings({
        mode: "boat",
        speedKmh: 5,
        distance: 10_000,
        pace: "slow",
        hoursPerDay: 8.5,
        terrain: "difficult",
        stealth: true,
      }),
    ).toEqual(["boatIgnoresPace", "boatCrewNeeded", "terrainIgnoredOnBoat", "stealthNotOnBoat"]);
    expect(warnings({ mode: "boat", speedKmh: 5, distance: 10_000, pace: "fast", hoursPerDay: 24 })).toEqual([
      "boatIgnoresPace",
      "boatCrewNeeded",
    ]);
  });
  it("a vehicle goes at normal pace", () => {
    expect(warnings({ mode: "vehicle", pace: "fast" })).toEqual(["vehicleNormalPace"]);
    expect(warnings({ mode: "vehicle", pace: "slow" })).toEqual(["vehicleNormalPace"]);
    expect(warnings({ mode: "vehicle" })).toEqual([]);
  });
  it("a speed for a mode that uses the table is ignored", () => {
    expect(warnings({ speedKmh: 5 })).toEqual(["speedIgnored"]);
    expect(warnings({ mode: "custom", speedKmh: 5 })).toEqual([]);
  });
  it("stealth needs the slow pace on foot or a custom mount", () => {
    expect(warnings({ stealth: true })).toEqual(["stealthNeedsSlow"]);
    expect(warnings({ stealth: true, pace: "slow" })).toEqual([]);
    expect(warnings({ stealth: true, pace: "slow", mode: "custom", speedKmh: 20 })).toEqual([]);
    expect(warnings({ stealth: true, pace: "slow", mode: "gallop", distance: 12_000 })).toEqual(["stealthNeedsSlow"]);
    expect(warnings({ stealth: true, pace: "slow", mode: "vehicle" })).toEqual([
      "vehicleNormalPace",
      "stealthNeedsSlow",
    ]);
    expect(warnings({ stealth: false, pace: "fast" })).toEqual([]);
  });
  it("the lost check, only with a chance and a day of travel", () => {
    expect(warnings({ lostChance: 5 })).toEqual(["lostCheck"]);
    expect(warnings({ lostChance: 5, distance: 0 })).toEqual([]);
    expect(travelPlan(trip({ lostChance: 5, distance: 72_000 })).days.map((d) => d.lostCheckChance)).toEqual([5, 5]);
    expect(travelPlan(trip({ lostChance: 0 })).days.map((d) => d.lostCheckChance)).toEqual([null]);
  });
  it("a forced march from the 9th hour, on foot and on a custom mount, never on a boat", () => {
    expect(warnings({ hoursPerDay: 9, distance: 40_500 })).toEqual(["forcedMarch"]);
    expect(warnings({ hoursPerDay: 8.99, distance: 40_000 })).toEqual([]);
    expect(warnings({ mode: "custom", speedKmh: 5, hoursPerDay: 9, distance: 45_000 })).toEqual(["forcedMarch"]);
    expect(warnings({ mode: "boat", speedKmh: 5, hoursPerDay: 9, distance: 45_000 })).toEqual(["boatCrewNeeded"]);
  });
  it("every warning that applies, in the list's order", () => {
    expect(
      warnings({
        ruleset: "ose",
        pace: "fast",
        stealth: true,
        lostChance: 10,
        hot: true,
        speedKmh: 4,
        hoursPerDay: 10,
        distance: 57_000,
        party: [{ ...aria, activity: "map", position: "rear" }],
      }),
    ).toEqual([
      "rulesetFallback",
      "speedIgnored",
      "stealthNeedsSlow",
      "lostCheck",
      "forcedMarch",
      "positionsNormalised",
      "noLookout",
      "hotWeather",
    ]);
  });
});

describe("travelPlan's members: Perception after the pace, positions, who notices", () => {
  const m = (id: string, passivePerception: number, position: string, activity = "none") => ({
    ...aria,
    id,
    passivePerception,
    position,
    activity,
  });
  it("−5 at fast pace on foot or a custom mount and when galloping; not in a vehicle or a boat", () => {
    const pp = (over: Record<string, unknown>) => travelPlan(trip(over)).members[0]!.passivePerception;
    expect(pp({ pace: "fast" })).toBe(7);
    expect(pp({ pace: "fast", mode: "custom", speedKmh: 5 })).toBe(7);
    expect(pp({ mode: "gallop" })).toBe(7);
    expect(pp({ mode: "gallop", pace: "slow" })).toBe(7);
    expect(pp({ pace: "fast", mode: "vehicle" })).toBe(12);
    expect(pp({ pace: "fast", mode: "boat", speedKmh: 5 })).toBe(12);
    expect(pp({ pace: "slow" })).toBe(12);
    expect(travelPlan(trip({ pace: "fast" })).members[0]!.passivePerceptionBase).toBe(12);
  });
  it("the best passive Perception per position among those not busy", () => {
    const p = travelPlan(
      trip({
        party: [
          m("a", 10, "front"),
          m("b", 14, "front", "map"),
          m("c", 9, "middle", "watch"),
          m("d", 11, "middle"),
          m("e", 8, "rear", "forage"),
        ],
      }),
    );
    expect(p.noticeByPosition).toEqual({ front: 10, middle: 11, rear: null });
    expect(p.members.map((x) => [x.busy, x.countsForNoticing])).toEqual([
      [false, true],
      [true, false],
      [false, true],
      [false, true],
      [true, false],
    ]);
    expect(p.warnings).toEqual([]);
  });
  it("two positions are front and rear; one is the front; three stay", () => {
    const pos = (party: unknown[]) => travelPlan(trip({ party })).members.map((x) => [x.positionGiven, x.position]);
    expect(pos([m("a", 10, "middle"), m("b", 10, "rear")])).toEqual([
      ["middle", "front"],
      ["rear", "rear"],
    ]);
    expect(pos([m("a", 10, "front"), m("b", 10, "middle")])).toEqual([
      ["front", "front"],
      ["middle", "rear"],
    ]);
    expect(pos([m("a", 10, "rear"), m("b", 10, "rear")])).toEqual([
      ["rear", "front"],
      ["rear", "front"],
    ]);
    expect(pos([m("a", 10, "rear"), m("b", 10, "middle"), m("c", 10, "front")])).toEqual([
      ["rear", "rear"],
      ["middle", "middle"],
      ["front", "front"],
    ]);
    expect(travelPlan(trip({ party: [m("a", 10, "middle"), m("b", 12, "rear")] })).noticeByPosition).toEqual({
      front: 10,
      middle: null,
      rear: 12,
    });
  });
  it("the plan's other fields for a plain day", () => {
    const p = travelPlan(trip());
    expect({ ...p, members: undefined, days: undefined }).toEqual({
      ruleset: "rnp",
      pace: "normal",
      effectivePace: "normal",
      terrain: "normal",
      mode: "foot",
      speedKmh: null,
      hoursPerDay: 8,
      hot: false,
      lostChance: 0,
      dayDistance: 36_000,
      distance: 36_000,
      equivalentDistance: 36_000,
      legs: [{ metres: 36_000, terrain: "normal", arrivalSeconds: 28_800 }],
      durationSeconds: 28_800,
      duration: { days: 0, hours: 8, minutes: 0, seconds: 0 },
      marchSeconds: 28_800,
      members: undefined,
      days: undefined,
      noticeByPosition: { front: 12, middle: null, rear: null },
      canStealth: false,
      foodNeedGrams: 500,
      waterNeedLitres: 3,
      saves: [],
      warnings: [],
    });
    expect(travelPlan(trip({ hot: true })).waterNeedLitres).toBe(6);
    expect(travelPlan(trip({ mode: "boat", speedKmh: 5 })).effectivePace).toBe(null);
    expect(travelPlan(trip({ mode: "vehicle", pace: "slow" })).effectivePace).toBe("normal");
    expect(travelPlan(trip({ mode: "custom", speedKmh: 5, pace: "slow" })).effectivePace).toBe(null);
    expect(travelPlan(trip({ mode: "gallop", pace: "slow" })).effectivePace).toBe("slow");
  });
  it("the terrain of a route: theirs when the legs share one, mixed otherwise", () => {
    const route = (legs: unknown[]) => travelPlan(trip({ terrain: undefined, distance: undefined, legs })).terrain;
    expect(
      route([
        { metres: 1000, terrain: "difficult" },
        { metres: 500, terrain: "difficult" },
      ]),
    ).toBe("difficult");
    expect(
      route([
        { metres: 1000, terrain: "normal" },
        { metres: 500, terrain: "difficult" },
      ]),
    ).toBe("mixed");
    expect(
      route([
        { metres: 1000, terrain: "difficult" },
        { metres: 500, terrain: "normal" },
      ]),
    ).toBe("mixed");
    expect(route([{ metres: 1000, terrain: "normal" }])).toBe("normal");
  });
});
