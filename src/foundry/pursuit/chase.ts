/**
 * The chase itself, run on the active GM (query "aventure.pursuit"): validates what a client sends,
 * checks that a player only flees with tokens they own, calls the rules (pursuitDay, startDungeonChase,
 * dungeonChaseRound...), rolls with Foundry's Roll, posts one chat card per step with its rolls attached
 * and the whole chase state in flags.aventure.pursuit (so a chase survives a reload), advances world
 * time per outdoor day (setting) and applies the running exhaustion effect.
 */
import { template } from "../../constants.js";
import {
  PURSUIT_DAY_SECONDS,
  DUNGEON_CHASE_ENDS,
  bool,
  compareSpeeds,
  dungeonChaseDrop,
  dungeonChaseEnd,
  dungeonChaseRound,
  dungeonRunRestSeconds,
  evasionAdjustment,
  evasionChance,
  nonNeg,
  num,
  oneOf,
  pursuitDay,
  startDungeonChase,
  startPursuit,
  type DungeonChaseEvent,
} from "../../rules/index.js";
import {
  PURSUIT_PLACES,
  SURPRISE_CHOICES,
  pursuitCardContext,
  type ChaseRecord,
  type GroupInput,
  type PursuitSetup,
} from "../../apps/pursuit-context.js";
import { adapterFor } from "../adapters/adapter.js";
import { postCard } from "../chat.js";
import { foundryDice } from "../dice.js";
import { t, UserError } from "../i18n.js";
import { getSetting } from "../settings.js";
import { assertOwner } from "../tokens.js";
import { PURSUIT_SIDES, otherSide, type PursuitSide } from "./groups.js";
import { applyRunExhaustion, type EffectActor } from "./effects.js";

export const PURSUIT_QUERY = "pursuit";
export const PURSUIT_OPS = ["start", "day", "round", "drop", "end"] as const;
export type PursuitOp = (typeof PURSUIT_OPS)[number];

/** What a client sends to the GM. */
export type PursuitRequest =
  | { op: "start"; setup: PursuitSetup }
  | { op: "day"; chaseId: string; step: number; woods: boolean; woodsBonus: number; twiceFast: boolean; fastBonus: number }
  | { op: "round" | "drop"; chaseId: string; step: number }
  | { op: "end"; chaseId: string; step: number; how: (typeof DUNGEON_CHASE_ENDS)[number] };

// ------------------------------------------------------------------------------------ validation

function obj(name: string, v: unknown): Record<string, unknown> {
  if (v === null || typeof v !== "object" || Array.isArray(v)) throw new UserError("AVENTURE.Error.Missing", { name });
  return v as Record<string, unknown>;
}

function str(name: string, v: unknown): string {
  if (typeof v !== "string" || v === "" || v.length > 64) throw new UserError("AVENTURE.Error.Missing", { name });
  return v;
}

function requiredBool(name: string, v: unknown): boolean {
  if (v === undefined) throw new UserError("AVENTURE.Error.Missing", { name });
  return bool(name, v, false);
}

function ids(name: string, v: unknown): string[] {
  if (!Array.isArray(v) || v.length > 200) throw new UserError("AVENTURE.Error.Missing", { name });
  return v.map((x, i) => str(`${name}[${i}]`, x));
}

function group(name: string, v: unknown): GroupInput {
  const g = obj(name, v);
  return {
    count: num("groupSize", g.count, { min: 1, max: 100000, integer: true }),
    speed: nonNeg("groupSpeed", g.speed),
    tokenIds: ids(`${name}.tokenIds`, g.tokenIds),
    names: [],
  };
}

