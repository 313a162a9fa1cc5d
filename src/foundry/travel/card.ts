/** The journey's chat card context (pure: tested and screenshotted without Foundry). */
import type { TravelOutcome, TravelPlan, TravelSaveKind } from "../../rules/travel.js";
import { formatDuration, formatKm, formatNumber, type Localize } from "../../apps/travel-context.js";
import type { TravelCardFlag } from "./journey.js";

/** One save as rolled through the adapter. */
export interface RolledSave {
  id: string;
  memberId: string;
  day: number;
  kind: TravelSaveKind;
  hour: number | null;
  dc: number;
  total: number;
  /** The d20's natural result, when the system reports it. */
  natural?: number | null;
  success: boolean;
}

/** One day's lost check (RULES.md §2.7, pmt): the referee's 1d100 against the chance in percent. */
export interface LostCheck {
  day: number;
  chance: number;
  roll: number;
  lost: boolean;
}

export interface CardEnv {
  localize: Localize;
  lang: string;
  trackFood: boolean;
  /** Per member (plan order): whether the system's exhaustion could be read and written. */
  exhaustionTracked: boolean[];
  /** The daily lost checks rolled on Apply (pmt); none when no chance was given. */
  lost?: readonly LostCheck[];
  /** The status line the card is posted with (its footer is rebuilt from the card's state when shown). */
  status?: string;
}

/** "Normal · Difficult terrain · On foot" (the speed instead of the pace for boats and special mounts). */
export function routeText(plan: TravelPlan, l: Localize, lang: string): string {
  return [
    plan.mode === "boat" || plan.mode === "custom" ? l("AVENTURE.Travel.Card.speed", { speed: formatNumber(plan.speedKmh ?? 0, lang) }) : l(`AVENTURE.Travel.Pace.${plan.pace}`),
    l(`AVENTURE.Travel.Terrain.${plan.terrain}`),
    l(`AVENTURE.Travel.Mode.${plan.mode}`),
  ].join(" · ");
}

/** The journey card's context. `timeAdvanced`: the seconds the journey moves the world time (0: not moved). */
export function travelCardContext(
  plan: TravelPlan,
  outcome: TravelOutcome,
  rolled: readonly RolledSave[],
  timeAdvanced: number,
  env: CardEnv,
) {
  const l = env.localize;
  return {
    distance: formatKm(plan.distance, env.lang),
    duration: formatDuration(plan.durationSeconds, l),
    dayCount: plan.days.length,
    route: routeText(plan, l, env.lang),
    time: timeAdvanced
      ? l("AVENTURE.Travel.Card.timeAdvanced", { duration: formatDuration(timeAdvanced, l) })
      : l("AVENTURE.Travel.Card.timeNotAdvanced"),
    status: env.status ?? "",
    trackFood: env.trackFood,
    lostChance: env.lost?.length ? l("AVENTURE.Travel.Card.lostTitle", { chance: formatNumber(env.lost[0]!.chance, env.lang) }) : "",
    lost: (env.lost ?? []).map((c) => ({
      text: l(c.lost ? "AVENTURE.Travel.Card.lost" : "AVENTURE.Travel.Card.notLost", { day: c.day, roll: c.roll }),
      lost: c.lost,
    })),
    members: outcome.members.map((m, i) => {
      const mine = rolled.filter((s) => s.memberId === m.id);
      const days = [...new Set(mine.map((s) => s.day))].map((day) => ({
        label: l("AVENTURE.Travel.Card.day", { day }),
        saves: mine
          .filter((s) => s.day === day)
          .map((s) => ({
            what: s.kind === "forcedMarch" ? l("AVENTURE.Travel.Card.hour", { hour: s.hour! }) : l("AVENTURE.Travel.Card.water"),
            text: l("AVENTURE.Travel.Card.save", { total: s.total, dc: s.dc }),
            natural: typeof s.natural === "number" ? l("AVENTURE.Travel.Card.natural", { n: s.natural }) : "",
            success: s.success,
          })),
      }));
      const notes: string[] = [];
      const tracked = env.exhaustionTracked[i] ?? true;
      if (!tracked && m.levelsGained > 0) notes.push(l("AVENTURE.Travel.Card.exhaustionByHand", { n: m.levelsGained }));
      if (env.trackFood && m.starving) notes.push(l("AVENTURE.Travel.Card.starving"));
      if (env.trackFood && m.dehydrated) notes.push(l("AVENTURE.Travel.Card.dehydrated"));
      if (m.dead) notes.push(l("AVENTURE.Travel.Card.dead"));
      const hunger = m.days.reduce((a, d) => a + d.hungerLevels, 0);
      const thirst = m.days.reduce((a, d) => a + d.thirstLevels, 0);
      return {
        name: m.name,
        days,
        saveCount: mine.length,
        failures: mine.filter((s) => !s.success).length,
        exhaustion: l("AVENTURE.Travel.Card.exhaustion", { before: m.exhaustionBefore, after: m.exhaustionAfter }),
        gained: m.levelsGained,
        gainedText: m.levelsGained ? l("AVENTURE.Travel.Card.gained", { n: m.levelsGained }) : "",
        causes: env.trackFood && (hunger || thirst) ? l("AVENTURE.Travel.Card.causes", { hunger, thirst }) : "",
        counters: env.trackFood
          ? l("AVENTURE.Travel.Card.counters", { fasting: formatNumber(m.fastingAfter, env.lang), thirst: m.thirstAfter })
          : "",
        notes,
      };
    }),
  };
}

/** What the card's footer shows for its state (rebuilt on every client when the card is shown). */
export interface JourneyFooter {
  /** The status ("Being applied…", "Undone: …", why it failed); empty once applied. */
  status: string;
  /** Notes: the player who asked for it, finished after a reload. */
  notes: string[];
  /** What was left alone (changed meanwhile) or skipped (a deleted actor). */
  warnings: string[];
  /** Whether the Undo button is offered (to GMs, on an applied journey). */
  undo: boolean;
}

/**
 * The footer of a journey card in the reader's language, from the card's checked state (readJourney). `userName`
 * turns the proposer's id into a name.
 */
export function journeyFooter(flag: TravelCardFlag, l: Localize, isGM: boolean, userName: (id: string) => string): JourneyFooter {
  const status =
    flag.status === "failed"
      ? flag.error
        ? l(flag.error.key, flag.error.data)
        : l("AVENTURE.Travel.Error.Failed", { error: "?" })
      : flag.status === "applied"
        ? ""
        : l(`AVENTURE.Travel.Card.status.${flag.status}`);
  const notes: string[] = [];
  if (flag.proposer) notes.push(l("AVENTURE.Travel.Card.askedBy", { name: userName(flag.proposer) }));
  if (flag.resumed) notes.push(l("AVENTURE.Operation.resumed"));
  const warnings = flag.problems.map((p) =>
    p.kind === "missing"
      ? l("AVENTURE.Travel.Card.missing", { name: p.name })
      : l("AVENTURE.Operation.drifted", { what: l(`AVENTURE.Travel.Step.${p.what}`, { name: p.name }) }),
  );
  return { status, notes, warnings, undo: isGM && flag.status === "applied" };
}
