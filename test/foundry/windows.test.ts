/**
 * Aventure's windows share one base (src/core/application.ts) and are found through Foundry's registry of rendered
 * applications (`foundry.applications.instances`, modelled in test/world/statics.ts): a change of game renders every
 * open Aventure window again, in the new game's words, and no closed one.
 */
import { describe, expect, it } from "vitest";
import { bootWorld, GM } from "../world/index.js";

interface Win {
  rendered: boolean;
  element: HTMLElement | null;
  close(): Promise<unknown>;
}
interface Api {
  openEncounter(o?: object): Promise<Win>;
  openTravel(o?: object): Promise<Win>;
}

describe("Aventure's windows", () => {
  it("a change of game renders the open windows again (found in Foundry's registry), not the closed ones", async () => {
    const world = await bootWorld({ system: "ose", users: [GM] });
    await world.as("gm1", () => game.settings.set("aventure" as never, "ruleset" as never, "ose" as never));
    const api = world.api<Api>("gm1");
    const renders: string[] = [];
    world.as("gm1", () => {
      Hooks.on("renderEncounterDialog" as never, (() => void renders.push("encounter")) as never);
      Hooks.on("renderOseTravelDialog" as never, (() => void renders.push("travel")) as never);
    });
    const encounter = await world.as("gm1", () => api.openEncounter());
    const travel = await world.as("gm1", () => api.openTravel());
    await world.settle();
    expect(world.notifications).toEqual([]);
    expect(renders.sort()).toEqual(["encounter", "travel"]);
    // Every Aventure window has the module's class (its CSS scope and its mark in the registry) and the "?" button.
    for (const w of [encounter, travel]) {
      expect(w.element?.classList.contains("aventure")).toBe(true);
      expect(w.element?.querySelector(".aventure-guide-button")).not.toBeNull();
    }
    const registered = world.as("gm1", () => [
      ...(foundry.applications as unknown as { instances: Map<string, unknown> }).instances.values(),
    ]);
    expect(registered).toContain(encounter);
    renders.length = 0;
    await world.as("gm1", () => game.settings.set("aventure" as never, "ruleset" as never, "pmt" as never));
    await world.settle();
    expect(renders.sort()).toEqual(["encounter", "travel"]);
    await world.as("gm1", () => travel.close());
    renders.length = 0;
    await world.as("gm1", () => game.settings.set("aventure" as never, "ruleset" as never, "ose" as never));
    await world.settle();
    expect(renders).toEqual(["encounter"]);
    expect(travel.rendered).toBe(false);
  });
});
