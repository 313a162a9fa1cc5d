/**
 * The in-world batch `aventure.v14` (src/foundry/quench/v14.ts) against the test world in its v14 mode (levels, core's
 * expiry mark, the `_del` operator: test/world names the sources), through the same adapter as test/quench.test.ts
 * (which runs every batch on v13, where this one skips itself). Dice are pseudo-random, as real dice would be.
 */
import { afterAll, assert, beforeAll, describe, it } from "vitest";
import { bootWorld, GM, PLAYER } from "./world/index.js";
import type { Batch, BatchContext } from "../src/foundry/quench/types.js";

const world = await bootWorld({ system: "dnd5e", users: [GM, PLAYER], generation: 14 });
world.randomDice = true;
const batches: { key: string; fn: Batch["fn"]; displayName: string }[] = [];
world.as("gm1", () => (Hooks.callAll as unknown as (n: string, ...a: unknown[]) => boolean)("quenchReady", { registerBatch: (key: string, fn: Batch["fn"], o?: { displayName?: string }) => void batches.push({ key, fn, displayName: o?.displayName ?? key }) }));
for (let i = 0; i < 500 && batches.length === 0; i++) await new Promise((r) => setTimeout(r, 10));

const onGM = (fn: () => Promise<void> | void) => async () => {
  await world.as("gm1", async () => {
    await fn();
  });
  await world.settle();
};

const context: BatchContext = {
  describe: (name, fn) => describe(name, fn),
  it: (name, fn) => it(name, onGM(fn), 60_000),
  before: (fn) => beforeAll(onGM(fn), 20_000),
  after: (fn) => afterAll(onGM(fn), 20_000),
  assert: assert as unknown as BatchContext["assert"],
};

const v14 = batches.find((b) => b.key === "aventure.v14");
describe("Quench batch aventure.v14 on the v14 test world", () => {
  it("is registered", () => assert.ok(v14));
  it("leaves no deprecated -=key write behind", async () => {
    await world.settle();
    assert.deepEqual(world.deprecations, []);
  });
});
if (v14) describe(`${v14.key}: ${v14.displayName}`, () => v14.fn(context));