/** Checks every field of a setup sent by a client; throws a localized error on the first bad one. */
export function validateSetup(raw: unknown): PursuitSetup {
  const s = obj("setup", raw);
  const groups = obj("groups", s.groups);
  const setup: PursuitSetup = {
    place: oneOf("place", s.place, PURSUIT_PLACES),
    fleeingSide: oneOf("fleeingSide", s.fleeingSide, PURSUIT_SIDES),
    sceneId: s.sceneId === null ? null : str("sceneId", s.sceneId),
    groups: { party: group("party", groups.party), opponents: group("opponents", groups.opponents) },
    surprise: oneOf("surprise", s.surprise, SURPRISE_CHOICES),
    woods: requiredBool("woods", s.woods),
    woodsBonus: evasionAdjustment("woodsBonus", s.woodsBonus),
    twiceFast: requiredBool("twiceFast", s.twiceFast),
    fastBonus: evasionAdjustment("fastBonus", s.fastBonus),
    dropped: requiredBool("dropped", s.dropped),
    combatStarted: requiredBool("combatStarted", s.combatStarted),
    reactionTotal: s.reactionTotal === null ? null : num("reactionTotal", s.reactionTotal, { integer: true, min: -20, max: 40 }),
  };
  const both = setup.groups.party.tokenIds.filter((id) => setup.groups.opponents.tokenIds.includes(id));
  if (both.length) throw new UserError("AVENTURE.Pursuit.error.twice");
  return setup;
}

// ------------------------------------------------------------------------------------ tokens

interface TokenDocLike {
  id: string | null;
  name: string;
  actor: (EffectActor & { name: string }) | null;
  testUserPermission(user: User, level: "OWNER"): boolean;
}

/**
 * The token documents named by a chase. `missing: "throw"` (a flight being checked) refuses a scene or token
 * that is gone; `"skip"` (the GM applying the running exhaustion mid-chase) leaves out those removed since.
 */
function sceneTokens(sceneId: string | null, tokenIds: readonly string[], missing: "throw" | "skip" = "throw"): TokenDocLike[] {
  if (!tokenIds.length) return [];
  const scenes = (game as unknown as { scenes: { get(id: string): { tokens: { get(id: string): TokenDocLike | undefined } } | undefined } }).scenes;
  const scene = sceneId ? scenes.get(sceneId) : undefined;
  if (!scene) {
    if (missing === "skip") return [];
    throw new UserError("AVENTURE.Pursuit.error.noScene");
  }
  const out: TokenDocLike[] = [];
  for (const id of tokenIds) {
    const tok = scene.tokens.get(id);
    if (tok) out.push(tok);
    else if (missing === "throw") throw new UserError("AVENTURE.Pursuit.error.noToken", { id });
  }
  return out;
}

interface CombatLike {
  started?: boolean;
  combatants?: Iterable<{ tokenId?: string | null }>;
}

/**
 * Whether a started combat includes one of these tokens: flight is then impossible (RULES.md §8.1, §8.3).
 * Looks at every combat of the world (the GM answering a query may view another scene); token ids are
 * random 16-character ids, so they are matched alone.
 */
export function combatUnderway(tokenIds: readonly string[]): boolean {
  if (!tokenIds.length) return false;
  const combats = (game as unknown as { combats?: { contents?: CombatLike[] } }).combats?.contents ?? [];
  for (const combat of combats) {
    if (!combat.started || !combat.combatants) continue;
    for (const c of combat.combatants) if (c.tokenId && tokenIds.includes(c.tokenId)) return true;
  }
  return false;
}

/** A player may only run a flight whose fleeing group is made of tokens they own (GMs: any). */
function assertMayFlee(sender: User, tokens: TokenDocLike[]): void {
  if (sender.isGM) return;
  if (!tokens.length) throw new UserError("AVENTURE.Pursuit.error.ownTokens");
  for (const tok of tokens) assertOwner(sender, tok);
}

/**
 * What only the referee decides for the monsters: a reaction total already rolled (pmt: whether they
 * pursue) and the end of a dungeon chase (out of sight, they give up, caught). A player's flight rolls the
 * reaction on the GM's side; the GM ends the chase.
 */
function assertRefereeInput(sender: User, what: "reaction" | "end"): void {
  if (sender.isGM) return;
  throw new UserError(what === "reaction" ? "AVENTURE.Pursuit.error.gmReaction" : "AVENTURE.Pursuit.error.gmEnds");
}

// ------------------------------------------------------------------------------------ chat state

interface MessageLike {
  flags?: Record<string, Record<string, unknown> | undefined>;
}

function isRecord(v: unknown): v is ChaseRecord {
  return !!v && typeof v === "object" && (v as ChaseRecord).version === 1 && typeof (v as ChaseRecord).id === "string";
}

