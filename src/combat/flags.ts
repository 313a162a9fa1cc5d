/**
 * What the combat feature keeps under flags.aventure on combats and combatants, each declared once as a data model
 * (core/flag-model.ts): its type, defaults and checks come from the schema; a value the model refuses reads as absent.
 * Who may write each is said where it is read (side-initiative.ts, polaris-phases.ts, polaris-confusion.ts).
 */
import {
  flagModel,
  flagValue,
  problemsListField,
  type DataOf,
  type Fields,
  docIdField,
  nullableDocIdField,
} from "../core/flag-model.js";
import { isSideId, SIDE_IDS, type SideId } from "../core/sides.js";
import { isDocumentId } from "../core/values.js";
import type { Executor } from "../core/operations.js";
import { readExecutor, storedExecutorField } from "../core/operations.js";

/** A round number as Aventure believes it. */
export const MAX_ROUND = 100_000;

const sides = (f: Fields) =>
  new f.ArrayField(new f.StringField({ required: true, blank: false, choices: [...SIDE_IDS] }), {
    max: SIDE_IDS.length * 4,
  });
const round = (f: Fields) =>
  new f.NumberField({ required: true, nullable: false, integer: true, min: 0, max: MAX_ROUND, initial: undefined });

/** What an encounter leaves on the combat it starts (flags.aventure.encounter), written by a GM only. */
const encounterSchema = (f: Fields) => ({
  /** Sides surprised: their combatants are skipped in round 1. */
  surprised: sides(f),
  /** Sides that act in round 1 (docs/rules.md §7.2; [] when nobody acts). */
  firstRound: sides(f),
  /** Whether the surprised marker was (or is being) put on the surprised combatants' actors (removed in round 2). */
  marked: new f.BooleanField({ required: true, initial: false }),
});
export const EncounterStateModel = flagModel({
  name: "AventureEncounterState",
  schema: encounterSchema,
  // Earlier versions wrote `firstRound: null` for "nobody named": none.
  migrate: (source) => {
    if (source.firstRound === null) delete source.firstRound;
  },
});
export type EncounterCombatState = DataOf<typeof EncounterStateModel>;

/**
 * Confusion (docs/rules.md §9.2): the combatants whose Adaptation test was a catastrophe in `round`
 * (flags.aventure.polarisConfused on the combat), written by the active GM only.
 */
const confusionSchema = (f: Fields) => ({
  round: round(f),
  ids: new f.ArrayField(docIdField(f), { max: 1000 }),
});
export const ConfusionModel = flagModel({ name: "AventurePolarisConfusion", schema: confusionSchema });
export type PolarisConfusion = DataOf<typeof ConfusionModel>;

/** Per-round Polaris options of a combatant (flags.aventure.polaris); ignored once `round` is past. */
const polarisRoundSchema = (f: Fields) => ({
  round: round(f),
  hasten: new f.BooleanField({ required: true, initial: false }),
  delayTo: new f.NumberField({ required: true, nullable: true, initial: null }),
});
export const PolarisRoundModel = flagModel({ name: "AventurePolarisRound", schema: polarisRoundSchema });
export type PolarisRoundFlags = DataOf<typeof PolarisRoundModel>;

/** An initiative value as Aventure believes it. */
export const isSideValue = (v: unknown): v is number =>
  typeof v === "number" && Number.isFinite(v) && Math.abs(v) <= 1000;

/**
 * The side initiative of the current round (flags.aventure.sides), written by the active GM only. The key of a round
 * is (combat, round): once `started` is true for a round, its start-of-round roll is never made again. Every list is
 * an array (Foundry's merge of a flag object replaces arrays).
 */
const sidesSchema = (f: Fields) => ({
  v: new f.NumberField({ required: true, nullable: false, integer: true, min: 2, max: 2, initial: undefined }),
  round: round(f),
  /** Side → value written on its combatants, as [side, value] pairs (checked by the joint rule). */
  values: new f.ArrayField(new f.ArrayField(new f.AnyField({ required: true }), { min: 2, max: 2 }), { max: 1000 }),
  /** The acting order: groups of sides acting together. */
  groups: new f.ArrayField(sides(f), { max: 1000 }),
  /** The start-of-round roll of `round` was claimed (written before any die is shown or any initiative written). */
  started: new f.BooleanField({ required: true, initial: false }),
  /** Nobody may act in `round` (pmt, every side surprised). */
  nobodyActs: new f.BooleanField({ required: true, initial: false }),
  /** The operation of the round (side-initiative.ts reads it: its own record, checked there). */
  op: new f.AnyField({ required: false, nullable: true, initial: null }),
});
export const SidesModel = flagModel({
  name: "AventureSideRound",
  schema: sidesSchema,
  // Version 1 (`{round, values, groups}`, before operations were recorded): a round already rolled.
  migrate: (source) => {
    if (source.v === 2) return;
    Object.assign(source, { v: 2, started: true, nobodyActs: false, op: null });
  },
  joint: (d) => {
    if (!d.values.every((p) => isSideId(p[0]) && isSideValue(p[1]))) throw new Error("a side value");
  },
});
/** The side round as the model reads it, its pairs typed (the joint rule checked them) and its operation read. */
export type SideRoundState = Omit<DataOf<typeof SidesModel>, "values" | "op"> & {
  values: [SideId, number][];
  op: SideOp | null;
};

