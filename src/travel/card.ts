/** The journey's chat card context (pure: tested and screenshotted without Foundry). */
import { TRAVEL_SAVE_KINDS, type TravelOutcome, type TravelPlan, type TravelSaveKind } from "../rules/travel.js";
import { arrivalText, formatDuration, formatKm, formatNumber, plural, type Localize } from "./format.js";
import type { MeasuredLeg } from "./route/measure.js";
import type { LostCheck, SurvivalResult, TravelCardFlag } from "./journey.js";

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

export type { LostCheck, SurvivalResult } from "./journey.js";

/** A journey along a route, for the card: the legs walked, where the party stopped, the route's length. */
export interface CardRoute {
  legs: readonly MeasuredLeg[];
  reached: number;
  total: number;
  stopped: boolean;
}

export interface CardEnv {
  localize: Localize;
  lang: string;
  trackFood: boolean;
  /** Per member (plan order): whether the system's exhaustion could be read and written. */
  exhaustionTracked: boolean[];
  /** The daily lost checks rolled on Apply (pmt); none when no chance was given. */
  lost?: readonly LostCheck[];
  /** The Wisdom (Survival) checks rolled on Apply. */
  survival?: readonly SurvivalResult[];
  /** The journey's route, when it followed one. */
  route?: CardRoute | null;
  /** The world time when the journey set off (for the arrival's hour); null: not shown. */
  departure?: number | null;
  /** The status line the card is posted with (its footer is rebuilt from the card's state when shown). */
  status?: string;
}

/** "Normal pace · Difficult terrain · On foot" (the speed instead of the pace for boats and special mounts). */
export function routeText(plan: TravelPlan, l: Localize, lang: string): string {
  return [
    plan.mode === "boat" || plan.mode === "custom"
      ? l("AVENTURE.Travel.Card.speed", { speed: formatNumber(plan.speedKmh ?? 0, lang) })
      : l(`AVENTURE.Travel.Pace.${plan.pace}`),
    l(`AVENTURE.Travel.Terrain.${plan.terrain}`),
    l(`AVENTURE.Travel.Mode.${plan.mode}`),
  ].join(" · ");
}

/** "9 km · difficult terrain · Forêt de Brocéliande": one leg of a route. */
export function legText(leg: Pick<MeasuredLeg, "metres" | "terrain" | "regions">, l: Localize, lang: string): string {
  return [
    formatKm(leg.metres, lang),
    l(`AVENTURE.Travel.Leg.${leg.terrain}`),
    ...(leg.regions.length ? [leg.regions.join(", ")] : []),
  ].join(" · ");
}

