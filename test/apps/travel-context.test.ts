/**
 * The Travel dialog's summary says what a GM needs (distance, days, hours of march, arrival, what each day takes),
 * in words of the table, not of the rules engine: no pace-table columns (rules §2.1 is applied, not explained).
 */
import { describe, expect, it } from "vitest";
import { summaryOf } from "../../src/travel/travel-context.js";
import { travelPlan, type TravelInput } from "../../src/rules/travel.js";
import { FakeI18n } from "../fake/i18n.js";

const l = (i18n: FakeI18n) => (k: string, d?: Record<string, string | number>) =>
  d ? i18n.format(k, d) : i18n.localize(k);
const walker = {
  id: "w",
  name: "W",
  conMod: 0,
  passivePerception: 12,
  food: "full",
  water: "full",
  position: "front",
} as const;
const plan = (over: Partial<TravelInput>) =>
  travelPlan({ ruleset: "rnp", pace: "normal", terrain: "normal", mode: "foot", party: [walker], ...over });
const summary = (over: Partial<TravelInput>, lang: "en" | "fr" = "en", worldTime?: number) =>
  summaryOf(plan(over), { localize: l(new FakeI18n(lang)), lang, trackFood: true, worldTime });

describe("the Travel summary", () => {
  it("30 km at slow pace (§2.1: 27 km a day, 3 km an hour): 2 travel days, 9 h of march, each day's distance and march", () => {
    const s = summary({ pace: "slow", distance: 30000 }, "en", 7 * 3600);
    expect([s.distance, s.dayCount, s.march]).toEqual(["30 km", "2 travel days", "9 h of march"]);
    expect(s.days.map((d) => [d.distance, d.march])).toEqual([
      ["27 km", "8 h"],
      ["3 km", "1 h"],
    ]);
    // Day 1 at 7:00 plus 24 h, then the hour of march: day 2, 8:00.
    expect(s.arrival).toBe("Arrival: day 2, 8:00 (world time)");
    const fr = summary({ pace: "slow", distance: 30000 }, "fr");
    expect([fr.distance, fr.dayCount, fr.march]).toEqual(["30 km", "2 jours de voyage", "9\u00a0h de marche"]);
  });

  it("a day of 10 hours at normal pace (§2.1, §2.2: 36 km + 2 × 4.5 km): 45 km, 10 h of march, two forced-march saves", () => {
    const s = summary({ hoursPerDay: 10, duration: 86400 });
    expect([s.distance, s.dayCount, s.march]).toEqual(["45 km", "1 travel day", "10 h of march"]);
    expect(s.days.map((d) => d.forcedMarch)).toEqual(["DC 11, DC 12"]);
    // Three such days: 30 h of march (hours, not "1 d 6 h", beside "3 travel days").
    expect(summary({ hoursPerDay: 10, duration: 3 * 86400 }).march).toBe("30 h of march");
    expect(summary({ hoursPerDay: 9.5, duration: 86400 }).march).toBe("9 h 30 min of march");
  });

  it("speaks no rules-engine words: no pace-table column", () => {
    for (const lang of ["en", "fr"] as const) {
      const text = JSON.stringify(summary({ hoursPerDay: 10, pace: "slow", distance: 63000 }, lang));
      expect(text).not.toMatch(/column|colonne/i);
    }
  });

  it("days without food only when the journey changes them", () => {
    expect(summary({ duration: 86400 }).members[0]!.food).toBe("");
    const hungry = summaryOf(plan({ duration: 86400, party: [{ ...walker, food: "none" }] }), {
      localize: l(new FakeI18n("en")),
      lang: "en",
      trackFood: true,
    });
    expect(hungry.members[0]!.food).toContain("0 → 1");
  });
});
