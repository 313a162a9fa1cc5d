/**
 * Exploration time (docs/rules.md §10): dungeon turns of 10 minutes, wandering-monster checks, rests, light sources
 * that
 * burn out. pmt (seed 002) has the explorers "consume" turns and the referee roll now and then; ose (seed 004): an
 * encounter takes at least a turn; rnp (seed 000) counts dungeon time in minutes (RNP_EXPLORATION_ACTIONS).
 * *Decision* (Old-School Essentials' own rules, not in the seeds; every one a world setting): a check every 2 turns,
 * an encounter on 1 in 6; 1 turn of rest after every 5 turns, else −1 to attacks and damage until the party rests; a
 * torch burns 6 turns, a lantern flask 24. The same defaults serve pmt and rnp.
 * Wandering checks belong to pmt and ose only (docs/rules.md §0): Rôle'n Play's dungeon minutes have none, so its
 * exploration runs with `wandering: false` (no check rolled) unless the GMs borrowed them from one of those games.
 *
 * Pure: the state is plain data (it is stored as a world setting by the glue), every function returns a new state.
 */
import type { Dice } from "./dice.js";
import { RulesError } from "./errors.js";
import { rollChecked } from "./guard.js";
import { ruleset as rulesetOf, type RulesetId } from "./rulesets.js";
import { FEATURE_TABLE } from "./features.js";
import { show } from "./text.js";
import { num, oneOf } from "./validate.js";

export interface ExplorationOptions {
  /** Length of a turn, seconds. */
  turnSeconds: number;
  /** A wandering-monster check at the end of every this-many turns. */
  wanderingEvery: number;
  /** An encounter when the die shows this or less. */
  wanderingChance: number;
  /** Faces of the wandering-monster die. */
  wanderingDie: number;
  /** The party must rest one turn after this many turns. */
  restEvery: number;
  /** The attack (and damage) modifier once the rest is overdue (negative or 0). */
  restPenalty: number;
  /** Turns a torch burns. */
  torchTurns: number;
  /** Turns a lantern flask burns. */
  lanternTurns: number;
  /** Whether wandering-monster checks are rolled at all (docs/rules.md §0: not in a game without them). */
  wandering: boolean;
}

export const EXPLORATION_DEFAULTS: Readonly<ExplorationOptions> = Object.freeze({
  turnSeconds: 600,
  wanderingEvery: 2,
  wanderingChance: 1,
  wanderingDie: 6,
  restEvery: 5,
  restPenalty: -1,
  torchTurns: 6,
  lanternTurns: 24,
  wandering: true,
});

/** Seconds a Rôle'n Play dungeon action takes (seed 000): a corridor, a lock, a trap ≈ 1 min; a large room ≈ 10 min. */
export const RNP_EXPLORATION_ACTIONS = Object.freeze({ corridor: 60, lock: 60, trap: 60, searchRoom: 600 });

export const LIGHT_KINDS = Object.freeze(["torch", "lantern", "custom"] as const);
export type LightKind = (typeof LIGHT_KINDS)[number];

export interface ExplorationLight {
  id: string;
  kind: LightKind;
  /** Whole turns of light left. */
  turnsLeft: number;
}

export interface ExplorationState {
  ruleset: RulesetId;
  /** Turns elapsed since the start. */
  turn: number;
  /** Turns since the party last rested. */
  turnsSinceRest: number;
  lights: ExplorationLight[];
  options: ExplorationOptions;
}

export interface WanderingCheck {
  /** The turn at whose end the check is made (1 = the first turn). */
  turn: number;
  roll: number;
  encounter: boolean;
}

export interface ExplorationAdvance {
  state: ExplorationState;
  checks: WanderingCheck[];
  /** The party has explored `restEvery` turns or more without resting: it must rest now. */
  restDue: boolean;
  /** `restPenalty` once more than `restEvery` turns passed without rest, else 0. */
  attackPenalty: number;
  /** Ids of the lights that burnt out during these turns (removed from the state). */
  lightsOut: string[];
}

/** Bounds: a turn is at least a second and at most a day; an advance covers at most 1000 turns. */
export const MAX_EXPLORATION_TURNS = 1000;
const MAX_TURN_COUNT = 1_000_000;

/**
 * The options, checked; `wandering` defaults to whether the ruleset's own book has wandering checks (docs/rules.md §0).
 */
