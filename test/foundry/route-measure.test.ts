/**
 * Measuring a route on a scene (pure: src/travel/route/measure.ts, the shapes of geometry.ts, route-plan.ts): scene
 * units to metres, region shapes and Drawings as polygons, which regions count for travel, RULES.md §11's example on
 * measured legs, a journey cut after N days and the rest of its route. Expectations worked by hand.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { drawingRoute, shapePolygon, splitRoute, pointInPolygon } from "../../src/travel/route/geometry.js";
import {
  measureRoute,
  metresPerPixel,
  metresPerUnit,
  regionTerrain,
  remainingRoute,
  type RegionLike,
  type UnitSettings,
} from "../../src/travel/route/measure.js";
import { cutLegs, planRouteJourney } from "../../src/travel/route-plan.js";
import { travelPlan, travelSurvivalChecks, type TravelInput, type TravelLegInput } from "../../src/rules/travel.js";

const UNITS: UnitSettings = { feetFactor: 0.3, customUnit: "", customMetres: 0 };
const errorKey = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as { key?: string }).key;
  }
  return null;
};

describe("scene units and grids", () => {
  it("turns m, km, ft (the world's feet factor), mi (1.5 km) and their spellings into metres", () => {
    expect(["m", "metres", "Meters", "mètres"].map((u) => metresPerUnit(u, UNITS))).toEqual([1, 1, 1, 1]);
    expect(["km", "kilomètres"].map((u) => metresPerUnit(u, UNITS))).toEqual([1000, 1000]);
    expect(["ft", "feet", "ft.", "pieds"].map((u) => metresPerUnit(u, UNITS))).toEqual([0.3, 0.3, 0.3, 0.3]);
    expect(metresPerUnit("ft", { ...UNITS, feetFactor: 0.3048 })).toBe(0.3048);
    expect(metresPerUnit("miles", UNITS)).toBe(1500);
  });

  it("a unit of the GM's own, mapped in the settings; anything else is refused with the unit named", () => {
    expect(metresPerUnit(" Lieue ", { ...UNITS, customUnit: "lieue", customMetres: 4000 })).toBe(4000);
    expect(errorKey(() => metresPerUnit("lieue", UNITS))).toBe("AVENTURE.Travel.Route.Error.unit");
    expect(errorKey(() => metresPerUnit("lieue", { ...UNITS, customUnit: "lieue", customMetres: 0 }))).toBe(
      "AVENTURE.Travel.Route.Error.unit",
    );
    expect(errorKey(() => metresPerUnit("", UNITS))).toBe("AVENTURE.Travel.Route.Error.unit");
  });

  it("metres per pixel from the grid: 1.5 m a 100 px space is 0.015; no distance or no size is refused", () => {
    expect(metresPerPixel({ size: 100, distance: 1.5, units: "m" }, UNITS)).toBeCloseTo(0.015, 12);
    expect(metresPerPixel({ size: 100, distance: 5, units: "ft" }, UNITS)).toBeCloseTo(0.015, 12);
    for (const grid of [
      { size: 100, distance: 0, units: "m" },
      { size: 0, distance: 1, units: "m" },
      { size: 100, distance: Number.NaN, units: "m" },
    ]) {
      expect(errorKey(() => metresPerPixel(grid, UNITS))).toBe("AVENTURE.Travel.Route.Error.noGrid");
    }
  });
});

describe("shapes and Drawings as polygons", () => {
  it("a rectangle turned 90° about its centre; an ellipse; a polygon; an unknown shape is skipped", () => {
    const r = shapePolygon({ type: "rectangle", x: 0, y: 0, width: 200, height: 100, rotation: 90 })!;
    // 200 × 100 centred on (100, 50), turned upright: x 50..150, y -50..150.
    expect(pointInPolygon(r, 100, 140)).toBe(true);
    expect(pointInPolygon(r, 180, 50)).toBe(false);
    const e = shapePolygon({ type: "ellipse", x: 500, y: 500, radiusX: 200, radiusY: 50 })!;
    expect([pointInPolygon(e, 680, 500), pointInPolygon(e, 500, 560)]).toEqual([true, false]);
    expect(shapePolygon({ type: "polygon", points: [0, 0, 10, 0, 10, 10] })).toEqual([0, 0, 10, 0, 10, 10]);
    expect(shapePolygon({ type: "cone", x: 0, y: 0 })).toBeNull();
    expect(shapePolygon({ type: "rectangle", x: 0, y: 0, width: Number.NaN, height: 5 })).toBeNull();
  });

  it("a Drawing's points are relative to its position and turn about its centre; a rectangle Drawing is not a line", () => {
    expect(drawingRoute({ x: 100, y: 200, shape: { type: "p", points: [0, 0, 300, 0] } })).toEqual([
      { x: 100, y: 200 },
      { x: 400, y: 200 },
    ]);
    const turned = drawingRoute({
      x: 0,
      y: 0,
      rotation: 180,
      shape: { type: "f", width: 300, height: 0, points: [0, 0, 300, 0] },
    })!;
    expect(turned.map((p) => [Math.round(p.x) + 0, Math.round(p.y) + 0])).toEqual([
      [300, 0],
      [0, 0],
    ]);
    expect(drawingRoute({ x: 0, y: 0, shape: { type: "r", width: 100, height: 100, points: [] } })).toBeNull();
    expect(drawingRoute({ x: 0, y: 0, shape: { type: "p", points: [0, 0] } })).toBeNull();
  });

  it("a region with a hole (a clearing in the forest): the route is on normal ground in the hole", () => {
    const forest = {
      id: "f",
      name: "Forêt",
      terrain: "difficult" as const,
      polygons: [[0, -100, 600, -100, 600, 100, 0, 100]],
      holes: [[200, -50, 400, -50, 400, 50, 200, 50]],
    };
    const legs = splitRoute(
      [
        { x: -100, y: 0 },
        { x: 700, y: 0 },
      ],
      [forest],
    ).map((l) => [Math.round(l.from), Math.round(l.to), l.terrain]);
    expect(legs).toEqual([
      [0, 100, "normal"],
      [100, 300, "difficult"],
      [300, 500, "normal"],
      [500, 700, "difficult"],
      [700, 800, "normal"],
    ]);
    fc.assert(
      fc.property(fc.integer({ min: -200, max: 800 }), fc.integer({ min: -200, max: 800 }), (a, b) => {
        const route = [
          { x: a, y: 0 },
          { x: b, y: 7 },
        ];
        expect(splitRoute(route, [forest], { prefilter: false }).map((l) => l.terrain)).toEqual(
          splitRoute(route, [forest]).map((l) => l.terrain),
        );
      }),
    );
  });
});

const region = (
  behaviors: RegionLike["behaviors"],
  shapes: RegionLike["shapes"] = [{ type: "rectangle", x: 100, y: -50, width: 100, height: 100 }],
): RegionLike => ({ id: "r", name: "Bois", shapes, behaviors });

describe("which regions make travel difficult", () => {
  it("Travel terrain with its name, Modify Movement Cost by the walking multiplier, dnd5e's Difficult Terrain; disabled ones count for nothing", () => {
    expect(
      regionTerrain(
        region([{ type: "aventure.travelTerrain", system: { terrain: "difficult", label: "Forêt de Brocéliande" } }]),
      ),
    ).toEqual({ terrain: "difficult", name: "Forêt de Brocéliande" });
    expect(
      regionTerrain(region([{ type: "aventure.travelTerrain", system: { terrain: "normal", label: "" } }])),
    ).toEqual({ terrain: "normal", name: "Bois" });
    expect(regionTerrain(region([{ type: "modifyMovementCost", system: { difficulties: { walk: 2 } } }]))).toEqual({
      terrain: "difficult",
      name: "Bois",
    });
    expect(
      regionTerrain(region([{ type: "modifyMovementCost", system: { difficulties: { walk: 1, fly: 3 } } }])),
    ).toEqual({ terrain: "normal", name: "Bois" });
    expect(regionTerrain(region([{ type: "modifyMovementCost", system: { difficulties: { fly: 3 } } }]))).toBeNull();
    expect(regionTerrain(region([{ type: "dnd5e.difficultTerrain", system: {} }]))).toEqual({
      terrain: "difficult",
      name: "Bois",
    });
    expect(
      regionTerrain(region([{ type: "modifyMovementCost", disabled: true, system: { difficulties: { walk: 2 } } }])),
    ).toBeNull();
    expect(regionTerrain(region([{ type: "aventure.fall", system: { height: 3 } }]))).toBeNull();
    // Travel terrain wins over core's cost on the same region (a road through a marsh: normal for travel).
    expect(
      regionTerrain(
        region([
          { type: "modifyMovementCost", system: { difficulties: { walk: 2 } } },
          { type: "aventure.travelTerrain", system: { terrain: "normal", label: "Chaussée" } },
        ]),
      ),
    ).toEqual({ terrain: "normal", name: "Chaussée" });
    // Unknown kinds: a terrain value Aventure does not know, an impassable or negative walking cost.
    expect(regionTerrain(region([{ type: "aventure.travelTerrain", system: { terrain: "swampy" } }]))).toEqual({
      unknown: "swampy",
      name: "Bois",
    });
    expect(
      regionTerrain(region([{ type: "modifyMovementCost", system: { difficulties: { walk: Infinity } } }])),
    ).toEqual({ unknown: "×Infinity", name: "Bois" });
  });

  it("RULES.md §11 on a measured route: 18 km of road, then 9 km of forest = one day at normal pace, 1 d 3 h at slow pace", () => {
    // 1 km a 100 px space: 1 px = 10 m.
    const scene = {
      grid: { size: 100, distance: 1, units: "km" },
      regions: [
        region(
          [{ type: "aventure.travelTerrain", system: { terrain: "difficult", label: "Forêt de Brocéliande" } }],
          [{ type: "rectangle", x: 1800, y: -100, width: 1000, height: 200 }],
        ),
      ],
    };
    const m = measureRoute(
      [
        { x: 0, y: 0 },
        { x: 2700, y: 0 },
      ],
      scene,
      UNITS,
    );
    expect(m.legs).toEqual([
      { metres: 18000, terrain: "normal", regions: [], from: 0, to: 18000 },
      { metres: 9000, terrain: "difficult", regions: ["Forêt de Brocéliande"], from: 18000, to: 27000 },
    ]);
    const input =
      (pace: "normal" | "slow") =>
      (legs: readonly TravelLegInput[]): TravelInput => ({
        ruleset: "rnp",
        pace,
        mode: "foot",
        legs: legs.map((l) => ({ metres: l.metres, terrain: l.terrain })),
        party: [
          { id: "a", name: "A", conMod: 0, passivePerception: 10, food: "full", water: "full", position: "front" },
        ],
      });
    expect(planRouteJourney(input("normal"), m.legs, null)).toMatchObject({
      stopped: false,
      durationSeconds: 28800,
      reached: 27000,
      total: 27000,
    });
    const slow = planRouteJourney(input("slow"), m.legs, null);
    expect([slow.durationSeconds, slow.plan.distance]).toEqual([97200, 27000]);
    // Stopped after one day at slow pace: 27 km equivalent = the road, then 4.5 km of forest; one whole day taken.
    const day1 = planRouteJourney(input("slow"), m.legs, 1);
    expect({
      stopped: day1.stopped,
      reached: day1.reached,
      duration: day1.durationSeconds,
      days: day1.plan.days.length,
      march: day1.plan.marchSeconds,
    }).toEqual({ stopped: true, reached: 22500, duration: 86400, days: 1, march: 28800 });
    expect(day1.legs.map((l) => [l.metres, l.terrain])).toEqual([
      [18000, "normal"],
      [4500, "difficult"],
    ]);
    // The rest: from the point reached to the end, 4.5 km of forest: 3 h at the hour column.
    const rest = remainingRoute(m.points, day1.reached, m.metresPerPixel);
    expect(rest).toEqual([
      { x: 2250, y: 0 },
      { x: 2700, y: 0 },
    ]);
    const restLegs = measureRoute(rest, scene, UNITS).legs;
    expect(planRouteJourney(input("slow"), restLegs, null).durationSeconds).toBe(3 * 3600);
  });

  it("cutting legs keeps their regions; the rest of a route past its end is its last point", () => {
    const legs = [
      { metres: 100, terrain: "normal" as const, regions: [], from: 0, to: 100 },
      { metres: 50, terrain: "difficult" as const, regions: ["Marais"], from: 100, to: 150 },
    ];
    expect(cutLegs(legs, 120)).toEqual([legs[0], { ...legs[1], metres: 20, to: 120 }]);
    expect(cutLegs(legs, 100)).toEqual([legs[0]]);
    expect(
      remainingRoute(
        [
          { x: 0, y: 0 },
          { x: 10, y: 0 },
        ],
        999,
        1,
      ),
    ).toEqual([{ x: 10, y: 0 }]);
  });

  it("a route of no length or with a non-finite point is refused", () => {
    const scene = { grid: { size: 100, distance: 1, units: "km" }, regions: [] };
    expect(
      errorKey(() =>
        measureRoute(
          [
            { x: 5, y: 5 },
            { x: 5, y: 5 },
          ],
          scene,
          UNITS,
        ),
      ),
    ).toBe("AVENTURE.Travel.Route.Error.zeroLength");
    expect(
      errorKey(() =>
        measureRoute(
          [
            { x: 5, y: 5 },
            { x: Number.NaN, y: 5 },
          ],
          scene,
          UNITS,
        ),
      ),
    ).toBe("AVENTURE.Travel.Route.Error.zeroLength");
    expect(errorKey(() => measureRoute([{ x: 5, y: 5 }], scene, UNITS))).toBe("AVENTURE.Travel.Route.Error.zeroLength");
  });
});

describe("Survival checks while travelling (RULES.md §2.6)", () => {
  it("one Wisdom (Survival) check a day for each member who navigates, tracks or forages, at the DC given (default 10)", () => {
    const party = (["navigate", "map", "forage", "watch", "track"] as const).map((activity, i) => ({
      id: `m${i}`,
      name: `M${i}`,
      conMod: 0,
      passivePerception: 10,
      food: "full" as const,
      water: "full" as const,
      position: "front" as const,
      activity,
    }));
    const plan = travelPlan({
      ruleset: "dnd5e",
      pace: "normal",
      mode: "foot",
      terrain: "normal",
      distance: 72000,
      party,
    });
    const checks = travelSurvivalChecks(plan, 12);
    expect(checks.map((c) => [c.id, c.activity, c.dc])).toEqual([
      ["m0:1:survival", "navigate", 12],
      ["m2:1:survival", "forage", 12],
      ["m4:1:survival", "track", 12],
      ["m0:2:survival", "navigate", 12],
      ["m2:2:survival", "forage", 12],
      ["m4:2:survival", "track", 12],
    ]);
    expect(travelSurvivalChecks(plan).every((c) => c.dc === 10 && c.ability === "wis" && c.skill === "survival")).toBe(
      true,
    );
    expect(errorKey(() => travelSurvivalChecks(plan, 0))).toBe("AVENTURE.Error.OutOfRange");
    expect(errorKey(() => travelSurvivalChecks(plan, 10.5))).toBe("AVENTURE.Error.NotAnInteger");
    expect(errorKey(() => travelSurvivalChecks({ ...plan, members: [{ id: "x", activity: "dance" }] } as never))).toBe(
      "AVENTURE.Error.UnknownValue",
    );
  });
});
