/**
 * The journey card's state and the steps that bring the world to it (operations.ts).
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
 * The card is a ChatMessage of the module's sub-type `aventure.travel`, its state declared once by its data model
 * (below, core/card-model.ts) and read only from a card a GM wrote (readJourney).
 */
import { counterValue, type Counter } from "./counters.js";
import { MODULE_ID } from "../core/constants.js";
import {
  cardState,
  cardUpdate,
  choiceField,
  executorField,
  flagField,
  idField,
  numberField,
  registerCard,
  nullableObjectField,
  textField,
  versionField,
  withDefaults,
  type CardData,
  type CardKind,
  type Fields,
} from "../core/card-model.js";
import { messageFields } from "../core/flag-model.js";
import type { ActorAdapter, ActorLike } from "../actors/api.js";
import {
  runSteps,
  valueState,
  type Step,
  type StepGuard,
  type StepReport,
  type StepState,
} from "../core/operations.js";
import { MAX_ROUTE_TOKENS, MAX_TRAVEL_MEMBERS, parseRequest, type TravelRequest } from "./request.js";
import { isRecord } from "../core/values.js";

export type JourneyStatus = "applying" | "applied" | "undoing" | "undone" | "failed";
export const JOURNEY_STATUSES: readonly JourneyStatus[] = ["applying", "applied", "undoing", "undone", "failed"];

/** What a step reports: a value "drifted" (changed meanwhile, left alone) or an actor or token "missing" (deleted). */
export type JourneyWhat = "exhaustion" | "fasting" | "thirst" | "time" | "actor" | "token";
const WHATS: readonly JourneyWhat[] = ["exhaustion", "fasting", "thirst", "time", "actor", "token"];
/** Coordinates a card may hold (pixels): far beyond any scene. */
const MAX_COORDINATE = 1e7;
/** The largest world time a card may hold (seconds): far beyond any calendar, but a finite number. */
const MAX_TIME = 1e15;
/** The most days a journal walked a day at a time may hold (an OSE Apply walks at most 100). */
const MAX_JOURNAL_DAYS = 1000;
const ACTIVITIES = ["navigate", "track", "forage"] as const;

export const TRAVEL_CARD: CardKind = { kind: "travel", legacyFlag: "travel" };

/** Whether `v` is the rest of a route a card may offer to continue (a travel request with a route). */
function isRouteRequest(v: unknown): boolean {
  if (v === null) return true;
  try {
    return parseRequest(v).route !== null;
  } catch {
    return false;
  }
}

/**
 * A version 1 card (before 0.2: `{journal: {advanced, actors}, undone}`): an applied or undone journey whose world
 * time moved by `advanced` seconds (Undo only needs that amount). Without a valid amount, an empty state (refused).
 */
function fromVersion1(f: Record<string, unknown>): Record<string, unknown> {
  const j = isRecord(f.journal) ? f.journal : {};
  const advanced = j.advanced;
  if (typeof advanced !== "number" || !(advanced >= 0 && advanced <= MAX_TIME) || typeof f.undone !== "boolean")
    return {};
  return {
    v: 2,
    status: f.undone ? "undone" : "applied",
    journal: { actors: j.actors, time: advanced > 0 ? { before: 0, after: advanced } : null, tokens: [] },
    lost: f.lost ?? [],
  };
}

const nullable = { required: true, nullable: true, initial: null } as const;
const inRange = (max: number, o: { min?: number; integer?: boolean } = {}) => numberField({ min: -max, max, ...o });
const level = () => numberField({ integer: true, min: 0, max: 6 });
const counter = () => numberField({ min: 0, max: 1e6 });
const position = (f: Fields) => new f.SchemaField({ x: inRange(MAX_COORDINATE), y: inRange(MAX_COORDINATE) });
/** A counter before the journey: null when it did not exist. */
const counterBefore = (f: Fields) => new f.NumberField({ ...nullable, min: 0, max: 1e6 });

