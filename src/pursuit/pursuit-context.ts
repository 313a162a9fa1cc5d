/**
 * The Pursuit dialog's and chase card's template contexts, and the chase's data shapes (pure: no Foundry
 * globals; localization is passed in). Every number shown comes from the rules engine.
 */
import {
  DUNGEON_RUN,
  EVASION_ADJUSTMENT,
  PURSUIT_CATCH_CHANCE,
  compareSpeeds,
  dungeonFlightDetail,
  encounterRules,
  evasionChance,
  pursuesDetail,
  type DungeonChaseEvent,
  type DungeonChaseState,
  type PursuitDayRecord,
  type PursuitState,
} from "../rules/index.js";
import type { RulesetId } from "../rules/rulesets.js";
import { PURSUIT_SIDES, otherSide, type PursuitSide } from "./groups.js";

export const PURSUIT_PLACES = ["dungeon", "outdoors"] as const;
export type PursuitPlace = (typeof PURSUIT_PLACES)[number];
export const SURPRISE_CHOICES = ["none", "fleeing", "pursuers", "both"] as const;
export type SurpriseChoice = (typeof SURPRISE_CHOICES)[number];

export interface GroupInput {
  /** Number of members (integer ≥ 1 to start). */
  count: number;
  /** The group's speed, metres per round (its slowest member). */
  speed: number;
  /** Tokens of the current scene in the group (may be fewer than `count`). */
  tokenIds: string[];
  /** Their names (for display; the GM re-reads them from the tokens). */
  names: string[];
}

/** What the dialog's form holds. */
export interface PursuitSetup {
  place: PursuitPlace;
  fleeingSide: PursuitSide;
  sceneId: string | null;
  groups: Record<PursuitSide, GroupInput>;
  surprise: SurpriseChoice;
  woods: boolean;
  woodsBonus: number;
  twiceFast: boolean;
  fastBonus: number;
  dropped: boolean;
  combatStarted: boolean;
  /** A reaction total already rolled (encounter), or null: pmt then rolls 2d6. */
  reactionTotal: number | null;
}

export function defaultSetup(): PursuitSetup {
  const group = (): GroupInput => ({ count: 1, speed: 9, tokenIds: [], names: [] });
  return {
    place: "dungeon",
    fleeingSide: "party",
    sceneId: null,
    groups: { party: group(), opponents: group() },
    surprise: "none",
    woods: false,
    woodsBonus: EVASION_ADJUSTMENT.default,
    twiceFast: false,
    fastBonus: EVASION_ADJUSTMENT.default,
    dropped: false,
    combatStarted: false,
    reactionTotal: null,
  };
}

/** The chase as stored on each of its chat cards (their system, chase-card.ts; older cards: flags.aventure.pursuit). */
export interface ChaseRecord {
  version: 1;
  id: string;
  /** 1 for the first card of the chase, +1 per card. */
  step: number;
  place: PursuitPlace;
  ruleset: RulesetId;
  fleeingSide: PursuitSide;
  sceneId: string | null;
  groups: Record<PursuitSide, GroupInput>;
  surprise: SurpriseChoice;
  startedBy: string;
  outdoors: PursuitState | null;
  dungeon: DungeonChaseState | null;
  /** True once the chase is decided. */
  over: boolean;
  /** Index in the chase log (days or events) where this card's entries start. */
  shownFrom: number;
  /** Names of the actors that received the running exhaustion effect on this card. */
  exhaustedActors: string[];
  /**
   * What this step writes besides its card (world time, running exhaustion), recorded on the card before the
   * first of those writes so the step is applied exactly once (src/pursuit/chase.ts). Absent on a step
   * with no such write (and on cards of earlier versions): nothing left to apply.
   */
  apply?: StepApply;
}

/** An actor to give the running exhaustion: its token (the actor is the token's, synthetic when unlinked). */
export interface ExhaustTarget {
  sceneId: string;
  tokenId: string;
  name: string;
}

/** The writes of a chase step after its card, with absolute values (docs/api/encounter.md, "Exactly once"). */
export interface StepApply {
  /** "applying" until every write is done (or reported), then "applied". */
  status: "applying" | "applied";
  /** An outdoor day: world time before and after (absolute seconds), or null. */
  time: { before: number; after: number } | null;
  /** The running exhaustion: who gets it and the effect's parameters (its start is absolute world time). */
  exhaust: {
    targets: ExhaustTarget[];
    penalty: number;
    restTurns: number | null;
    restSeconds: number | null;
    startTime: number;
  } | null;
  /** Finished by the active GM after an interruption (a reload, a GM who left). */
  resumed?: boolean;
  /** What could not be applied, as lang keys with their data. */
  problems?: { key: string; data: Record<string, string | number> }[];
  /** The GM (user and page load) that executes these writes, recorded with "applying" (operations.ts Executor). */
  executor?: { user: string; client: string; took: boolean } | null;
}

