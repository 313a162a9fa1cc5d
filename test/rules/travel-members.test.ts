/**
 * travelPlan's members and travelOutcome (docs/rules.md §2.4, §2.6, §4.3–4.4): whole member plans and outcomes over
 * two days, the fasting limit, the extra dehydration level from the second day, the thirst counter, the saves' order.
 */
import { describe, expect, it } from "vitest";
import { travelOutcome, travelPlan, type TravelInput } from "../../src/rules/travel.js";
import { aria } from "./travel-fixtures.js";

const trip = (over: Record<string, unknown> = {}): TravelInput =>
  ({
    ruleset: "rnp",
    pace: "normal",
    terrain: "normal",
    mode: "foot",
    distance: 72_000,
    party: [aria],
    ...over,
  }) as TravelInput;

describe("a member's plan, whole", () => {
  it("half rations and half water for two days, CON +1, already exhausted once", () => {
    const p = travelPlan(
      trip({
        party: [
          {
            ...aria,
            conMod: 1,
            exhaustion: 1,
            fasting: 3,
            food: "half",
            water: "half",
            activity: "navigate",
            position: "middle",
          },
        ],
      }),
    );
    const d = (day: number, fastingAfter: number) => ({
      day,
      forcedMarch: [],
      food: "half",
      fastingAfter,
      hungerLevels: 0,
      water: "half",
      thirstAutomatic: 0,
      dehydrationDC: 15,
      dehydrationSaveId: `aria:${day}:dehydration`,
      dehydrationExtraIfExhausted: true,
    });
    expect(p.members).toEqual([
      {
        id: "aria",
        name: "Aria",
        conMod: 1,
        exhaustionBefore: 1,
        fastingBefore: 3,
        thirstBefore: 0,
        fastingAllowed: 4,
        food: "half",
        water: "half",
        positionGiven: "middle",
        position: "front",
        activity: "navigate",
        busy: true,
        countsForNoticing: false,
        passivePerceptionBase: 12,
        passivePerception: 12,
        days: [d(1, 3.5), d(2, 4)],
        fastingAfter: 4,
        starvingAfter: false,
        // Every save passed: still 1. Every save failed: 2 levels a day (already exhausted).
        exhaustionMin: 1,
        exhaustionMax: 5,
      },
    ]);
    expect(p.warnings).toEqual(["positionsNormalised", "noLookout"]);
  });
  it("no food and no water for two days: hunger from the 4th day, 2 levels of thirst on the second", () => {
    const p = travelPlan(trip({ party: [{ ...aria, fasting: 3, food: "none", water: "none" }] }));
    const m = p.members[0]!;
    expect(
      m.days.map((x) => [
        x.fastingAfter,
        x.hungerLevels,
        x.thirstAutomatic,
        x.dehydrationDC,
        x.dehydrationSaveId,
        x.dehydrationExtraIfExhausted,
      ]),
    ).toEqual([
      [4, 1, 1, null, null, true],
      [5, 1, 1, null, null, true],
    ]);
    expect([m.fastingAfter, m.starvingAfter, m.exhaustionMin, m.exhaustionMax]).toEqual([5, true, 5, 5]);
    expect(p.saves).toEqual([]);
    expect(travelOutcome(p, {}).members).toEqual([
      {
        id: "aria",
        name: "Aria",
        exhaustionBefore: 0,
        exhaustionAfter: 5,
        levelsGained: 5,
        fastingAfter: 5,
        thirstAfter: 2,
        starving: true,
        dehydrated: true,
        recoveryBlocked: true,
        dead: false,
        days: [
          {
            day: 1,
            forcedMarchFailures: 0,
            hungerLevels: 1,
            thirstLevels: 1,
            dehydrationExtra: false,
            fastingAfter: 4,
            thirstAfter: 1,
            exhaustionAfter: 2,
            applied: { forcedMarch: 0, hunger: 1, thirst: 1 },
          },
          {
            day: 2,
            forcedMarchFailures: 0,
            hungerLevels: 1,
            thirstLevels: 2,
            dehydrationExtra: true,
            fastingAfter: 5,
            thirstAfter: 2,
            exhaustionAfter: 5,
            applied: { forcedMarch: 0, hunger: 1, thirst: 2 },
          },
        ],
      },
    ]);
  });
  it("a day of full water ends the thirst counter; full food ends starving", () => {
    const p = travelPlan(trip({ distance: 36_000, party: [{ ...aria, thirst: 2, fasting: 9, conMod: 0 }] }));
    const m = p.members[0]!;
    expect([m.thirstBefore, m.fastingBefore, m.fastingAfter, m.starvingAfter]).toEqual([2, 9, 0, false]);
    expect(travelOutcome(p, {}).members[0]).toMatchObject({
      thirstAfter: 0,
      starving: false,
      dehydrated: false,
      recoveryBlocked: false,
      exhaustionAfter: 0,
      levelsGained: 0,
    });
    // Without a day of travel, the counters before the trip stand.
    const none = travelPlan(trip({ distance: 0, party: [{ ...aria, thirst: 2, fasting: 9 }] }));
    expect(travelOutcome(none, {}).members[0]).toMatchObject({
      thirstAfter: 2,
      fastingAfter: 9,
      starving: true,
      dehydrated: true,
      recoveryBlocked: true,
      days: [],
    });
  });
  it("the saves in order: day by day, member by member, the hours then dehydration", () => {
    const p = travelPlan(
      trip({
        hoursPerDay: 9,
        distance: 81_000,
        party: [
          { ...aria, id: "a", water: "half" },
          { ...aria, id: "b" },
        ],
      }),
    );
    expect(p.saves.map((s) => s.id)).toEqual([
      "a:1:forcedMarch:9",
      "a:1:dehydration",
      "b:1:forcedMarch:9",
      "a:2:forcedMarch:9",
      "a:2:dehydration",
      "b:2:forcedMarch:9",
    ]);
    const r = travelOutcome(p, {
      "a:1:forcedMarch:9": 11,
      "a:1:dehydration": 15,
      "b:1:forcedMarch:9": 10,
      "a:2:forcedMarch:9": true,
      "a:2:dehydration": 14,
      "b:2:forcedMarch:9": false,
    });
    expect(r.failedSaves).toEqual(["b:1:forcedMarch:9", "a:2:dehydration", "b:2:forcedMarch:9"]);
    expect(r.members.map((x) => [x.id, x.exhaustionAfter, x.dehydrated, x.thirstAfter])).toEqual([
      ["a", 1, true, 1],
      ["b", 2, false, 0],
    ]);
  });
  it("dead at 6", () => {
    const p = travelPlan(trip({ distance: 36_000, party: [{ ...aria, exhaustion: 5, water: "none" }] }));
    expect(travelOutcome(p, {}).members[0]).toMatchObject({ exhaustionAfter: 6, levelsGained: 1, dead: true });
    const q = travelPlan(trip({ distance: 36_000, party: [{ ...aria, exhaustion: 4, water: "none" }] }));
    expect(travelOutcome(q, {}).members[0]).toMatchObject({ exhaustionAfter: 6, levelsGained: 2, dead: true });
    const r = travelPlan(trip({ distance: 36_000, party: [{ ...aria, exhaustion: 3, water: "none" }] }));
    expect(travelOutcome(r, {}).members[0]).toMatchObject({ exhaustionAfter: 5, levelsGained: 2, dead: false });
  });
});
