/**
 * travelPlan's march, day by day and stretch by stretch (docs/rules.md §2.1 *Decision (which column)*, §2.3, §2.4,
 * §2.5): the examples of §2.1 written out whole.
 */
import { describe, expect, it } from "vitest";
import { travelPlan } from "../../src/rules/travel.js";
import { trip } from "./travel-fixtures.js";

const st = (column: string, startSeconds: number, seconds: number, metres: number, leg = 0) => ({
  column,
  leg,
  startSeconds,
  seconds,
  metres,
});
const day = (
  n: number,
  marchSeconds: number,
  distance: number,
  distanceTotal: number,
  stretches: unknown[],
  over: Record<string, unknown> = {},
) => ({
  day: n,
  startSeconds: (n - 1) * 86_400,
  marchSeconds,
  gallopSeconds: 0,
  distance,
  distanceTotal,
  forcedMarch: [],
  lostCheckChance: null,
  stretches,
  ...over,
});

describe("the march (docs/rules.md §2.1)", () => {
  it("30 km at slow pace: 1 day (27 km) + 1 h (3 km)", () => {
    const p = travelPlan(trip({ pace: "slow", distance: 30_000 }));
    expect(p.days).toEqual([
      day(1, 28_800, 27_000, 27_000, [st("day", 0, 28_800, 27_000)]),
      day(2, 3600, 3000, 30_000, [st("hour", 86_400, 3600, 3000)]),
    ]);
    expect(p.durationSeconds).toBe(90_000);
    expect(p.duration).toEqual({ days: 1, hours: 1, minutes: 0, seconds: 0 });
    expect(p.marchSeconds).toBe(32_400);
    expect(p.dayDistance).toBe(27_000);
  });
  it("a remainder needing 8 h or more at the hour column is one more whole day (slow: 24 km and more); 23 km is not", () => {
    expect(travelPlan(trip({ pace: "slow", distance: 52_000 })).days[1]).toEqual(
      day(2, 28_800, 25_000, 52_000, [st("day", 86_400, 28_800, 25_000)]),
    );
    expect(travelPlan(trip({ pace: "slow", distance: 51_000 })).days[1]).toEqual(
      day(2, 28_800, 24_000, 51_000, [st("day", 86_400, 28_800, 24_000)]),
    );
    expect(travelPlan(trip({ pace: "slow", distance: 50_000 })).days[1]).toEqual(
      day(2, 27_600, 23_000, 50_000, [st("hour", 86_400, 27_600, 23_000)]),
    );
  });
  it("a journey by duration: whole hours at the hour column, the rest at the minute column", () => {
    const p = travelPlan(trip({ distance: undefined, duration: 9000 }));
    // 2 h × 4.5 km + 30 min × 90 m.
    expect(p.days).toEqual([day(1, 9000, 11_700, 11_700, [st("hour", 0, 7200, 9000), st("minute", 7200, 1800, 2700)])]);
    expect(p.distance).toBe(11_700);
    expect(p.durationSeconds).toBe(9000);
    expect(travelPlan(trip({ pace: "slow", distance: undefined, duration: 5 * 3600 })).distance).toBe(15_000);
    expect(travelPlan(trip({ pace: "fast", distance: undefined, duration: 7 * 3600 })).distance).toBe(42_000);
    expect(travelPlan(trip({ pace: "fast", distance: undefined, duration: 8 * 3600 })).distance).toBe(45_000);
  });
  it("a duration over a day: a whole day, then at most hoursPerDay of the rest", () => {
    expect(
      travelPlan(trip({ distance: undefined, duration: 86_400 + 6 * 3600 })).days.map((d) => [
        d.marchSeconds,
        d.distance,
      ]),
    ).toEqual([
      [28_800, 36_000],
      [21_600, 27_000],
    ]);
    expect(
      travelPlan(trip({ distance: undefined, duration: 86_400 + 10 * 3600 })).days.map((d) => [
        d.marchSeconds,
        d.distance,
      ]),
    ).toEqual([
      [28_800, 36_000],
      [28_800, 36_000],
    ]);
    expect(
      travelPlan(trip({ distance: undefined, duration: 86_400 })).days.map((d) => [d.marchSeconds, d.distance]),
    ).toEqual([[28_800, 36_000]]);
  });
  it("difficult terrain halves: 18 km a day at normal pace", () => {
    const p = travelPlan(trip({ terrain: "difficult" }));
    expect(p.dayDistance).toBe(18_000);
    expect(p.equivalentDistance).toBe(72_000);
    expect(p.days.map((d) => [d.marchSeconds, d.distance])).toEqual([
      [28_800, 18_000],
      [28_800, 18_000],
    ]);
  });
  it("a forced march: 10 h a day covers 36 km + 2 × 4.5 km, with saves at the 9th (DC 11) and 10th (DC 12) hours", () => {
    const p = travelPlan(trip({ hoursPerDay: 10, distance: 45_000 }));
    expect(p.days).toEqual([
      day(1, 36_000, 45_000, 45_000, [st("day", 0, 28_800, 36_000), st("hour", 28_800, 7200, 9000)], {
        forcedMarch: [
          { hour: 9, dc: 11 },
          { hour: 10, dc: 12 },
        ],
      }),
    ]);
    expect(p.dayDistance).toBe(45_000);
  });
  it("a gallop: 12 km in the first hour, then the hour column of the pace", () => {
    const p = travelPlan(trip({ mode: "gallop", pace: "fast", distance: 20_000 }));
    expect(p.days).toEqual([
      day(1, 8400, 20_000, 20_000, [st("gallop", 0, 3600, 12_000), st("hour", 3600, 4800, 8000)], {
        gallopSeconds: 3600,
      }),
    ]);
    expect(travelPlan(trip({ mode: "gallop", distance: 6000 })).days).toEqual([
      day(1, 1800, 6000, 6000, [st("gallop", 0, 1800, 6000)], { gallopSeconds: 1800 }),
    ]);
    // A full day: 1 h of gallop then 7 h at the hour and minute columns (no whole standard day of walking).
    expect(travelPlan(trip({ mode: "gallop" })).dayDistance).toBe(12_000 + 7 * 4500);
    expect(travelPlan(trip({ mode: "gallop", terrain: "difficult" })).dayDistance).toBe(6000 + 3.5 * 4500);
  });
  it("a boat: its own speed, whole days of hoursPerDay, no terrain", () => {
    const p = travelPlan(trip({ mode: "boat", speedKmh: 5, distance: 100_000, terrain: "difficult" }));
    expect(p.days.map((d) => [d.startSeconds, d.marchSeconds, d.distance, d.stretches.map((x) => x.column)])).toEqual([
      [0, 28_800, 40_000, ["speed"]],
      [86_400, 28_800, 40_000, ["speed"]],
      [172_800, 14_400, 20_000, ["speed"]],
    ]);
    expect(p.durationSeconds).toBe(2 * 86_400 + 14_400);
    expect(p.dayDistance).toBe(40_000);
    expect(p.equivalentDistance).toBe(100_000);
  });
  it("a custom mount: its own speed, halved in difficult terrain, forced march beyond 8 h", () => {
    // 10 km/h × 9 h = 90 km a day, 45 km in difficult terrain.
    const p = travelPlan(
      trip({ mode: "custom", speedKmh: 10, distance: 90_000, terrain: "difficult", hoursPerDay: 9 }),
    );
    expect(p.dayDistance).toBe(45_000);
    expect(p.days.map((d) => [d.marchSeconds, d.distance, d.forcedMarch])).toEqual([
      [32_400, 45_000, [{ hour: 9, dc: 11 }]],
      [32_400, 45_000, [{ hour: 9, dc: 11 }]],
    ]);
  });
  it("nothing to travel: no day, no time", () => {
    const p = travelPlan(trip({ distance: 0 }));
    expect([p.days, p.durationSeconds, p.marchSeconds, p.legs]).toEqual([
      [],
      0,
      0,
      [{ metres: 0, terrain: "normal", arrivalSeconds: 0 }],
    ]);
  });
});
