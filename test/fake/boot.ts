/** Boots the module in a fresh fake world: imports the entry point and fires `init` (then `ready`). */
import { vi } from "vitest";
import { installFoundry, type FakeWorld, type WorldOptions } from "./foundry.js";

export async function bootModule(opts: WorldOptions = {}): Promise<FakeWorld> {
  const world = installFoundry(opts);
  vi.resetModules();
  await import("../../src/module.js");
  for (const u of world.users.filter((x) => x.active)) {
    await world.asUser(u.id, () => undefined);
  }
  world.hooks.callAll("init");
  world.hooks.callAll("i18nInit");
  world.hooks.callAll("setup");
  world.setupDone = true;
  world.hooks.callAll("ready");
  return world;
}
