/**
 * The chase itself, run on the active GM (request "pursuit", docs/security.md): validates what a client sends, checks
 * who may do it with the sender the server reported, calls the rules (pursuitDay, startDungeonChase,
 * dungeonChaseRound...), rolls with Foundry's Roll, posts one chat card per step with its rolls attached and the whole
 * chase state as the card's system (sub-type aventure.pursuit, chase-card.ts: so a chase survives a reload), advances
 * world time per outdoor day (setting)
 * and applies the running exhaustion effect.
 *
 * Who may do what:
 * - a GM: anything;
 * - a player: a flight whose fleeing group is made of tokens they own (at least one). When the flight would change
 *   what is not theirs — pursuers they do not own (the running exhaustion would land on them), or outdoors with the
 *   world time setting on (each day moves world time) — it is not run: it becomes a proposal for the GMs (Apply /
 *   Decline, proposals.ts). Once a GM applies it (or a GM started the chase), the player plays its later steps, their
 *   fleeing tokens checked again each time. A reaction total already rolled and the end of a dungeon chase are the
 *   referee's (refused from a player).
 *
 * Trusted state: a chase is read only from cards a GM wrote, through the chase card's data model (chase-card.ts).
 * A step names the chase and the step it continues from: a second click on a step already played is refused, and the
 * GM that plays a step first claims it on the chase's latest card (operations.ts claimFirst, read back before any die
 * is rolled): two requests for the same step, even on two GMs across a handover, play it once.
 *
 * Exactly once: a step that writes more than its card (an outdoor day's world time, the running exhaustion) posts its
 * card first, marked "applying" with what it will write (world time before and after, absolute; the tokens whose
 * actors get the effect). The writes are state-based steps (operations.ts): world time is advanced only while it is
 * still the "before" value; an effect is created only while the actor has none from this step (flags.aventure.chase).
 * The card is then marked "applied". The card records the GM that executes these writes, and only that GM runs them
 * (each checked before it is made: operations.ts). A step interrupted by a reload or a GM who left is finished by the
 * active GM on ready (recovery) — or before the next step of that chase — once its executor is gone, and its card
 * says what was and was not applied; while another GM still executes it, the next step is refused ("busy").
 */
import { announce } from "../core/extension-hooks.js";
import { assertFeature, featureRuleset } from "../core/features.js";
import { template } from "../core/constants.js";
import {
  PURSUIT_DAY_SECONDS,
  DUNGEON_CHASE_ENDS,
  EVASION_ADJUSTMENT,
  compareSpeeds,
  dungeonChaseDrop,
  dungeonChaseEnd,
  dungeonChaseRound,
  dungeonFlightDetail,
  dungeonRunRestSeconds,
  encounterRules,
  evasionChance,
  pursuitDay,
  reactionTotal,
  startDungeonChase,
  startPursuit,
  type DungeonChaseEvent,
} from "../rules/index.js";
import {
  PURSUIT_PLACES,
  SURPRISE_CHOICES,
  proposalLines,
  pursuitCardContext,
  type ChaseRecord,
  type ExhaustTarget,
  type GroupInput,
  type PursuitSetup,
  type StepApply,
} from "./pursuit-context.js";
import { adapterFor } from "../actors/api.js";
import { cardDeletion, cardState, cardUpdate } from "../core/card-model.js";
import { postCard } from "../core/chat.js";
import { renderTemplateCompat } from "../core/compat.js";
import { foundryDice } from "../core/dice.js";
import { isActiveGM } from "../core/gm.js";
import { t, UserError } from "../core/i18n.js";
import {
  claimFirst,
  CLIENT_ID,
  execute,
  executorStamp,
  finishFirst,
  readClaims,
  registerRecovery,
  resume,
  runSteps,
  staleOwnClaims,
  valueState,
  type Claims,
  type ClaimTarget,
  type Executor,
  type Guard,
  type ReadBack,
  type Step,
  type StepGuard,
} from "../core/operations.js";
import { propose, registerProposalKind } from "../core/proposals.js";
import { registerRequest } from "../core/requests.js";
import { getSetting } from "../core/settings.js";
import { docIdField, flagModel, nullableDocIdField, type Fields } from "../core/flag-model.js";
import { wordRefusal, type Bounded } from "../core/refusal.js";
import { isRecord } from "../core/values.js";
import { assertOwner } from "../light/api.js";
import { PURSUIT_SIDES, otherSide } from "./groups.js";
import { applyRunExhaustion, hasRunExhaustion, runExhaustionState, type EffectActor } from "./effects.js";
import {
  CHASE_CARD,
  MAX_CHASE_STEPS,
  MAX_GROUP_SIZE,
  MAX_GROUP_TOKENS,
  MAX_SPEED,
  chaseRecordOf,
  type ChaseCardState,
} from "./chase-card.js";