/** The journal: what the journey changes, in ABSOLUTE values (before and after). */
const journalSchema = (f: Fields) => ({
  /** What the journey changes on each actor. null: not changed by the journey (not tracked, or nothing gained). */
  actors: new f.ArrayField(
    new f.SchemaField({
      actorId: idField(),
      name: textField(),
      exhaustion: new f.SchemaField({ before: level(), after: level() }, nullable),
      fasting: new f.SchemaField({ before: counterBefore(f), after: counter() }, nullable),
      thirst: new f.SchemaField({ before: counterBefore(f), after: counter() }, nullable),
    }),
    { required: true, max: MAX_TRAVEL_MEMBERS },
  ),
  /** World time before and after the journey (seconds, absolute); null when the journey does not move it. */
  time: new f.SchemaField({ before: inRange(MAX_TIME), after: inRange(MAX_TIME) }, nullable),
  /**
   * The party's tokens moved along the route, in marching order (none for a journey without a route): where each
   * stood before and where the journey leaves it (top-left, px).
   */
  tokens: new f.ArrayField(
    new f.SchemaField({
      sceneId: idField(),
      tokenId: idField(),
      name: textField(),
      before: position(f),
      after: position(f),
      /**
       * A journey walked a day at a time (Old-School Essentials, docs/rules.md §12): where the token stands at the
       * end of each day but the last, in day order (the last day ends at `after`). Empty: one move straight to
       * `after`.
       */
      stops: new f.ArrayField(position(f), { required: true, initial: [], max: MAX_JOURNAL_DAYS - 1 }),
    }),
    { required: true, initial: [], max: MAX_ROUTE_TOKENS },
  ),
  /**
   * A journey applied a day at a time: its number of days (each day the tokens move to where it ends, then world time
   * moves one day's share). null or 1: one step for the whole journey.
   */
  days: new f.NumberField({ ...nullable, integer: true, min: 1, max: MAX_JOURNAL_DAYS }),
});

/** The card's state (its system; flags.aventure.travel on cards posted before the sub-type), version 2. */
export const travelCardSchema = (f: Fields) => ({
  v: versionField(2),
  status: choiceField(JOURNEY_STATUSES),
  journal: new f.SchemaField(journalSchema(f)),
  /** Recorded when Undo starts: the world time then (`from`) and the time Undo brings it back to (`to`). */
  undoTime: new f.SchemaField({ from: inRange(MAX_TIME), to: inRange(MAX_TIME) }, nullable),
  /**
   * Recorded when the journey is marked applied: the seconds it really added to world time (0 when its time step was
   * left alone because the clock moved meanwhile); Undo takes back only that. null: not applied yet, or a card from
   * before this record (Undo then reads the card's problems).
   */
  timeAdded: new f.NumberField({ ...nullable, min: 0, max: MAX_TIME }),
  /** The daily lost checks rolled (pmt; docs/rules.md §2.7), in day order; empty when no chance was given. */
  lost: new f.ArrayField(
    new f.SchemaField({ day: numberField(), chance: numberField(), roll: numberField(), lost: flagField() }),
    { required: true, initial: [], max: 1000 },
  ),
  /** The Wisdom (Survival) checks rolled (navigate, track, forage; docs/rules.md §2.6), in day order. */
  survival: new f.ArrayField(
    new f.SchemaField({
      memberId: idField(),
      day: numberField(),
      activity: choiceField(ACTIVITIES),
      total: numberField(),
      dc: numberField(),
      success: flagField(),
      /** The d20's natural result, when the system reports it. */
      natural: new f.NumberField(nullable),
    }),
    { required: true, initial: [], max: 1000 },
  ),
  // The rest of the route when the journey stopped before its end ("Continue the journey"), or null: checked by
  // isRouteRequest (parseRequest), so a TravelRequest (fvtt-types derives only an object from an ObjectField).
  next: nullableObjectField<TravelRequest>(isRouteRequest),
  problems: new f.ArrayField(
    new f.SchemaField({
      kind: choiceField(["drifted", "missing"]),
      what: choiceField(WHATS),
      /** The actor's name (empty for the world time). */
      name: textField(),
      /** While applying the journey or while undoing it. */
      phase: choiceField(["apply", "undo"]),
    }),
    { required: true, initial: [], max: 1000 },
  ),
  /** Finished by the active GM after a reload or a GM leaving (the card says so). */
  resumed: flagField(),
  /** Why it failed (status "failed"): a lang key and its data; `rolledBack` says whether everything was put back. */
  error: new f.SchemaField(messageFields(f), nullable),
  rolledBack: flagField(),
  /** The player whose journey it was (a proposal, or a player applying their own characters), or null. */
  proposer: idField(true),
  /** The GM (user and page load) that applies or undoes it, recorded with "applying" / "undoing" (operations.ts). */
  executor: executorField(),
});
export type TravelCardFlag = CardData<typeof travelCardSchema>;
export type TravelJournal = TravelCardFlag["journal"];
/** What the journey changes on one actor. null: not changed by the journey (not tracked, or nothing gained). */
export type TravelJournalActor = TravelJournal["actors"][number];
/** A token moved by a journey along a route: where it stood before and where the journey leaves it (top-left, px). */
export type TravelJournalToken = TravelJournal["tokens"][number];
/** A value before and after the journey (absolute). A counter that did not exist before is `null`. */
export type Change = NonNullable<TravelJournalActor["fasting"]>;
/** What a step reports (drifted or missing), for which value, whose, and in which phase. */
export type JourneyProblem = TravelCardFlag["problems"][number];
/** One day's lost check (docs/rules.md §2.7, pmt): the referee's 1d100 against the chance in percent. */
export type LostCheck = TravelCardFlag["lost"][number];
/** One Wisdom (Survival) check rolled on Apply (docs/rules.md §2.6): who, which day, what for, the total and the DC. */
export type SurvivalResult = TravelCardFlag["survival"][number];

