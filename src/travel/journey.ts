/**
 * The journey card's state (flags.aventure.travel) and the steps that bring the world to it (operations.ts).
 *
 * The card is written by the active GM BEFORE anything else, marked "applying", with the whole journal in ABSOLUTE
 * values: per actor the exhaustion and the fasting and thirst counters before and after the journey, and the world
 * time before and after. Each step reads its state back from the world (the actor, the world time): done when the
 * value is already the target, pending when it is still the value it starts from, drifted when it is neither
 * (someone changed it meanwhile: left alone and reported), missing when the actor is gone (skipped and reported).
 * Running the steps again after a reload therefore writes only what is missing, never twice.
 *
 * Undo records its own target for the world time when it starts (`undoTime`: the time then, and that time minus what
 * the journey really added, `timeAdded`, recorded when it was marked applied: nothing when its time step was left
 * alone), so a retry or a reload rewinds the clock to that recorded value, never twice.
 *
 * The state is read only from a card a GM wrote (gmCardFlag) and checked field by field (readJourney).
 */
import { MODULE_ID } from "../core/constants.js";
import { gmCardFlag } from "../core/cards.js";
import type { ActorAdapter, ActorLike } from "../actors/api.js";
import {
  readExecutor,
  runSteps,
  valueState,
  type Executor,
  type Step,
  type StepGuard,
  type StepReport,
  type StepState,
} from "../core/operations.js";
import type { LostCheck, SurvivalResult } from "./card.js";
import { MAX_ROUTE_TOKENS, MAX_TRAVEL_MEMBERS, parseRequest, type TravelRequest } from "./request.js";
import { DOCUMENT_ID } from "../core/values.js";

export type JourneyStatus = "applying" | "applied" | "undoing" | "undone" | "failed";
export const JOURNEY_STATUSES: readonly JourneyStatus[] = ["applying", "applied", "undoing", "undone", "failed"];

/** A value before and after the journey (absolute). A counter that did not exist before is `null`. */
export interface Change<B extends number | null = number | null> {
  before: B;
  after: number;
}

/** What the journey changes on one actor. null: not changed by the journey (not tracked, or nothing gained). */
export interface TravelJournalActor {
  actorId: string;
  name: string;
  exhaustion: Change<number> | null;
  fasting: Change | null;
  thirst: Change | null;
}

/** A token moved by a journey along a route: where it stood before and where the journey leaves it (top-left, px). */
export interface TravelJournalToken {
  sceneId: string;
  tokenId: string;
  name: string;
  before: { x: number; y: number };
  after: { x: number; y: number };
  /**
   * A journey walked a day at a time (Old-School Essentials, docs/rules.md §12): where the token stands at the end of
   * each day but the last, in day order (the last day ends at `after`). Absent: one move straight to `after`.
   */
  stops?: { x: number; y: number }[];
}

export interface TravelJournal {
  actors: TravelJournalActor[];
  /** World time before and after the journey (seconds, absolute); null when the journey does not move it. */
  time: { before: number; after: number } | null;
  /** The party's tokens moved along the route, in marching order (none for a journey without a route). */
  tokens: TravelJournalToken[];
  /**
   * A journey applied a day at a time: its number of days (each day the tokens move to where it ends, then world time
   * moves one day's share). Absent or 1: one step for the whole journey.
   */
  days?: number;
}

/** What a step reports: a value "drifted" (changed meanwhile, left alone) or an actor or token "missing" (deleted). */
export type JourneyWhat = "exhaustion" | "fasting" | "thirst" | "time" | "actor" | "token";
export interface JourneyProblem {
  kind: "drifted" | "missing";
  what: JourneyWhat;
  /** The actor's name (empty for the world time). */
  name: string;
  /** While applying the journey or while undoing it. */
  phase: "apply" | "undo";
}

