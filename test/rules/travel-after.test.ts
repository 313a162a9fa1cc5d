/**
 * After travelPlan (docs/rules.md §2.4, §2.6, §4.3–4.4, §11): where the party is on its route, the Survival checks, and
 * the outcome of the saves, with whole results and the whole error of each bad field of a plan given back.
 */
import { describe, expect, it } from "vitest";
import {
  routePosition,
  travelOutcome,
  travelPlan,
  travelSurvivalChecks,
  type TravelPlan,
} from "../../src/rules/travel.js";
import { throwsError } from "./helpers.js";
import { aria, trip } from "./travel-fixtures.js";

const ACTIVITIES = "none, watch, navigate, map, track, forage";

describe("routePosition (docs/rules.md §11)", () => {
  // §11's example: 18 km of road then 9 km of forest at normal pace = 36 km equivalent = exactly one day.
  const plan = travelPlan(
    trip({
      terrain: undefined,
      distance: undefined,
      legs: [
        { metres: 18_000, terrain: "normal" },
        { metres: 9000, terrain: "difficult" },
      ],
    }),
  );
  it("the example route: the forest reached after 4 h, half of it after 6 h, the end after 8 h", () => {
    expect(plan.legs).toEqual([
      { metres: 18_000, terrain: "normal", arrivalSeconds: 14_400 },
      { metres: 9000, terrain: "difficult", arrivalSeconds: 28_800 },
    ]);
    expect(routePosition(plan, -5)).toEqual({ leg: 0, metresAlongRoute: 0, fraction: 0 });
    expect(routePosition(plan, 0)).toEqual({ leg: 0, metresAlongRoute: 0, fraction: 0 });
    expect(routePosition(plan, 7200)).toEqual({ leg: 0, metresAlongRoute: 9000, fraction: 0.5 });
    expect(routePosition(plan, 14_400)).toEqual({ leg: 1, metresAlongRoute: 18_000, fraction: 0 });
    expect(routePosition(plan, 21_600)).toEqual({ leg: 1, metresAlongRoute: 22_500, fraction: 0.5 });
    expect(routePosition(plan, 28_800)).toEqual({ leg: 1, metresAlongRoute: 27_000, fraction: 1 });
    expect(routePosition(plan, 200_000)).toEqual({ leg: 1, metresAlongRoute: 27_000, fraction: 1 });
  });
  it("two days: the party stands still overnight", () => {
    const two = travelPlan(trip({ distance: 72_000 }));
    expect(routePosition(two, 28_800)).toEqual({ leg: 0, metresAlongRoute: 36_000, fraction: 0.5 });
    expect(routePosition(two, 50_000)).toEqual({ leg: 0, metresAlongRoute: 36_000, fraction: 0.5 });
    expect(routePosition(two, 86_400 + 14_400)).toEqual({ leg: 0, metresAlongRoute: 54_000, fraction: 0.75 });
  });
  it("refuses a plan or a time that does not fit, naming the field", () => {
    const st = plan.days[0]!.stretches[0]!;
    const day = (stretch: unknown) => ({ ...plan, days: [{ ...plan.days[0], stretches: [stretch] }] });
    const name = "plan.days[0].stretches[0]";
    const cases: [unknown, number, string, Record<string, string | number>][] = [
      [null, 0, "Missing", { name: "plan" }],
      [{ ...plan, legs: "x" }, 0, "Missing", { name: "plan.legs" }],
      [{ ...plan, legs: [] }, 0, "Missing", { name: "plan.legs" }],
      [{ ...plan, legs: [plan.legs[0], null] }, 0, "Missing", { name: "plan.legs[1]" }],
      [{ ...plan, legs: [{ ...plan.legs[0], metres: -1 }] }, 0, "Negative", { name: "plan.legs[0].metres", value: -1 }],
      [{ ...plan, days: "x" }, 0, "Missing", { name: "plan.days" }],
      [
        { ...plan, days: new Array(1001).fill(plan.days[0]) },
        0,
        "OutOfRange",
        { name: "plan.days", value: 1001, min: 0, max: 1000 },
      ],
      [plan, -86_400_001, "OutOfRange", { name: "seconds", value: -86_400_001, min: -86_400_000, max: 172_800_000 }],
      [plan, 172_800_001, "OutOfRange", { name: "seconds", value: 172_800_001, min: -86_400_000, max: 172_800_000 }],
      [{ ...plan, days: [null] }, 0, "Missing", { name: "plan.days[0]" }],
      [{ ...plan, days: [{ stretches: "x" }] }, 0, "Missing", { name: "plan.days[0].stretches" }],
      [day(null), 0, "Missing", { name }],
      [day({ ...st, startSeconds: -1 }), 0, "Negative", { name: `${name}.startSeconds`, value: -1 }],
      [
        day({ ...st, startSeconds: 86_400_001 }),
        0,
        "OutOfRange",
        { name: `${name}.startSeconds`, value: 86_400_001, min: 0, max: 86_400_000 },
      ],
      [day({ ...st, seconds: -1 }), 0, "Negative", { name: `${name}.seconds`, value: -1 }],
      [
        day({ ...st, seconds: 86_400_001 }),
        0,
        "OutOfRange",
        { name: `${name}.seconds`, value: 86_400_001, min: 0, max: 86_400_000 },
      ],
      [day({ ...st, metres: -1 }), 0, "Negative", { name: `${name}.metres`, value: -1 }],
      [day({ ...st, leg: 2 }), 0, "OutOfRange", { name: `${name}.leg`, value: 2, min: 0, max: 1 }],
      [day({ ...st, leg: 0.5 }), 0, "NotAnInteger", { name: `${name}.leg`, value: 0.5 }],
    ];
    for (const [p, t, key, data] of cases) throwsError(() => routePosition(p as TravelPlan, t), key, data);
    expect(routePosition(plan, -86_400_000)).toEqual({ leg: 0, metresAlongRoute: 0, fraction: 0 });
    expect(routePosition(plan, 172_800_000)).toEqual({ leg: 1, metresAlongRoute: 27_000, fraction: 1 });
  });
  it("a leg of no length: fraction 1 once reached", () => {
    const p = travelPlan(
      trip({
        terrain: undefined,
        distance: undefined,
        legs: [
          { metres: 4500, terrain: "normal" },
          { metres: 0, terrain: "normal" },
        ],
      }),
    );
    expect(routePosition(p, 3600)).toEqual({ leg: 1, metresAlongRoute: 4500, fraction: 1 });
  });
});

