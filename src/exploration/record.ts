/**
 * The exploration's stored record (docs/api/exploration.md): one world setting, `aventure.explorationState`, that only
 * GMs can write (Foundry refuses a player's write of a world setting), so a player cannot forge it. It holds the
 * rules' state (src/rules/exploration.ts), the world time the turn count is synced to, the party's tokens, and the
 * operation being applied, if any:
 *
 * Exactly once. An advance (or lighting, or putting out a light) is an OPERATION recorded in this setting, marked
 * "applying" with ABSOLUTE targets (the world time before and after, each token's light before and after, the
 * record to write at the end with its turn count), BEFORE its first other write. Then come its steps, each read back
 * from the world (operations.ts): the world time, the tokens' lights, the chat card (found by the operation's id),
 * and last the record itself (its revision moves on, the operation is cleared). A reload or a GM leaving at any
 * point: the active GM finishes the pending steps on ready, once.
 *
 * Pure: no Foundry globals. Every field is checked when read (readRecord); a malformed record reads as none.
 */
import {
  LIGHT_KINDS,
  RULESETS,
  restPenaltyOf,
  type ExplorationState,
  type LightKind,
  type RulesetId,
  type WanderingCheck,
} from "../rules/index.js";
import { readExecutor, type Executor } from "../core/operations.js";
import { DOCUMENT_ID } from "../core/values.js";

/** At most this many tokens in the party. */
export const MAX_PARTY = 50;
/**
 * At most this many wandering checks rolled for one move of world time (a long journey, a calendar jumping days):
 * the card says how many more the elapsed turns implied.
 */
export const MAX_CHECKS = 60;
/** What an advance does: explore (+n turns), rest, search, or spend seconds (rnp); "time": world time moved by another cause. */
export const ADVANCE_ACTIONS = ["explore", "rest", "search", "spend", "time"] as const;
export type AdvanceAction = (typeof ADVANCE_ACTIONS)[number];

/** A token of a scene (the party, a light's bearer). */
export interface TokenRef {
  sceneId: string;
  tokenId: string;
}
export interface PartyMember extends TokenRef {
  /** The token's name when it joined (shown if the token is gone). */
  name: string;
}

/** A token's light as Aventure writes it: the radii, and the radii remembered while it is out (flags.aventure.explorationLight). */
export interface TokenLight {
  dim: number;
  bright: number;
  remembered: { dim: number; bright: number } | null;
}

/** One token's light changing in an operation: before and after, absolute. */
export interface LightChange extends TokenRef {
  name: string;
  before: TokenLight;
  after: TokenLight;
}

/** What the chat card of an advance says (the checks as rolled; the card is posted once, by its operation). */
export interface AdvanceCard {
  action: AdvanceAction;
  /** World time the advance covers (seconds). */
  seconds: number;
  turnFrom: number;
  turnTo: number;
  /** The checks rolled, in turn order (at most MAX_CHECKS). */
  checks: WanderingCheck[];
  /** Checks the elapsed turns implied beyond MAX_CHECKS: not rolled. */
  notRolled: number;
  die: number;
  chance: number;
  /** Whether the world had wandering checks (docs/rules.md §0); false: none rolled, the card says the book has none. */
  wandering: boolean;
  restDue: boolean;
  attackPenalty: number;
  turnsSinceRest: number;
  /** The lights that burnt out, with their bearer's name. */
  lightsOut: { name: string; kind: LightKind }[];
}

export type OpKind = "advance" | "light" | "putOut";

/** The operation being applied (recorded before its first write; cleared by its last). */
export interface ExplorationOp {
  id: string;
  kind: OpKind;
  /** World time before and after (absolute); null when the operation does not move it. */
  time: { before: number; after: number } | null;
  lights: LightChange[];
  /** The card to post (advances that cover a turn or more); null: none. */
  card: AdvanceCard | null;
  /** The record's fields once applied. */
  target: { state: ExplorationState | null; time: number; restDue: boolean };
  /** The GM (user and page load) that executes it, recorded with it (operations.ts). */
  executor?: Executor | null;
}

