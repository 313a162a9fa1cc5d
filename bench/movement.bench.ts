/**
 * Movement cost budget (issue 4): measuring a 200-waypoint path across 100 difficult-terrain segments with the
 * module's cost function, against the same measurement with a plain distance cost, in the same run.
 * Budget: at most 2× the plain measurement and under 1 ms per path.
 * Each bench iteration measures the path PATHS times (a single path takes well under a microsecond, too
 * close to the timer's resolution): divide the reported times by PATHS for one path.
 * The measurement loop stands in for core's: one getCostFunction per path, then one call per segment with
 * baseCost = distance × terrain multiplier.
 */
import { bench, describe } from "vitest";
import { ruleCostFunction, type CostFunction } from "../src/movement/costs.js";

const WAYPOINTS = 200;
/** Segment i: 1.5 m (one square), every other one through difficult terrain (×2): 100 difficult segments. */
const segments = Array.from({ length: WAYPOINTS - 1 }, (_, i) => {
  const distance = 1.5 + (i % 3) * 0.5;
  return { from: { i: i, j: 0, k: 0 }, to: { i: i + 1, j: 0, k: 0 }, distance, terrain: i % 2 === 0 ? 2 : 1 };
});

// One loop per variant, written out: a shared loop would make its call site polymorphic and slow down
// whichever variant runs last, which says nothing about the cost functions themselves.
function measurePlain(getCostFunction: () => CostFunction): number {
  const cost = getCostFunction();
  let total = 0;
  for (const s of segments) total += cost(s.distance * s.terrain, s.from, s.to, s.distance, s);
  return total;
}
function measureClimb(getCostFunction: () => CostFunction): number {
  const cost = getCostFunction();
  let total = 0;
  for (const s of segments) total += cost(s.distance * s.terrain, s.from, s.to, s.distance, s);
  return total;
}
function measureSwim(getCostFunction: () => CostFunction): number {
  const cost = getCostFunction();
  let total = 0;
  for (const s of segments) total += cost(s.distance * s.terrain, s.from, s.to, s.distance, s);
  return total;
}

let sink = 0;
const PATHS = 100;
const plain = (): CostFunction => (baseCost) => baseCost;

describe("measure a 200-waypoint path (100 difficult segments), ×100 per iteration", () => {
  bench("plain distance cost (core walk)", () => {
    for (let i = 0; i < PATHS; i++) sink += measurePlain(plain);
  });
  bench("Aventure rule cost (rnp climb)", () => {
    for (let i = 0; i < PATHS; i++) sink += measureClimb(() => ruleCostFunction("rnp", "climb", false));
  });
  bench("Aventure rule cost (dnd5e swim, swimming speed)", () => {
    for (let i = 0; i < PATHS; i++) sink += measureSwim(() => ruleCostFunction("dnd5e", "swim", true));
  });
});

export { sink };