/** Every chase card in the chat log, oldest first. */
function chaseCards(): ChaseRecord[] {
  const messages = (game as unknown as { messages: { contents: MessageLike[] } }).messages.contents;
  return messages.map((m) => m.flags?.aventure?.pursuit).filter(isRecord);
}

/** The latest state of a chase (its newest card), or null. */
export function latestChase(chaseId: string): ChaseRecord | null {
  let best: ChaseRecord | null = null;
  for (const r of chaseCards()) if (r.id === chaseId && (!best || r.step > best.step)) best = r;
  return best ? structuredClone(best) : null;
}

/** The newest unfinished chase in the chat log that `user` may continue, or null. */
export function resumableChase(user: User): ChaseRecord | null {
  const latest = new Map<string, ChaseRecord>();
  for (const r of chaseCards()) if (!latest.has(r.id) || r.step > latest.get(r.id)!.step) latest.set(r.id, r);
  const open = [...latest.values()].filter((r) => !r.over && (user.isGM || r.startedBy === user.id));
  return open.length ? structuredClone(open.at(-1)!) : null;
}

function newId(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 36 ** 6).toString(36)}`;
}

async function post(record: ChaseRecord, rolls: Roll[]): Promise<void> {
  const l = (k: string, d?: Record<string, string | number>) => t(k, d);
  await postCard({ template: template("pursuit/card.hbs"), context: pursuitCardContext(record, l), rolls, flags: { pursuit: record } });
}

// ------------------------------------------------------------------------------------ the steps

const busy = new Set<string>();

async function start(setup: PursuitSetup, sender: User): Promise<ChaseRecord> {
  const ruleset = getSetting("ruleset");
  const fleeingSide = setup.fleeingSide;
  const pursuingSide = otherSide(fleeingSide);
  const tokens = {
    party: sceneTokens(setup.sceneId, setup.groups.party.tokenIds),
    opponents: sceneTokens(setup.sceneId, setup.groups.opponents.tokenIds),
  };
  assertMayFlee(sender, tokens[fleeingSide]);
  if (setup.reactionTotal !== null) assertRefereeInput(sender, "reaction");
  for (const side of PURSUIT_SIDES) setup.groups[side].names = tokens[side].map((x) => x.name);
  const f = setup.groups[fleeingSide];
  const p = setup.groups[pursuingSide];
  const surprised = setup.surprise === "fleeing" || setup.surprise === "pursuers" ? setup.surprise : null;
  const dice = foundryDice();
  const record: ChaseRecord = {
    version: 1,
    id: newId(),
    step: 1,
    place: setup.place,
    ruleset,
    fleeingSide,
    sceneId: setup.sceneId,
    groups: setup.groups,
    surprise: setup.surprise,
    startedBy: sender.id!,
    outdoors: null,
    dungeon: null,
    over: false,
    shownFrom: 0,
    exhaustedActors: [],
  };
  if (setup.place === "outdoors") {
    // Validate the whole table input before any die is rolled.
    evasionChance({ fleeing: f.count, pursuers: p.count });
    const initial = startPursuit({
      fleeing: f.count,
      pursuers: p.count,
      fleeingBonus: setup.woods ? setup.woodsBonus : 0,
      pursuerBonus: setup.twiceFast ? setup.fastBonus : 0,
      pursuersFaster: compareSpeeds(f.speed, p.speed).pursuersFaster,
      surprised,
    });
    // The first attempt to escape is made at once (day 1 of the chase).
    record.outdoors = (await pursuitDay(initial, dice)).state;
    record.over = record.outdoors.outcome !== "continues";
  } else {
    const { state } = await startDungeonChase(
      {
        ruleset,
        fleeingSpeed: f.speed,
        pursuerSpeed: p.speed,
        // The GM checks it too: a started combat with any of these tokens makes flight impossible.
        combatStarted: setup.combatStarted || combatUnderway([...setup.groups.party.tokenIds, ...setup.groups.opponents.tokenIds]),
        surprised,
        monstersPursue: fleeingSide === "party",
        reactionTotal: setup.reactionTotal,
        dropped: setup.dropped,
      },
      dice,
    );
    record.dungeon = state;
    record.over = state.outcome !== "continues";
  }
  await post(record, dice.rolls);
  return record;
}

async function step(req: Exclude<PursuitRequest, { op: "start" }>, current: ChaseRecord, sender: User): Promise<ChaseRecord> {
  if (!sender.isGM) {
    if (req.op === "end") assertRefereeInput(sender, "end");
    assertMayFlee(sender, sceneTokens(current.sceneId, current.groups[current.fleeingSide].tokenIds));
  }
  const dice = foundryDice();
  const next: ChaseRecord = { ...current, step: current.step + 1, exhaustedActors: [] };
  let advance = 0;
  if (req.op === "day") {
    if (!current.outdoors) throw new UserError("AVENTURE.Pursuit.error.wrongPlace");
    const state = {
      ...current.outdoors,
      fleeingBonus: requiredBool("woods", req.woods) ? evasionAdjustment("woodsBonus", req.woodsBonus) : 0,
      pursuerBonus: requiredBool("twiceFast", req.twiceFast) ? evasionAdjustment("fastBonus", req.fastBonus) : 0,
    };
    next.shownFrom = state.log.length;
    const r = await pursuitDay(state, dice);
    next.outdoors = r.state;
    next.over = r.state.outcome !== "continues";
    if (getSetting("pursuitAdvanceTime")) advance = PURSUIT_DAY_SECONDS;
  } else {
    const chase = current.dungeon;
    if (!chase) throw new UserError("AVENTURE.Pursuit.error.wrongPlace");
    next.shownFrom = chase.log.length;
    let event: DungeonChaseEvent;
    if (req.op === "round") {
      const r = dungeonChaseRound(chase);
      next.dungeon = r.state;
      event = r.event;
      if (event.reason === "exhausted" && r.run.penalty !== 0) next.exhaustedActors = await exhaust(current, r.run.penalty, r.run.restTurns);
    } else if (req.op === "drop") {
      const r = await dungeonChaseDrop(chase, dice);
      next.dungeon = r.state;
      event = r.event;
    } else {
      const r = dungeonChaseEnd(chase, oneOf("how", (req as { how?: unknown }).how, DUNGEON_CHASE_ENDS));
      next.dungeon = r.state;
      event = r.event;
    }
    next.over = event.outcome !== "continues";
  }
  await post(next, dice.rolls);
  if (advance) await game.time.advance(advance);
  return next;
}

/**
 * Applies the running exhaustion to the actors of both groups' tokens still on the scene (once per actor);
 * returns the names of those that got it. The actors are collected before the first effect is created.
 */
async function exhaust(record: ChaseRecord, penalty: number, restTurns: number | null): Promise<string[]> {
  const adapter = adapterFor();
  const actors = new Set<EffectActor & { name: string }>();
  for (const side of PURSUIT_SIDES) {
    for (const tok of sceneTokens(record.sceneId, record.groups[side].tokenIds, "skip")) if (tok.actor) actors.add(tok.actor);
  }
  const names: string[] = [];
  const opts = { penalty, restTurns, restSeconds: dungeonRunRestSeconds(record.ruleset), worldTime: game.time.worldTime };
  for (const actor of actors) {
    if (await applyRunExhaustion(actor, adapter.id, opts, (k, d) => t(k, d))) names.push(actor.name);
  }
  return names;
}

/**
 * The GM side of the query: validates the request and runs one step. A step names the chase and the
 * step it continues from; a request for a chase that has moved on (another GM or player clicked first)
 * is refused, so each step runs once.
 */
export async function handlePursuitRequest(raw: unknown, sender: User): Promise<ChaseRecord> {
  const data = obj("request", raw);
  const op = oneOf("op", data.op, PURSUIT_OPS);
  if (op === "start") return start(validateSetup(data.setup), sender);
  const chaseId = str("chaseId", data.chaseId);
  const at = num("step", data.step, { min: 1, integer: true });
  if (busy.has(chaseId)) throw new UserError("AVENTURE.Pursuit.error.moved");
  busy.add(chaseId);
  try {
    const current = latestChase(chaseId);
    if (!current) throw new UserError("AVENTURE.Pursuit.error.noChase");
    if (current.step !== at) throw new UserError("AVENTURE.Pursuit.error.moved");
    if (current.over) throw new UserError("AVENTURE.Pursuit.error.over");
    return await step(data as Exclude<PursuitRequest, { op: "start" }>, current, sender);
  } finally {
    busy.delete(chaseId);
  }
}
