/**
 * The one place Aventure registers Foundry hooks. Every name and handler is checked against `AventureHooks`
 * (src/declarations.d.ts), which declares each hook the module listens to with its signature from the public v13
 * API (hookEvents and the document hooks); the pinned types lack several of them (moveToken, quenchReady, the
 * dnd5e hooks...) or type them differently. `Hooks` is read at call time (each client of the test world has its own).
 */

/** What Aventure needs of core's `Hooks`: any hook name, any handler (the names and handlers are checked above). */
interface HookRegistry {
  on(name: string, fn: (...args: never[]) => unknown): number;
  once(name: string, fn: (...args: never[]) => unknown): number;
  off(name: string, id: number): void;
}

function registry(): HookRegistry {
  return Hooks;
}

/** `Hooks.on(name, fn)` with `fn` checked against the hook's declared signature; returns the id for `offHook`. */
export function onHook<K extends keyof AventureHooks>(name: K, fn: AventureHooks[K]): number {
  return registry().on(name, fn);
}

/** `Hooks.once(name, fn)`, typed like `onHook`. */
export function onceHook<K extends keyof AventureHooks>(name: K, fn: AventureHooks[K]): number {
  return registry().once(name, fn);
}

/** `Hooks.off(name, id)` for a handler `onHook` registered. */
export function offHook(name: keyof AventureHooks, id: number): void {
  registry().off(name, id);
}