/** Version 1 cards; the journal's values later versions added, absent from older cards. */
function migrateJourney(source: Record<string, unknown>): Record<string, unknown> {
  let s = source;
  if (s.v === undefined && isRecord(s.journal) && "advanced" in s.journal) s = fromVersion1(s);
  if (isRecord(s.journal)) {
    const journal = withDefaults(s.journal, { tokens: [], days: null, time: null });
    if (Array.isArray(journal.tokens))
      journal.tokens = journal.tokens.map((t: unknown) => (isRecord(t) ? withDefaults(t, { stops: [] }) : t));
    s = { ...s, journal };
  }
  return s;
}

/** Registers the journey card's sub-type (init). */
export function registerJourneyCard(): void {
  registerCard(TRAVEL_CARD, {
    name: "JourneyCardModel",
    schema: travelCardSchema,
    migrate: migrateJourney,
    // The values later versions added, absent from older cards.
    defaults: {
      undoTime: null,
      timeAdded: null,
      lost: [],
      survival: [],
      next: null,
      problems: [],
      resumed: false,
      error: null,
      rolledBack: false,
      proposer: null,
      executor: null,
    },
    /*
     * Each token's stops are the ends of every day but the last (one fewer than the days); an Undo under way records
     * the time it brings the clock back to, unless the journey added none.
     */
    joint(f) {
      const days = f.journal.days ?? 1;
      if (f.journal.tokens.some((tk) => (tk.stops?.length ?? 0) !== days - 1))
        throw new Error("each token's stops must be one fewer than the days");
      if (f.status === "undoing" && f.journal.time && !f.undoTime && f.timeAdded !== 0)
        throw new Error("an undo under way must record its time");
    },
  });
}

/**
 * The journey of a card a GM wrote, through its data model (older cards migrated); null for anything else (a
 * player's message carrying the same state, a malformed value).
 */
export function readJourney(message: Parameters<typeof cardState>[0]): TravelCardFlag | null {
  return cardState<TravelCardFlag>(message, TRAVEL_CARD);
}

/** Writes the card's state (an update of the GM's own message: the card is re-rendered on every client). */
export async function writeJourney(message: ChatMessage, flag: TravelCardFlag): Promise<void> {
  await message.update(cardUpdate(message, TRAVEL_CARD, flag));
}

// ------------------------------------------------------------------------------------------------ reading and writing

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
  const ends = (c: Change): { from: number | null; to: number | null } =>
    direction === "forward" ? { from: c.before, to: c.after } : { from: c.after, to: c.before };
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
  /**
   * Where a token stands on day `d` of the walk: done once at that day's end or a later one; pending at the day's
   * start.
   */
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
