/**
 * Smoke test of the built bundle (dist/aventure.js), not the sources: every client of a world loads it (dnd5e, a GM and
 * a player), it registers its settings, keybindings and hooks in init, and exposes the API. `npm test` builds before
 * running Vitest; run alone without a build, this test is skipped.
 */
import { describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "./fake/handlebars.js";
import { bootWorld, GM, PLAYER } from "./world/index.js";

const bundle = join(ROOT, "dist", "aventure.js");

describe.skipIf(!existsSync(bundle))("the built bundle", () => {
  it("boots on every client of a world, registers everything in init and exposes the API", async () => {
    let n = 0;
    const world = await bootWorld({
      system: "dnd5e",
      users: [GM, PLAYER],
      load: async () => import(/* @vite-ignore */ `${pathToFileURL(bundle).href}?t=${Date.now()}-${n++}`),
      onDemand: "when used", // the built module loads its own files (dist/aventure-<name>.js)
    });
    for (const user of ["gm1", "p1"]) {
      const api = world.api<Record<string, unknown> & { rules: Record<string, unknown> }>(user);
      for (const name of [
        "openTravel",
        "openEncounter",
        "openPursuit",
        "openPolarisTest",
        "fallDialog",
        "hideSelected",
        "showJumps",
        "fall",
        "hide",
      ]) {
        expect(typeof api[name], name).toBe("function");
      }
      expect((api.rules.roundSeconds as (r: string) => number)("ose")).toBe(10);
      const c = world.clientOf(user);
      expect(c.settingDefs.has("aventure.ruleset")).toBe(true);
      expect(c.keybindings.size).toBeGreaterThan(0);
      expect(c.hooks.registered()).toEqual(
        expect.arrayContaining(["renderTokenHUD", "createChatMessage", "preCreateActiveEffect"]),
      );
    }
    expect(world.api("gm1")).not.toBe(world.api("p1")); // one module instance per client
    // A window loads on demand (dist/aventure-TravelDialog.js) and keeps its class name through minification: Foundry
    // names its render hook after it (renderTravelDialog).
    const rendered: string[] = [];
    world.as("gm1", () => Hooks.on("renderTravelDialog" as never, (() => void rendered.push("travel")) as never));
    const travel = await world.as("gm1", () =>
      world
        .api<{ openTravel(o?: object): Promise<{ constructor: { name: string } }> }>("gm1")
        .openTravel({ actorIds: [] }),
    );
    await world.settle();
    expect(travel.constructor.name).toBe("TravelDialog");
    expect(rendered).toEqual(["travel"]);
    // The in-world test batches are a chunk of their own (aventure-quench.js), imported only on quenchReady.
    const keys: string[] = [];
    world.as("gm1", () =>
      (Hooks.callAll as unknown as (n: string, ...a: unknown[]) => boolean)("quenchReady", {
        registerBatch: (key: string) => void keys.push(key),
      }),
    );
    for (let i = 0; i < 500 && keys.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(keys).toHaveLength(10); // src/quench/index.ts BATCHES (aventure.models included)
  }, 30_000); // two clients import the whole bundle: slow on the shared machines
});