export type Localize = (key: string, data?: Record<string, string | number>) => string;

export interface Line {
  text: string;
  cls: string;
}

/** A signed modifier for display, with the typographic minus (−2, +1). */
export function signedText(n: number): string {
  return n < 0 ? `\u2212${-n}` : `+${n}`;
}

function speedText(l: Localize, speed: number): string {
  return l("AVENTURE.Pursuit.speedValue", { speed: Math.round(speed * 10) / 10 });
}

/**
 * The size of the pursuing group against the fleeing one, as the table's columns read it: the counts and the
 * pursuers as a whole percentage of the fleeing group (display only: the rules pick the column from the counts).
 */
function ratioData(fleeing: number, pursuers: number): { fleeing: number; pursuers: number; ratio: number } {
  return { fleeing, pursuers, ratio: Math.round((pursuers * 100) / fleeing) };
}

/** The referee adjustments a day was played with (percentage points), when known. */
interface DayAdjustments {
  woods: number;
  fast: number;
}

function dayLines(l: Localize, r: PursuitDayRecord, o: PursuitState, adjust: DayAdjustments | null): Line[] {
  const out: Line[] = [{ text: l("AVENTURE.Pursuit.log.day", { day: r.day }), cls: "step" }];
  if (r.reason === "pursuersSurprised") {
    out.push({ text: l("AVENTURE.Pursuit.log.pursuersSurprised"), cls: "good" });
    return out;
  }
  out.push({
    text: l("AVENTURE.Pursuit.log.chance", { chance: r.chance!, ...ratioData(o.fleeing, o.pursuers) }),
    cls: "",
  });
  // The chance includes the referee's adjustments: say which, so the table can check it.
  if (adjust?.woods) out.push({ text: l("AVENTURE.Pursuit.preview.woods", { bonus: adjust.woods }), cls: "" });
  if (adjust?.fast) out.push({ text: l("AVENTURE.Pursuit.preview.fast", { bonus: adjust.fast }), cls: "" });
  const escaped = r.outcome === "escaped";
  out.push({
    text: l(escaped ? "AVENTURE.Pursuit.log.evadeSuccess" : "AVENTURE.Pursuit.log.evadeFail", {
      roll: r.evasionRoll!,
      chance: r.chance!,
    }),
    cls: escaped ? "good" : "",
  });
  if (r.catchRoll !== null) {
    const caught = r.outcome === "caught";
    out.push({
      text: l(caught ? "AVENTURE.Pursuit.log.catchSuccess" : "AVENTURE.Pursuit.log.catchFail", {
        roll: r.catchRoll,
        chance: PURSUIT_CATCH_CHANCE,
      }),
      cls: caught ? "bad" : "",
    });
  } else if (!escaped && !o.pursuersFaster) out.push({ text: l("AVENTURE.Pursuit.log.notFaster"), cls: "" });
  return out;
}