function checkOptions(raw: unknown, ruleset: RulesetId): ExplorationOptions {
  if (raw !== undefined && (raw === null || typeof raw !== "object" || Array.isArray(raw)))
    throw new RulesError("AVENTURE.Error.Missing", { name: "options" });
  const o = {
    ...EXPLORATION_DEFAULTS,
    wandering: FEATURE_TABLE.wandering[ruleset] !== null,
    ...((raw as Partial<ExplorationOptions>) ?? {}),
  };
  const out: ExplorationOptions = {
    turnSeconds: num("turnSeconds", o.turnSeconds, { min: 1, max: 86_400, integer: true }),
    wanderingEvery: num("wanderingEvery", o.wanderingEvery, { min: 1, max: 1000, integer: true }),
    wanderingDie: num("wanderingDie", o.wanderingDie, { min: 2, max: 100, integer: true }),
    wanderingChance: 0,
    restEvery: num("restEvery", o.restEvery, { min: 1, max: 1000, integer: true }),
    restPenalty: num("restPenalty", o.restPenalty, { min: -20, max: 0, integer: true }),
    torchTurns: num("torchTurns", o.torchTurns, { min: 1, max: 1000, integer: true }),
    lanternTurns: num("lanternTurns", o.lanternTurns, { min: 1, max: 1000, integer: true }),
    wandering: flag("wandering", o.wandering),
  };
  out.wanderingChance = num("wanderingChance", o.wanderingChance, { min: 0, max: out.wanderingDie, integer: true });
  return out;
}

function flag(name: string, v: unknown): boolean {
  if (typeof v !== "boolean")
    throw new RulesError("AVENTURE.Error.UnknownValue", { name, value: show(v), allowed: "true, false" });
  return v;
}

function checkState(raw: unknown): ExplorationState {
  if (!raw || typeof raw !== "object" || Array.isArray(raw))
    throw new RulesError("AVENTURE.Error.Missing", { name: "state" });
  const s = raw as Partial<ExplorationState>;
  if (!Array.isArray(s.lights) || s.lights.length > 100)
    throw new RulesError("AVENTURE.Error.Missing", { name: "lights" });
  const ids = new Set<string>();
  // Array.from: a sparse list's holes are checked as undefined entries (map would skip them).
  const lights = Array.from(s.lights, (l, i) => {
    if (!l || typeof l !== "object") throw new RulesError("AVENTURE.Error.Missing", { name: `lights[${i}]` });
    const id = lightId(l.id, i);
    if (ids.has(id))
      throw new RulesError("AVENTURE.Error.UnknownValue", {
        name: `lights[${i}].id`,
        value: id,
        allowed: "unique ids",
      });
    ids.add(id);
    return {
      id,
      kind: oneOf(`lights[${i}].kind`, l.kind, LIGHT_KINDS),
      turnsLeft: num(`lights[${i}].turnsLeft`, l.turnsLeft, { min: 1, max: 1000, integer: true }),
    };
  });
  const ruleset = rulesetOf(s.ruleset);
  return {
    ruleset,
    turn: num("turn", s.turn, { min: 0, max: MAX_TURN_COUNT, integer: true }),
    turnsSinceRest: num("turnsSinceRest", s.turnsSinceRest, { min: 0, max: MAX_TURN_COUNT, integer: true }),
    lights,
    options: checkOptions(s.options, ruleset),
  };
}

function lightId(v: unknown, i: number): string {
  if (typeof v !== "string" || v === "" || v.length > 64)
    throw new RulesError("AVENTURE.Error.Missing", { name: `lights[${i}].id` });
  return v;
}

/**
 * A new exploration: turn 0, rested, no light; `options` override the defaults (bad values throw). Without a
 * `wandering` option, checks are rolled only where the ruleset's own book has them (pmt, ose: docs/rules.md §0); a
 * borrowing (the glue's world settings) passes `wandering: true`.
 */
export function startExploration(ruleset: RulesetId, options?: Partial<ExplorationOptions>): ExplorationState {
  const rs = rulesetOf(ruleset);
  return { ruleset: rs, turn: 0, turnsSinceRest: 0, lights: [], options: checkOptions(options, rs) };
}

