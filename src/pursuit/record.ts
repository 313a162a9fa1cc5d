/**
 * A chase's state as stored on its chat cards (flags.aventure.pursuit), read back field by field. Any user can post a
 * message carrying any flags, so the caller reads the flag only from a card a GM wrote (cards.ts gmCardFlag), and this
 * module checks everything in it before the chase goes on from it (docs/security.md): ids, step bounds, ruleset,
 * place, groups, the outdoor or dungeon state through the rules' own checks, and the apply record. Pure: no Foundry
 * globals.
 */
import { checkStoredDungeonChase, checkStoredPursuitState, isRuleset, num, oneOf } from "../rules/index.js";
import {
  PURSUIT_PLACES,
  SURPRISE_CHOICES,
  type ChaseRecord,
  type ExhaustTarget,
  type GroupInput,
  type StepApply,
} from "./pursuit-context.js";
import { PURSUIT_SIDES } from "./groups.js";
import { readExecutor } from "../core/operations.js";
import { DOCUMENT_ID } from "../core/values.js";

/** A document id (Foundry's are 16 alphanumerics; up to 64 accepted). */
export const DOC_ID = DOCUMENT_ID;
/** The most steps a chase may have (a step per card; far beyond any chase the rules can produce). */
export const MAX_CHASE_STEPS = 10000;
/** The most tokens in a group, and the longest name kept. */
export const MAX_GROUP_TOKENS = 200;
const MAX_NAME = 200;
/** The largest group and speed a chase accepts (members; metres per round). */
export const MAX_GROUP_SIZE = 100000;
export const MAX_SPEED = 1000;

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);
const isId = (v: unknown): v is string => typeof v === "string" && DOC_ID.test(v);
const isName = (v: unknown): v is string => typeof v === "string" && v.length <= MAX_NAME;
const isInt = (v: unknown, min: number, max: number): v is number =>
  typeof v === "number" && Number.isInteger(v) && v >= min && v <= max;
const isNum = (v: unknown, min: number, max: number): v is number =>
  typeof v === "number" && Number.isFinite(v) && v >= min && v <= max;

function readGroup(v: unknown): GroupInput | null {
  if (!isObject(v)) return null;
  if (!isInt(v.count, 1, MAX_GROUP_SIZE) || !isNum(v.speed, 0, MAX_SPEED)) return null;
  if (!Array.isArray(v.tokenIds) || v.tokenIds.length > MAX_GROUP_TOKENS || !v.tokenIds.every(isId)) return null;
  if (!Array.isArray(v.names) || v.names.length > MAX_GROUP_TOKENS || !v.names.every(isName)) return null;
  return { count: v.count, speed: v.speed, tokenIds: [...v.tokenIds], names: [...v.names] };
}

function readTarget(v: unknown): ExhaustTarget | null {
  if (!isObject(v) || !isId(v.sceneId) || !isId(v.tokenId) || !isName(v.name)) return null;
  return { sceneId: v.sceneId, tokenId: v.tokenId, name: v.name };
}

function readProblems(v: unknown): StepApply["problems"] {
  if (!Array.isArray(v)) return undefined;
  const out: NonNullable<StepApply["problems"]> = [];
  for (const p of v.slice(0, 50)) {
    if (!isObject(p) || typeof p.key !== "string" || !p.key.startsWith("AVENTURE.") || !isObject(p.data)) continue;
    const data: Record<string, string | number> = {};
    for (const [k, x] of Object.entries(p.data))
      if ((typeof x === "string" && x.length <= MAX_NAME * 2) || (typeof x === "number" && Number.isFinite(x)))
        data[k] = x;
    out.push({ key: p.key, data });
  }
  return out;
}

