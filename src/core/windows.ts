/**
 * Aventure's open windows, found in Foundry's registry of rendered applications (`foundry.applications.instances`,
 * v13): those with the module's `aventure` class (src/core/application.ts gives it to every window of the module).
 */
interface RegisteredApp {
  options?: { classes?: readonly string[] };
  render(options?: object): unknown;
}

/** The module's rendered windows. */
export function openWindows(): RegisteredApp[] {
  const apps: Iterable<RegisteredApp> = foundry.applications.instances.values();
  return [...apps].filter((app) => app.options?.classes?.includes("aventure") === true);
}

/** The game or a borrowed rule changed: every open Aventure window renders again in the new game's words. */
export function onRulesetChange(): void {
  for (const app of openWindows()) void app.render();
}