/** Lights a light source: a torch (torchTurns), a lantern (lanternTurns) or a custom one (`turns`, required). */
export function addLight(
  state: ExplorationState,
  light: { id: string; kind: LightKind; turns?: number },
): ExplorationState {
  const s = checkState(state);
  if (!light || typeof light !== "object") throw new RulesError("AVENTURE.Error.Missing", { name: "light" });
  const id = lightId(light.id, s.lights.length);
  const kind = oneOf("kind", light.kind, LIGHT_KINDS);
  if (s.lights.some((l) => l.id === id))
    throw new RulesError("AVENTURE.Error.UnknownValue", { name: "id", value: id, allowed: "a new id" });
  if (s.lights.length >= 100)
    throw new RulesError("AVENTURE.Error.OutOfRange", { name: "lights", value: s.lights.length + 1, min: 0, max: 100 });
  // Given turns always count; a custom light must have them.
  const turns =
    light.turns !== undefined || kind === "custom"
      ? num("turns", light.turns, { min: 1, max: 1000, integer: true })
      : kind === "torch"
        ? s.options.torchTurns
        : s.options.lanternTurns;
  return { ...s, lights: [...s.lights, { id, kind, turnsLeft: turns }] };
}

/** Puts out (or removes) a light before it burns out. */
export function removeLight(state: ExplorationState, id: string): ExplorationState {
  const s = checkState(state);
  return { ...s, lights: s.lights.filter((l) => l.id !== id) };
}

/** The attack modifier for a state: `restPenalty` once more than `restEvery` turns passed without rest. */
export function restPenaltyOf(state: ExplorationState): number {
  const s = checkState(state);
  return s.turnsSinceRest > s.options.restEvery ? s.options.restPenalty : 0;
}

/**
 * Advances `turns` turns of exploration (or of rest with `{rest: true}`: the count of turns since rest starts again
 * afterwards). A wandering-monster check is rolled at the end of every `wanderingEvery`-th turn since the start, in
 * turn order (one d`wanderingDie` each; an encounter at `wanderingChance` or less), unless the options say the game
 * has no wandering checks (`wandering: false`: none is rolled, docs/rules.md §0). Lights burn during every turn;
 * those that run out are removed and listed.
 */
export async function advanceExploration(
  state: ExplorationState,
  turns: number,
  dice: Dice,
  options: { rest?: boolean } = {},
): Promise<ExplorationAdvance> {
  const s = checkState(state);
  const n = num("turns", turns, { min: 1, max: MAX_EXPLORATION_TURNS, integer: true });
  if (!dice || typeof dice !== "object" || typeof dice.roll !== "function")
    throw new RulesError("AVENTURE.Error.Missing", { name: "dice" });
  if (
    typeof options !== "object" ||
    options === null ||
    (options.rest !== undefined && typeof options.rest !== "boolean")
  ) {
    throw new RulesError("AVENTURE.Error.UnknownValue", {
      name: "rest",
      value: show((options as { rest?: unknown } | null)?.rest),
      allowed: "true, false",
    });
  }
  if (s.turn + n > MAX_TURN_COUNT)
    throw new RulesError("AVENTURE.Error.OutOfRange", { name: "turn", value: s.turn + n, min: 0, max: MAX_TURN_COUNT });
  const checks: WanderingCheck[] = [];
  for (let t = s.turn + 1; s.options.wandering && t <= s.turn + n; t++) {
    if (t % s.options.wanderingEvery !== 0) continue;
    const [roll] = await rollChecked(dice, 1, s.options.wanderingDie, "wandering");
    checks.push({ turn: t, roll: roll!, encounter: roll! <= s.options.wanderingChance });
  }
  const lightsOut: string[] = [];
  const lights: ExplorationLight[] = [];
  for (const l of s.lights) {
    const left = l.turnsLeft - n;
    if (left <= 0) lightsOut.push(l.id);
    else lights.push({ ...l, turnsLeft: left });
  }
  const turnsSinceRest = options.rest === true ? 0 : s.turnsSinceRest + n;
  const next: ExplorationState = { ...s, turn: s.turn + n, turnsSinceRest, lights };
  return {
    state: next,
    checks,
    restDue: turnsSinceRest >= s.options.restEvery,
    attackPenalty: turnsSinceRest > s.options.restEvery ? s.options.restPenalty : 0,
    lightsOut,
  };
}

/** Whole turns in a span of world time (a calendar moving the clock): how many turns it covers. */
export function turnsIn(
  seconds: number,
  options: Pick<ExplorationOptions, "turnSeconds"> = EXPLORATION_DEFAULTS,
): number {
  const secs = num("seconds", seconds, { min: 0, max: 1000 * 365 * 86_400 });
  const turnSeconds = num("turnSeconds", options?.turnSeconds, { min: 1, max: 86_400, integer: true });
  return Math.floor(secs / turnSeconds);
}
