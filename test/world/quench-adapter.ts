/**
 * The adapter from Quench's context (Mocha's describe/it/before/after, Chai's assert) to Vitest's, used by
 * test/quench.test.ts (v13) and test/quench-v14.test.ts (v14): a test world whose GM gets `quenchReady`, the batches
 * it registers, and a context whose callbacks run on the GM's client (as Quench does, in the GM's browser), the world
 * settling after each. Dice are pseudo-random, as real dice would be.
 */
import { afterAll, assert, beforeAll, describe, it } from "vitest";
import { bootWorld, GM, PLAYER, type BootOptions } from "./index.js";
import type { Batch, BatchContext } from "../../src/quench/types.js";

export async function quenchWorld(options: Partial<BootOptions> = {}, itTimeout = 20_000) {
  const world = await bootWorld({ system: "dnd5e", users: [GM, PLAYER], ...options });
  world.randomDice = true;
  const batches: { key: string; fn: Batch["fn"]; displayName: string }[] = [];
  world.as("gm1", () =>
    (Hooks.callAll as unknown as (n: string, ...a: unknown[]) => boolean)("quenchReady", {
      registerBatch: (key: string, fn: Batch["fn"], o?: { displayName?: string }) =>
        void batches.push({ key, fn, displayName: o?.displayName ?? key }),
    }),
  );
  // The batches are a chunk imported on demand (src/quench/register.ts): they register once it has loaded.
  for (let i = 0; i < 500 && batches.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
  const onGM = (fn: () => Promise<void> | void) => async () => {
    await world.as("gm1", async () => {
      await fn();
    });
    await world.settle();
  };
  const context: BatchContext = {
    describe: (name, fn) => describe(name, fn),
    it: (name, fn) => it(name, onGM(fn), itTimeout),
    before: (fn) => beforeAll(onGM(fn), 20_000),
    after: (fn) => afterAll(onGM(fn), 20_000),
    assert: assert as unknown as BatchContext["assert"],
  };
  return { world, batches, context };
}
