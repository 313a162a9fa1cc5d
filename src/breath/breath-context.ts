/**
 * Template contexts of suffocation in play (docs/rules.md §4.2; pure: no Foundry globals, used by the glue, the tests
 * and
 * the screenshots): the token HUD badge, the combat tracker badges and the card of a creature that drops to 0 HP.
 */
import type { BreathPhase } from "../rules/suffocation.js";

export type Localize = (key: string, data?: Record<string, string | number>) => string;

/** U+00A0: a number and its unit stay on one line ("2 min 40 s"). */
const NBSP = "\u00a0";

/**
 * A duration of world time as people say it, the same in English and French (SI symbols): "2 min 40 s", "45 s",
 * "3 min" (rounded up to the second).
 */
export function durationText(seconds: number): string {
  const total = Number.isFinite(seconds) ? Math.max(0, Math.ceil(seconds)) : 0;
  const min = Math.floor(total / 60);
  const sec = total % 60;
  if (min === 0) return `${sec}${NBSP}s`;
  if (sec === 0) return `${min}${NBSP}min`;
  return `${min}${NBSP}min ${sec}${NBSP}s`;
}

/** "1 round" / "2 rounds", chosen by count. */
export function roundsText(rounds: number, localize: Localize): string {
  return localize(rounds === 1 ? "AVENTURE.Breath.round.one" : "AVENTURE.Breath.round.many", { count: rounds });
}

export interface BreathBadgeInput {
  phase: BreathPhase;
  secondsLeft: number;
  roundsLeft: number;
}

export interface BreathBadge {
  phase: BreathPhase;
  icon: string;
  label: string;
  detail: string;
  /** The badge's whole text, for a tooltip or a screen reader. */
  title: string;
}

const ICONS: Record<BreathPhase, string> = {
  holding: "fa-solid fa-lungs",
  outOfAir: "fa-solid fa-lungs-virus",
  down: "fa-solid fa-skull",
};

/** What a badge says for a creature that cannot breathe: holding (time left), out of air (rounds left), down. */
export function breathBadge(input: BreathBadgeInput, localize: Localize): BreathBadge {
  const label = localize(`AVENTURE.Breath.phase.${input.phase}`);
  const detail =
    input.phase === "holding"
      ? localize("AVENTURE.Breath.left", { time: durationText(input.secondsLeft) })
      : input.phase === "outOfAir"
        ? localize("AVENTURE.Breath.left", { time: roundsText(input.roundsLeft, localize) })
        : localize("AVENTURE.Breath.downShort");
  return { phase: input.phase, icon: ICONS[input.phase], label, detail, title: `${label} — ${detail}` };
}

export interface BreathHudInput extends BreathBadgeInput {
  holdSeconds: number;
  rounds: number;
}

/** The token HUD panel: the badge, then the whole timeline and the way out. */
export function breathHudContext(input: BreathHudInput, localize: Localize) {
  return {
    badge: breathBadge(input, localize),
    timeline: localize("AVENTURE.Breath.timeline", {
      time: durationText(input.holdSeconds),
      rounds: roundsText(input.rounds, localize),
    }),
    hint: localize(input.phase === "down" ? "AVENTURE.Breath.noStabilise" : "AVENTURE.Breath.hudHint"),
  };
}

/** The tracker: one badge per combatant that cannot breathe, each carrying the row it goes into (data-for). */
export function breathTrackerContext(rows: (BreathBadgeInput & { id: string })[], localize: Localize) {
  return { badges: rows.map((r) => ({ id: r.id, ...breathBadge(r, localize) })) };
}

export interface SuffocationCardInput {
  name: string;
  /** Hit points before the drop, when readable. */
  hpBefore: number | null;
  holdSeconds: number;
  rounds: number;
  /** "applying" while the writes run (or were interrupted), then "applied". */
  status: "applying" | "applied";
  /** An unconscious status was set. */
  unconscious: boolean;
  resumed?: boolean;
  /** What could not be done, already localized. */
  problems?: string[];
}

/** The card of a creature that ran out of air and dropped to 0 HP (docs/rules.md §4.2). */
export function suffocationCardContext(input: SuffocationCardInput, localize: Localize) {
  return {
    title: localize("AVENTURE.Breath.card.title"),
    summary: localize("AVENTURE.Breath.card.summary", {
      name: input.name,
      time: durationText(input.holdSeconds),
      rounds: roundsText(input.rounds, localize),
    }),
    drop: localize(input.hpBefore === null ? "AVENTURE.Breath.card.dropUnknown" : "AVENTURE.Breath.card.drop", {
      name: input.name,
      hp: input.hpBefore ?? 0,
    }),
    unconscious: input.unconscious ? localize("AVENTURE.Breath.card.unconscious", { name: input.name }) : null,
    rule: localize("AVENTURE.Breath.noStabilise"),
    way: localize("AVENTURE.Breath.card.way"),
    applying: input.status === "applying" ? localize("AVENTURE.Breath.card.applying") : null,
    resumed: input.resumed ? localize("AVENTURE.Operation.resumed") : null,
    problems: input.problems ?? [],
  };
}