export const PURSUIT_REQUEST = "pursuit";
export const PURSUIT_OPS = ["start", "day", "round", "drop", "end"] as const;
export type PursuitOp = (typeof PURSUIT_OPS)[number];

/** What a client sends to the GM. */
export type PursuitRequest =
  | { op: "start"; setup: PursuitSetup }
  | {
      op: "day";
      chaseId: string;
      step: number;
      woods: boolean;
      woodsBonus: number;
      twiceFast: boolean;
      fastBonus: number;
    }
  | { op: "round" | "drop"; chaseId: string; step: number }
  | { op: "end"; chaseId: string; step: number; how: (typeof DUNGEON_CHASE_ENDS)[number] };

/** What the GM answers: the chase as it now stands, or that a GM was asked (a player's flight, proposals.ts). */
export type PursuitReply = ChaseRecord | { proposed: true };

/** Why a player's flight goes to the GMs: pursuers that are not theirs; world time moved by the outdoor days. */
export type ProposalReason = "pursuers" | "time";

// ------------------------------------------------------------------------------------ the payloads

const docId = docIdField;
const flag = (f: Fields) => new f.BooleanField({ required: true, nullable: false, initial: undefined });
const adjustment = (f: Fields) =>
  new f.NumberField({
    required: true,
    nullable: false,
    integer: true,
    min: EVASION_ADJUSTMENT.min,
    max: EVASION_ADJUSTMENT.max,
    initial: undefined,
  });
/** A group: its size (1..MAX_GROUP_SIZE), its speed (0..MAX_SPEED m/round), its tokens (at most MAX_GROUP_TOKENS). */
const groupSchema = (f: Fields) => ({
  count: new f.NumberField({
    required: true,
    nullable: false,
    integer: true,
    min: 1,
    max: MAX_GROUP_SIZE,
    initial: undefined,
  }),
  speed: new f.NumberField({ required: true, nullable: false, min: 0, max: MAX_SPEED, initial: undefined }),
  tokenIds: new f.ArrayField(docId(f), { required: true, nullable: false, max: MAX_GROUP_TOKENS, initial: undefined }),
});
/**
 * A flight's setup: place, who flees, the scene (null: none), the groups, surprise, the four flags, the adjustments
 * (20..25) and a reaction total (an integer −20..40, or null; the ruleset's own range is checked when it is used).
 * A group's names are the GM's to read from the tokens (a client's are ignored).
 */
const setupSchema = (f: Fields) => ({
  place: new f.StringField({ required: true, blank: false, choices: [...PURSUIT_PLACES], initial: undefined }),
  fleeingSide: new f.StringField({ required: true, blank: false, choices: [...PURSUIT_SIDES], initial: undefined }),
  sceneId: nullableDocIdField(f),
  groups: new f.SchemaField({ party: new f.SchemaField(groupSchema(f)), opponents: new f.SchemaField(groupSchema(f)) }),
  surprise: new f.StringField({ required: true, blank: false, choices: [...SURPRISE_CHOICES], initial: undefined }),
  woods: flag(f),
  woodsBonus: adjustment(f),
  twiceFast: flag(f),
  fastBonus: adjustment(f),
  dropped: flag(f),
  combatStarted: flag(f),
  reactionTotal: new f.NumberField({ required: true, nullable: true, integer: true, min: -20, max: 40, initial: null }),
});
/** A step: the chase and the step it continues from. */
const stepSchema = (f: Fields) => ({
  chaseId: docId(f),
  step: new f.NumberField({
    required: true,
    nullable: false,
    integer: true,
    min: 1,
    max: MAX_CHASE_STEPS - 1,
    initial: undefined,
  }),
});
/** An outdoor day: the step, and the day's woods and speed adjustments. */
const daySchema = (f: Fields) => ({
  ...stepSchema(f),
  woods: flag(f),
  woodsBonus: adjustment(f),
  twiceFast: flag(f),
  fastBonus: adjustment(f),
});
/** A dungeon chase's end: the step and how it ends. */
const endSchema = (f: Fields) => ({
  ...stepSchema(f),
  how: new f.StringField({ required: true, blank: false, choices: [...DUNGEON_CHASE_ENDS], initial: undefined }),
});
const opSchema = (f: Fields) => ({
  op: new f.StringField({ required: true, blank: false, choices: [...PURSUIT_OPS], initial: undefined }),
});

