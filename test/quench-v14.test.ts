/**
 * The in-world batch `aventure.v14` (src/quench/v14.ts) against the test world in its v14 mode (levels, core's
 * expiry mark, the `_del` operator: test/world names the sources), through the same adapter as test/quench.test.ts
 * (which runs every batch on v13, where this one skips itself). Dice are pseudo-random, as real dice would be.
 */
import { assert, describe, it } from "vitest";
import { quenchWorld } from "./world/quench-adapter.js";

const { world, batches, context } = await quenchWorld({ generation: 14 }, 60_000);

const v14 = batches.find((b) => b.key === "aventure.v14");
describe("Quench batch aventure.v14 on the v14 test world", () => {
  it("is registered", () => assert.ok(v14));
  it("leaves no deprecated -=key write behind", async () => {
    await world.settle();
    assert.deepEqual(world.deprecations, []);
  });
});
if (v14) describe(`${v14.key}: ${v14.displayName}`, () => v14.fn(context));
