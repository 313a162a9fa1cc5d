/**
 * Aventure's open windows, found in Foundry's registry of rendered applications (`foundry.applications.instances`,
 * v13: a Map of the rendered ApplicationV2 windows by id, an application entering it when rendered and leaving it
 * when closed): those with the module's `aventure` class (src/core/application.ts gives it to every window of the
 * module), and a window of fixed id by that id. No window is kept in a variable of its own.
 */
import type { AventureApplication } from "./application.js";

interface RegisteredApp {
  options?: { classes?: readonly string[] };
  render(options?: object): unknown;
}

/** The module's rendered windows. */
export function openWindows(): RegisteredApp[] {
  const apps: Iterable<RegisteredApp> = foundry.applications.instances.values();
  return [...apps].filter((app) => app.options?.classes?.includes("aventure") === true);
}

/** The rendered window of this id, when it is one of `cls` (undefined once it is closed). */
export function renderedWindow<T>(cls: abstract new (...args: never[]) => T, id: string): T | undefined {
  const app: unknown = foundry.applications.instances.get(id);
  return app instanceof cls ? app : undefined;
}

/**
 * Opens the window of fixed `id` (one per client): the rendered one is rendered again and brought to the front;
 * otherwise (never opened, or closed) a new one is made and rendered.
 */
export async function openSingle<T extends AventureApplication>(cls: new () => T, id: string): Promise<T> {
  const open = renderedWindow(cls, id);
  const app = open ?? new cls();
  await app.render({ force: true });
  if (open) app.bringToFront();
  return app;
}

/** The game or a borrowed rule changed: every open Aventure window renders again in the new game's words. */
export function onRulesetChange(): void {
  for (const app of openWindows()) void app.render();
}