const PursuitOpModel = flagModel({ name: "AventurePursuitRequest", schema: opSchema, exact: true });
const SetupModel = flagModel({ name: "AventurePursuitSetup", schema: setupSchema, exact: true });
const GroupModel = flagModel({ name: "AventurePursuitGroup", schema: groupSchema, exact: true });
const StepModel = flagModel({ name: "AventurePursuitStep", schema: stepSchema, exact: true });
const DayModel = flagModel({ name: "AventurePursuitDay", schema: daySchema, exact: true });
const EndModel = flagModel({ name: "AventurePursuitEnd", schema: endSchema, exact: true });

/** The first of `order` the model refused in `d`. */
function firstFailure(model: { failures(raw: unknown): string[] }, d: unknown, order: readonly string[]): string {
  const failed = model.failures(d);
  return order.find((k) => failed.includes(k)) ?? failed[0] ?? "request";
}

/** The names a group's numbers are worded with (the rules' names). */
const WORDED_AS: Readonly<Record<string, string>> = { count: "groupSize", speed: "groupSpeed" };

/**
 * The refusal of a field the model refused (the model decided; the rules' validators word it, with the field's
 * declared range and choices).
 */
function refuse(model: Bounded, field: string, v: unknown, name = field): never {
  wordRefusal(model, field, WORDED_AS[field] ?? field, v);
  throw new UserError("AVENTURE.Error.Missing", { name });
}

const SETUP_ORDER = [
  "place",
  "fleeingSide",
  "sceneId",
  "groups",
  "surprise",
  "woods",
  "woodsBonus",
  "twiceFast",
  "fastBonus",
  "dropped",
  "combatStarted",
  "reactionTotal",
] as const;
const STEP_ORDER = ["chaseId", "step", "woods", "woodsBonus", "twiceFast", "fastBonus", "how"] as const;

/** The refusal of a setup the model refused: its first field refused, a group's named within it. */
function refuseSetup(s: unknown): never {
  if (!isRecord(s)) throw new UserError("AVENTURE.Error.Missing", { name: "setup" });
  const field = firstFailure(SetupModel, s, SETUP_ORDER);
  if (field === "groups") {
    const groups = s.groups;
    if (!isRecord(groups)) throw new UserError("AVENTURE.Error.Missing", { name: "groups" });
    for (const side of PURSUIT_SIDES) {
      const g = groups[side];
      if (!isRecord(g)) throw new UserError("AVENTURE.Error.Missing", { name: side });
      const bad = GroupModel.read(g) ? null : firstFailure(GroupModel, g, ["count", "speed", "tokenIds"]);
      if (bad) refuse(GroupModel, bad, g[bad], `${side}.${bad}`);
    }
  }
  return refuse(SetupModel, field, s[field]);
}

/**
 * Reads a setup sent by a client (and, before sending, by the dialog itself) through its model; throws a localized
 * error on the first bad field. Then the rules across fields: no token in both groups, no token without a scene.
 */
export function validateSetup(raw: unknown): PursuitSetup {
  const read = SetupModel.read(raw);
  if (!read) return refuseSetup(raw);
  const group = (g: (typeof read.groups)["party"]): GroupInput => ({
    count: g.count,
    speed: g.speed,
    tokenIds: [...new Set(g.tokenIds)],
    names: [],
  });
  const setup: PursuitSetup = {
    ...read,
    groups: { party: group(read.groups.party), opponents: group(read.groups.opponents) },
  };
  const both = setup.groups.party.tokenIds.filter((id) => setup.groups.opponents.tokenIds.includes(id));
  if (both.length) throw new UserError("AVENTURE.Pursuit.error.twice");
  if (setup.sceneId === null && (setup.groups.party.tokenIds.length || setup.groups.opponents.tokenIds.length))
    throw new UserError("AVENTURE.Pursuit.error.noScene");
  return setup;
}

/** A payload read through its model, or the refusal of its first field refused. */
function payload<T>(
  model: Bounded & { read(raw: unknown): T | null; failures(raw: unknown): string[] },
  d: Record<string, unknown>,
): T {
  const read = model.read(d);
  if (read) return read;
  const field = firstFailure(model, d, STEP_ORDER);
  return refuse(model, field, d[field]);
}

/** A step request read through the model of its op. */
function validateStep(
  op: Exclude<PursuitOp, "start">,
  d: Record<string, unknown>,
): Exclude<PursuitRequest, { op: "start" }> {
  if (op === "day") return { ...payload(DayModel, d), op };
  if (op === "end") return { ...payload(EndModel, d), op };
  return { ...payload(StepModel, d), op };
}

// ------------------------------------------------------------------------------------ tokens

