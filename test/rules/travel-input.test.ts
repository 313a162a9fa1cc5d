/**
 * travelPlan's input (docs/rules.md §2, §4.3–4.4, §11): the whole error of each bad field (its name, with the member's
 * or the leg's index, is what the user reads), each bound on both sides, and the limits on days and party × days.
 */
import { describe, expect, it } from "vitest";
import { travelPlan, type TravelInput } from "../../src/rules/travel.js";
import { throwsError } from "./helpers.js";
import { aria, trip } from "./travel-fixtures.js";

const BOOL = "true, false";

describe("travelPlan refuses a bad journey, naming the field", () => {
  it("the journey's own fields", () => {
    const cases: [unknown, string, Record<string, string | number>][] = [
      [undefined, "Missing", { name: "input" }],
      [null, "Missing", { name: "input" }],
      ["trip", "UnknownValue", { name: "input", value: "trip", allowed: "object" }],
      [trip({ ruleset: "chess" }), "UnknownRuleset", { value: "chess" }],
      [trip({ pace: "run" }), "UnknownValue", { name: "pace", value: "run", allowed: "slow, normal, fast" }],
      [
        trip({ mode: "cart" }),
        "UnknownValue",
        { name: "mode", value: "cart", allowed: "foot, gallop, vehicle, boat, custom" },
      ],
      [
        trip({ terrain: undefined }),
        "UnknownValue",
        { name: "terrain", value: "undefined", allowed: "normal, difficult" },
      ],
      [
        trip({ terrain: undefined, distance: undefined, legs: [{ metres: 1, terrain: "normal" }], duration: 5 }),
        "UnknownValue",
        { name: "legs", value: "duration", allowed: "legs, or distance or duration with terrain" },
      ],
      [
        trip({ terrain: undefined, legs: [{ metres: 1, terrain: "normal" }] }),
        "UnknownValue",
        { name: "legs", value: "distance", allowed: "legs, or distance or duration with terrain" },
      ],
      [
        trip({ distance: undefined, legs: [{ metres: 1, terrain: "normal" }] }),
        "UnknownValue",
        { name: "legs", value: "terrain", allowed: "legs, or distance or duration with terrain" },
      ],
      [trip({ mode: "boat" }), "Missing", { name: "speedKmh" }],
      [trip({ mode: "custom" }), "Missing", { name: "speedKmh" }],
      [trip({ mode: "boat", speedKmh: 0 }), "OutOfRange", { name: "speedKmh", value: 0, min: 0.01, max: 1000 }],
      [
        trip({ mode: "custom", speedKmh: 1000.5 }),
        "OutOfRange",
        { name: "speedKmh", value: 1000.5, min: 0.01, max: 1000 },
      ],
      [trip({ hoursPerDay: 0 }), "OutOfRange", { name: "hoursPerDay", value: 0, min: Number.MIN_VALUE, max: 24 }],
      [trip({ hoursPerDay: 24.5 }), "OutOfRange", { name: "hoursPerDay", value: 24.5, min: Number.MIN_VALUE, max: 24 }],
      [trip({ hot: "yes" }), "UnknownValue", { name: "hot", value: "yes", allowed: BOOL }],
      [trip({ stealth: 1 }), "UnknownValue", { name: "stealth", value: "1", allowed: BOOL }],
      [trip({ lostChance: -1 }), "Negative", { name: "lostChance", value: -1 }],
      [trip({ lostChance: 101 }), "OutOfRange", { name: "lostChance", value: 101, min: 0, max: 100 }],
      [trip({ distance: undefined }), "Missing", { name: "distance" }],
      [
        trip({ duration: 3600 }),
        "UnknownValue",
        { name: "distance, duration", value: "both", allowed: "distance or duration" },
      ],
      [trip({ distance: -1 }), "Negative", { name: "distance", value: -1 }],
      [trip({ distance: 10_000_001 }), "OutOfRange", { name: "distance", value: 10_000_001, min: 0, max: 10_000_000 }],
      [trip({ distance: undefined, duration: -1 }), "Negative", { name: "duration", value: -1 }],
    ];
    for (const [input, key, data] of cases) throwsError(() => travelPlan(input as TravelInput), key, data);
  });
  it("the legs of a route", () => {
    const route = (legs: unknown) => trip({ terrain: undefined, distance: undefined, legs });
    const cases: [unknown, string, Record<string, string | number>][] = [
      ["x", "Missing", { name: "legs" }],
      [[], "Missing", { name: "legs" }],
      [[{ metres: 1, terrain: "normal" }, null], "Missing", { name: "legs[1]" }],
      [
        [{ metres: 1, terrain: "swamp" }],
        "UnknownValue",
        { name: "legs[0].terrain", value: "swamp", allowed: "normal, difficult" },
      ],
      [
        [
          { metres: 1, terrain: "normal" },
          { metres: -1, terrain: "normal" },
        ],
        "Negative",
        { name: "legs[1].metres", value: -1 },
      ],
      [
        [
          { metres: 6_000_000, terrain: "normal" },
          { metres: 4_000_001, terrain: "normal" },
        ],
        "OutOfRange",
        { name: "legs (total)", value: 10_000_001, min: 0, max: 10_000_000 },
      ],
    ];
    for (const [legs, key, data] of cases) throwsError(() => travelPlan(route(legs)), key, data);
  });
  it("the party and each member", () => {
    const m = (over: Record<string, unknown>) => trip({ party: [aria, { ...aria, id: "bram", ...over }] });
    const cases: [unknown, string, Record<string, string | number>][] = [
      [trip({ party: "x" }), "Missing", { name: "party" }],
      [trip({ party: [] }), "EmptyParty", {}],
      [
        trip({ party: Array.from({ length: 501 }, (_, i) => ({ ...aria, id: `m${i}` })) }),
        "OutOfRange",
        { name: "party", value: 501, min: 0, max: 500 },
      ],
      [trip({ party: [aria, null] }), "Missing", { name: "party[1]" }],
      [trip({ party: [aria, undefined] }), "Missing", { name: "party[1]" }],
      [trip({ party: [aria, "bram"] }), "UnknownValue", { name: "party[1]", value: "bram", allowed: "object" }],
      [m({ conMod: 11 }), "OutOfRange", { name: "party[1].conMod", value: 11, min: -5, max: 10 }],
      [m({ conMod: -6 }), "OutOfRange", { name: "party[1].conMod", value: -6, min: -5, max: 10 }],
      [m({ conMod: 0.5 }), "NotAnInteger", { name: "party[1].conMod", value: 0.5 }],
      [m({ id: "" }), "Missing", { name: "party[1].id" }],
      [m({ id: 3 }), "Missing", { name: "party[1].id" }],
      [m({ name: 3 }), "Missing", { name: "party[1].name" }],
      [
        m({ passivePerception: 101 }),
        "OutOfRange",
        { name: "party[1].passivePerception", value: 101, min: 0, max: 100 },
      ],
      [m({ passivePerception: -1 }), "Negative", { name: "party[1].passivePerception", value: -1 }],
      [m({ passivePerception: 10.5 }), "NotAnInteger", { name: "party[1].passivePerception", value: 10.5 }],
      [m({ exhaustion: 7 }), "OutOfRange", { name: "party[1].exhaustion", value: 7, min: 0, max: 6 }],
      [m({ exhaustion: 0.5 }), "NotAnInteger", { name: "party[1].exhaustion", value: 0.5 }],
      [m({ fasting: -1 }), "Negative", { name: "party[1].fasting", value: -1 }],
      [m({ fasting: 10_000.5 }), "OutOfRange", { name: "party[1].fasting", value: 10_000.5, min: 0, max: 10_000 }],
      [m({ thirst: 0.5 }), "NotAnInteger", { name: "party[1].thirst", value: 0.5 }],
      [m({ thirst: 10_001 }), "OutOfRange", { name: "party[1].thirst", value: 10_001, min: 0, max: 10_000 }],
      [m({ food: "feast" }), "UnknownValue", { name: "party[1].food", value: "feast", allowed: "full, half, none" }],
      [m({ water: "lots" }), "UnknownValue", { name: "party[1].water", value: "lots", allowed: "full, half, none" }],
      [
        m({ position: "side" }),
        "UnknownValue",
        { name: "party[1].position", value: "side", allowed: "front, middle, rear" },
      ],
      [
        m({ activity: "sing" }),
        "UnknownValue",
        { name: "party[1].activity", value: "sing", allowed: "none, watch, navigate, map, track, forage" },
      ],
      [m({ id: "aria" }), "UnknownValue", { name: "party[1].id", value: "aria", allowed: "unique ids" }],
    ];
    for (const [input, key, data] of cases) throwsError(() => travelPlan(input as TravelInput), key, data);
  });
  it("the bounds of a member are accepted: an empty name, exhaustion 6, fasting and thirst 10,000, perception 0 and 100", () => {
    const plan = travelPlan(
      trip({
        party: [
          { ...aria, name: "", exhaustion: 6, fasting: 10_000, thirst: 10_000, passivePerception: 100, conMod: 10 },
          { ...aria, id: "b", passivePerception: 0, conMod: -5 },
        ],
      }),
    );
    expect(
      plan.members.map((x) => [x.name, x.exhaustionBefore, x.fastingBefore, x.thirstBefore, x.passivePerceptionBase]),
    ).toEqual([
      ["", 6, 10_000, 10_000, 100],
      ["Aria", 0, 0, 0, 0],
    ]);
    expect(
      travelPlan(trip({ party: Array.from({ length: 500 }, (_, i) => ({ ...aria, id: `m${i}` })) })).members,
    ).toHaveLength(500);
  });
  it("at most 1000 days, and at most 20,000 member-days", () => {
    // 0.01 h a day covers 0.6 min × 90 m = 54 m (§2.1 minute column): 1,000,000 m would take 18,519 days.
    throwsError(() => travelPlan(trip({ distance: 1_000_000, hoursPerDay: 0.01 })), "OutOfRange", {
      name: "days",
      value: 18_519,
      min: 0,
      max: 1000,
    });
    // 1000 days of 8 h at normal pace is 36,000 km, beyond the 10,000 km of a distance: by duration instead.
    expect(travelPlan(trip({ distance: undefined, duration: 1000 * 86_400 })).days).toHaveLength(1000);
    throwsError(() => travelPlan(trip({ distance: undefined, duration: 1000 * 86_400 + 3600 })), "OutOfRange", {
      name: "days",
      value: 1001,
      min: 0,
      max: 1000,
    });
    const party = (n: number) => Array.from({ length: n }, (_, i) => ({ ...aria, id: `m${i}` }));
    expect(travelPlan(trip({ distance: undefined, duration: 500 * 86_400, party: party(40) })).days).toHaveLength(500);
    throwsError(
      () => travelPlan(trip({ distance: undefined, duration: 500 * 86_400, party: party(41) })),
      "OutOfRange",
      { name: "party × days", value: 20_500, min: 0, max: 20_000 },
    );
  });
});