describe("travelSurvivalChecks (docs/rules.md §2.6)", () => {
  it("one check a day for each member navigating, tracking or foraging, day by day in plan order", () => {
    const party = [
      { ...aria, id: "a", activity: "forage" },
      { ...aria, id: "b", activity: "watch" },
      { ...aria, id: "c", activity: "navigate" },
      { ...aria, id: "d", activity: "map" },
      { ...aria, id: "e", activity: "track" },
    ];
    const plan = travelPlan(trip({ distance: 72_000, party }));
    const check = (id: string, day: number, activity: string, dc = 10) => ({
      id: `${id}:${day}:survival`,
      memberId: id,
      day,
      activity,
      ability: "wis",
      skill: "survival",
      dc,
    });
    expect(travelSurvivalChecks(plan)).toEqual([
      check("a", 1, "forage"),
      check("c", 1, "navigate"),
      check("e", 1, "track"),
      check("a", 2, "forage"),
      check("c", 2, "navigate"),
      check("e", 2, "track"),
    ]);
    expect(travelSurvivalChecks(plan, 40).map((c) => c.dc)).toEqual([40, 40, 40, 40, 40, 40]);
    expect(travelSurvivalChecks(plan, 1)[0]!.dc).toBe(1);
  });
  it("refuses a DC or a plan that does not fit", () => {
    const plan = travelPlan(trip());
    const cases: [unknown, number, string, Record<string, string | number>][] = [
      [plan, 0, "OutOfRange", { name: "dc", value: 0, min: 1, max: 40 }],
      [plan, 41, "OutOfRange", { name: "dc", value: 41, min: 1, max: 40 }],
      [plan, 10.5, "NotAnInteger", { name: "dc", value: 10.5 }],
      [null, 10, "Missing", { name: "plan" }],
      [{ ...plan, days: "x" }, 10, "Missing", { name: "plan.days" }],
      [{ ...plan, members: "x" }, 10, "Missing", { name: "plan.members" }],
      [{ ...plan, members: [plan.members[0], null] }, 10, "Missing", { name: "plan.members[1]" }],
      [{ ...plan, members: [{ ...plan.members[0], id: "" }] }, 10, "Missing", { name: "plan.members[0].id" }],
      [{ ...plan, members: [{ ...plan.members[0], id: 7 }] }, 10, "Missing", { name: "plan.members[0].id" }],
      [
        { ...plan, members: [{ ...plan.members[0], activity: "sing" }] },
        10,
        "UnknownValue",
        { name: "plan.members[0].activity", value: "sing", allowed: ACTIVITIES },
      ],
    ];
    for (const [p, dc, key, data] of cases) throwsError(() => travelSurvivalChecks(p as TravelPlan, dc), key, data);
  });
  it("at most 20,000 checks", () => {
    const fake = (n: number) =>
      ({
        days: new Array(1000).fill({}),
        members: Array.from({ length: n }, (_, i) => ({ id: `m${i}`, activity: "track" })),
      }) as unknown as TravelPlan;
    expect(travelSurvivalChecks(fake(20))).toHaveLength(20_000);
    throwsError(() => travelSurvivalChecks(fake(21)), "OutOfRange", {
      name: "party × days",
      value: 21_000,
      min: 0,
      max: 20_000,
    });
  });
});

