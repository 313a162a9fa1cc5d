/**
 * Budget (issue 14): splitting a 500-vertex route against 200 region polygons of 64 vertices in under 5 ms, and at
 * least 10× faster than testing every route segment against every polygon edge without a bounding-box pre-filter,
 * both measured in the same run. Scene: a 20,000 × 20,000 px regional map; forests are wobbly 64-gons of 300–900 px.
 * No test asserts a time (shared machine, noisy timings): test/foundry/route-geometry.test.ts counts the edge tests
 * on this same map instead (≥ 10× fewer than the naive 499 × 200 × 64, with the same legs).
 */
import { bench, describe } from "vitest";
import { splitRoute } from "../src/travel/route/geometry.js";
import { routeScene } from "./route-scene.js";

const { route, regions } = routeScene();

describe("route split: 500-vertex route, 200 regions of 64 vertices (budget < 5 ms, ≥ 10× naive)", () => {
  bench("with bounding-box pre-filter (the module)", () => {
    splitRoute(route, regions);
  });
  bench("naive: every segment against every edge", () => {
    splitRoute(route, regions, { prefilter: false });
  });
});
