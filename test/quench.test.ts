/**
 * The in-world test batches (src/foundry/quench, run by Quench inside a real Foundry world) run here against the test
 * world (v13: the v14-only batch skips itself here and runs on the v14 test world in test/quench-v14.test.ts), through
 * a small adapter from Quench's context (Mocha's describe/it/before/after, Chai's assert) to Vitest's: every batch is known to pass in CI before anyone runs it in a real world. Each callback runs on the GM's client (as
 * Quench does, in the GM's browser), and the world settles after it. Dice are pseudo-random, as real dice would be.
 */
import { afterAll, assert, beforeAll, describe, it } from "vitest";
import { bootWorld, GM, PLAYER } from "./world/index.js";
import type { Batch, BatchContext } from "../src/foundry/quench/types.js";

const world = await bootWorld({ system: "dnd5e", users: [GM, PLAYER] });
world.randomDice = true;
const batches: { key: string; fn: Batch["fn"]; displayName: string }[] = [];
world.as("gm1", () => (Hooks.callAll as unknown as (n: string, ...a: unknown[]) => boolean)("quenchReady", { registerBatch: (key: string, fn: Batch["fn"], o?: { displayName?: string }) => void batches.push({ key, fn, displayName: o?.displayName ?? key }) }));
// The batches are a chunk imported on demand (src/foundry/quench/register.ts): they register once it has loaded.
for (let i = 0; i < 500 && batches.length === 0; i++) await new Promise((r) => setTimeout(r, 10));

const onGM = (fn: () => Promise<void> | void) => async () => {
  await world.as("gm1", async () => {
    await fn();
  });
  await world.settle();
};

const context: BatchContext = {
  describe: (name, fn) => describe(name, fn),
  it: (name, fn) => it(name, onGM(fn), 20_000),
  before: (fn) => beforeAll(onGM(fn), 20_000),
  after: (fn) => afterAll(onGM(fn), 20_000),
  assert: assert as unknown as BatchContext["assert"],
};

describe("Quench batches", () => {
  it("registers every feature's batch on quenchReady", () => {
    assert.deepEqual(
      batches.map((b) => b.key),
      [
        "aventure.travel",
        "aventure.movement",
        "aventure.light",
        "aventure.encounter",
        "aventure.pursuit",
        "aventure.polaris",
        "aventure.exploration",
        "aventure.wilderness",
        "aventure.v14", // runs only on v14: on this v13 world it registers one skipped note
      ],
    );
  });
});

for (const b of batches) describe(`${b.key}: ${b.displayName}`, () => b.fn(context));