/** The apply record of a step (absent: nothing to apply). Null when malformed. */
function readApply(v: unknown): StepApply | null | undefined {
  if (v === undefined) return undefined;
  if (!isObject(v) || (v.status !== "applying" && v.status !== "applied")) return null;
  let time: StepApply["time"] = null;
  if (v.time !== null) {
    const tm = v.time;
    if (!isObject(tm) || !isNum(tm.before, -1e15, 1e15) || !isNum(tm.after, -1e15, 1e15)) return null;
    time = { before: tm.before, after: tm.after };
  }
  let exhaust: StepApply["exhaust"] = null;
  if (v.exhaust !== null) {
    const e = v.exhaust;
    if (!isObject(e) || !Array.isArray(e.targets) || e.targets.length > 2 * MAX_GROUP_TOKENS) return null;
    const targets = e.targets.map(readTarget);
    if (targets.some((x) => x === null)) return null;
    if (!isInt(e.penalty, -100, 0) || !isNum(e.startTime, -1e15, 1e15)) return null;
    if (e.restTurns !== null && !isInt(e.restTurns, 0, 1000)) return null;
    if (e.restSeconds !== null && !isNum(e.restSeconds, 0, 1e9)) return null;
    exhaust = {
      targets: targets as ExhaustTarget[],
      penalty: e.penalty,
      restTurns: e.restTurns as number | null,
      restSeconds: e.restSeconds as number | null,
      startTime: e.startTime,
    };
  }
  const problems = readProblems(v.problems);
  return {
    status: v.status,
    time,
    exhaust,
    ...(v.resumed === true ? { resumed: true } : {}),
    ...(problems ? { problems } : {}),
    ...(v.executor !== undefined ? { executor: readExecutor(v.executor) } : {}),
  };
}

/**
 * The chase record of a card, checked field by field; null for anything malformed (the card is then ignored: no
 * Continue, never the "latest" state of its chase). `raw` must come from a card a GM wrote (gmCardFlag).
 */
export function readChaseRecord(raw: unknown): ChaseRecord | null {
  try {
    if (!isObject(raw) || raw.version !== 1 || !isId(raw.id) || !isId(raw.startedBy)) return null;
    if (!isInt(raw.step, 1, MAX_CHASE_STEPS) || !isRuleset(raw.ruleset)) return null;
    const place = oneOf("place", raw.place, PURSUIT_PLACES);
    const fleeingSide = oneOf("fleeingSide", raw.fleeingSide, PURSUIT_SIDES);
    const surprise = oneOf("surprise", raw.surprise, SURPRISE_CHOICES);
    if (raw.sceneId !== null && !isId(raw.sceneId)) return null;
    if (!isObject(raw.groups)) return null;
    const party = readGroup(raw.groups.party);
    const opponents = readGroup(raw.groups.opponents);
    if (!party || !opponents) return null;
    if (typeof raw.over !== "boolean") return null;
    const shownFrom = num("shownFrom", raw.shownFrom, { min: raw.step - 1, max: raw.step - 1, integer: true });
    if (
      !Array.isArray(raw.exhaustedActors) ||
      raw.exhaustedActors.length > 2 * MAX_GROUP_TOKENS ||
      !raw.exhaustedActors.every(isName)
    )
      return null;
    // One place, its state; one log entry per step (the first card holds the first day or the start).
    let outdoors: ChaseRecord["outdoors"] = null;
    let dungeon: ChaseRecord["dungeon"] = null;
    if (place === "outdoors") {
      if (raw.dungeon !== null) return null;
      outdoors = checkStoredPursuitState(raw.outdoors);
      if (outdoors.log.length !== raw.step) return null;
    } else {
      if (raw.outdoors !== null) return null;
      dungeon = checkStoredDungeonChase(raw.dungeon);
      if (dungeon.ruleset !== raw.ruleset || dungeon.log.length !== raw.step) return null;
    }
    if (raw.over !== ((outdoors ?? dungeon)!.outcome !== "continues")) return null;
    const apply = readApply(raw.apply);
    if (apply === null) return null;
    return {
      version: 1,
      id: raw.id,
      step: raw.step,
      place,
      ruleset: raw.ruleset,
      fleeingSide,
      sceneId: raw.sceneId as string | null,
      groups: { party, opponents },
      surprise,
      startedBy: raw.startedBy,
      outdoors,
      dungeon,
      over: raw.over,
      shownFrom,
      exhaustedActors: [...(raw.exhaustedActors as string[])],
      ...(apply ? { apply } : {}),
    };
  } catch {
    return null;
  }
}
