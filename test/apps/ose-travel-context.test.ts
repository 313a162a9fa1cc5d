/**
 * The Travel dialog under Old-School Essentials (src/travel/ose-travel-context.ts, pure): OSE words only, the slowest
 * member's base movement, legs with their modifier and chances, the days if the party never gets lost, the request.
 */
import { describe, expect, it } from "vitest";
import {
  oseApplyChange,
  oseDefaultState,
  oseReadRequest,
  oseStateFromRequest,
  oseTravelContext,
  type OseRouteState,
} from "../../src/travel/ose-travel-context.js";
import { FakeI18n } from "../fake/i18n.js";

const i18n = new FakeI18n("en");
const l = (k: string, d?: Record<string, string | number>) => (d ? i18n.format(k, d) : i18n.localize(k));
const env = { localize: l, lang: "en", isGM: true, playersApply: false, busy: false, addable: [], borrowed: false };
const ROUTE: OseRouteState = {
  sceneId: "map",
  points: [
    { x: 0, y: 0 },
    { x: 7800, y: 0 },
  ],
  tokenIds: ["tA"],
  legs: [
    { metres: 27000, terrain: "road", regions: ["Chemin royal"], from: 0, to: 27000 },
    { metres: 24000, terrain: "forest", regions: [], from: 27000, to: 51000 },
    { metres: 27000, terrain: "swamp", regions: [], from: 51000, to: 78000 },
  ],
};
const party = [
  { actorId: "a", name: "Aria", baseMetres: 36 },
  { actorId: "b", name: "Bram", baseMetres: 27 },
];

describe("the OSE Travel dialog's context", () => {
  it("the slowest member sets the base movement; legs show terrain, modifier, a day's distance and the chances", () => {
    const ctx = oseTravelContext(oseDefaultState(party, ROUTE), env);
    expect(ctx.baseText).toBe("Base movement 27 m (the slowest: Bram)");
    expect(ctx.members.map((m) => [m.name, m.base, m.slowest])).toEqual([
      ["Aria", "36 m", false],
      ["Bram", "27 m", true],
    ]);
    expect(ctx.legs.map((x) => [x.terrain, x.modifier, x.perDay, x.lost, x.wandering])).toEqual([
      ["maintained road", "×1½", "40.5 km", "—", "1 in 6"],
      ["forest", "×⅔", "18 km", "2 in 6", "2 in 6"],
      ["swamp", "×½", "13.5 km", "3 in 6", "3 in 6"],
    ]);
    // 27 m: 40.5 km of road a day, 18 km of forest, 13.5 km of swamp. Day 1: 27 km of road (⅔ day) + 6 km of forest;
    // day 2: the 18 km of forest left; days 3 and 4: 13.5 km of swamp each. Arrives on day 4.
    expect(ctx.preview?.headline).toBe("Arrival on day 4 (78 km) if the party never gets lost");
    expect(ctx.preview?.days.map((d) => d.text)).toEqual([
      "walked 0 km → 33 km · 2 rations eaten",
      "walked 33 km → 51 km · 2 rations eaten",
      "walked 51 km → 64.5 km · 2 rations eaten",
      "walked 64.5 km → 78 km · 2 rations eaten · arrived",
    ]);
  });

  it("a base of 36 m over the same route arrives on day 3; a guide removes the chance of getting lost", () => {
    const s = oseApplyChange(oseApplyChange(oseDefaultState(party, ROUTE), "base", "36"), "guide", true);
    const ctx = oseTravelContext(s, env);
    expect(ctx.preview?.headline).toBe("Arrival on day 3 (78 km) if the party never gets lost");
    expect(ctx.legs.map((x) => x.lost)).toEqual(["—", "—", "—"]);
  });

  it("OSE words only: no DC, passive Perception, exhaustion, pace or hours of march", () => {
    const { request: _request, state: _state, ...shown } = oseTravelContext(oseDefaultState(party, ROUTE), env);
    const text = JSON.stringify(shown);
    expect(text).not.toMatch(/\bDC\b|Perception|xhaustion|pace|hours of march/i);
  });

  it("the request: an OSE part with the options, the route and its days; invalid fields give errors and no request", () => {
    let s = oseDefaultState(party, ROUTE);
    for (const [k, v] of [
      ["forcedMarch", true],
      ["forage", true],
      ["rations", "20"],
      ["animals", "2"],
      ["days", "2"],
      ["openTerrain", "hills"],
    ] as const)
      s = oseApplyChange(s, k, v);
    const { request } = oseReadRequest(s);
    expect(request?.route).toMatchObject({ sceneId: "map", days: 2 });
    expect(request?.ose).toEqual({
      openTerrain: "hills",
      baseMetres: null,
      forcedMarch: true,
      flying: false,
      guide: false,
      river: false,
      forage: true,
      restWhenDue: false,
      animals: 2,
      rations: 20,
      daysSinceRest: 0,
      restFirst: false,
    });
    const bad = oseReadRequest(oseApplyChange(oseApplyChange(s, "days", "0"), "animals", "-1"));
    expect(bad.request).toBeNull();
    expect(Object.keys(bad.errors).sort()).toEqual(["animals", "days"]);
    // Continuing from a card keeps the options.
    expect(oseStateFromRequest(oseDefaultState(party, ROUTE), request!).flags.forcedMarch).toBe(true);
  });

  it("without a route: a distance on the chosen terrain; nobody's base movement known is an error on the field", () => {
    let s = oseDefaultState([{ actorId: "c", name: "Cyl", baseMetres: null }], null);
    s = oseApplyChange(s, "distance", "48");
    expect(oseReadRequest(s).errors.base?.key).toBe("AVENTURE.Wilderness.Error.noBase");
    s = oseApplyChange(oseApplyChange(s, "base", "36"), "openTerrain", "forest");
    const ctx = oseTravelContext(s, env);
    expect(ctx.request?.distance).toBe(48000);
    expect(ctx.preview?.headline).toBe("Arrival on day 2 (48 km) if the party never gets lost");
  });
});