/** The card's flag: flags.aventure.travel (version 2). */
export interface TravelCardFlag {
  v: 2;
  status: JourneyStatus;
  journal: TravelJournal;
  /** Recorded when Undo starts: the world time then (`from`) and the time Undo brings it back to (`to`). */
  undoTime: { from: number; to: number } | null;
  /**
   * Recorded when the journey is marked applied: the seconds it really added to world time (0 when its time step was
   * left alone because the clock moved meanwhile); Undo takes back only that. null: not applied yet, or a card from
   * before this record (Undo then reads the card's problems).
   */
  timeAdded: number | null;
  /** The daily lost checks rolled (pmt), in day order; empty when no chance was given. */
  lost: LostCheck[];
  /** The Wisdom (Survival) checks rolled (navigate, track, forage), in day order. */
  survival: SurvivalResult[];
  /** The rest of the route when the journey stopped before its end ("Continue the journey"), or null. */
  next: TravelRequest | null;
  problems: JourneyProblem[];
  /** Finished by the active GM after a reload or a GM leaving (the card says so). */
  resumed: boolean;
  /** Why it failed (status "failed"): a lang key and its data; `rolledBack` says whether everything was put back. */
  error: { key: string; data: Record<string, string | number> } | null;
  rolledBack: boolean;
  /** The player whose journey it was (a proposal, or a player applying their own characters), or null. */
  proposer: string | null;
  /** The GM (user and page load) that applies or undoes it, recorded with "applying" / "undoing" (operations.ts). */
  executor?: Executor | null;
}

const WHATS: readonly JourneyWhat[] = ["exhaustion", "fasting", "thirst", "time", "actor", "token"];
/** Coordinates a card may hold (pixels): far beyond any scene. */
const MAX_COORDINATE = 1e7;
/** The largest world time a card may hold (seconds): far beyond any calendar, but a finite number. */
const MAX_TIME = 1e15;

const isNum = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
/** The most days a journal walked a day at a time may hold (an OSE Apply walks at most 100). */
const MAX_JOURNAL_DAYS = 1000;

function exhaustionChange(v: unknown): Change<number> | null | undefined {
  if (v === null || v === undefined) return null;
  const c = v as Record<string, unknown>;
  const level = (x: unknown) => isNum(x) && Number.isInteger(x) && x >= 0 && x <= 6;
  return typeof v === "object" && level(c.before) && level(c.after)
    ? { before: c.before as number, after: c.after as number }
    : undefined;
}

function counterChange(v: unknown): Change | null | undefined {
  if (v === null || v === undefined) return null;
  const c = v as Record<string, unknown>;
  const value = (x: unknown) => isNum(x) && x >= 0 && x <= 1e6;
  if (typeof v !== "object" || !value(c.after) || !(c.before === null || value(c.before))) return undefined;
  return { before: c.before as number | null, after: c.after as number };
}

function timePair<A extends string, B extends string>(
  v: unknown,
  a: A,
  b: B,
): Record<A | B, number> | null | undefined {
  if (v === null || v === undefined) return null;
  const t = v as Record<string, unknown>;
  const ok = (x: unknown) => isNum(x) && Math.abs(x) <= MAX_TIME;
  return typeof v === "object" && ok(t[a]) && ok(t[b])
    ? ({ [a]: t[a], [b]: t[b] } as Record<A | B, number>)
    : undefined;
}

function journalActor(v: unknown): TravelJournalActor | null {
  if (!v || typeof v !== "object") return null;
  const a = v as Record<string, unknown>;
  if (
    typeof a.actorId !== "string" ||
    !DOCUMENT_ID.test(a.actorId) ||
    typeof a.name !== "string" ||
    a.name.length > 200
  )
    return null;
  const exhaustion = exhaustionChange(a.exhaustion);
  const fasting = counterChange(a.fasting);
  const thirst = counterChange(a.thirst);
  if (exhaustion === undefined || fasting === undefined || thirst === undefined) return null;
  return { actorId: a.actorId, name: a.name, exhaustion, fasting, thirst };
}

function lostChecks(v: unknown): LostCheck[] | null {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.length > 1000) return null;
  const out: LostCheck[] = [];
  for (const x of v) {
    const c = x as Record<string, unknown>;
    if (!c || !isNum(c.day) || !isNum(c.chance) || !isNum(c.roll) || typeof c.lost !== "boolean") return null;
    out.push({ day: c.day, chance: c.chance, roll: c.roll, lost: c.lost });
  }
  return out;
}