/**
 * The turns that started in a round (flags.aventure.turns `{round, ids}`), GM state written by the active GM alone
 * (side-ops.ts recordTurnStart): the combatant who had the first turn of the round, then each one the turn passed to.
 */
export const StartedTurnsModel = flagModel({ name: "AventureStartedTurns", schema: confusionSchema });

/**
 * [id, value] pairs (Foundry's merge of a flag object replaces arrays, so a map is kept as pairs); the joint rule
 * checks them.
 */
const pairList = (f: Fields) =>
  new f.ArrayField(new f.ArrayField(new f.AnyField({ required: true }), { min: 2, max: 2 }), { max: 1000 });
const pairsOk = (list: unknown[][], key: (v: unknown) => boolean, value: (v: unknown) => boolean) =>
  list.every((p) => key(p[0]) && value(p[1]));

/**
 * An operation on a combat's side initiative (flags.aventure.sides.op), recorded BEFORE its first write so that it
 * happens exactly once (operations.ts): "round" starts round `round` (the dice for every side that may act, their
 * initiatives, the card, then the round itself); "sides" rolls some sides from the tracker's buttons. Every list is
 * an array (Foundry's merge of a flag object replaces arrays), and every key is always present.
 */
const sideOpSchema = (f: Fields) => ({
  id: docIdField(f),
  kind: new f.StringField({ required: true, blank: false, choices: ["round", "sides"], initial: undefined }),
  status: new f.StringField({ required: true, blank: false, choices: ["applying", "done"], initial: undefined }),
  round: round(f),
  /** combat.round when recorded: a "round" operation moves the combat from it to `round`. */
  fromRound: round(f),
  /** The combatant who had the turn ("sides": keeps it). */
  currentId: nullableDocIdField(f),
  /** Combatant id → initiative before and after (absolute values: writing twice is harmless). */
  before: pairList(f),
  after: pairList(f),
  /** Combatants that got their first initiative (dnd5e recovers "initiative" uses for them). */
  first: new f.ArrayField(docIdField(f), { max: 1000 }),
  /** What the card shows: each pass of dice (side → d6), the acting order, the sides that cannot act. */
  rolls: new f.ArrayField(pairList(f), { max: 64 }),
  groups: new f.ArrayField(sides(f), { max: 1000 }),
  skipped: sides(f),
  fellBack: new f.BooleanField({ required: true, initial: false }),
  nobodyActs: new f.BooleanField({ required: true, initial: false }),
  /** Whether the operation posts a card (not when round 1 only repeats what the tracker's buttons rolled). */
  card: new f.BooleanField({ required: true, initial: true }),
  /** Sides left out of the public card (every combatant hidden): a second card goes to the GMs. */
  hide: sides(f),
  /** Finished by the active GM after an interruption. */
  resumed: new f.BooleanField({ required: true, initial: false }),
  /** What could not be done, as lang keys with data. */
  problems: problemsListField(f),
  /**
   * The GM (user and page load) that executes it, recorded with "applying" (operations.ts reads it: a malformed one is
   * none).
   */
  executor: storedExecutorField(f),
});
export const SideOpModel = flagModel({
  name: "AventureSideOp",
  schema: sideOpSchema,
  joint: (d) => {
    const initiative = (v: unknown) => v === null || isSideValue(v);
    if (!pairsOk(d.before, isDocumentId, initiative) || !pairsOk(d.after, isDocumentId, initiative))
      throw new Error("an initiative");
    if (!d.rolls.every((pass) => pairsOk(pass, isSideId, isSideValue))) throw new Error("a die");
  },
});
/** The operation as the model reads it, its pairs typed (the joint rule checked them). */
export type SideOp = Omit<DataOf<typeof SideOpModel>, "before" | "after" | "rolls" | "problems" | "executor"> & {
  before: [string, number | null][];
  after: [string, number | null][];
  rolls: [SideId, number][][];
  problems: { key: string; data: Record<string, string | number> }[];
  executor?: Executor | null;
};

/** A side operation read through its model; null when absent or malformed. */
export function readSideOp(raw: unknown): SideOp | null {
  const op = SideOpModel.read(raw);
  if (!op) return null;
  return {
    ...op,
    before: op.before as [string, number | null][],
    after: op.after as [string, number | null][],
    rolls: op.rolls as [SideId, number][][],
    problems: op.problems as SideOp["problems"],
    executor: readExecutor(op.executor),
  };
}

/**
 * The world time at which a combat's first round started (flags.aventure.startTime, written once by the active GM):
 * when the combat ends, the encounter has taken at least a turn from then (docs/rules.md §1). Anything but a world
 * time reads as none.
 */
const StartTime = flagValue({
  name: "AventureCombatStart",
  value: (f) => new f.NumberField({ required: true, nullable: false, min: -1e15, max: 1e15 }),
});

/** When a combat's first round started (world time), or null when not recorded. */
export function combatStartTime(combat: { getFlag(scope: "aventure", key: string): unknown }): number | null {
  return StartTime.read(combat.getFlag("aventure", "startTime"));
}