describe("travelOutcome (docs/rules.md §2.4, §4.3–4.4)", () => {
  // 10 h at normal pace: 36 km (the day column) + 2 × 4.5 km; saves at the end of the 9th (DC 11) and 10th (DC 12) hours.
  const plan = travelPlan(trip({ distance: 45_000, hoursPerDay: 10, party: [{ ...aria, water: "half" }] }));
  const ids = { h9: "aria:1:forcedMarch:9", h10: "aria:1:forcedMarch:10", water: "aria:1:dehydration" };
  it("the plan lists the saves in order: the forced-march hours, then dehydration", () => {
    expect(plan.saves).toEqual([
      { id: ids.h9, memberId: "aria", day: 1, kind: "forcedMarch", hour: 9, ability: "con", dc: 11 },
      { id: ids.h10, memberId: "aria", day: 1, kind: "forcedMarch", hour: 10, ability: "con", dc: 12 },
      { id: ids.water, memberId: "aria", day: 1, kind: "dehydration", hour: null, ability: "con", dc: 15 },
    ]);
  });
  it("a failed 9th hour and a failed dehydration save: 1 level, then 2 (already exhausted)", () => {
    expect(travelOutcome(plan, { [ids.h9]: 10, [ids.h10]: 12, [ids.water]: false })).toEqual({
      members: [
        {
          id: "aria",
          name: "Aria",
          exhaustionBefore: 0,
          exhaustionAfter: 3,
          levelsGained: 3,
          fastingAfter: 0,
          thirstAfter: 1,
          starving: false,
          dehydrated: true,
          recoveryBlocked: true,
          dead: false,
          days: [
            {
              day: 1,
              forcedMarchFailures: 1,
              hungerLevels: 0,
              thirstLevels: 2,
              dehydrationExtra: true,
              fastingAfter: 0,
              thirstAfter: 1,
              exhaustionAfter: 3,
              applied: { forcedMarch: 1, hunger: 0, thirst: 2 },
            },
          ],
        },
      ],
      failedSaves: [ids.h9, ids.water],
    });
  });
  it("capped at 6: what each cause actually added", () => {
    const p5 = travelPlan(
      trip({
        distance: 45_000,
        hoursPerDay: 10,
        party: [{ ...aria, water: "half", exhaustion: 5, fasting: 3, food: "none" }],
      }),
    );
    const r = travelOutcome(p5, { [ids.h9]: false, [ids.h10]: false, [ids.water]: false });
    expect(r.members[0]!.days).toEqual([
      {
        day: 1,
        forcedMarchFailures: 2,
        hungerLevels: 1,
        thirstLevels: 2,
        dehydrationExtra: true,
        fastingAfter: 4,
        thirstAfter: 1,
        exhaustionAfter: 6,
        applied: { forcedMarch: 1, hunger: 0, thirst: 0 },
      },
    ]);
    expect(r.members[0]).toMatchObject({
      exhaustionAfter: 6,
      levelsGained: 1,
      dead: true,
      starving: true,
      recoveryBlocked: true,
    });
    expect(r.failedSaves).toEqual([ids.h9, ids.h10, ids.water]);
  });
  it("refuses results that do not fit the plan", () => {
    const all = { [ids.h9]: true, [ids.h10]: true, [ids.water]: true };
    throwsError(() => travelOutcome(plan, { ...all, other: true }), "UnknownValue", {
      name: "saveResults",
      value: "other",
      allowed: "the ids of plan.saves",
    });
    throwsError(() => travelOutcome(plan, { [ids.h9]: true, [ids.water]: true }), "Missing", { name: ids.h10 });
    throwsError(() => travelOutcome(plan, null as never), "Missing", { name: "saveResults" });
    throwsError(() => travelOutcome(plan, "all" as never), "UnknownValue", {
      name: "saveResults",
      value: "all",
      allowed: "object",
    });
  });
  it("refuses a plan that does not fit, naming the field", () => {
    const m = plan.members[0]!;
    const d = m.days[0]!;
    const withMember = (over: Record<string, unknown>) => ({ ...plan, members: [{ ...m, ...over }] });
    const withDay = (over: Record<string, unknown>) => withMember({ days: [{ ...d, ...over }] });
    const dn = "plan.members[0].days[0]";
    const cases: [unknown, string, Record<string, string | number>][] = [
      [null, "Missing", { name: "plan" }],
      [[], "Missing", { name: "plan" }],
      ["plan", "UnknownValue", { name: "plan", value: "plan", allowed: "object" }],
      [{ ...plan, saves: "x" }, "Missing", { name: "plan.saves" }],
      [{ ...plan, saves: [null] }, "Missing", { name: "plan.saves[0]" }],
      [{ ...plan, saves: [{ ...plan.saves[0], id: "" }] }, "Missing", { name: "plan.saves[0].id" }],
      [
        { ...plan, saves: [{ ...plan.saves[0], dc: 1001 }] },
        "OutOfRange",
        { name: "plan.saves[0].dc", value: 1001, min: -1000, max: 1000 },
      ],
      [{ ...plan, saves: [{ ...plan.saves[0], dc: 11.5 }] }, "NotAnInteger", { name: "plan.saves[0].dc", value: 11.5 }],
      [{ ...plan, members: "x" }, "Missing", { name: "plan.members" }],
      [{ ...plan, members: [null] }, "Missing", { name: "plan.members[0]" }],
      [withMember({ days: "x" }), "Missing", { name: "plan.members[0].days" }],
      [withMember({ days: [null] }), "Missing", { name: dn }],
      [withDay({ water: "lots" }), "UnknownValue", { name: `${dn}.water`, value: "lots", allowed: "full, half, none" }],
      [withDay({ food: "feast" }), "UnknownValue", { name: `${dn}.food`, value: "feast", allowed: "full, half, none" }],
      [withDay({ day: 0 }), "OutOfRange", { name: `${dn}.day`, value: 0, min: 1, max: 1000 }],
      [withDay({ day: 1.5 }), "NotAnInteger", { name: `${dn}.day`, value: 1.5 }],
      [withDay({ forcedMarch: "x" }), "Missing", { name: `${dn}.forcedMarch` }],
      [withDay({ forcedMarch: [null] }), "Missing", { name: `${dn}.forcedMarch[0]` }],
      [
        withDay({ forcedMarch: [{ ...d.forcedMarch[0], hour: 25 }] }),
        "OutOfRange",
        { name: `${dn}.forcedMarch[0].hour`, value: 25, min: 1, max: 24 },
      ],
      [
        withDay({ forcedMarch: [{ ...d.forcedMarch[0], hour: 0 }] }),
        "OutOfRange",
        { name: `${dn}.forcedMarch[0].hour`, value: 0, min: 1, max: 24 },
      ],
      [
        withDay({ forcedMarch: [{ ...d.forcedMarch[0], hour: 9.5 }] }),
        "NotAnInteger",
        { name: `${dn}.forcedMarch[0].hour`, value: 9.5 },
      ],
      [
        withDay({ forcedMarch: [{ ...d.forcedMarch[0], dc: 1001 }] }),
        "OutOfRange",
        { name: `${dn}.forcedMarch[0].dc`, value: 1001, min: -1000, max: 1000 },
      ],
      [
        withDay({ forcedMarch: [{ ...d.forcedMarch[0], saveId: "" }] }),
        "Missing",
        { name: `${dn}.forcedMarch[0].saveId` },
      ],
      [
        withDay({ dehydrationDC: 1001 }),
        "OutOfRange",
        { name: `${dn}.dehydrationDC`, value: 1001, min: -1000, max: 1000 },
      ],
      [withDay({ dehydrationSaveId: "" }), "Missing", { name: `${dn}.dehydrationSaveId` }],
      [withDay({ dehydrationDC: null }), "Missing", { name: `${dn}.dehydrationDC` }],
      [withMember({ conMod: 11 }), "OutOfRange", { name: "plan.members[0].conMod", value: 11, min: -5, max: 10 }],
      [withMember({ conMod: 0.5 }), "NotAnInteger", { name: "plan.members[0].conMod", value: 0.5 }],
      [withMember({ id: "" }), "Missing", { name: "plan.members[0].id" }],
      [withMember({ name: null }), "Missing", { name: "plan.members[0].name" }],
      [
        withMember({ exhaustionBefore: 7 }),
        "OutOfRange",
        { name: "plan.members[0].exhaustionBefore", value: 7, min: 0, max: 6 },
      ],
      [withMember({ exhaustionBefore: 0.5 }), "NotAnInteger", { name: "plan.members[0].exhaustionBefore", value: 0.5 }],
      [
        withMember({ fastingBefore: 10_000.5 }),
        "OutOfRange",
        { name: "plan.members[0].fastingBefore", value: 10_000.5, min: 0, max: 10_000 },
      ],
      [withMember({ thirstBefore: 0.5 }), "NotAnInteger", { name: "plan.members[0].thirstBefore", value: 0.5 }],
      [
        withMember({ thirstBefore: 10_001 }),
        "OutOfRange",
        { name: "plan.members[0].thirstBefore", value: 10_001, min: 0, max: 10_000 },
      ],
    ];
    const all = { [ids.h9]: true, [ids.h10]: true, [ids.water]: true };
    for (const [p, key, data] of cases) throwsError(() => travelOutcome(p as TravelPlan, all), key, data);
  });
  it("at most 20,000 member-days in a plan given back", () => {
    const d = { day: 1, forcedMarch: [], food: "full", water: "full", dehydrationDC: null, dehydrationSaveId: null };
    const member = (i: number) => ({
      id: `m${i}`,
      name: "",
      conMod: 0,
      exhaustionBefore: 0,
      fastingBefore: 0,
      thirstBefore: 0,
      days: new Array(1000).fill(d),
    });
    const fake = (n: number) =>
      ({ saves: [], members: Array.from({ length: n }, (_, i) => member(i)) }) as unknown as TravelPlan;
    expect(travelOutcome(fake(20), {}).members).toHaveLength(20);
    throwsError(() => travelOutcome(fake(21), {}), "OutOfRange", {
      name: "party × days",
      value: 21_000,
      min: 0,
      max: 20_000,
    });
  });
});
