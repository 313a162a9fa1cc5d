/**
 * Registers Aventure's in-world test batches with Quench, without making every client download them: the batches
 * (./index.ts) are imported on demand, as their own chunk of the build, only in a world where the Quench module is
 * active. The import starts in `init` (registerHooks) so that it has normally finished when Quench calls `quenchReady`
 * (Quench fires
 * it from its own `ready`); if it has not, the batches are registered as soon as it has.
 */
import type { Quench } from "./types.js";
import { onHook } from "../core/hooks-typed.js";

type BatchesModule = typeof import("./index.js");

export function registerQuenchBatches(): void {
  let loading: Promise<BatchesModule> | null = null;
  const load = (): Promise<BatchesModule> => (loading ??= import("./index.js"));
  if (game.modules?.get("quench")?.active) void load(); // called in init
  onHook("quenchReady", (quench: Quench) => {
    void load().then(({ BATCHES }) => {
      for (const b of BATCHES) quench.registerBatch(b.key, b.fn, { displayName: b.displayName });
    });
  });
}
