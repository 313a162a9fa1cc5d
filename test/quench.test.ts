/**
 * The in-world test batches (src/quench, run by Quench inside a real Foundry world) run here against the test
 * world (v13: the v14-only batch skips itself here and runs on the v14 test world in test/quench-v14.test.ts), through
 * the adapter of test/world/quench-adapter.ts (Quench's context on Vitest's): every batch is known to pass in CI before
 * anyone runs it in a real world.
 */
import { assert, describe, it } from "vitest";
import { quenchWorld } from "./world/quench-adapter.js";

const { batches, context } = await quenchWorld({}, 20_000);

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
        "aventure.models",
      ],
    );
  });
});

for (const b of batches) describe(`${b.key}: ${b.displayName}`, () => b.fn(context));
