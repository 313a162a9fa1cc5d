/**
 * The light computation's fast path against its naive all-pairs baseline (src/light/compute.ts; issue 20,
 * item 11). A point exactly at the origin of a light without a bright radius (a candle, Dancing Lights: dim only) is in
 * its DIM light (RULES.md §5: bright light within the bright radius, dim light beyond it up to the dim radius; a source
 * with no bright radius gives no bright light at all), so a token carrying such a light is in dim light, never bright.
 * The property: on every scene, both give the same result for every token, at a source's origin, on its radius
 * boundaries (integer coordinates: squared distances are exact), with zero radii, polygons and exact shape tests.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  computeLightLevels,
  computeLightLevelsNaive,
  type PlainDarknessSource,
  type PlainLightSource,
  type PlainToken,
} from "../../src/light/compute.js";
import { bootWorld, GM, viewScene } from "../world/index.js";

const token = (id: string, x: number, y: number, darkness = 1, globalLight = false): PlainToken => ({
  id,
  x,
  y,
  elevation: 0,
  darkness,
  globalLight,
});

describe("a light without a bright radius (issue 20, item 11)", () => {
  it("a point at the origin of a candle (bright 0, dim 300 px) is in dim light, in the fast path as in the naive one", () => {
    const candle: PlainLightSource = { id: "candle", x: 500, y: 500, bright: 0, dim: 300 };
    const tokens = [token("at", 500, 500), token("near", 600, 500), token("edge", 800, 500), token("out", 801, 500)];
    const fast = computeLightLevels(tokens, [candle]);
    const naive = computeLightLevelsNaive(tokens, [candle]);
    for (const t of tokens) expect(fast.get(t.id), t.id).toEqual(naive.get(t.id));
    expect([...fast.values()].map((v) => [v.id, v.level, v.inBright, v.inDim])).toEqual([
      ["at", "dim", false, true],
      ["near", "dim", false, true],
      ["edge", "dim", false, true],
      ["out", "dark", false, false],
    ]);
  });

  it("a token carrying a candle in a dark scene is in dim light (the scene's own sources, through the module)", async () => {
    const world = await bootWorld({ system: "dnd5e", users: [GM] });
    const scene = world.addScene({ _id: "crypt", darkness: 1, globalLight: false });
    viewScene(world, world.clientOf("gm1"), scene);
    // 100 px a square of 1.5 m; the candle: no bright light, dim 3 m.
    world.addToken(scene, {
      _id: "monk",
      name: "Monk",
      x: 950,
      y: 950,
      light: { bright: 0, dim: 3 },
      sight: { enabled: true, range: 0, visionMode: "basic" },
    });
    world.addToken(scene, {
      _id: "friend",
      name: "Friend",
      x: 1050,
      y: 950,
      sight: { enabled: true, range: 0, visionMode: "basic" },
    });
    type Api = { refreshLight(): Promise<void>; lightAt(id: string): { level: string } | null };
    await world.as("gm1", () => world.api<Api>("gm1").refreshLight());
    await world.settle();
    expect(world.as("gm1", () => world.api<Api>("gm1").lightAt("monk"))!.level).toBe("dim");
    expect(world.as("gm1", () => world.api<Api>("gm1").lightAt("friend"))!.level).toBe("dim");
  });
});

/** Integer coordinates and radii (exact squared distances), zero radii often. */
const coord = fc.integer({ min: -40, max: 40 });
const radius = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 30 }));
/** A source's area: an unobstructed disc, a polygon with integer vertices, or an exact test (a half-plane). */
const shape = fc.oneof(
  fc.constant({}),
  fc.array(fc.tuple(coord, coord), { minLength: 3, maxLength: 7 }).map((pts) => ({ points: pts.flat() })),
  fc.tuple(coord, fc.boolean()).map(([k, left]) => ({ test: (x: number) => (left ? x <= k : x >= k) })),
);
const lightArb = fc.record({ x: coord, y: coord, bright: radius, dim: radius, shape });
const darkArb = fc.record({ x: coord, y: coord, radius, shape });

/** Points that matter: random ones, every source's origin, and points exactly on each of its radii. */
function pointsFor(
  lights: { x: number; y: number; bright: number; dim: number }[],
  darks: { x: number; y: number; radius: number }[],
  random: [number, number][],
): [number, number][] {
  const out: [number, number][] = [...random];
  const around = (x: number, y: number, r: number) => {
    out.push([x, y], [x + r, y], [x - r, y], [x, y + r], [x, y - r], [x + r + 1, y]);
    if (r % 5 === 0) out.push([x + (3 * r) / 5, y + (4 * r) / 5]); // on the circle: 3-4-5
    if (r % 13 === 0) out.push([x + (5 * r) / 13, y - (12 * r) / 13]); // 5-12-13
  };
  for (const l of lights) {
    around(l.x, l.y, l.bright);
    around(l.x, l.y, l.dim);
  }
  for (const d of darks) around(d.x, d.y, d.radius);
  return out;
}

describe("the fast path agrees with the naive computation everywhere (property)", () => {
  it("same TokenLight for every token: at origins, on radius boundaries, with zero radii, polygons and exact tests", () => {
    fc.assert(
      fc.property(
        fc.array(lightArb, { maxLength: 6 }),
        fc.array(darkArb, { maxLength: 2 }),
        fc.array(fc.tuple(coord, coord), { maxLength: 8 }),
        fc.constantFrom(0, 0.3, 0.6, 1),
        fc.boolean(),
        (ls, ds, random, darkness, globalLight) => {
          const lights: PlainLightSource[] = ls.map((l, i) => ({
            id: `l${i}`,
            x: l.x,
            y: l.y,
            bright: l.bright,
            dim: l.dim,
            ...l.shape,
          }));
          const darks: PlainDarknessSource[] = ds.map((d, i) => ({
            id: `d${i}`,
            x: d.x,
            y: d.y,
            radius: d.radius,
            ...d.shape,
          }));
          const tokens = pointsFor(ls, ds, random).map(([x, y], i) => token(`t${i}`, x, y, darkness, globalLight));
          const fast = computeLightLevels(tokens, lights, darks);
          const naive = computeLightLevelsNaive(tokens, lights, darks);
          for (const t of tokens) expect(fast.get(t.id), `${t.id} at ${t.x}, ${t.y}`).toEqual(naive.get(t.id));
        },
      ),
      { numRuns: 400 },
    );
  });
});
