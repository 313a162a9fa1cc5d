/** The benchmark's regional map for the route split (shared by bench/route.bench.ts and its test). */
import type { Point, RouteRegion } from "../src/travel/route/geometry.js";
import { rng } from "./rng.js";


export function routeScene(seed = 7): { route: Point[]; regions: RouteRegion[] } {
  const r = rng(seed);
  const regions: RouteRegion[] = Array.from({ length: 200 }, (_, i) => {
    const cx = r() * 20000;
    const cy = r() * 20000;
    const radius = 150 + r() * 300;
    const pts: number[] = [];
    for (let k = 0; k < 64; k++) {
      const a = (k / 64) * Math.PI * 2;
      const reach = radius * (0.7 + 0.3 * r());
      pts.push(cx + Math.cos(a) * reach, cy + Math.sin(a) * reach);
    }
    return { id: `f${i}`, name: `Forest ${i}`, terrain: "difficult", polygons: [pts] };
  });
  // A wandering route across the map: 500 vertices.
  const route: Point[] = [{ x: 500, y: 500 }];
  for (let i = 1; i < 500; i++) {
    const last = route.at(-1)!;
    route.push({ x: Math.min(19500, Math.max(500, last.x + 40 + r() * 40)), y: Math.min(19500, Math.max(500, last.y + (r() - 0.3) * 80)) });
  }
  return { route, regions };
}