function position(v: unknown): { x: number; y: number } | null {
  const p = v as Record<string, unknown> | null;
  const ok = (x: unknown): x is number => isNum(x) && Math.abs(x) <= MAX_COORDINATE;
  return p && typeof p === "object" && ok(p.x) && ok(p.y) ? { x: p.x, y: p.y } : null;
}

function journalTokens(v: unknown): TravelJournalToken[] | null {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.length > MAX_ROUTE_TOKENS) return null;
  const out: TravelJournalToken[] = [];
  for (const x of v) {
    const t = x as Record<string, unknown> | null;
    if (
      !t ||
      typeof t.sceneId !== "string" ||
      !DOCUMENT_ID.test(t.sceneId) ||
      typeof t.tokenId !== "string" ||
      !DOCUMENT_ID.test(t.tokenId)
    )
      return null;
    if (typeof t.name !== "string" || t.name.length > 200) return null;
    const before = position(t.before);
    const after = position(t.after);
    if (!before || !after) return null;
    let stops: { x: number; y: number }[] | undefined;
    if (t.stops !== undefined) {
      if (!Array.isArray(t.stops) || t.stops.length >= MAX_JOURNAL_DAYS) return null;
      const read = t.stops.map(position);
      if (read.some((p) => p === null)) return null;
      stops = read as { x: number; y: number }[];
    }
    out.push({ sceneId: t.sceneId, tokenId: t.tokenId, name: t.name, before, after, ...(stops ? { stops } : {}) });
  }
  return out;
}

const ACTIVITIES = ["navigate", "track", "forage"] as const;

function survivalResults(v: unknown): SurvivalResult[] | null {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.length > 1000) return null;
  const out: SurvivalResult[] = [];
  for (const x of v) {
    const c = x as Record<string, unknown> | null;
    if (
      !c ||
      typeof c.memberId !== "string" ||
      !DOCUMENT_ID.test(c.memberId) ||
      !isNum(c.day) ||
      !isNum(c.total) ||
      !isNum(c.dc)
    )
      return null;
    if (!ACTIVITIES.includes(c.activity as (typeof ACTIVITIES)[number]) || typeof c.success !== "boolean") return null;
    out.push({
      memberId: c.memberId,
      day: c.day,
      activity: c.activity as (typeof ACTIVITIES)[number],
      total: c.total,
      dc: c.dc,
      success: c.success,
      natural: isNum(c.natural) ? c.natural : null,
    });
  }
  return out;
}

function nextRequest(v: unknown): TravelRequest | null {
  if (v === undefined || v === null) return null;
  try {
    const r = parseRequest(v);
    return r.route ? r : null;
  } catch {
    return null;
  }
}

function problems(v: unknown): JourneyProblem[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((x): JourneyProblem[] => {
    const p = x as Record<string, unknown>;
    if (!p || (p.kind !== "drifted" && p.kind !== "missing") || !WHATS.includes(p.what as JourneyWhat)) return [];
    if (typeof p.name !== "string" || p.name.length > 200 || (p.phase !== "apply" && p.phase !== "undo")) return [];
    return [{ kind: p.kind, what: p.what as JourneyWhat, name: p.name, phase: p.phase }];
  });
}

function errorOf(v: unknown): TravelCardFlag["error"] {
  const e = v as { key?: unknown; data?: unknown } | null | undefined;
  if (!e || typeof e.key !== "string" || !/^AVENTURE\.[\w.]+$/.test(e.key)) return null;
  const data: Record<string, string | number> = {};
  if (e.data && typeof e.data === "object") {
    for (const [k, x] of Object.entries(e.data as Record<string, unknown>))
      if (typeof x === "string" || isNum(x)) data[k] = typeof x === "string" ? x.slice(0, 500) : x;
  }
  return { key: e.key, data };
}

/**
 * The journey of a card a GM wrote, checked field by field; null for anything else (a player's message carrying the
 * same flags, a malformed value). Cards of version 1 (before 0.2: `{journal: {advanced, actors}, undone}`) are read
 * as applied or undone journeys whose world time moved by `advanced` seconds.
 */
