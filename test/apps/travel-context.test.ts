/** The Travel dialog shows which column of the pace table each day used (rules §2.1). */
import { describe, expect, it } from "vitest";
import { summaryOf } from "../../src/apps/travel-context.js";
import { travelPlan, type TravelInput } from "../../src/rules/travel.js";
import { FakeI18n } from "../fake/i18n.js";

const l = (i18n: FakeI18n) => (k: string, d?: Record<string, string | number>) => (d ? i18n.format(k, d) : i18n.localize(k));
const walker = { id: "w", name: "W", conMod: 0, passivePerception: 12, food: "full", water: "full", position: "front" } as const;
const plan = (over: Partial<TravelInput>) =>
  travelPlan({ ruleset: "rnp", pace: "normal", terrain: "normal", mode: "foot", party: [walker], ...over });
const columns = (over: Partial<TravelInput>, lang: "en" | "fr" = "en") =>
  summaryOf(plan(over), { localize: l(new FakeI18n(lang)), lang, trackFood: true }).days.map((d) => d.columns);

describe("the column each day used", () => {
  it("30 km at slow pace: a whole day at the day column, then 1 h at the hour column", () => {
    expect(columns({ pace: "slow", distance: 30000 })).toEqual(["day column", "1 h at the hour column"]);
    expect(columns({ pace: "slow", distance: 30000 }, "fr")).toEqual(["colonne par jour", "1\u00a0h à la colonne par heure"]);
  });
  it("forced march, minutes, gallop and own speed", () => {
    expect(columns({ hoursPerDay: 10, duration: 86400 })).toEqual(["day column + 2 h at the hour column"]);
    expect(columns({ hoursPerDay: 9.5, duration: 86400 })).toEqual(["day column + 1 h at the hour column + 30 min at the minute column"]);
    expect(columns({ pace: "slow", duration: 5 * 3600 })).toEqual(["5 h at the hour column"]);
    expect(columns({ mode: "gallop", pace: "fast", duration: 3 * 3600 })).toEqual(["1 h galloping + 2 h at the hour column"]);
    expect(columns({ mode: "boat", speedKmh: 10, duration: 3 * 3600 })).toEqual(["3 h at its own speed"]);
  });
  it("a route's legs do not split the column", () => {
    const p = travelPlan({ ruleset: "rnp", pace: "normal", mode: "foot", party: [walker], legs: [{ metres: 18000, terrain: "normal" }, { metres: 9000, terrain: "difficult" }] });
    expect(summaryOf(p, { localize: l(new FakeI18n("en")), lang: "en", trackFood: true }).days.map((d) => d.columns)).toEqual(["day column"]);
  });
});
