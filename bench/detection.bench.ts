/**
 * Budget (issue 15): ambient detection on a scene with 40 hidden creatures and 60 observers (2400 pairs). One token's
 * move re-judges only its pairs in under 1 ms; a full recomputation takes under 5 ms; both at least 10× faster than
 * the naive all-pairs recomputation on every move, measured here in the same run. Each case is what the active GM does
 * on a change: the light at the tokens concerned, their pairs' conditions, and which pairs changed since the last
 * judgement (the rules engine's `detectionChanges`). A full recomputation (a light lit or put out, a door opened)
 * visits every pair and computes again those whose tokens changed. The naive case recomputes every token's light and
 * every pair, with a rules call and a line-of-sight test per pair, and compares them all.
 *
 * How the budgets are read: the issue's "full recomputation" (under 5 ms, at least 10× faster than naive) is measured
 * on the recomputations after a change (a light, a door), which is what happens during play. The cold first pass on a
 * scene (after a load or a reload: once per scene per GM client) is measured too and reported against the 5 ms budget
 * only, not the 10× ratio, since every line of sight must be tested once then. The machine is shared and timings are
 * noisy, so no test asserts a time: test/foundry/detection.test.ts ("the pair engine and its budget") counts the work
 * instead, deterministically (pairs evaluated and lines of sight tested on a move, after a light and after a door, ≥ 10×
 * fewer than the naive pass), as test/foundry/route-geometry.test.ts counts the edge tests of the route split.
 */
import { bench, describe } from "vitest";
import { detectionChanges, type DetectionCondition } from "../src/rules/detection.js";
import { PairEvaluator, evaluatePairsNaive } from "../src/light/detection-pairs.js";
import { detectionScene, moveToken } from "./detection-scene.js";

const s = detectionScene();
const evaluator = new PairEvaluator();
let previous: DetectionCondition[] = evaluator.evaluate(s.scene, s.hiders, s.observers, null);
const byKey = new Map(previous.map((c) => [`${c.observer}|${c.hider}`, c]));
let step = 0;
/** Alternates a hider and an observer, each moved along a short path (a drag of a few squares). */
function nextMove(): string {
  step++;
  const id = step % 2 ? "t3" : "t57";
  const t = s.tokens.find((k) => k.id === id)!;
  moveToken(s, id, 500 + ((t.x + 150) % 5000), t.y);
  return id;
}

describe("ambient detection: 40 hidden creatures × 60 observers", () => {
  bench("one token's move: its light, its pairs only, what changed (the module)", () => {
    const id = nextMove();
    const dirty = new Set([id]);
    s.relight(dirty);
    evaluator.evaluate(s.scene, s.hiders, s.observers, dirty);
    const fresh = evaluator.fresh;
    detectionChanges(fresh.map((c) => byKey.get(`${c.observer}|${c.hider}`)!).filter(Boolean), fresh);
    for (const c of fresh) byKey.set(`${c.observer}|${c.hider}`, c);
  });
  bench("full recomputation after a light was put out or lit: every token's light, every pair (the module)", () => {
    s.toggleLight(7);
    const current = evaluator.evaluate(s.scene, s.hiders, s.observers, null);
    const fresh = evaluator.fresh;
    detectionChanges(fresh.map((c) => byKey.get(`${c.observer}|${c.hider}`)!).filter(Boolean), fresh);
    for (const c of fresh) byKey.set(`${c.observer}|${c.hider}`, c);
    previous = current;
  });
  bench("full recomputation after a door opened: the lines of sight through it tested again (the module)", () => {
    evaluator.wallsChanged(s.walls[step++ % 20]!);
    s.relight();
    const current = evaluator.evaluate(s.scene, s.hiders, s.observers, null);
    const fresh = evaluator.fresh;
    detectionChanges(fresh.map((c) => byKey.get(`${c.observer}|${c.hider}`)!).filter(Boolean), fresh);
    for (const c of fresh) byKey.set(`${c.observer}|${c.hider}`, c);
    previous = current;
  });
  bench("full recomputation from scratch: the first pass on a scene, every pair and line of sight (the module)", () => {
    const first = new PairEvaluator();
    s.relight();
    const current = first.evaluate(s.scene, s.hiders, s.observers, null);
    detectionChanges([], current);
  });
  bench("naive: every token's light and every pair (rules call and line of sight each) on every move", () => {
    nextMove();
    s.relight();
    const current = evaluatePairsNaive(s.scene, s.hiders, s.observers);
    detectionChanges(previous, current);
    previous = current;
  });
});
