/** The hiding chat cards' template contexts (pure: tested and screenshotted without Foundry). */
import type { HideBecause, HideEndEvent } from "../rules/stealth.js";

export interface HideCardObserver {
  name: string;
  /** Passive Perception, null when the system does not provide it (the GM decides). */
  passive: number | null;
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