interface TokenDocLike {
  id: string | null;
  name: string;
  actor: (EffectActor & { name: string }) | null;
  testUserPermission(user: User, level: "OWNER"): boolean;
}

interface SceneLike {
  tokens: { get(id: string): TokenDocLike | undefined };
}

function sceneOf(sceneId: string | null): SceneLike | undefined {
  return sceneId ? (game.scenes.get(sceneId) as unknown as SceneLike | undefined) : undefined; // cast: a chase's tokens' actors carry ActiveEffects whose pinned create data is narrower than the effect Aventure builds
}

/**
 * The token documents named by a chase. `missing: "throw"` (a flight being checked) refuses a scene or token
 * that is gone; `"skip"` (the GM going on mid-chase) leaves out those removed since.
 */
function sceneTokens(
  sceneId: string | null,
  tokenIds: readonly string[],
  missing: "throw" | "skip" = "throw",
): TokenDocLike[] {
  if (!tokenIds.length) return [];
  const scene = sceneOf(sceneId);
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

/**
 * Whether a started combat includes one of these tokens: flight is then impossible (docs/rules.md §8.1, §8.3).
 * Looks at every combat of the world (the GM answering a request may view another scene); token ids are
 * random 16-character ids, so they are matched alone.
 */
export function combatUnderway(tokenIds: readonly string[]): boolean {
  if (!tokenIds.length) return false;
  const combats = game.combats?.contents ?? [];
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

/** The state of a chase card a GM wrote, through its data model (chase-card.ts; older cards migrated), or null. */
function chaseState(message: Parameters<typeof cardState>[0]): ChaseCardState | null {
  return cardState<ChaseCardState>(message, CHASE_CARD);
}

/** The chase of a card a GM wrote, through its data model; null for any other message. */
export function chaseOfMessage(message: Parameters<typeof cardState>[0]): ChaseRecord | null {
  const state = chaseState(message);
  return state ? chaseRecordOf(state) : null;
}

/** Every chase card a GM wrote, oldest first, with its checked record. */
function chaseCards(): { message: ChatMessage; record: ChaseRecord }[] {
  const out: { message: ChatMessage; record: ChaseRecord }[] = [];
  for (const message of game.messages.contents) {
    const record = chaseOfMessage(message);
    if (record) out.push({ message, record });
  }
  return out;
}

/** The newest card of a chase (the highest step a GM posted), or null. */
function latestCard(chaseId: string): { message: ChatMessage; record: ChaseRecord } | null {
  let best: { message: ChatMessage; record: ChaseRecord } | null = null;
  for (const c of chaseCards()) if (c.record.id === chaseId && (!best || c.record.step > best.record.step)) best = c;
  return best;
}

/** The latest state of a chase (its newest GM card), or null. */
export function latestChase(chaseId: string): ChaseRecord | null {
  return latestCard(chaseId)?.record ?? null;
}

/** The newest unfinished chase in the chat log that `user` may continue, or null. */
export function resumableChase(user: User): ChaseRecord | null {
  const latest = new Map<string, ChaseRecord>();
  for (const { record: r } of chaseCards())
    if (!latest.has(r.id) || r.step > latest.get(r.id)!.step) latest.set(r.id, r);
  const open = [...latest.values()].filter((r) => !r.over && (user.isGM || r.startedBy === user.id));
  return open.length ? open.at(-1)! : null;
}

/** A fresh id (16 letters and digits, Foundry's own generator). */
function newId(): string {
  return foundry.utils.randomID(16);
}

const localize = (k: string, d?: Record<string, string | number>) => t(k, d);

async function post(record: ChaseRecord, rolls: Roll[]): Promise<ChatMessage> {
  const message = await postCard({
    template: template("pursuit/card.hbs"),
    context: pursuitCardContext(record, localize),
    rolls,
    card: { kind: CHASE_CARD, state: record },
  });
  if (!message) throw new UserError("AVENTURE.Pursuit.error.notPosted");
  return message;
}

async function writeCard(message: ChatMessage, record: ChaseRecord): Promise<void> {
  const content = await renderTemplateCompat(template("pursuit/card.hbs"), pursuitCardContext(record, localize));
  await message.update({ content, ...cardUpdate(message, CHASE_CARD, record) });
}

// ------------------------------------------------------------------------------------ starting

/** Chases whose step runs on this client (the active GM) right now: a second request for one is refused. */
const busy = new Set<string>();

/** Fills the names from the tokens (the GM reads them; a client's are ignored). */
function withNames(setup: PursuitSetup): {
  setup: PursuitSetup;
  tokens: Record<"party" | "opponents", TokenDocLike[]>;
} {
  const tokens = {
    party: sceneTokens(setup.sceneId, setup.groups.party.tokenIds),
    opponents: sceneTokens(setup.sceneId, setup.groups.opponents.tokenIds),
  };
  const next = structuredClone(setup);
  for (const side of PURSUIT_SIDES) next.groups[side].names = tokens[side].map((x) => x.name.slice(0, 200));
  return { setup: next, tokens };
}

/** Checks the rules' inputs of a flight before anything is rolled or proposed (group sizes, speeds, reaction). */
function preflight(setup: PursuitSetup): void {
  const f = setup.groups[setup.fleeingSide];
  const p = setup.groups[otherSide(setup.fleeingSide)];
  if (setup.place === "outdoors") evasionChance({ fleeing: f.count, pursuers: p.count });
  else {
    dungeonFlightDetail({ fleeingSpeed: f.speed, pursuerSpeed: p.speed, combatStarted: setup.combatStarted });
    if (setup.reactionTotal !== null) reactionTotal(encounterRules(featureRuleset("pursuit")), setup.reactionTotal);
  }
}

/** Why a player's checked flight needs a GM's decision (empty: it runs at once). */
function proposalReasons(setup: PursuitSetup, pursuers: TokenDocLike[], sender: User): ProposalReason[] {
  if (sender.isGM) return [];
  const reasons: ProposalReason[] = [];
  if (pursuers.some((tok) => !tok.testUserPermission(sender, "OWNER"))) reasons.push("pursuers");
  if (setup.place === "outdoors" && getSetting("pursuitAdvanceTime")) reasons.push("time");
  return reasons;
}

/**
 * Runs the first step of a flight (the first day outdoors, the flight itself in the dungeon) and posts its card.
 * `startedBy` (the sender, or the proposer of an applied proposal) may continue it.
 */
async function start(setup: PursuitSetup, startedBy: User, guard?: StepGuard): Promise<ChaseRecord> {
  assertFeature("pursuit"); // docs/rules.md §0: refused where the game has no pursuit (nothing written)
  const ruleset = featureRuleset("pursuit");
  const { setup: named, tokens } = withNames(setup);
  assertMayFlee(startedBy, tokens[named.fleeingSide]);
  preflight(named);
  const fleeingSide = named.fleeingSide;
  const f = named.groups[fleeingSide];
  const p = named.groups[otherSide(fleeingSide)];
  const surprised = named.surprise === "fleeing" || named.surprise === "pursuers" ? named.surprise : null;
  const dice = foundryDice();
  const record: ChaseRecord = {
    version: 1,
    id: newId(),
    step: 1,
    place: named.place,
    ruleset,
    fleeingSide,
    sceneId: named.sceneId,
    groups: named.groups,
    surprise: named.surprise,
    startedBy: startedBy.id!,
    outdoors: null,
    dungeon: null,
    over: false,
    shownFrom: 0,
    exhaustedActors: [],
  };
  if (named.place === "outdoors") {
    const initial = startPursuit({
      fleeing: f.count,
      pursuers: p.count,
      fleeingBonus: named.woods ? named.woodsBonus : 0,
      pursuerBonus: named.twiceFast ? named.fastBonus : 0,
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
        combatStarted:
          named.combatStarted || combatUnderway([...named.groups.party.tokenIds, ...named.groups.opponents.tokenIds]),
        surprised,
        monstersPursue: fleeingSide === "party",
        reactionTotal: named.reactionTotal,
        dropped: named.dropped,
      },
      dice,
    );
    record.dungeon = state;
    record.over = state.outcome !== "continues";
  }
  // An applied proposal: its card only while the proposal is still this GM's to apply (proposals.ts).
  guard?.check();
  announceStep(await post(record, dice.rolls), record);
  return record;
}

// ------------------------------------------------------------------------------------ the steps

/**
 * The actors that get the running exhaustion: those of both groups' tokens still on the scene, once per actor
 * (an unlinked token has its own), leaving out an actor that already carries it.
 */
function exhaustTargets(record: ChaseRecord): ExhaustTarget[] {
  const seen = new Set<unknown>();
  const out: ExhaustTarget[] = [];
  for (const side of PURSUIT_SIDES) {
    for (const tok of sceneTokens(record.sceneId, record.groups[side].tokenIds, "skip")) {
      const actor = tok.actor;
      if (!actor || !tok.id || seen.has(actor)) continue;
      seen.add(actor);
      if (hasRunExhaustion(actor)) continue;
      out.push({ sceneId: record.sceneId!, tokenId: tok.id, name: actor.name.slice(0, 200) });
    }
  }
  return out;
}

function targetActor(target: ExhaustTarget): (EffectActor & { name: string }) | null {
  return sceneOf(target.sceneId)?.tokens.get(target.tokenId)?.actor ?? null;
}

/** A step card's writes read back from the world: their executor while they are applying (operations.ts). */
function readStepOp(messageId: string): ReadBack {
  return () => {
    const apply = chaseOfMessage(game.messages.get(messageId))?.apply;
    return apply?.status === "applying" ? { executor: apply.executor ?? null } : undefined;
  };
}

/** Records `executor` as the executor of a step card's writes (a GM taking an interrupted step over). */
const claimStep = (message: ChatMessage) => (executor: Executor) =>
  message.update(cardUpdate(message, CHASE_CARD, { apply: { executor } }));

/** Finishes a step card found "applying" (recovery, or before the next step) when this client may take it over. */
function resumeStep(message: ChatMessage, record: ChaseRecord, firstIfBusy: boolean) {
  const id = message.id ?? "";
  const body = (guard: Guard) => completeStep(message, chaseOfMessage(game.messages.get(id)) ?? record, false, guard);
  return firstIfBusy
    ? finishFirst(`chase.${id}`, readStepOp(id), claimStep(message), body)
    : resume(`chase.${id}`, readStepOp(id), claimStep(message), body);
}

/**
 * Brings the world to what a step's card says (first run, or after an interruption) and marks the card applied:
 * world time advanced only while it still reads the "before" value, each effect created only while its actor has
 * none from this step. Drifted and missing writes are reported on the card.
 */
async function completeStep(
  message: ChatMessage,
  record: ChaseRecord,
  firstRun: boolean,
  guard: Guard,
): Promise<ChaseRecord> {
  const apply = record.apply!;
  const problems = [...(apply.problems ?? [])];
  const steps: Step[] = [];
  if (apply.time) {
    const { before, after } = apply.time;
    steps.push({
      label: t("AVENTURE.Pursuit.stepTime"),
      state: () => valueState(game.time.worldTime, before, after),
      run: () => game.time.advance(after - game.time.worldTime),
    });
  }
  const key = `${record.id}.${record.step}`;
  const exhaust = apply.exhaust;
  if (exhaust) {
    const adapter = adapterFor();
    for (const target of exhaust.targets) {
      const actor = targetActor(target);
      steps.push({
        label: target.name,
        state: () => (actor ? runExhaustionState(actor, key) : "missing"),
        run: () =>
          applyRunExhaustion(
            actor!,
            adapter.id,
            {
              penalty: exhaust.penalty,
              restTurns: exhaust.restTurns,
              restSeconds: exhaust.restSeconds,
              worldTime: exhaust.startTime,
              key,
            },
            localize,
          ),
      });
    }
  }
  const report = await runSteps(steps, guard);
  for (const what of report.drifted) problems.push({ key: "AVENTURE.Operation.drifted", data: { what } });
  for (const name of report.missing) problems.push({ key: "AVENTURE.Pursuit.gone", data: { name } });
  const exhausted = (exhaust?.targets ?? []).filter((x) => {
    const actor = targetActor(x);
    return !!actor && runExhaustionState(actor, key) === "done";
  });
  const next: ChaseRecord = {
    ...record,
    exhaustedActors: exhausted.map((x) => x.name),
    apply: {
      ...apply,
      status: "applied",
      ...(firstRun ? {} : { resumed: true }),
      ...(problems.length ? { problems } : {}),
    },
  };
  guard.check();
  await writeCard(message, next);
  announceStep(message, next);
  return next;
}

/**
 * Plays one step of a chase whose latest card is `current` and posts its card (then applies it: completeStep).
 * `claim`: makes the step this GM's (throws when another GM plays it), called after every refusal and before any die
 * is rolled or anything written.
 */
async function playStep(
  req: Exclude<PursuitRequest, { op: "start" }>,
  current: ChaseRecord,
  sender: User,
  claim: () => Promise<void>,
): Promise<ChaseRecord> {
  if (!sender.isGM) {
    if (req.op === "end") assertRefereeInput(sender, "end");
    assertMayFlee(sender, sceneTokens(current.sceneId, current.groups[current.fleeingSide].tokenIds));
  }
  const dice = foundryDice();
  const next: ChaseRecord = { ...current, step: current.step + 1, exhaustedActors: [] };
  delete next.apply;
  let apply: StepApply | null = null;
  if (req.op === "day") {
    if (!current.outdoors) throw new UserError("AVENTURE.Pursuit.error.wrongPlace");
    const state = {
      ...current.outdoors,
      fleeingBonus: req.woods ? req.woodsBonus : 0,
      pursuerBonus: req.twiceFast ? req.fastBonus : 0,
    };
    next.shownFrom = state.log.length;
    await claim();
    const r = await pursuitDay(state, dice);
    next.outdoors = r.state;
    next.over = r.state.outcome !== "continues";
    if (getSetting("pursuitAdvanceTime")) {
      const before = game.time.worldTime;
      apply = {
        status: "applying",
        time: { before, after: before + PURSUIT_DAY_SECONDS },
        exhaust: null,
        executor: executorStamp(),
      };
    }
  } else {
    const chase = current.dungeon;
    if (!chase) throw new UserError("AVENTURE.Pursuit.error.wrongPlace");
    next.shownFrom = chase.log.length;
    let event: DungeonChaseEvent;
    if (req.op === "round") {
      const r = dungeonChaseRound(chase);
      next.dungeon = r.state;
      event = r.event;
      if (event.reason === "exhausted" && r.run.penalty !== 0) {
        const targets = exhaustTargets(current);
        if (targets.length) {
          apply = {
            status: "applying",
            time: null,
            exhaust: {
              targets,
              penalty: r.run.penalty,
              restTurns: r.run.restTurns,
              restSeconds: dungeonRunRestSeconds(current.ruleset),
              startTime: game.time.worldTime,
            },
            executor: executorStamp(),
          };
          next.exhaustedActors = targets.map((x) => x.name);
        }
      }
    } else if (req.op === "drop") {
      await claim();
      const r = await dungeonChaseDrop(chase, dice);
      next.dungeon = r.state;
      event = r.event;
    } else if (req.op === "end") {
      const r = dungeonChaseEnd(chase, req.how);
      next.dungeon = r.state;
      event = r.event;
    } else throw new UserError("AVENTURE.Pursuit.error.wrongPlace");
    next.over = event.outcome !== "continues";
  }
  if (apply) next.apply = apply;
  await claim();
  // The card first (marked "applying" when more writes follow): a reload after it finds what is left to do.
  const message = await post(next, dice.rolls);
  if (!apply) {
    announceStep(message, next);
    return next;
  }
  const id = message.id ?? "";
  return execute(`chase.${id}`, readStepOp(id), (guard) => completeStep(message, next, true, guard));
}

/** `aventure.chaseStep`, once, on the GM who completed the step. */
function announceStep(message: ChatMessage, record: ChaseRecord): void {
  announce("aventure.chaseStep", {
    messageId: message.id ?? "",
    chaseId: record.id,
    step: record.step,
    over: record.over,
  });
}

/**
 * A step of a chase, once: the request names the chase and the step it continues from. A request for a chase that
 * has moved on (another GM or player clicked first, a stale window, a replay) is refused; a previous step left
 * "applying" by an interruption is finished first.
 */
async function step(req: Exclude<PursuitRequest, { op: "start" }>, sender: User): Promise<ChaseRecord> {
  if (busy.has(req.chaseId)) throw new UserError("AVENTURE.Pursuit.error.moved");
  busy.add(req.chaseId);
  try {
    let found = latestCard(req.chaseId);
    if (!found) throw new UserError("AVENTURE.Pursuit.error.noChase");
    if (found.record.apply?.status === "applying") {
      // Finished first, unless another GM still executes it (then this step is refused: "busy").
      await resumeStep(found.message, found.record, true);
      found = latestCard(req.chaseId)!;
    }
    const current = found.record;
    if (current.step !== req.step) throw new UserError("AVENTURE.Pursuit.error.moved");
    if (current.over) throw new UserError("AVENTURE.Pursuit.error.over");
    // The next step is this GM's to play before anything is rolled or written: a claim recorded on the latest card,
    // read back (another GM asked for the same step at the same time: one of them plays it). Refusals come first.
    const target = stepClaim(found.message, req.chaseId);
    let won = false;
    const claim = async () => {
      if (won) return;
      if (!(await claimFirst(target))) throw new UserError("AVENTURE.Pursuit.error.moved");
      won = true;
    };
    try {
      return await playStep(req, current, sender, claim);
    } catch (e) {
      // Refused before its card: the claim is withdrawn (the step may be asked again).
      if (won && target.read().open) await target.write(CLIENT_ID, null);
      throw e;
    }
  } finally {
    busy.delete(req.chaseId);
  }
}

/** The claims recorded on a chase card (for the step after it), read only from a card a GM wrote. */
function cardClaims(message: ChatMessage | undefined): Claims {
  return readClaims(chaseState(message)?.claims);
}

/**
 * The claim of the step after the card `message` (operations.ts claimFirst): open while that card is the chase's
 * latest.
 */
function stepClaim(message: ChatMessage, chaseId: string): ClaimTarget {
  const id = message.id ?? "";
  return {
    write: (client, user) =>
      game.messages.get(id)
        ? message.update(
            user === null
              ? cardDeletion(message, CHASE_CARD, `claims.${client}`)
              : cardUpdate(message, CHASE_CARD, { claims: { [client]: user } }),
          )
        : Promise.resolve(),
    read: () => ({ claims: cardClaims(game.messages.get(id)), open: latestCard(chaseId)?.message.id === id }),
  };
}

/**
 * The GM side of request "pursuit" (runs on the active GM; `sender` is the user the server reported): validates the
 * request field by field, then starts a flight (or proposes a player's flight to the GMs) or plays one step.
 */
export async function handlePursuitRequest(raw: unknown, sender: User): Promise<PursuitReply> {
  if (!isActiveGM()) throw new UserError("AVENTURE.Error.NoActiveGM");
  if (!isRecord(raw)) throw new UserError("AVENTURE.Error.Missing", { name: "request" });
  const op = PursuitOpModel.read(raw)?.op ?? refuse(PursuitOpModel, "op", raw.op);
  if (op !== "start") return step(validateStep(op, raw), sender);
  const setup = validateSetup(raw.setup);
  if (setup.reactionTotal !== null) assertRefereeInput(sender, "reaction");
  const { setup: named, tokens } = withNames(setup);
  assertMayFlee(sender, tokens[named.fleeingSide]);
  preflight(named);
  const reasons = proposalReasons(named, tokens[otherSide(named.fleeingSide)], sender);
  if (reasons.length) return propose("pursuit", ProposalDataModel.make({ setup: named, reasons }), sender);
  return start(named, sender);
}

// ------------------------------------------------------------------------------------ proposals and recovery

/**
 * A player's flight waiting for a GM (the proposal card's data, written by the active GM): its setup (checked by the
 * setup's own model when read, with its refusals) and why it went to the GMs.
 */
const ProposalDataModel = flagModel({
  name: "AventurePursuitProposal",
  schema: (f: Fields) => ({
    setup: new f.AnyField({ required: true }),
    reasons: new f.ArrayField(new f.StringField({ required: true, blank: false, choices: ["pursuers", "time"] }), {
      required: true,
      initial: [],
      max: 2,
    }),
  }),
});

function readProposal(data: unknown): { setup: PursuitSetup; reasons: ProposalReason[] } {
  const d = ProposalDataModel.read(data);
  if (!d) throw new UserError("AVENTURE.Error.Missing", { name: "proposal" });
  // The names are read again from the tokens (a token gone since is refused: the flight cannot be played).
  return { setup: withNames(validateSetup(d.setup)).setup, reasons: d.reasons };
}

/**
 * Recovery (every GM: ready, a GM leaving): steps left "applying" whose executor is gone (or is this GM's own previous
 * page) are finished, and say so; those another GM still executes are left to it.
 */
export async function recoverChases(): Promise<void> {
  for (const { message, record } of chaseCards()) {
    // A next step this GM's previous page claimed and never played (it stopped in between) is withdrawn.
    const stale = latestCard(record.id)?.message.id === message.id ? staleOwnClaims(cardClaims(message)) : [];
    if (stale.length && !busy.has(record.id)) {
      try {
        await message.update(
          Object.assign({}, ...stale.map((client) => cardDeletion(message, CHASE_CARD, `claims.${client}`))),
        );
      } catch (e) {
        console.error("aventure | could not withdraw a stale chase claim", e);
      }
    }
    if (record.apply?.status !== "applying" || busy.has(record.id)) continue;
    busy.add(record.id);
    try {
      await resumeStep(message, record, false);
    } catch (e) {
      console.error("aventure | could not finish an interrupted chase step", e);
    } finally {
      busy.delete(record.id);
    }
  }
}

/** Registers the request, the proposal kind and the recovery (init). */
export function registerPursuitRequests(): void {
  registerRequest<PursuitReply>({
    name: PURSUIT_REQUEST,
    handle: (data, { sender }) => handlePursuitRequest(data, sender),
  });
  registerProposalKind({
    kind: "pursuit",
    title: "AVENTURE.Pursuit.proposal.title",
    describe: (data) => {
      const p = readProposal(data);
      return proposalLines(p.setup, p.reasons, localize);
    },
    apply: async (data, { proposer, guard }) => {
      if (!proposer) throw new UserError("AVENTURE.Pursuit.error.noProposer");
      const record = await start(readProposal(data).setup, proposer, guard);
      return t(record.over ? "AVENTURE.Pursuit.proposal.decided" : "AVENTURE.Pursuit.proposal.started");
    },
  });
  registerRecovery("pursuit", recoverChases);
}
