/**
 * Fake timers that stay on their client. Each browser runs its own timers: a callback a client scheduled (a debounce,
 * a timeout) runs as that client, and never after that client stopped. In Node, a real timer keeps the async context
 * it was scheduled in (AsyncLocalStorage: https://nodejs.org/api/async_context.html, "asyncLocalStorage.run" — the
 * store is kept through timers), so the fake world's per-client globals follow. Vitest's fake timers run callbacks
 * from the test's own context instead: without this wrapper, a GM's debounced recomputation would run as the first
 * connected client (another GM, with another module instance).
 */
import { AsyncResource } from "node:async_hooks";
import { vi } from "vitest";
import { currentWorld } from "./world.js";

type Timer = (fn: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => unknown;

/**
 * vi.useFakeTimers for setTimeout / setInterval (and Date), each callback bound to the client that scheduled it and
 * dropped once that client crashed or disconnected. setImmediate (the world's round trips) stays real. Undo with
 * vi.useRealTimers().
 */
export function useClientTimers(): void {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
  const g = globalThis as unknown as Record<"setTimeout" | "setInterval", Timer>;
  for (const name of ["setTimeout", "setInterval"] as const) {
    const fake = g[name];
    g[name] = (fn, ms, ...args) => {
      let client: { alive: boolean } | null;
      try {
        client = currentWorld().currentClient();
      } catch {
        return fake(fn, ms, ...args); // no world or no client: an ordinary fake timer
      }
      const from = client;
      const bound = AsyncResource.bind((...a: unknown[]) => {
        if (from.alive) fn(...a);
      });
      return fake(bound, ms, ...args);
    };
  }
}
