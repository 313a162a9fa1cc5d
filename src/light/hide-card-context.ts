/** The hiding chat cards' template contexts (pure: tested and screenshotted without Foundry). */
import type { DetectCardState } from "./hide-cards.js";
import type { HideBecause, HideEndEvent } from "../rules/stealth.js";

export interface HideCardObserver {
  name: string;
  /** Passive Perception, null when the system does not provide it (the GM decides). */
  passive: number | null;
  /** The Wisdom (Perception) total of a searching observer (used instead of its passive score); null otherwise. */
  searchRoll?: number | null;
  /** Whether it noticed the hider; null when unknown. */
  spotted: boolean | null;
  /**
   * A creature that may notice the hider but was not rolled against (the request named others): it knows where it is.
   */
  notRolled?: boolean;
  /** Why the hider could hide from it (docs/rules.md §6 prerequisite), when known. */
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
    const outcome = o.notRolled ? "notRolled" : o.spotted === null ? "unknown" : o.spotted ? "spotted" : "missed";
    return {
      name: o.name,
      passive: o.passive,
      hasPassive: o.passive !== null,
      searchRoll: o.searchRoll ?? null,
      searched: o.searchRoll !== undefined && o.searchRoll !== null,
      outcome,
      outcomeKey: `AVENTURE.Light.Hide.outcome.${outcome}`,
      // The observer's outcome in an icon as well as in words (the colour is the hider's point of view).
      icon:
        outcome === "spotted"
          ? "fa-solid fa-eye"
          : outcome === "missed"
            ? "fa-solid fa-eye-slash"
            : outcome === "notRolled"
              ? "fa-solid fa-location-crosshairs"
              : "fa-solid fa-circle-question",
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
    // The observers rolled against (those not rolled against know where it is: no roll to count).
    total: rows.filter((r) => r.outcome !== "notRolled").length,
    rows,
  };
}

export interface HideEndCardInput {
  hider: string;
  event: HideEndEvent;
  perceptionCheck: boolean;
  /** The Stealth DC the observers' Wisdom (Perception) checks are made against. */
  dc: number;
}

export function hideEndCardContext(input: HideEndCardInput): Record<string, unknown> {
  return {
    hider: input.hider,
    event: input.event,
    eventKey: `AVENTURE.Light.Hide.end.${input.event}`,
    perceptionCheck: input.perceptionCheck,
    dc: input.dc,
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

/**
 * The card of a creature that starts searching: its Wisdom (Perception) roll against each creature hidden from it. It
 * is the searcher's roll, so it reads from the searcher's point of view: finding the creature is a success (green, a
 * check icon and the word), missing it a failure.
 */
export function searchCardContext(input: {
  observer: string;
  roll: number;
  rows: readonly SearchCardRow[];
}): Record<string, unknown> {
  return {
    observer: input.observer,
    roll: input.roll,
    rows: input.rows.map((r) => ({
      name: r.name,
      dc: r.dc,
      outcome: r.spotted ? "success" : "failure",
      outcomeKey: `AVENTURE.Light.Search.${r.spotted ? "found" : "notFound"}`,
      icon: r.spotted ? "fa-solid fa-circle-check" : "fa-solid fa-circle-xmark",
      // What the spotting changed: still hidden from the other observers, or no longer hidden at all.
      stateKey: !r.spotted
        ? null
        : r.stillHidden
          ? "AVENTURE.Light.Search.stillHidden"
          : "AVENTURE.Light.Search.noLongerHidden",
    })),
  };
}

export {
  DETECT_REASONS,
  DETECT_ROW_STATUSES,
  DETECT_SKIPS,
  type DetectReason,
  type DetectRowStatus,
  type DetectSkipReason,
} from "./detect-values.js";

/** A row of the ambient-detection card and a token it left out, as its schema declares them (hide-cards.ts). */
export type DetectRow = DetectCardState["rows"][number];
export type DetectSkip = DetectCardState["skipped"][number];

/**
 * The ambient-detection card (whispered to the GMs): one line per observer that noticed a hidden creature, e.g. "Orc 2
 * notices Aria (passive 17 vs Stealth 12, dim light −5)", with Reveal / Ignore while the GM has not decided; the
 * tokens left out in a footnote.
 */
export function detectionCardContext(input: {
  rows: readonly DetectRow[];
  skipped: readonly DetectSkip[];
}): Record<string, unknown> {
  const rows = input.rows.map((r, index) => {
    const rolled = r.roll !== null;
    const reasoned = r.reason !== "none";
    return {
      index,
      observer: r.observer,
      hider: r.hider,
      passive: r.passive ?? 0,
      roll: r.roll ?? 0,
      dc: r.dc,
      status: r.status,
      pending: r.status === "pending",
      lineKey: `AVENTURE.Light.Detect.line.${rolled ? "roll" : "passive"}${reasoned ? "Reason" : ""}`,
      reasonKey: `AVENTURE.Light.Detect.reason.${rolled ? "roll" : "passive"}.${r.reason}`,
      statusKey:
        r.status === "pending"
          ? null
          : `AVENTURE.Light.Detect.status.${r.status === "revealed" && r.ended ? "ended" : r.status}`,
    };
  });
  return {
    rows,
    pending: rows.some((r) => r.pending),
    skipped: input.skipped.map((s) => ({ name: s.name, reasonKey: `AVENTURE.Light.Detect.skip.${s.reason}` })),
  };
}
