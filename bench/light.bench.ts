/**
 * Budget (issue 5): light levels for 100 tokens and 300 light sources in under 2 ms per full recomputation, with a
 * cheap bounding pre-filter before the exact shape test; the naive all-pairs version is measured in the same run.
 * Scene: 6000 × 4000 px (a 60 × 40 grid of 100 px squares), torches and lanterns whose wall-clipped shapes are
 * 64-vertex polygons with a random reach per ray (as walls cut them), plus 10 darkness sources.
 */
import { bench, describe } from "vitest";
import {
  computeLightLevels,
  computeLightLevelsNaive,
  type PlainDarknessSource,
  type PlainLightSource,
  type PlainToken,
} from "../src/light/compute.js";
import { rng } from "./rng.js";


function clippedDisc(r: () => number, x: number, y: number, radius: number, vertices = 64): number[] {
  const pts: number[] = [];
  for (let i = 0; i < vertices; i++) {
    const a = (i / vertices) * Math.PI * 2;
    const reach = radius * (r() < 0.3 ? 0.2 + 0.8 * r() : 1); // some rays stopped by walls
    pts.push(x + Math.cos(a) * reach, y + Math.sin(a) * reach);
  }
  return pts;
}

export function benchScene(seed = 5) {
  const r = rng(seed);
  const W = 6000;
  const H = 4000;
  const lights: PlainLightSource[] = Array.from({ length: 300 }, (_, i) => {
    const x = r() * W;
    const y = r() * H;
    const bright = 200 + r() * 200; // 3-6 m at 1.5 m per 100 px... torches to lanterns
    const dim = bright * 2;
    return { id: `l${i}`, x, y, bright, dim, points: clippedDisc(r, x, y, dim) };
  });
  const darkness: PlainDarknessSource[] = Array.from({ length: 10 }, (_, i) => {
    const x = r() * W;
    const y = r() * H;
    return { id: `d${i}`, x, y, radius: 300, points: clippedDisc(r, x, y, 300) };
  });
  const tokens: PlainToken[] = Array.from({ length: 100 }, (_, i) => ({
    id: `t${i}`,
    x: r() * W,
    y: r() * H,
    elevation: 0,
    darkness: 0.9,
    globalLight: true,
  }));
  return { tokens, lights, darkness };
}

const { tokens, lights, darkness } = benchScene();

describe("light levels: 100 tokens × 300 light sources (+10 darkness sources), full recomputation", () => {
  bench("pre-filtered (bounding box, squared distance, then exact shape)", () => {
    computeLightLevels(tokens, lights, darkness);
  });
  bench("naive all pairs (exact shape test on every pair)", () => {
    computeLightLevelsNaive(tokens, lights, darkness);
  });
});