export interface ExplorationRecord {
  v: 1;
  /** Moves on with every change: a request names the revision it was made from (a stale panel is refused). */
  rev: number;
  /** The rules' state; null when no exploration is under way. */
  state: ExplorationState | null;
  /** The world time at the end of the last turn counted (seconds). */
  time: number;
  party: PartyMember[];
  /** The party must rest now (from the last advance). */
  restDue: boolean;
  op: ExplorationOp | null;
}

export const EMPTY_RECORD: ExplorationRecord = {
  v: 1,
  rev: 0,
  state: null,
  time: 0,
  party: [],
  restDue: false,
  op: null,
};

/** The largest world time a record may hold (seconds): far beyond any calendar, but a finite number. */
const MAX_TIME = 1e15;
const MAX_NAME = 200;

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);
const isId = (v: unknown): v is string => typeof v === "string" && DOCUMENT_ID.test(v);
const isInt = (v: unknown, min: number, max: number): v is number =>
  typeof v === "number" && Number.isInteger(v) && v >= min && v <= max;
const isTime = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && Math.abs(v) <= MAX_TIME;
const isRadius = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v >= 0 && v <= 1e6;
const isName = (v: unknown): v is string => typeof v === "string" && v.length <= MAX_NAME;

/** The rules' light id of a token's light: "<scene id>.<token id>". */
export function lightId(ref: TokenRef): string {
  return `${ref.sceneId}.${ref.tokenId}`;
}

/** The token a light id names, or null. */
export function lightToken(id: string): TokenRef | null {
  const [sceneId, tokenId, ...rest] = id.split(".");
  return isId(sceneId) && isId(tokenId) && rest.length === 0 ? { sceneId, tokenId } : null;
}

/** The rules check a state field by field before using it (and throw a RulesError on anything malformed). */
const checkedByRules = restPenaltyOf as (state: unknown) => number;

/** The rules' state, checked by the rules themselves (every field: ruleset, turns, lights, options). */
function isState(v: unknown): v is ExplorationState {
  if (!isObject(v) || typeof v.ruleset !== "string" || !(RULESETS as readonly string[]).includes(v.ruleset))
    return false;
  try {
    checkedByRules(v);
  } catch {
    return false;
  }
  return (
    Array.isArray(v.lights) &&
    v.lights.every((l) => isObject(l) && typeof l.id === "string" && lightToken(l.id) !== null)
  );
}

function readRef(v: unknown): TokenRef | null {
  return isObject(v) && isId(v.sceneId) && isId(v.tokenId) ? { sceneId: v.sceneId, tokenId: v.tokenId } : null;
}

function readMember(v: unknown): PartyMember | null {
  const ref = readRef(v);
  return ref && isObject(v) && isName(v.name) ? { ...ref, name: v.name } : null;
}

export function readTokenLight(v: unknown): TokenLight | null {
  if (!isObject(v) || !isRadius(v.dim) || !isRadius(v.bright)) return null;
  let remembered: TokenLight["remembered"] = null;
  if (v.remembered !== null && v.remembered !== undefined) {
    const r = v.remembered;
    if (!isObject(r) || !isRadius(r.dim) || !isRadius(r.bright)) return null;
    remembered = { dim: r.dim, bright: r.bright };
  }
  return { dim: v.dim, bright: v.bright, remembered };
}

function readLightChange(v: unknown): LightChange | null {
  const m = readMember(v);
  if (!m || !isObject(v)) return null;
  const before = readTokenLight(v.before);
  const after = readTokenLight(v.after);
  return before && after ? { ...m, before, after } : null;
}

function readCheck(v: unknown): WanderingCheck | null {
  if (!isObject(v) || !isInt(v.turn, 1, 1e6) || !isInt(v.roll, 1, 100) || typeof v.encounter !== "boolean") return null;
  return { turn: v.turn, roll: v.roll, encounter: v.encounter };
}

