/** The light feature's public API entries (docs/api/light.md, "Foundry API"). Errors are shown to the user. */
import type { HideEndEvent, LightLevel, PerceivedSense, VisibilityEffect } from "../../rules/index.js";
import { guarded } from "../i18n.js";
import { endHide, hide, hideSelected, type HideOutcome } from "./hide.js";
import { canvasLike, type TokenDocLike, type TokenObjLike } from "./scene.js";
import type { SenseEntry } from "./senses.js";
import { lightTracker } from "./tracker.js";

type TokenRef = string | TokenDocLike | TokenObjLike;

export interface LightAt {
  level: LightLevel;
  perceived: LightLevel;
  sense: PerceivedSense;
  effect: VisibilityEffect;
  senses: SenseEntry[];
  darkness: number;
  globalLight: boolean;
  inDarkness: boolean;
}

function tokenId(ref: TokenRef): string | null {
  if (typeof ref === "string") return ref;
  if ("document" in ref && ref.document) return ref.document.id;
  return (ref as TokenDocLike).id;
}

export function lightApi() {
  return {
    /** Hides a token (HUD button): prerequisites, Stealth roll, passive Perception, GM card. */
    hide: (token: TokenRef, options?: { observers?: string[] }): Promise<HideOutcome | null | undefined> =>
      guarded(() => hide(token, options)),
    /** Hides every controlled token (the "Hide" macro). */
    hideSelected: (): Promise<(HideOutcome | null)[] | undefined> => guarded(() => hideSelected()),
    /** Ends a token's hiding (GM, or the owner for "revealed", "attacked", "noise"). */
    endHide: (token: TokenRef, event: HideEndEvent = "revealed"): Promise<boolean | undefined> => guarded(() => endHide(token, event)),
    /** The light at a token of the viewed scene, as the HUD shows it; null when it is not there. */
    lightAt: (token: TokenRef): LightAt | null => {
      const id = tokenId(token);
      const s = id && canvasLike() ? lightTracker.stateOf(id) : null;
      if (!s) return null;
      return {
        level: s.light.level,
        perceived: s.perceived,
        sense: s.sense,
        effect: s.effect,
        senses: s.senses.entries,
        darkness: s.light.darkness,
        globalLight: s.light.globalLight,
        inDarkness: s.light.inDarkness,
      };
    },
    /** Recomputes every token now (normally debounced after lighting and token changes). */
    refreshLight: async (): Promise<void> => {
      lightTracker.schedule();
      await lightTracker.flush();
    },
  };
}