export function readJourney(message: { author?: unknown; flags?: unknown } | null | undefined): TravelCardFlag | null {
  const raw = gmCardFlag(message, "travel");
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return null;
  const f = raw as Record<string, unknown>;
  const j = f.journal as Record<string, unknown> | undefined;
  if (!j || typeof j !== "object" || !Array.isArray(j.actors) || j.actors.length > MAX_TRAVEL_MEMBERS) return null;
  const actors = j.actors.map(journalActor);
  if (actors.some((a) => a === null)) return null;
  const lost = lostChecks(f.lost);
  if (!lost) return null;
  if (f.v === undefined) {
    // Version 1: the world time moved by a relative amount; Undo only needs that amount.
    const advanced = j.advanced;
    if (!isNum(advanced) || advanced < 0 || advanced > MAX_TIME || typeof f.undone !== "boolean") return null;
    return {
      v: 2,
      status: f.undone ? "undone" : "applied",
      journal: {
        actors: actors as TravelJournalActor[],
        time: advanced > 0 ? { before: 0, after: advanced } : null,
        tokens: [],
      },
      undoTime: null,
      timeAdded: null,
      lost,
      survival: [],
      next: null,
      problems: [],
      resumed: false,
      error: null,
      rolledBack: false,
      proposer: null,
    };
  }
  if (f.v !== 2 || !JOURNEY_STATUSES.includes(f.status as JourneyStatus)) return null;
  const time = timePair(j.time, "before", "after");
  const undoTime = timePair(f.undoTime, "from", "to");
  if (time === undefined || undoTime === undefined) return null;
  const timeAdded = f.timeAdded === undefined || f.timeAdded === null ? null : f.timeAdded;
  if (timeAdded !== null && !(isNum(timeAdded) && timeAdded >= 0 && timeAdded <= MAX_TIME)) return null;
  if (f.status === "undoing" && time && !undoTime && timeAdded !== 0) return null;
  const tokens = journalTokens(j.tokens);
  const survival = survivalResults(f.survival);
  if (!tokens || !survival) return null;
  const days = j.days === undefined ? undefined : j.days;
  if (days !== undefined && !(isNum(days) && Number.isInteger(days) && days >= 1 && days <= MAX_JOURNAL_DAYS))
    return null;
  // Each token's stops are the ends of every day but the last: one fewer than the days (none without days).
  if (tokens.some((tk) => (tk.stops?.length ?? 0) !== (days ?? 1) - 1)) return null;
  return {
    v: 2,
    status: f.status as JourneyStatus,
    journal: { actors: actors as TravelJournalActor[], time, tokens, ...(days !== undefined ? { days } : {}) },
    undoTime,
    timeAdded,
    lost,
    survival,
    next: nextRequest(f.next),
    problems: problems(f.problems),
    resumed: f.resumed === true,
    error: errorOf(f.error),
    rolledBack: f.rolledBack === true,
    proposer: typeof f.proposer === "string" && DOCUMENT_ID.test(f.proposer) ? f.proposer : null,
    ...(f.executor !== undefined ? { executor: readExecutor(f.executor) } : {}),
  };
}

/** Writes the card's state (an update of the GM's own message: the card is re-rendered on every client). */
export async function writeJourney(message: ChatMessage, flag: TravelCardFlag): Promise<void> {
  await message.update({ flags: { [MODULE_ID]: { travel: flag } } });
}

// ------------------------------------------------------------------------------------------------ reading and writing

export type Counter = "fastingDays" | "thirstDays";

/** A counter flag as stored (a number), or null when the actor has none. */
export function counterValue(actor: ActorLike, key: Counter): number | null {
  const v = actor.getFlag(MODULE_ID, key);
  return typeof v === "number" ? v : null;
}

async function writeCounter(actor: ActorLike, key: Counter, value: number | null): Promise<void> {
  if (value === null) {
    if (!actor.unsetFlag) throw new Error("aventure | an actor without unsetFlag"); // every Foundry document has it
    await actor.unsetFlag(MODULE_ID, key);
  } else await actor.setFlag(MODULE_ID, key, value);
}

// ------------------------------------------------------------------------------------------------ steps

/** Which way the steps go: "forward" brings each value from before to after, "back" from after to before. */
export type Direction = "forward" | "back";

