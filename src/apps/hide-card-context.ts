/** The hiding chat cards' template contexts (pure: tested and screenshotted without Foundry). */
import type { HideBecause, HideEndEvent } from "../rules/stealth.js";

export interface HideCardObserver {
  name: string;
  /** Passive Perception, null when the system does not provide it (the GM decides). */
  passive: number | null;
  /** The Wisdom (Perception) total of a searching observer (used instead of its passive score); null otherwise. */
  searchRoll?: number | null;
  /** Whether it noticed the hider; null when unknown. */
  spotted: boolean | null;
  /** Why the hider could hide from it (§6 prerequisite), when known. */
  because: HideBecause | null;
}

export interface HideCardInput {
  hider: string;
  dc: number;
  /** Hidden from at least one observer. */
  hidden: boolean;
  observers: readonly HideCardObserver[];
}

export function hideCardContext(input: HideCardInput): Record<string, unknown> {
  const rows = input.observers.map((o) => {
    const outcome = o.spotted === null ? "unknown" : o.spotted ? "spotted" : "missed";
    return {
      name: o.name,
      passive: o.passive,
      hasPassive: o.passive !== null,
      searchRoll: o.searchRoll ?? null,
      searched: o.searchRoll !== undefined && o.searchRoll !== null,
      outcome,
      outcomeKey: `AVENTURE.Light.Hide.outcome.${outcome}`,
      becauseKey: o.because ? `AVENTURE.Light.Hide.because.${o.because}` : null,
    };
  });
  const noticed = rows.filter((r) => r.outcome === "spotted").length;
  return {
    hider: input.hider,
    dc: input.dc,
    hidden: input.hidden,
    summaryKey: input.hidden ? "AVENTURE.Light.Hide.summary.hidden" : "AVENTURE.Light.Hide.summary.seen",
    noticed,
    total: rows.length,
    rows,
  };
}

export interface HideEndCardInput {
  hider: string;
  event: HideEndEvent;
  perceptionCheck: boolean;
}

export function hideEndCardContext(input: HideEndCardInput): Record<string, unknown> {
  return {
    hider: input.hider,
    event: input.event,
    eventKey: `AVENTURE.Light.Hide.end.${input.event}`,
    perceptionCheck: input.perceptionCheck,
  };
}

export interface SearchCardRow {
  /** The hidden creature. */
  name: string;
  /** Its hiding DC (its Stealth total). */
  dc: number;
  /** Whether the searching creature's roll spots it. */
  spotted: boolean;
  /** Still hidden from other observers after the search. */
  stillHidden: boolean;
}

/** The card of a creature that starts searching: its Wisdom (Perception) roll against each creature hidden from it. */
export function searchCardContext(input: { observer: string; roll: number; rows: readonly SearchCardRow[] }): Record<string, unknown> {
  return {
    observer: input.observer,
    roll: input.roll,
    rows: input.rows.map((r) => ({
      name: r.name,
      dc: r.dc,
      outcome: r.spotted ? "spotted" : "missed",
      outcomeKey: `AVENTURE.Light.Hide.outcome.${r.spotted ? "spotted" : "missed"}`,
      // What the spotting changed: still hidden from the other observers, or no longer hidden at all.
      stateKey: !r.spotted ? null : r.stillHidden ? "AVENTURE.Light.Search.stillHidden" : "AVENTURE.Light.Search.noLongerHidden",
    })),
  };
}