/** The save in words: "Constitution save DC 11 (hour 9)" / "JS de Constitution DD 11 (9e heure)". */
export function saveText(s: Pick<RolledSave, "kind" | "hour" | "dc">, l: Localize): string {
  return s.kind === "forcedMarch"
    ? l("AVENTURE.Travel.Card.saveForcedMarch", { dc: s.dc, hour: s.hour ?? 0 })
    : l("AVENTURE.Travel.Card.saveWater", { dc: s.dc });
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
  const lang = env.lang;
  const survival = env.survival ?? [];
  const lost = env.lost ?? [];
  const route = env.route ?? null;
  const nameOf = (id: string) => plan.members.find((m) => m.id === id)?.name ?? id;
  const mark = (success: boolean) => l(success ? "AVENTURE.Travel.Card.success" : "AVENTURE.Travel.Card.failure");
  const checkText = (c: SurvivalResult) =>
    l("AVENTURE.Travel.Card.survivalCheck", {
      what: l(`AVENTURE.Travel.Activity.${c.activity}`),
      dc: c.dc,
      total: c.total,
    });
  // Two different rules, reported apart: pmt's daily 1d100 (the group is lost or not, docs/rules.md §2.7) and the
  // navigators' Wisdom (Survival) checks (a failure lets the GM decide, docs/rules.md §2.6). Only what went wrong
  // is shown unfolded; every roll is in the folded details.
  const lostLines = lost.map((c) => ({
    day: l("AVENTURE.Travel.Card.day", { day: c.day }),
    text: l(c.lost ? "AVENTURE.Travel.Card.lost" : "AVENTURE.Travel.Card.notLost", { roll: c.roll }),
    bad: c.lost,
  }));
  const navigation = survival.filter((c) => c.activity === "navigate").sort((a, b) => a.day - b.day);
  const navigationLines = navigation.map((c) => ({
    day: l("AVENTURE.Travel.Card.day", { day: c.day }),
    text: l(c.success ? "AVENTURE.Travel.Card.navigated" : "AVENTURE.Travel.Card.navigationFailed", {
      name: nameOf(c.memberId),
      total: c.total,
      dc: c.dc,
    }),
    bad: !c.success,
  }));
  const alerts = [
    ...lost.filter((c) => c.lost).map((c) => l("AVENTURE.Travel.Card.lostAlert", { day: c.day, roll: c.roll })),
    ...navigation
      .filter((c) => !c.success)
      .map((c) => l("AVENTURE.Travel.Card.navigationAlert", { day: c.day, name: nameOf(c.memberId) })),
  ];
  return {
    headline: [
      formatKm(plan.distance, lang),
      plural(l, lang, "AVENTURE.Travel.Summary.dayCount", plan.days.length),
    ].join(" · "),
    arrival: env.departure === null || env.departure === undefined ? "" : arrivalText(env.departure, plan, l),
    route: routeText(plan, l, lang),
    time: timeAdvanced
      ? l("AVENTURE.Travel.Card.timeAdvanced", { duration: formatDuration(timeAdvanced, l) })
      : l("AVENTURE.Travel.Card.timeNotAdvanced"),
    legs: route
      ? route.legs.map((leg) => ({ text: legText(leg, l, lang), difficult: leg.terrain === "difficult" }))
      : [],
    stopped: route?.stopped
      ? l("AVENTURE.Travel.Card.stopped", {
          days: plan.days.length,
          reached: formatKm(route.reached, lang),
          total: formatKm(route.total, lang),
          left: formatKm(route.total - route.reached, lang),
        })
      : "",
    status: env.status ?? "",
    alerts,
    lostTitle: lost.length ? l("AVENTURE.Travel.Card.lostTitle", { chance: formatNumber(lost[0]!.chance, lang) }) : "",
    lostLines,
    navigationTitle: navigationLines.length ? l("AVENTURE.Travel.Card.navigationTitle") : "",
    navigationLines,
    members: outcome.members
      .map((m, i) => {
        const mine = rolled.filter((s) => s.memberId === m.id);
        const checks = survival.filter((c) => c.memberId === m.id);
        const failures = mine.filter((s) => !s.success).length;
        const tracked = env.exhaustionTracked[i] ?? true;
        // The levels actually added by each cause (capped at 6: they add up to levelsGained).
        const hunger = m.days.reduce((a, d) => a + d.applied.hunger, 0);
        const thirst = m.days.reduce((a, d) => a + d.applied.thirst, 0);
        const forced = m.days.reduce((a, d) => a + d.applied.forcedMarch, 0);
        // The summary line: exhaustion (marked when it grew), then saves and checks; each fact once.
        const exhaustion = m.levelsGained
          ? l("AVENTURE.Travel.Card.exhaustionGained", {
              before: m.exhaustionBefore,
              after: m.exhaustionAfter,
              n: m.levelsGained,
            })
          : l("AVENTURE.Travel.Card.exhaustionSame", { level: m.exhaustionAfter });
        const parts: string[] = [];
        if (mine.length) {
          parts.push(
            failures
              ? plural(l, lang, "AVENTURE.Travel.Card.savesFailed", mine.length, { failed: failures })
              : plural(l, lang, "AVENTURE.Travel.Card.savesPassed", mine.length),
          );
        }
        if (checks.length) {
          const ok = checks.filter((c) => c.success).length;
          parts.push(
            l("AVENTURE.Travel.Card.checks", {
              what: l(`AVENTURE.Travel.Activity.${checks[0]!.activity}`),
              ok,
              n: checks.length,
            }),
          );
        }
        // Plain words for each state the journey leaves.
        const notes: string[] = [];
        const why: string[] = [];
        if (m.levelsGained) {
          if (forced) why.push(l("AVENTURE.Travel.Card.fromForcedMarch", { n: forced }));
          if (env.trackFood && hunger) why.push(l("AVENTURE.Travel.Card.fromHunger", { n: hunger }));
          if (env.trackFood && thirst) why.push(l("AVENTURE.Travel.Card.fromThirst", { n: thirst }));
        }
        // What the GM must act on stays visible (`urgent`); the rest is folded with the rolls.
        const urgent: string[] = [];
        if (!tracked && m.levelsGained > 0)
          urgent.push(plural(l, lang, "AVENTURE.Travel.Card.exhaustionByHand", m.levelsGained));
        if (m.dead) urgent.push(l("AVENTURE.Travel.Card.dead"));
        if (env.trackFood && m.starving) notes.push(l("AVENTURE.Travel.Card.starving"));
        if (env.trackFood && m.dehydrated) notes.push(l("AVENTURE.Travel.Card.dehydrated"));
        const detailDays = [...new Set([...mine.map((s) => s.day), ...checks.map((c) => c.day)])].sort((a, b) => a - b);
        return {
          name: m.name,
          exhaustion,
          summary: parts.join(" · "),
          bad: m.levelsGained > 0 || m.dead,
          why: why.length ? l("AVENTURE.Travel.Card.why", { list: why.join(", ") }) : "",
          details: detailDays.map((day) => ({
            label: l("AVENTURE.Travel.Card.day", { day }),
            items: [
              ...mine
                .filter((s) => s.day === day)
                .sort(
                  (a, b) =>
                    TRAVEL_SAVE_KINDS.indexOf(a.kind) - TRAVEL_SAVE_KINDS.indexOf(b.kind) ||
                    (a.hour ?? 0) - (b.hour ?? 0),
                )
                .map((s) => ({
                  text: l("AVENTURE.Travel.Card.rolled", { what: saveText(s, l), total: s.total }),
                  natural: typeof s.natural === "number" ? l("AVENTURE.Travel.Card.natural", { n: s.natural }) : "",
                  success: s.success,
                  mark: mark(s.success),
                })),
              ...checks
                .filter((c) => c.day === day)
                .map((c) => ({
                  text: checkText(c),
                  natural: typeof c.natural === "number" ? l("AVENTURE.Travel.Card.natural", { n: c.natural }) : "",
                  success: c.success,
                  mark: mark(c.success),
                })),
            ],
          })),
          counters:
            env.trackFood && (m.fastingAfter > 0 || m.thirstAfter > 0)
              ? l("AVENTURE.Travel.Card.counters", {
                  fasting: formatNumber(m.fastingAfter, lang),
                  thirst: m.thirstAfter,
                })
              : "",
          notes,
          urgent,
        };
      })
      .map((m) => ({ ...m, folded: !!(m.summary || m.why || m.details.length || m.counters || m.notes.length) })),
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
  /** Whether "Continue the journey" is offered (an applied journey that stopped before the end of its route). */
  continues: boolean;
}

/**
 * The footer of a journey card in the reader's language, from the card's checked state (readJourney). `userName`
 * turns the proposer's id into a name.
 */
export function journeyFooter(
  flag: TravelCardFlag,
  l: Localize,
  isGM: boolean,
  userName: (id: string) => string,
): JourneyFooter {
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
      ? l(p.what === "token" ? "AVENTURE.Travel.Card.tokenMissing" : "AVENTURE.Travel.Card.missing", { name: p.name })
      : l("AVENTURE.Operation.drifted", { what: l(`AVENTURE.Travel.Step.${p.what}`, { name: p.name }) }),
  );
  return {
    status,
    notes,
    warnings,
    undo: isGM && flag.status === "applied",
    continues: flag.status === "applied" && flag.next !== null,
  };
}
