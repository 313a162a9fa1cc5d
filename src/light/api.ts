/** The light feature's public API entries (docs/api/light.md, "Foundry API"). Errors are shown to the user. */
import type { HideEndEvent } from "../rules/index.js";
import { guarded } from "../core/i18n.js";
import { checkDetection, type DetectionReport } from "./detection.js";
import { endHide, hide, hideSelected, setSearching, type HideOptions, type HideReply } from "./hide.js";
import { canvasLike, tokenRefId, type TokenRef } from "./scene.js";
import { lightAtOf, lightTracker, type LightAt } from "./tracker.js";

export type { LightAt, DetectionReport };

export function lightApi() {
  return {
    /**
     * Hides a token (HUD button): prerequisites, Stealth roll, passive Perception, GM card. A player naming observers
     * or
     * searchers that are not all theirs gets `{proposed: true}`: the GMs decide.
     */
    hide: (token: TokenRef, options?: HideOptions): Promise<HideReply | undefined> =>
      guarded(() => hide(token, options)),
    /** GM: marks a token as searching (it rolls Wisdom (Perception) against creatures that hide), or not. */
    setSearching: (token: TokenRef, searching = true): Promise<boolean | undefined> =>
      guarded(() => setSearching(token, searching)),
    /** Hides every controlled token (the "Hide" macro). */
    hideSelected: (): Promise<(HideReply | null)[] | undefined> => guarded(() => hideSelected()),
    /** Ends a token's hiding (GM, or the owner for "revealed", "attacked", "noise"). */
    endHide: (token: TokenRef, event: HideEndEvent = "revealed"): Promise<boolean | undefined> =>
      guarded(() => endHide(token, event)),
    /** The light at a token of the viewed scene, as the HUD shows it; null when it is not there. */
    lightAt: (token: TokenRef): LightAt | null => {
      const id = tokenRefId(token);
      const s = id && canvasLike() ? lightTracker.stateOf(id) : null;
      return s ? lightAtOf(s) : null;
    },
    /**
     * GM: ambient detection now, over these tokens' pairs (all when absent), on the active GM; `again` forgets what was
     * judged of them first (they are judged again even if nothing changed). Resolves to what the pass did.
     */
    checkDetection: (
      tokenIds?: string[] | null,
      options?: { again?: boolean },
    ): Promise<DetectionReport | null | undefined> => guarded(() => checkDetection(tokenIds, options)),
    /** Recomputes every token now (normally debounced after lighting and token changes). */
    refreshLight: async (): Promise<void> => {
      lightTracker.schedule();
      await lightTracker.flush();
    },
  };
}
export { polygonContains } from "./compute.js";
export { configureDimLightStatus } from "./effects.js";
export { type TokenDocLike, tokenCentre } from "./scene.js";
export { assertGM, assertOwner, controlledTokens, notOwned } from "./tokens.js";

/** The feature's settings (registered by the composition root, src/settings.ts). */
export { lightSettings } from "./settings.js";