function readCard(v: unknown): AdvanceCard | null | undefined {
  if (v === null) return null;
  if (!isObject(v) || !(ADVANCE_ACTIONS as readonly string[]).includes(String(v.action))) return undefined;
  if (!isTime(v.seconds) || !isInt(v.turnFrom, 0, 1e6) || !isInt(v.turnTo, 0, 1e6) || !isInt(v.notRolled, 0, 1e6))
    return undefined;
  if (
    !isInt(v.die, 2, 100) ||
    !isInt(v.chance, 0, 100) ||
    typeof v.restDue !== "boolean" ||
    !isInt(v.attackPenalty, -20, 0) ||
    !isInt(v.turnsSinceRest, 0, 1e6)
  )
    return undefined;
  if (
    !Array.isArray(v.checks) ||
    v.checks.length > MAX_CHECKS ||
    !Array.isArray(v.lightsOut) ||
    v.lightsOut.length > 100
  )
    return undefined;
  const checks = v.checks.map(readCheck);
  const lightsOut = v.lightsOut.map((l) =>
    isObject(l) && isName(l.name) && (LIGHT_KINDS as readonly string[]).includes(String(l.kind))
      ? { name: l.name, kind: l.kind as LightKind }
      : null,
  );
  if (checks.some((c) => !c) || lightsOut.some((l) => !l)) return undefined;
  return {
    action: v.action as AdvanceAction,
    seconds: v.seconds,
    turnFrom: v.turnFrom,
    turnTo: v.turnTo,
    checks: checks as WanderingCheck[],
    notRolled: v.notRolled,
    die: v.die,
    chance: v.chance,
    // A card recorded before the field existed was planned with the checks on.
    wandering: v.wandering !== false,
    restDue: v.restDue,
    attackPenalty: v.attackPenalty,
    turnsSinceRest: v.turnsSinceRest,
    lightsOut: lightsOut as AdvanceCard["lightsOut"],
  };
}

function readOp(v: unknown): ExplorationOp | null | undefined {
  if (v === null || v === undefined) return null;
  if (!isObject(v) || !isId(v.id) || (v.kind !== "advance" && v.kind !== "light" && v.kind !== "putOut"))
    return undefined;
  let time: ExplorationOp["time"] = null;
  if (v.time !== null) {
    if (!isObject(v.time) || !isTime(v.time.before) || !isTime(v.time.after)) return undefined;
    time = { before: v.time.before, after: v.time.after };
  }
  if (!Array.isArray(v.lights) || v.lights.length > 100) return undefined;
  const lights = v.lights.map(readLightChange);
  if (lights.some((l) => !l)) return undefined;
  const card = readCard(v.card);
  if (card === undefined) return undefined;
  const t = v.target;
  if (!isObject(t) || !(t.state === null || isState(t.state)) || !isTime(t.time) || typeof t.restDue !== "boolean")
    return undefined;
  return {
    id: v.id,
    kind: v.kind,
    time,
    lights: lights as LightChange[],
    card,
    target: { state: t.state as ExplorationState | null, time: t.time, restDue: t.restDue },
    ...(v.executor !== undefined ? { executor: readExecutor(v.executor) } : {}),
  };
}

/** The stored record, checked field by field; a malformed one reads as no exploration (EMPTY_RECORD, revision kept when readable). */
export function readRecord(raw: unknown): ExplorationRecord {
  if (!isObject(raw) || raw.v !== 1 || !isInt(raw.rev, 0, Number.MAX_SAFE_INTEGER)) return { ...EMPTY_RECORD };
  const rev = raw.rev;
  const op = readOp(raw.op);
  if (
    op === undefined ||
    !(raw.state === null || isState(raw.state)) ||
    !isTime(raw.time) ||
    typeof raw.restDue !== "boolean"
  )
    return { ...EMPTY_RECORD, rev };
  if (!Array.isArray(raw.party) || raw.party.length > MAX_PARTY) return { ...EMPTY_RECORD, rev };
  const party = raw.party.map(readMember);
  if (party.some((m) => !m)) return { ...EMPTY_RECORD, rev };
  return {
    v: 1,
    rev,
    state: raw.state as ExplorationState | null,
    time: raw.time,
    party: party as PartyMember[],
    restDue: raw.restDue,
    op,
  };
}

/** A ruleset id of the rules (re-exported for the request's checks). */
export type { RulesetId };