/** Where the world time goes: from `from` to `to` (absolute seconds). */
export interface TimeMove {
  from: number;
  to: number;
  /** Other values the clock may start from (a rollback of a journey stopped after some of its days). */
  via?: number[];
}

/** A step's label: what it changes, on whom (index in the journal), read back by `problemsOf`. */
const label = (what: JourneyWhat, index: number) => `${what}:${index}`;

/** A token as the steps see it: its position (top-left, px) and a way to move it. */
export interface StepToken {
  x: number;
  y: number;
}

/** How the steps find and move the party's tokens (the glue: the scene's TokenDocuments, moved by the active GM). */
export interface TokenAccess<T extends StepToken = StepToken> {
  get(sceneId: string, tokenId: string): T | null;
  /** Moves the tokens together, each in one movement straight to its place. */
  move(moves: readonly { token: T; x: number; y: number }[]): Promise<unknown>;
}

/**
 * The steps of a journal in one direction: per actor its exhaustion (through the adapter) and its two counters, then
 * the world time (moved by the difference between its target and its current value, only while it is still at its
 * starting value). A deleted actor is one "missing" step.
 */
export function journeySteps<T extends StepToken = StepToken>(
  journal: TravelJournal,
  direction: Direction,
  time: TimeMove | null,
  adapter: ActorAdapter,
  actorById: (id: string) => ActorLike | null,
  tokens?: TokenAccess<T>,
): Step[] {
  const steps: Step[] = [];
  const ends = <B extends number | null>(c: Change<B>) =>
    direction === "forward"
      ? { from: c.before as number | null, to: c.after as number | null }
      : { from: c.after as number | null, to: c.before as number | null };
  journal.actors.forEach((entry, i) => {
    const actor = actorById(entry.actorId);
    if (!actor) {
      steps.push({ label: label("actor", i), state: () => "missing", run: async () => undefined });
      return;
    }
    const ex = entry.exhaustion;
    if (ex) {
      const { from, to } = ends(ex);
      steps.push({
        label: label("exhaustion", i),
        state: () => valueState(adapter.read(actor).exhaustion, from, to),
        run: () => adapter.setExhaustion(actor, to as number),
      });
    }
    for (const [what, key] of [
      ["fasting", "fastingDays"],
      ["thirst", "thirstDays"],
    ] as const) {
      const c = entry[what];
      if (!c) continue;
      const { from, to } = ends(c);
      steps.push({
        label: label(what, i),
        state: () => valueState(counterValue(actor, key), from, to),
        run: () => writeCounter(actor, key, to),
      });
    }
  });
  // The party's tokens and the world time. Forward, a journey walked a day at a time (journal.days) runs day after
  // day: the tokens to where the day ends, then the day's share of world time; each step is read back, so a reload
  // half-way resumes at the first day not yet walked. Back (a rollback, Undo), every token goes straight to where it
  // stood, from any day's end.
  const days = direction === "forward" ? Math.max(1, journal.days ?? 1) : 1;
  const seq = (t: TravelJournalToken) => [t.before, ...(t.stops ?? []), t.after];
  const here = (t: StepToken) => ({ x: t.x, y: t.y });
  const same = (a: { x: number; y: number }, b: { x: number; y: number }) => a.x === b.x && a.y === b.y;
  /** Where a token stands on day `d` of the walk: done once at that day's end or a later one; pending at the day's start. */
  const tokenState = (e: TravelJournalToken, token: StepToken, d: number): StepState => {
    const at = here(token);
    if (direction === "back") {
      if (same(at, e.before)) return "done";
      return seq(e)
        .slice(1)
        .some((p) => same(p, at))
        ? "pending"
        : "drifted";
    }
    const points = journal.days && journal.days > 1 ? seq(e) : [e.before, e.after];
    if (points.slice(d).some((p) => same(p, at))) return "done";
    return same(points[d - 1]!, at) ? "pending" : "drifted";
  };
  const target = (e: TravelJournalToken, d: number) =>
    direction === "back" ? e.before : journal.days && journal.days > 1 ? seq(e)[d]! : e.after;
  /** World time at the end of day `k` of the walk (k = 0: its start). */
  const timeAt = (k: number) => (time ? time.from + Math.round((k * (time.to - time.from)) / days) : 0);
  for (let d = 1; d <= days; d++) {
    journal.tokens.forEach((entry, i) => {
      const token = tokens?.get(entry.sceneId, entry.tokenId) ?? null;
      if (!token) {
        if (d === 1) steps.push({ label: label("token", i), state: () => "missing", run: async () => undefined });
        return;
      }
      // Each token its own step; the first pending one moves every token still pending that day, together.
      steps.push({
        label: label("token", i),
        state: () => tokenState(entry, token, d),
        run: async () => {
          if (!tokens) return;
          const moves = journal.tokens.flatMap((e) => {
            const t = tokens.get(e.sceneId, e.tokenId);
            if (!t || tokenState(e, t, d) !== "pending") return [];
            const to = target(e, d);
            return [{ token: t, x: to.x, y: to.y }];
          });
          await tokens.move(moves);
        },
      });
    });
    if (time) {
      const from = timeAt(d - 1);
      const to = timeAt(d);
      const later = Array.from({ length: days - d + 1 }, (_, k) => timeAt(d + k));
      steps.push({
        label: `${label("time", -1)}:${d}`,
        state: () => {
          const now = game.time.worldTime;
          if (later.includes(now)) return "done";
          if (now === from || (time.via ?? []).includes(now)) return "pending";
          return "drifted";
        },
        run: () => game.time.advance(to - game.time.worldTime),
      });
    }
  }
  return steps;
}