function eventLines(l: Localize, e: DungeonChaseEvent, chase: DungeonChaseState, exhaustedActors: string[]): Line[] {
  const out: Line[] = [];
  const rules = encounterRules(chase.ruleset);
  if (e.kind === "start") {
    if (e.reactionTotal !== null) {
      const key =
        chase.pursues === null
          ? chase.suggested
            ? "reactionSuggests"
            : "reactionNoSuggestion"
          : chase.pursues
            ? "reactionPursue"
            : "reactionNoPursuit";
      out.push({ text: l(`AVENTURE.Pursuit.log.${key}`, { total: e.reactionTotal }), cls: "" });
    } else if (e.reason === "pursuit" || e.reason === "distracted" || e.reason === "notDistracted") {
      if (chase.pursues === null && rules === "ose")
        out.push({ text: l("AVENTURE.Pursuit.log.refereeDecides"), cls: "" });
    }
    if (e.dropRoll !== null)
      out.push({
        text: l(`AVENTURE.Pursuit.log.drop.${e.reason}`, { roll: e.dropRoll }),
        cls: e.reason === "distracted" ? "good" : "",
      });
    else
      out.push({
        text: l(`AVENTURE.Pursuit.log.start.${e.reason}`),
        cls: e.outcome === "escaped" ? "good" : e.outcome === "continues" ? "" : "bad",
      });
    if (e.outcome === "continues") {
      out.push({
        text: l(chase.pursuersCanCatch ? "AVENTURE.Pursuit.log.canCatch" : "AVENTURE.Pursuit.log.cannotCatch"),
        cls: "",
      });
    }
  } else if (e.kind === "round") {
    const limit = DUNGEON_RUN[rules].limitRounds;
    out.push({ text: l("AVENTURE.Pursuit.log.round", { round: e.round, limit, left: limit - e.round }), cls: "step" });
    if (e.reason === "exhausted") {
      const rule = DUNGEON_RUN[rules];
      out.push({
        text:
          rule.penalty === null
            ? l("AVENTURE.Pursuit.log.exhaustedNoPenalty")
            : l("AVENTURE.Pursuit.log.exhaustedPenalty", {
                penalty: signedText(rule.penalty),
                turns: rule.restTurns ?? 0,
              }),
        cls: "bad",
      });
      if (exhaustedActors.length)
        out.push({ text: l("AVENTURE.Pursuit.log.effectOn", { names: exhaustedActors.join(", ") }), cls: "" });
    }
  } else if (e.kind === "drop") {
    out.push({
      text: l(`AVENTURE.Pursuit.log.drop.${e.reason}`, { roll: e.dropRoll! }),
      cls: e.reason === "distracted" ? "good" : "",
    });
  } else {
    out.push({ text: l(`AVENTURE.Pursuit.log.end.${e.reason}`), cls: e.outcome === "caught" ? "bad" : "good" });
  }
  return out;
}

/**
 * The log lines of a chase from entry `from` on (days outdoors, events in the dungeon). `compact` merges
 * consecutive plain rounds of running into one line (the dialog's log). A card (not compact) shows the days
 * just played, with the adjustments now in the state; the dialog's whole log does not repeat them (earlier
 * days may have had others).
 */
export function chaseLines(
  l: Localize,
  record: ChaseRecord,
  from = 0,
  exhaustedActors: string[] = [],
  compact = false,
): Line[] {
  if (record.outdoors) {
    const o = record.outdoors;
    const adjust = compact ? null : { woods: o.fleeingBonus, fast: o.pursuerBonus };
    return o.log.slice(from).flatMap((r) => dayLines(l, r, o, adjust));
  }
  if (!record.dungeon) return [];
  const chase = record.dungeon;
  const events = chase.log.slice(from);
  if (!compact) return events.flatMap((e) => eventLines(l, e, chase, exhaustedActors));
  const out: Line[] = [];
  const limit = DUNGEON_RUN[encounterRules(chase.ruleset)].limitRounds;
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    if (e.kind === "round" && e.reason === "running") {
      let j = i;
      while (events[j + 1]?.kind === "round" && events[j + 1]!.reason === "running") j++;
      const last = events[j]!.round;
      out.push({
        text:
          j > i
            ? l("AVENTURE.Pursuit.log.rounds", { from: e.round, to: last, limit, left: limit - last })
            : l("AVENTURE.Pursuit.log.round", { round: e.round, limit, left: limit - e.round }),
        cls: "step",
      });
      i = j;
    } else out.push(...eventLines(l, e, chase, exhaustedActors));
  }
  return out;
}

function outcomeOf(record: ChaseRecord): string {
  return (record.outdoors ?? record.dungeon)!.outcome;
}

function groupSummary(l: Localize, record: ChaseRecord, side: PursuitSide) {
  const g = record.groups[side];
  const fleeing = side === record.fleeingSide;
  return {
    role: l(fleeing ? "AVENTURE.Pursuit.fleeing" : "AVENTURE.Pursuit.pursuers"),
    detail: l("AVENTURE.Pursuit.card.groupDetail", {
      count: g.count,
      speed: speedText(l, g.speed),
      names: g.names.length ? g.names.join(", ") : l(`AVENTURE.Pursuit.side.${side}`),
    }),
    cls: fleeing ? "fleeing" : "pursuing",
  };
}

export interface CardContext extends Record<string, unknown> {
  title: string;
  subtitle: string;
  groups: ReturnType<typeof groupSummary>[];
  lines: Line[];
  outcome: { text: string; cls: string } | null;
  /** The chase goes on (the card offers Continue). */
  open: boolean;
  /** Finished after an interruption (a reload): said on the card. */
  resumed: string | null;
  /** What could not be applied (a token gone, a value changed meanwhile). */
  problems: string[];
}

