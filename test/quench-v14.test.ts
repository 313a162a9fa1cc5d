/**
 * The in-world batches `aventure.v14` (src/quench/v14.ts) and `aventure.models` (src/quench/models.ts: a key deleted
 * inside a card's system with `_del`) against the test world in its v14 mode (levels, core's
 * expiry mark, the `_del` operator: test/world names the sources), through the same adapter as test/quench.test.ts
 * (which runs every batch on v13, where the v14 one skips itself). Dice are pseudo-random, as real dice would be.
 */
import { assert, describe, it } from "vitest";
import { quenchWorld } from "./world/quench-adapter.js";

const { world, batches, context } = await quenchWorld({ generation: 14 }, 60_000);

const v14 = batches.find((b) => b.key === "aventure.v14");
describe("Quench batch aventure.v14 on the v14 test world", () => {
  it("is registered", () => assert.ok(v14 && models));
  it("leaves no deprecated -=key write behind", async () => {
    await world.settle();
    assert.deepEqual(world.deprecations, []);
  });
});
const models = batches.find((b) => b.key === "aventure.models");
for (const b of [v14, models]) if (b) describe(`${b.key}: ${b.displayName}`, () => b.fn(context));