/** The drifted and missing steps of a report, as the card's problems. */
export function problemsOf(
  report: StepReport,
  journal: TravelJournal,
  phase: JourneyProblem["phase"],
): JourneyProblem[] {
  const parse = (l: string) => {
    const [what, index] = l.split(":") as [JourneyWhat, string];
    const name = what === "token" ? journal.tokens[Number(index)]?.name : journal.actors[Number(index)]?.name;
    return { what, name: name ?? "" };
  };
  // A value left alone on one day of a walk is left alone on the days after it too: reported once.
  const once = (labels: string[]) => [...new Set(labels.map((l) => l.split(":").slice(0, 2).join(":")))];
  return [
    ...once(report.missing).map((l) => ({ kind: "missing" as const, ...parse(l), phase })),
    ...once(report.drifted).map((l) => ({ kind: "drifted" as const, ...parse(l), phase })),
  ];
}

/** Runs the steps, reporting drifted and missing values (a step that throws stops the run: see the callers). */
export async function runJourneySteps<T extends StepToken = StepToken>(
  journal: TravelJournal,
  direction: Direction,
  time: TimeMove | null,
  adapter: ActorAdapter,
  actorById: (id: string) => ActorLike | null,
  phase: JourneyProblem["phase"],
  tokens?: TokenAccess<T>,
  guard?: StepGuard,
): Promise<JourneyProblem[]> {
  return (await runJourneyReport(journal, direction, time, adapter, actorById, phase, tokens, guard)).problems;
}

/**
 * As runJourneySteps, with how much of the world time's move holds once they ran: the seconds from its start to the
 * end of the last day whose time step is applied or found done (the whole move when nothing was left alone; with a
 * clock found changed meanwhile, only the days walked before it).
 */
export async function runJourneyReport<T extends StepToken = StepToken>(
  journal: TravelJournal,
  direction: Direction,
  time: TimeMove | null,
  adapter: ActorAdapter,
  actorById: (id: string) => ActorLike | null,
  phase: JourneyProblem["phase"],
  tokens?: TokenAccess<T>,
  guard?: StepGuard,
): Promise<{ problems: JourneyProblem[]; timeMoved: number }> {
  const report = await runSteps(journeySteps(journal, direction, time, adapter, actorById, tokens), guard);
  const isTime = (l: string) => l.startsWith(`${label("time", -1)}`);
  let timeMoved = 0;
  if (time) {
    const days = direction === "forward" ? Math.max(1, journal.days ?? 1) : 1;
    const drifted = report.drifted.filter(isTime).map((l) => Number(l.split(":")[2]));
    const held = drifted.length ? Math.min(...drifted) - 1 : days;
    timeMoved = Math.round((held * (time.to - time.from)) / days);
  }
  return { problems: problemsOf(report, journal, phase), timeMoved };
}