/** The chat card of one step of the chase: this step's entries, and the outcome once decided. */
export function pursuitCardContext(record: ChaseRecord, l: Localize): CardContext {
  const outcome = outcomeOf(record);
  const position = record.outdoors
    ? l("AVENTURE.Pursuit.dayN", { day: record.outdoors.day })
    : l("AVENTURE.Pursuit.roundN", {
        round: record.dungeon!.rounds,
        limit: DUNGEON_RUN[encounterRules(record.ruleset)].limitRounds,
      });
  return {
    title: l(record.place === "dungeon" ? "AVENTURE.Pursuit.card.dungeon" : "AVENTURE.Pursuit.card.outdoors"),
    subtitle: position,
    groups: [groupSummary(l, record, record.fleeingSide), groupSummary(l, record, otherSide(record.fleeingSide))],
    lines: chaseLines(l, record, record.shownFrom, record.exhaustedActors),
    outcome:
      outcome === "continues"
        ? null
        : { text: l(`AVENTURE.Pursuit.outcome.${outcome}`), cls: outcome === "escaped" ? "good" : "bad" },
    open: !record.over,
    resumed: record.apply?.resumed ? l("AVENTURE.Operation.resumed") : null,
    problems: (record.apply?.problems ?? []).map((p) => l(p.key, p.data)),
  };
}

/**
 * The lines of a player's flight sent to the GMs for a decision (a proposal card): where, who flees and who
 * pursues (the names the GM read from the tokens), and why a GM must decide. Plain text (the card escapes it).
 */
export function proposalLines(setup: PursuitSetup, reasons: readonly ("pursuers" | "time")[], l: Localize): string[] {
  const line = (side: PursuitSide) => {
    const g = setup.groups[side];
    const role = l(side === setup.fleeingSide ? "AVENTURE.Pursuit.fleeing" : "AVENTURE.Pursuit.pursuers");
    return `${role} ${l("AVENTURE.Pursuit.card.groupDetail", { count: g.count, speed: speedText(l, g.speed), names: g.names.length ? g.names.join(", ") : l(`AVENTURE.Pursuit.side.${side}`) })}`;
  };
  return [
    l(setup.place === "dungeon" ? "AVENTURE.Pursuit.card.dungeon" : "AVENTURE.Pursuit.card.outdoors"),
    line(setup.fleeingSide),
    line(otherSide(setup.fleeingSide)),
    ...reasons.map((r) => l(`AVENTURE.Pursuit.proposal.${r}`)),
  ];
}

// ------------------------------------------------------------------------------------------- dialog

export interface DialogEnv {
  ruleset: RulesetId;
  isGM: boolean;
  localize: Localize;
  /** The localized text of an error thrown by the rules (a preview that cannot be computed). */
  errorText: (e: unknown) => string;
  /** An unfinished chase found in the chat log, offered for resuming. */
  resumable: boolean;
  busy: boolean;
}

/** A number for an input field ("" while it does not parse). */
function shown(n: number): number | "" {
  return Number.isFinite(n) ? n : "";
}

function option(value: string, label: string, selected: string) {
  return { value, label, selected: value === selected };
}

