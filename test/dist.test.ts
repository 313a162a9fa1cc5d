/**
 * Smoke test of the built bundle (dist/aventure.js), not the sources: it loads in the fake Foundry, registers
 * its settings, keybindings and hooks in init, and exposes the API. `npm test` builds before running Vitest;
 * run alone without a build, this test is skipped.
 */
import { describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "./fake/handlebars.js";
import { bootWithCombat } from "./fake/combat.js";

const bundle = join(ROOT, "dist", "aventure.js");

describe.skipIf(!existsSync(bundle))("the built bundle", () => {
  it("boots in a world, registers everything in init and exposes the API", async () => {
    const { world } = await bootWithCombat({ systemId: "dnd5e" }, async () => {
      await import(/* @vite-ignore */ `${pathToFileURL(bundle).href}?t=${Date.now()}`);
    });
    const api = world.modules.get("aventure")!.api as Record<string, unknown> & { rules: Record<string, unknown> };
    for (const name of ["openTravel", "openEncounter", "openPursuit", "openPolarisTest", "fallDialog", "hideSelected", "showJumps", "fall", "hide"]) {
      expect(typeof api[name], name).toBe("function");
    }
    expect((api.rules.roundSeconds as (r: string) => number)("ose")).toBe(10);
    expect(world.settings.defs.has("aventure.ruleset")).toBe(true);
    expect(world.keybindings.size).toBeGreaterThan(0);
    expect(world.hooks.registered()).toContain("renderTokenHUD");
  });
});
