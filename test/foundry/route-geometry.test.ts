/**
 * Route geometry (issue 14): the length of a drawn route and its split into legs by the regions of difficult terrain
 * it crosses. Pure helpers, tested without Foundry; the expectations are worked by hand on a 100 px grid.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { pointAlong, routeLength, splitRoute, type RouteRegion } from "../../src/travel/route/geometry.js";
import { routeScene } from "../../bench/route-scene.js";

const square = (x: number, y: number, w: number, h = w): number[] => [x, y, x + w, y, x + w, y + h, x, y + h];
const forest: RouteRegion = {
  id: "f1",
  name: "Forêt de Brocéliande",
  terrain: "difficult",
  polygons: [square(200, -100, 200, 200)],
};
const legsOf = (legs: ReturnType<typeof splitRoute>) =>
  legs.map((l) => [Math.round(l.from), Math.round(l.to), l.terrain, l.regions.map((r) => r.name).join("+")]);

describe("route length and position", () => {
  it("sums the segments of a polyline", () => {
    expect(
      routeLength([
        { x: 0, y: 0 },
        { x: 300, y: 0 },
        { x: 300, y: 400 },
      ]),
    ).toBe(700);
    expect(routeLength([{ x: 5, y: 5 }])).toBe(0);
  });

  it("finds the point reached after a distance, clamped to the route", () => {
    const route = [
      { x: 0, y: 0 },
      { x: 300, y: 0 },
      { x: 300, y: 400 },
    ];
    expect(pointAlong(route, 150)).toEqual({ x: 150, y: 0 });
    expect(pointAlong(route, 500)).toEqual({ x: 300, y: 200 });
    expect(pointAlong(route, 9999)).toEqual({ x: 300, y: 400 });
    expect(pointAlong(route, -5)).toEqual({ x: 0, y: 0 });
  });
});

describe("splitting a route into legs", () => {
  it("a straight route through a forest: road, forest, road", () => {
    expect(
      legsOf(
        splitRoute(
          [
            { x: 0, y: 0 },
            { x: 600, y: 0 },
          ],
          [forest],
        ),
      ),
    ).toEqual([
      [0, 200, "normal", ""],
      [200, 400, "difficult", "Forêt de Brocéliande"],
      [400, 600, "normal", ""],
    ]);
  });

  it("a route crossing the same region twice gets two forest legs", () => {
    const route = [
      { x: 0, y: 0 },
      { x: 600, y: 0 },
      { x: 600, y: 300 },
      { x: 0, y: 300 },
    ];
    const tall: RouteRegion = { ...forest, polygons: [square(200, -100, 200, 500)] };
    const legs = splitRoute(route, [tall]);
    expect(legs.filter((l) => l.terrain === "difficult").map((l) => Math.round(l.length))).toEqual([200, 200]);
    expect(legs.map((l) => l.terrain)).toEqual(["normal", "difficult", "normal", "difficult", "normal"]);
  });

  it("touching an edge or a corner without entering changes nothing", () => {
    expect(
      legsOf(
        splitRoute(
          [
            { x: 0, y: -100 },
            { x: 600, y: -100 },
          ],
          [forest],
        ),
      ),
    ).toEqual([[0, 600, "normal", ""]]);
    expect(
      legsOf(
        splitRoute(
          [
            { x: 100, y: -200 },
            { x: 300, y: 0 },
            { x: 100, y: 200 },
          ].slice(0, 2),
          [{ ...forest, polygons: [square(300, 0, 100)] }],
        ),
      ),
    ).toEqual([[0, 283, "normal", ""]]);
  });

  it("a route starting inside a region starts on its terrain; a normal region changes nothing", () => {
    const road: RouteRegion = { id: "r", name: "Plaine", terrain: "normal", polygons: [square(0, -50, 100, 100)] };
    expect(
      legsOf(
        splitRoute(
          [
            { x: 300, y: 0 },
            { x: 600, y: 0 },
          ],
          [forest, road],
        ),
      ),
    ).toEqual([
      [0, 100, "difficult", "Forêt de Brocéliande"],
      [100, 300, "normal", ""],
    ]);
  });

  it("overlapping difficult regions: each stretch names the regions it runs through", () => {
    const marsh: RouteRegion = {
      id: "m1",
      name: "Marais",
      terrain: "difficult",
      polygons: [square(300, -100, 200, 200)],
    };
    expect(
      legsOf(
        splitRoute(
          [
            { x: 0, y: 0 },
            { x: 600, y: 0 },
          ],
          [forest, marsh],
        ),
      ),
    ).toEqual([
      [0, 200, "normal", ""],
      [200, 300, "difficult", "Forêt de Brocéliande"],
      [300, 400, "difficult", "Forêt de Brocéliande+Marais"],
      [400, 500, "difficult", "Marais"],
      [500, 600, "normal", ""],
    ]);
  });

  it("property: the legs cover the route exactly, and the pre-filter changes nothing", () => {
    const pt = fc.record({ x: fc.integer({ min: 0, max: 2000 }), y: fc.integer({ min: 0, max: 2000 }) });
    const region = fc.record({
      x: fc.integer({ min: 0, max: 1800 }),
      y: fc.integer({ min: 0, max: 1800 }),
      w: fc.integer({ min: 10, max: 400 }),
    });
    fc.assert(
      fc.property(fc.array(pt, { minLength: 2, maxLength: 8 }), fc.array(region, { maxLength: 6 }), (route, rs) => {
        const regions: RouteRegion[] = rs.map((r, i) => ({
          id: `r${i}`,
          name: `R${i}`,
          terrain: "difficult",
          polygons: [square(r.x + 0.5, r.y + 0.5, r.w)],
        }));
        const legs = splitRoute(route, regions);
        const total = legs.reduce((s, l) => s + l.length, 0);
        expect(total).toBeCloseTo(routeLength(route), 6);
        for (let i = 1; i < legs.length; i++) expect(legs[i]!.from).toBeCloseTo(legs[i - 1]!.to, 6);
        expect(legsOf(splitRoute(route, regions, { prefilter: false }))).toEqual(legsOf(legs));
      }),
    );
  });
});

describe("the pre-filter (bench/route.bench.ts measures the time)", () => {
  it("on the benchmark's map (500-vertex route, 200 forests of 64 vertices) it tests at least 10× fewer edges, with the same legs", () => {
    const { route, regions } = routeScene();
    const fast = { edgeTests: 0 };
    const slow = { edgeTests: 0 };
    const legs = splitRoute(route, regions, { stats: fast });
    expect(legsOf(splitRoute(route, regions, { prefilter: false, stats: slow }))).toEqual(legsOf(legs));
    expect(slow.edgeTests).toBe(499 * 200 * 64);
    expect(slow.edgeTests / fast.edgeTests).toBeGreaterThanOrEqual(10);
    expect(legs.some((l) => l.terrain === "difficult")).toBe(true); // the route does cross forests
  });
});
