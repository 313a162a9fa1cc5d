/**
 * The window base (src/core/application.ts) and Foundry's registry of rendered applications
 * (`foundry.applications.instances`, modelled in test/world/statics.ts): a window of fixed id is found there, never
 * kept in a variable of the module (opened twice: the same window, brought to the front; closed: a new one next
 * time); the base holds the defaults every window shares; the theme is Foundry's (no class of the base's own).
 */
import { describe, expect, it } from "vitest";
import { bootWorld, GM, type FakeWorld } from "../world/index.js";

interface Win {
  id: string;
  rendered: boolean;
  element: HTMLElement | null;
  close(): Promise<unknown>;
}
interface Api {
  openExploration(): Promise<Win | undefined>;
  openWelcome(): Promise<Win | null>;
}

const registry = (world: FakeWorld, user = "gm1") =>
  world.as(user, () => [...(foundry.applications as unknown as { instances: Map<string, Win> }).instances.entries()]);
const inDocument = (world: FakeWorld, id: string) => world.window.document.querySelectorAll(`#${id}`).length;

/** Opens a window twice, closes it, opens it again: one window while open, a new one after close. */
async function openTwiceThenAgain(world: FakeWorld, id: string, open: () => Promise<Win | null | undefined>) {
  const first = (await world.as("gm1", open))!;
  await world.settle();
  const z1 = Number(first.element!.style.zIndex || 0);
  const second = (await world.as("gm1", open))!;
  await world.settle();
  expect(second).toBe(first);
  expect(second.rendered).toBe(true);
  // Brought to the front, not opened a second time.
  expect(Number(second.element!.style.zIndex)).toBeGreaterThan(z1);
  expect(registry(world).filter(([key]) => key === id)).toEqual([[id, first]]);
  expect(inDocument(world, id)).toBe(1);

  await world.as("gm1", () => first.close());
  expect(registry(world).some(([key]) => key === id)).toBe(false);
  const third = (await world.as("gm1", open))!;
  await world.settle();
  expect(third).not.toBe(first);
  expect(third.rendered).toBe(true);
  expect(first.rendered).toBe(false);
  expect(registry(world).filter(([key]) => key === id)).toEqual([[id, third]]);
  expect(inDocument(world, id)).toBe(1);
}

describe("windows of fixed id, found in Foundry's registry", () => {
  it("the Exploration panel: opened twice, the same panel to the front; after close, a new one", async () => {
    const world = await bootWorld({ system: "ose", users: [GM] });
    await world.as("gm1", () => game.settings.set("aventure" as never, "ruleset" as never, "ose" as never));
    const api = world.api<Api>("gm1");
    await openTwiceThenAgain(world, "aventure-exploration", () => api.openExploration());
    expect(world.notifications.filter((n) => n.type !== "info")).toEqual([]);
  });

  it("the first-run window: the one opened at ready is the one api.openWelcome() brings forward; after close, a new one", async () => {
    const world = await bootWorld({ system: "dnd5e", users: [GM] });
    const atReady = registry(world).find(([key]) => key === "aventure-welcome")?.[1];
    expect(atReady?.rendered).toBe(true);
    const api = world.api<Api>("gm1");
    expect(await world.as("gm1", () => api.openWelcome())).toBe(atReady);
    await openTwiceThenAgain(world, "aventure-welcome", () => api.openWelcome());
  });

  it("the panel shown is the one the refresh renders: a closed panel is not rendered again", async () => {
    const world = await bootWorld({ system: "ose", users: [GM] });
    await world.as("gm1", () => game.settings.set("aventure" as never, "ruleset" as never, "ose" as never));
    const renders: unknown[] = [];
    world.as("gm1", () =>
      Hooks.on("renderExplorationPanel" as never, ((app: unknown) => void renders.push(app)) as never),
    );
    const api = world.api<Api>("gm1");
    const panel = (await world.as("gm1", () => api.openExploration()))!;
    await world.settle();
    renders.length = 0;
    // World time passes: the open panel renders again.
    await world.as("gm1", () => game.time.advance(60));
    await world.settle();
    expect(renders).toContain(panel);
    await world.as("gm1", () => panel.close());
    renders.length = 0;
    await world.as("gm1", () => game.time.advance(60));
    await world.settle();
    expect(renders).toEqual([]);
  });
});