/** What the setup would give, computed by the rules (or the error it raises). */
function preview(setup: PursuitSetup, env: DialogEnv): { lines: Line[]; error: string | null } {
  const l = env.localize;
  const f = setup.groups[setup.fleeingSide];
  const p = setup.groups[otherSide(setup.fleeingSide)];
  const lines: Line[] = [];
  try {
    if (setup.surprise === "pursuers")
      return { lines: [{ text: l("AVENTURE.Pursuit.log.pursuersSurprised"), cls: "good" }], error: null };
    if (setup.surprise === "fleeing") lines.push({ text: l("AVENTURE.Pursuit.preview.fleeingSurprised"), cls: "" });
    const speeds = compareSpeeds(f.speed, p.speed);
    if (setup.place === "outdoors") {
      const e = evasionChance({
        fleeing: f.count,
        pursuers: p.count,
        fleeingBonus: setup.woods ? setup.woodsBonus : 0,
        pursuerBonus: setup.twiceFast ? setup.fastBonus : 0,
      });
      lines.push({ text: l("AVENTURE.Pursuit.preview.chance", { chance: e.chance }), cls: "chance" });
      lines.push({ text: l("AVENTURE.Pursuit.preview.base", { base: e.base, fleeing: f.count }), cls: "" });
      lines.push({
        text: l("AVENTURE.Pursuit.preview.band", { ...ratioData(f.count, p.count), modifier: e.bandModifier }),
        cls: "",
      });
      if (setup.woods) lines.push({ text: l("AVENTURE.Pursuit.preview.woods", { bonus: setup.woodsBonus }), cls: "" });
      if (setup.twiceFast)
        lines.push({ text: l("AVENTURE.Pursuit.preview.fast", { bonus: setup.fastBonus }), cls: "" });
      if (e.raw !== e.chance) lines.push({ text: l("AVENTURE.Pursuit.preview.limited", { raw: e.raw }), cls: "" });
      lines.push({
        text: l(speeds.pursuersFaster ? "AVENTURE.Pursuit.preview.faster" : "AVENTURE.Pursuit.preview.notFaster", {
          chance: PURSUIT_CATCH_CHANCE,
        }),
        cls: "",
      });
    } else {
      const d = dungeonFlightDetail({
        fleeingSpeed: f.speed,
        pursuerSpeed: p.speed,
        combatStarted: setup.combatStarted,
      });
      const key = d.outcome === "impossible" ? "combatStarted" : d.outcome === "escapes" ? "faster" : "pursuit";
      lines.push({
        text: l(`AVENTURE.Pursuit.log.start.${key}`),
        cls: key === "faster" ? "good" : key === "combatStarted" ? "bad" : "",
      });
      if (d.outcome === "pursuit") {
        lines.push({
          text: l(d.pursuersCanCatch ? "AVENTURE.Pursuit.log.canCatch" : "AVENTURE.Pursuit.log.cannotCatch"),
          cls: "",
        });
        const rules = encounterRules(env.ruleset);
        if (setup.fleeingSide === "party") {
          if (setup.reactionTotal !== null) {
            const pd = pursuesDetail(env.ruleset, setup.reactionTotal);
            const k =
              pd.pursues === null
                ? pd.suggested
                  ? "reactionSuggests"
                  : "reactionNoSuggestion"
                : pd.pursues
                  ? "reactionPursue"
                  : "reactionNoPursuit";
            lines.push({ text: l(`AVENTURE.Pursuit.log.${k}`, { total: setup.reactionTotal }), cls: "" });
          } else
            lines.push({
              text: l(
                rules === "pmt" ? "AVENTURE.Pursuit.preview.reactionRolled" : "AVENTURE.Pursuit.log.refereeDecides",
              ),
              cls: "",
            });
        }
        const rule = DUNGEON_RUN[rules];
        lines.push({
          text:
            rule.penalty === null
              ? l("AVENTURE.Pursuit.preview.runLimitNoPenalty", { limit: rule.limitRounds })
              : l("AVENTURE.Pursuit.preview.runLimit", {
                  limit: rule.limitRounds,
                  penalty: signedText(rule.penalty),
                  turns: rule.restTurns ?? 0,
                }),
          cls: "",
        });
      }
    }
    if (setup.surprise === "both") lines.push({ text: l("AVENTURE.Pursuit.preview.bothSurprised"), cls: "" });
    return { lines, error: null };
  } catch (e) {
    return { lines, error: env.errorText(e) };
  }
}

/** The dialog's template context. */
export function pursuitDialogContext(
  setup: PursuitSetup,
  record: ChaseRecord | null,
  env: DialogEnv,
): Record<string, unknown> {
  const l = env.localize;
  const started = record !== null;
  const over = record?.over ?? false;
  const outcome = record ? outcomeOf(record) : null;
  const dungeon = record?.dungeon ?? null;
  const twice = (() => {
    try {
      return compareSpeeds(setup.groups[setup.fleeingSide].speed, setup.groups[otherSide(setup.fleeingSide)].speed)
        .twiceAsFast;
    } catch {
      return false;
    }
  })();
  const pv = preview(setup, env);
  const continuing = started && !over;
  return {
    started,
    over,
    editable: !started,
    busy: env.busy,
    place: setup.place,
    isDungeon: setup.place === "dungeon",
    isOutdoors: setup.place === "outdoors",
    places: PURSUIT_PLACES.map((p) => option(p, l(`AVENTURE.Pursuit.place.${p}`), setup.place)),
    sides: PURSUIT_SIDES.map((s) => option(s, l(`AVENTURE.Pursuit.flees.${s}`), setup.fleeingSide)),
    surprises: SURPRISE_CHOICES.map((s) => option(s, l(`AVENTURE.Pursuit.surprise.${s}`), setup.surprise)),
    groups: PURSUIT_SIDES.map((side) => {
      const g = setup.groups[side];
      const fleeing = side === setup.fleeingSide;
      return {
        side,
        title: l(`AVENTURE.Pursuit.side.${side}`),
        role: l(fleeing ? "AVENTURE.Pursuit.fleeing" : "AVENTURE.Pursuit.pursuers"),
        cls: fleeing ? "fleeing" : "pursuing",
        names: g.names.length ? g.names.join(", ") : l("AVENTURE.Pursuit.noTokens"),
        count: shown(g.count),
        speed: shown(g.speed),
      };
    }),
    surprise: setup.surprise,
    woods: setup.woods,
    woodsBonus: shown(setup.woodsBonus),
    twiceFast: setup.twiceFast,
    fastBonus: shown(setup.fastBonus),
    twiceSuggested: twice && !setup.twiceFast,
    adjustment: EVASION_ADJUSTMENT,
    dropped: setup.dropped,
    combatStarted: setup.combatStarted,
    reactionTotal: setup.reactionTotal === null ? "" : shown(setup.reactionTotal),
    // A reaction already rolled is the GM's to enter; a player's flight rolls it on the GM's side.
    reactionShown: setup.fleeingSide === "party" && env.isGM,
    rulesetLabel: l(`AVENTURE.Ruleset.${env.ruleset}`),
    preview: pv.lines,
    previewError: pv.error,
    chase: record
      ? {
          title: l(record.place === "dungeon" ? "AVENTURE.Pursuit.card.dungeon" : "AVENTURE.Pursuit.card.outdoors"),
          position: record.outdoors
            ? l("AVENTURE.Pursuit.dayN", { day: record.outdoors.day })
            : l("AVENTURE.Pursuit.roundN", {
                round: dungeon!.rounds,
                limit: DUNGEON_RUN[encounterRules(record.ruleset)].limitRounds,
              }),
          lines: chaseLines(l, record, 0, [], true),
          outcome:
            outcome === "continues"
              ? null
              : { text: l(`AVENTURE.Pursuit.outcome.${outcome}`), cls: outcome === "escaped" ? "good" : "bad" },
        }
      : null,
    actions: {
      start: !started,
      resume: !started && env.resumable,
      nextDay: continuing && record!.place === "outdoors",
      nextRound: continuing && !!dungeon && !dungeon.exhausted,
      drop: continuing && !!dungeon,
      // Ending the chase is the referee's decision (the GM refuses it from a player).
      outOfSight: continuing && !!dungeon && env.isGM,
      gaveUp: continuing && !!dungeon && env.isGM,
      caught: continuing && !!dungeon?.pursuersCanCatch && env.isGM,
      reset: started,
    },
  };
}

function parseNumber(value: string | boolean): number {
  if (typeof value === "boolean") return Number.NaN;
  const s = value.trim().replace(",", ".");
  return s === "" ? Number.NaN : Number(s);
}

/**
 * One form field changed (name as in the template, value as the input gives it): returns the new setup.
 * Unknown names are ignored; numbers that do not parse are kept as NaN so the preview shows the error
 * and Start refuses them.
 */
export function applySetupChange(setup: PursuitSetup, name: string, value: string | boolean): PursuitSetup {
  const next = structuredClone(setup);
  const str = typeof value === "string" ? value : String(value);
  const flag = value === true || value === "true" || value === "on";
  const group = /^groups\.(party|opponents)\.(count|speed)$/.exec(name);
  if (group) {
    next.groups[group[1] as PursuitSide][group[2] as "count" | "speed"] = parseNumber(value);
    return next;
  }
  switch (name) {
    case "place":
      if ((PURSUIT_PLACES as readonly string[]).includes(str)) next.place = str as PursuitPlace;
      break;
    case "fleeingSide":
      if ((PURSUIT_SIDES as readonly string[]).includes(str)) next.fleeingSide = str as PursuitSide;
      break;
    case "surprise":
      if ((SURPRISE_CHOICES as readonly string[]).includes(str)) next.surprise = str as SurpriseChoice;
      break;
    case "woods":
    case "twiceFast":
    case "dropped":
    case "combatStarted":
      next[name] = flag;
      break;
    case "woodsBonus":
    case "fastBonus":
      next[name] = parseNumber(value);
      break;
    case "reactionTotal":
      next.reactionTotal = str.trim() === "" ? null : parseNumber(value);
      break;
  }
  return next;
}
