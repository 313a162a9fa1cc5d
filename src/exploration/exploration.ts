/**
 * Exploration time on the active GM (request "exploration", GMs only; docs/api/exploration.md, docs/security.md).
 *
 * The exploration lives in one world setting (record.ts) that only GMs can write. Every change runs on the active GM,
 * one at a time (a queue): a GM's click, or another GM's, reaches it through the trusted request channel; the request
 * names the record's revision it was made from, so a stale panel is refused. The rules (src/rules/exploration.ts)
 * count the turns, roll the wandering checks with Foundry dice, burn the lights; this file only reads the world,
 * records the operation and writes it.
 *
 * Exactly once: an operation is recorded in the setting, marked applying with absolute targets, before any other
 * write; then its steps read back from the world (the world time, each token's light, the card found by the
 * operation's id) write only what is missing; then the record moves on. The operation records the GM that executes
 * it, and only that GM writes its steps (operations.ts). Interrupted (a reload, a GM leaving), a GM finishes it once
 * that GM is gone; while another GM still finishes it, a request is refused ("busy") and world time is not counted.
 *
 * Tied to world time: the record holds the world time at the end of the last turn counted. When world time moves
 * for any other reason (travel, an encounter's turn, a calendar module), the active GM counts the whole turns
 * elapsed since (turnsIn) and rolls the checks they imply (at most MAX_CHECKS, the card says how many more). The
 * panel's own advances set that time themselves, so they are never counted twice.
 */
import { announce } from "../core/extension-hooks.js";
import { assertFeature, featureRuleset, worldFeatureNote } from "../core/features.js";
import { MODULE_ID, template } from "../core/constants.js";
import {
  LIGHT_KINDS,
  MAX_EXPLORATION_TURNS,
  addLight,
  advanceExploration,
  isRulesError,
  oneOf,
  removeLight,
  restPenaltyOf,
  startExploration,
  turnsIn,
  type Dice,
  type ExplorationState,
  type LightKind,
  type WanderingCheck,
} from "../rules/index.js";
import { explorationCardContext } from "./exploration-context.js";
import { EXPLORATION_CARD, explorationCardFlag } from "./card.js";
import { postCard } from "../core/chat.js";
import { foundryDice } from "../core/dice.js";
import { isActiveGM } from "../core/gm.js";
import { notify, reportError, t, UserError } from "../core/i18n.js";
import {
  execute,
  executorStamp,
  finishFirst,
  resume,
  runSteps,
  valueState,
  type Executor,
  type Guard,
  type ReadBack,
  type Step,
} from "../core/operations.js";
import { getSetting, setSetting } from "../core/settings.js";
import { explorationOptions } from "./options.js";
import {
  MAX_CHECKS,
  MAX_PARTY,
  lightId,
  lightToken,
  readRecord,
  recordField,
  LightRadii,
  type AdvanceAction,
  type AdvanceCard,
  type ExplorationOp,
  type ExplorationRecord,
  type LightChange,
  type PartyMember,
  type TokenLight,
  type TokenRef,
} from "./record.js";
import { isRecord } from "../core/values.js";
import { flagModel, type Fields, docIdField } from "../core/flag-model.js";
import { wordRefusal, type Bounded } from "../core/refusal.js";

export const EXPLORATION_REQUEST = "exploration";
/** The token flag holding a light's radii while Aventure keeps it out: flags.aventure.explorationLight. */
export const LIGHT_FLAG = "explorationLight";
export const EXPLORATION_OPS = ["start", "end", "party", "advance", "light", "putOut"] as const;
export type ExplorationRequestOp = (typeof EXPLORATION_OPS)[number];
/** The actions a client may ask for ("time" is the active GM's own, when world time moved by another cause). */
export const REQUEST_ACTIONS = ["explore", "rest", "search", "spend"] as const;
/** At most a day of world time in one "spend" (rnp minutes). */
export const MAX_SPEND_SECONDS = 86_400;

/** What the active GM answers: the record's new revision and the card posted (if any). */
export interface ExplorationReply {
  rev: number;
  messageId: string | null;
}

// ------------------------------------------------------------------------------------------------ the record

/** The setting's field, to clean and check the stored record once more when it is read. */
let recordCheck: ReturnType<typeof recordField> | null = null;
function checkedRecord(raw: ExplorationRecord): ExplorationRecord | null {
  recordCheck ??= recordField(foundry.data.fields);
  const cleaned = recordCheck.clean(raw);
  return recordCheck.validate(cleaned) ? null : cleaned;
}

/** The exploration as stored (checked by the setting's field). */
export function currentRecord(): ExplorationRecord {
  return readRecord(getSetting("explorationState"), checkedRecord);
}

async function writeRecord(record: ExplorationRecord): Promise<void> {
  await setSetting("explorationState", record);
}

// ------------------------------------------------------------------------------------------------ tokens

/** A token document as this file uses it (Foundry's TokenDocument: its light radii, flags and update). */
interface LightToken {
  id: string | null;
  name: string;
  light: { dim: number; bright: number };
  update(data: Record<string, unknown>): Promise<unknown>;
}

function isLightToken(v: unknown): v is LightToken {
  if (
    !v ||
    typeof v !== "object" ||
    !("update" in v) ||
    typeof v.update !== "function" ||
    !("name" in v) ||
    typeof v.name !== "string"
  )
    return false;
  if (!("light" in v) || !v.light || typeof v.light !== "object") return false;
  const light = v.light;
  return "dim" in light && typeof light.dim === "number" && "bright" in light && typeof light.bright === "number";
}

/** The token a reference names, or null (its scene or itself deleted). */
function tokenOf(ref: TokenRef): LightToken | null {
  const doc: unknown = game.scenes.get(ref.sceneId)?.tokens.get(ref.tokenId);
  return isLightToken(doc) ? doc : null;
}

/** A token's light as Aventure sees it: its radii and the radii remembered while Aventure keeps it out. */
export function tokenLight(token: LightToken): TokenLight {
  return {
    ...(LightRadii.read({ dim: token.light.dim, bright: token.light.bright }) ?? { dim: 0, bright: 0 }),
    remembered: rememberedLight(token),
  };
}

/** The radii Aventure remembers on a token while it keeps its light out (LIGHT_FLAG), or null. */
export function rememberedLight(token: object): TokenLight["remembered"] {
  return LightRadii.read(foundry.utils.getProperty(token, `flags.${MODULE_ID}.${LIGHT_FLAG}`));
}

const isLit = (l: TokenLight) => l.dim > 0 || l.bright > 0;

/** One write: the radii and the remembered radii (null once relit). */
function writeTokenLight(token: LightToken, target: TokenLight): Promise<unknown> {
  return token.update({
    "light.dim": target.dim,
    "light.bright": target.bright,
    [`flags.${MODULE_ID}.${LIGHT_FLAG}`]: target.remembered,
  });
}

/** The light going out: radii 0, the radii remembered to relight it. */
function outChange(ref: TokenRef, token: LightToken): LightChange | null {
  const before = tokenLight(token);
  if (!isLit(before)) return null;
  return {
    ...ref,
    name: token.name,
    before,
    after: { dim: 0, bright: 0, remembered: { dim: before.dim, bright: before.bright } },
  };
}

/** A token's name as the party or a light knows it. */
function nameOf(record: ExplorationRecord, ref: TokenRef): string {
  return (
    tokenOf(ref)?.name ?? record.party.find((m) => m.sceneId === ref.sceneId && m.tokenId === ref.tokenId)?.name ?? "?"
  );
}

// ------------------------------------------------------------------------------------------------ the payloads

const tokenRef = (f: Fields) => new f.SchemaField({ sceneId: docIdField(f), tokenId: docIdField(f) });
const count = (f: Fields, max: number, required: boolean) =>
  new f.NumberField({
    required: true,
    nullable: !required,
    integer: true,
    min: 1,
    max,
    initial: required ? undefined : null,
  });

/** Every "exploration" payload: the op and the record's revision it was made from. */
const headSchema = (f: Fields) => ({
  op: new f.StringField({ required: true, blank: false, choices: [...EXPLORATION_OPS], initial: undefined }),
  rev: new f.NumberField({
    required: true,
    nullable: false,
    integer: true,
    min: 0,
    max: Number.MAX_SAFE_INTEGER,
    initial: undefined,
  }),
});
/** "start" and "party": the party's tokens (1–MAX_PARTY; twice the same is kept once). */
const partySchema = (f: Fields) => ({
  ...headSchema(f),
  tokens: new f.ArrayField(tokenRef(f), { min: 1, max: MAX_PARTY }),
});
/** "advance" by turns: explore, rest or search. */
const turnsSchema = (f: Fields) => ({
  ...headSchema(f),
  action: new f.StringField({
    required: true,
    blank: false,
    choices: REQUEST_ACTIONS.filter((a) => a !== "spend"),
    initial: undefined,
  }),
  turns: count(f, MAX_EXPLORATION_TURNS, true),
});
/** "advance" by "spend": seconds of world time. */
const spendSchema = (f: Fields) => ({
  ...headSchema(f),
  action: new f.StringField({ required: true, blank: false, choices: ["spend"], initial: undefined }),
  seconds: count(f, MAX_SPEND_SECONDS, true),
});
/** "light": the token, the kind of light and its turns (null: the kind's own). */
const lightSchema = (f: Fields) => ({
  ...headSchema(f),
  token: tokenRef(f),
  kind: new f.StringField({ required: true, blank: false, choices: [...LIGHT_KINDS], initial: undefined }),
  turns: count(f, 1000, false),
});
/** "putOut": the token. */
const putOutSchema = (f: Fields) => ({ ...headSchema(f), token: tokenRef(f) });

const ExplorationHead = flagModel({ name: "AventureExplorationRequest", schema: headSchema, exact: true });
const PartyRequest = flagModel({ name: "AventureExplorationParty", schema: partySchema, exact: true });
const TurnsRequest = flagModel({ name: "AventureExplorationAdvance", schema: turnsSchema, exact: true });
const SpendRequest = flagModel({ name: "AventureExplorationSpend", schema: spendSchema, exact: true });
const LightRequest = flagModel({ name: "AventureExplorationLight", schema: lightSchema, exact: true });
const PutOutRequest = flagModel({ name: "AventureExplorationPutOut", schema: putOutSchema, exact: true });

/**
 * The refusal naming a field a payload's model refused, worded from that model (the rules' validators word the value
 * refused, with the field's declared range and choices; the model decided).
 */
function refuse(model: Bounded, field: string, data: Record<string, unknown>): never {
  const v = data[field];
  if (field === "tokens") {
    if (!Array.isArray(v) || v.length === 0) throw new UserError("AVENTURE.Exploration.Error.noParty");
    const { min, max } = model.bounds("tokens") ?? {};
    if (max !== undefined && v.length > max)
      throw new UserError("AVENTURE.Error.OutOfRange", { name: "party", value: v.length, min: min ?? 1, max });
    throw new UserError("AVENTURE.Error.Missing", { name: "party" });
  }
  // An action is one of both advance payloads' (explore, rest, search; spend).
  if (field === "action") oneOf("action", v, REQUEST_ACTIONS);
  else wordRefusal(model, field, field, v);
  throw new UserError("AVENTURE.Error.Missing", { name: field });
}

/** A payload read through its model, or the refusal naming its first field refused. */
function payload<T>(
  model: Bounded & { read(raw: unknown): T | null; failures(raw: unknown): string[] },
  data: Record<string, unknown>,
  order: readonly string[],
): T {
  const read = model.read(data);
  if (read) return read;
  const failed = model.failures(data);
  return refuse(model, order.find((k) => failed.includes(k)) ?? failed[0] ?? "request", data);
}

/** The "exploration" payload, read through the model of its op. */
function parseRequest(raw: unknown) {
  if (!isRecord(raw)) throw new UserError("AVENTURE.Error.Missing", { name: "request" });
  const head = payload(ExplorationHead, raw, ["op", "rev"]);
  switch (head.op) {
    case "start":
    case "party":
      return { ...payload(PartyRequest, raw, ["op", "rev", "tokens"]), op: head.op };
    case "end":
      return { ...head, op: head.op };
    case "advance":
      return raw.action === "spend"
        ? { ...payload(SpendRequest, raw, ["op", "rev", "action", "seconds"]), op: head.op }
        : { ...payload(TurnsRequest, raw, ["op", "rev", "action", "turns"]), op: head.op };
    case "light":
      return { ...payload(LightRequest, raw, ["op", "rev", "token", "kind", "turns"]), op: head.op };
    case "putOut":
      return { ...payload(PutOutRequest, raw, ["op", "rev", "token"]), op: head.op };
  }
  throw new UserError("AVENTURE.Error.Missing", { name: "op" });
}

/** The party a request names, each token once, every one existing. */
function party(tokens: readonly TokenRef[]): PartyMember[] {
  const seen = new Set<string>();
  const out: PartyMember[] = [];
  for (const x of tokens) {
    const r = { sceneId: x.sceneId, tokenId: x.tokenId };
    if (seen.has(lightId(r))) continue;
    seen.add(lightId(r));
    const token = tokenOf(r);
    if (!token) throw new UserError("AVENTURE.Exploration.Error.noToken");
    out.push({ ...r, name: token.name.slice(0, 200) });
  }
  return out;
}

function requireState(record: ExplorationRecord): ExplorationState {
  if (!record.state) throw new UserError("AVENTURE.Exploration.Error.notRunning");
  return record.state;
}

// ------------------------------------------------------------------------------------------------ dice

/**
 * Foundry dice for the wandering checks, at most `max` real rolls: the checks beyond are not rolled (the die's
 * highest face stands in, never shown: the card lists the rolled checks and counts the others).
 */
function cappedDice(max: number): Dice & { rolls: Roll[] } {
  const inner = foundryDice();
  let made = 0;
  return {
    rolls: inner.rolls,
    async roll(count, faces, reason) {
      made++;
      if (made <= max) return inner.roll(count, faces, reason);
      return Array.from({ length: count }, () => faces);
    },
  };
}

// ------------------------------------------------------------------------------------------------ operations

export { explorationCardFlag } from "./card.js";

function cardOf(opId: string): ChatMessage | null {
  return game.messages.contents.find((m) => explorationCardFlag(m)?.op === opId) ?? null;
}

/**
 * Plans an advance from the record (nothing written): the world time it moves, the whole turns from the record's
 * time to the new world time, the rules' advance over them (in chunks of MAX_EXPLORATION_TURNS) with real dice for
 * the first MAX_CHECKS checks, the lights that go out. Null: nothing to do (world time moved less than a turn and
 * is not moved by this advance).
 */
async function planAdvance(
  record: ExplorationRecord,
  action: AdvanceAction,
  amount: number,
): Promise<{ op: ExplorationOp; rolls: Roll[] } | null> {
  const { options } = explorationOptions();
  const start: ExplorationState = { ...requireState(record), options };
  const now = game.time.worldTime;
  const moves = action === "time" ? 0 : action === "spend" ? amount : amount * options.turnSeconds;
  const turns = turnsIn(now + moves - record.time, options);
  if (turns === 0 && moves === 0) return null;
  const dice = cappedDice(MAX_CHECKS);
  let state = start;
  const checks: WanderingCheck[] = [];
  const out: string[] = [];
  let restDue = record.restDue;
  let attackPenalty = restPenaltyOf(start);
  for (let left = turns; left > 0;) {
    const n = Math.min(left, MAX_EXPLORATION_TURNS);
    const r = await advanceExploration(state, n, dice, { rest: action === "rest" });
    state = r.state;
    checks.push(...r.checks);
    out.push(...r.lightsOut);
    restDue = r.restDue;
    attackPenalty = r.attackPenalty;
    left -= n;
  }
  const lights: LightChange[] = [];
  for (const id of out) {
    const r = lightToken(id);
    const token = r ? tokenOf(r) : null;
    const change = r && token ? outChange(r, token) : null;
    if (change) lights.push(change);
  }
  const card: AdvanceCard | null = turns
    ? {
        action,
        seconds: action === "time" ? now - record.time : moves,
        turnFrom: start.turn,
        turnTo: state.turn,
        checks: checks.slice(0, MAX_CHECKS),
        notRolled: Math.max(0, checks.length - MAX_CHECKS),
        die: options.wanderingDie,
        chance: options.wanderingChance,
        wandering: options.wandering,
        restDue,
        attackPenalty,
        turnsSinceRest: state.turnsSinceRest,
        lightsOut: out.map((id) => {
          const r = lightToken(id);
          return { name: r ? nameOf(record, r) : "?", kind: start.lights.find((l) => l.id === id)?.kind ?? "custom" };
        }),
      }
    : null;
  const op: ExplorationOp = {
    id: foundry.utils.randomID(16),
    kind: "advance",
    time: moves ? { before: now, after: now + moves } : null,
    lights,
    card,
    target: { state, time: record.time + turns * options.turnSeconds, restDue },
  };
  return { op, rolls: dice.rolls };
}

/**
 * Brings the world to a recorded operation (first run, or after an interruption) and closes it: the world time and
 * each token's light (state-based: only what is still pending is written; a value changed meanwhile is left alone
 * and reported, a deleted token skipped and reported), the card if not posted yet, then the record. Resolves to the
 * card's id.
 */
async function finishOp(
  record: ExplorationRecord,
  rolls: Roll[],
  resumed: boolean,
  guard: Guard,
): Promise<string | null> {
  const op = record.op;
  if (!op) return null;
  const steps: Step[] = [];
  const failed: string[] = [];
  if (op.time) {
    const { before, after } = op.time;
    steps.push({
      label: t("AVENTURE.Exploration.Step.time"),
      state: () => valueState(game.time.worldTime, before, after),
      run: () => game.time.advance(after - game.time.worldTime),
    });
  }
  for (const change of op.lights) {
    steps.push({
      label: t("AVENTURE.Exploration.Step.light", { name: change.name }),
      state: () => {
        const token = tokenOf(change);
        return token ? valueState(tokenLight(token), change.before, change.after) : "missing";
      },
      run: async () => {
        try {
          await writeTokenLight(tokenOf(change)!, change.after);
        } catch (e) {
          console.error("aventure | exploration: a token's light could not be written", e);
          failed.push(change.name);
        }
      },
    });
  }
  const report = await runSteps(steps, guard);
  const problems = [
    ...report.drifted.map((what) => t("AVENTURE.Operation.drifted", { what })),
    ...report.missing.map((what) => t("AVENTURE.Exploration.gone", { what })),
    ...failed.map((name) => t("AVENTURE.Exploration.lightFailed", { name })),
  ];
  let messageId: string | null = null;
  if (op.card) {
    const existing = cardOf(op.id);
    if (existing) messageId = existing.id ?? null;
    else {
      guard.check();
      const message = await postCard({
        template: template("exploration/card.hbs"),
        context: explorationCardContext(op.card, {
          localize: t,
          lang: game.i18n.lang,
          resumed,
          problems,
          wandering: worldFeatureNote("wandering"),
        }),
        rolls,
        gmOnly: true,
        card: { kind: EXPLORATION_CARD, state: { op: op.id, encounter: op.card.checks.some((c) => c.encounter) } },
      });
      messageId = message?.id ?? null;
    }
  } else if (problems.length) notify("warn", problems.join(" "));
  guard.check();
  await writeRecord({
    ...record,
    rev: record.rev + 1,
    state: op.target.state,
    time: op.target.time,
    restDue: op.target.restDue,
    op: null,
  });
  if (op.card && op.card.turnTo > op.card.turnFrom) {
    announce("aventure.explorationTurn", {
      turns: op.card.turnTo - op.card.turnFrom,
      worldTime: game.time.worldTime,
      messageId,
    });
  }
  return messageId;
}

/** The recorded operation `opId` read back from the world (the setting): its executor while it is recorded. */
function readExplorationOp(opId: string): ReadBack {
  return () => {
    const op = currentRecord().op;
    return op && op.id === opId ? { executor: op.executor ?? null } : undefined;
  };
}

/** Records `executor` as the executor of the recorded operation (a GM taking an interrupted one over). */
async function claimExplorationOp(executor: Executor): Promise<void> {
  const record = currentRecord();
  if (record.op) await writeRecord({ ...record, op: { ...record.op, executor } });
}

/** Records an operation with this GM as its executor (before anything else is written), then applies it. */
async function applyOp(record: ExplorationRecord, op: ExplorationOp, rolls: Roll[]): Promise<ExplorationReply> {
  const recorded: ExplorationRecord = { ...record, op: { ...op, executor: executorStamp() } };
  await writeRecord(recorded);
  const messageId = await execute(`exploration.${op.id}`, readExplorationOp(op.id), (guard) =>
    finishOp(recorded, rolls, false, guard),
  );
  return { rev: recorded.rev + 1, messageId };
}

/**
 * Finishes an operation left applying (a reload, a GM who left), once, when this client may take it over. `busy`: a
 * request that needs it finished is refused while another GM still executes it. Returns the record as it stands.
 */
async function finishPending(busy = false): Promise<ExplorationRecord> {
  const op = currentRecord().op;
  if (op) {
    const body = (guard: Guard) => finishOp(currentRecord(), [], true, guard);
    if (busy) await finishFirst(`exploration.${op.id}`, readExplorationOp(op.id), claimExplorationOp, body);
    else await resume(`exploration.${op.id}`, readExplorationOp(op.id), claimExplorationOp, body);
  }
  return currentRecord();
}

/**
 * World time and the turn count: the whole turns elapsed since the record's time are advanced (checks rolled, lights
 * burnt, a card posted). World time going back (an undone journey) moves the record's time back with it, and no turn.
 */
async function syncWithWorldTime(): Promise<void> {
  const record = await finishPending();
  // Another GM still finishes an operation (it counts its own time): nothing is counted meanwhile.
  if (!record.state || record.op) return;
  const now = game.time.worldTime;
  if (now < record.time) {
    await writeRecord({ ...record, rev: record.rev + 1, time: now });
    return;
  }
  let planned;
  try {
    planned = await planAdvance(record, "time", 0);
  } catch (e) {
    if (!isRulesError(e)) throw e;
    // Beyond what the rules count (a million turns): the turn count starts again from now, and the GM is told.
    reportError(e);
    await writeRecord({ ...record, rev: record.rev + 1, time: now });
    return;
  }
  if (planned) await applyOp(record, planned.op, planned.rolls);
}

// ------------------------------------------------------------------------------------------------ one at a time

let queue: Promise<unknown> = Promise.resolve();

/** Runs `fn` after everything queued before it on this client (the active GM changes one thing at a time). */
function serial<T>(fn: () => Promise<T>): Promise<T> {
  const run = queue.then(fn, fn);
  queue = run.catch(() => undefined);
  return run;
}

// ------------------------------------------------------------------------------------------------ the request

/**
 * Request "exploration" (GMs only, on the active GM): checks every field, finishes an operation left applying,
 * refuses a request made from an older revision, accounts for world time moved meanwhile, then runs it.
 */
export async function handleExplorationRequest(raw: unknown): Promise<ExplorationReply> {
  if (!isActiveGM()) throw new UserError("AVENTURE.Error.NoActiveGM");
  const req = parseRequest(raw);
  const rev = req.rev;
  return serial(async () => {
    if (!isActiveGM()) throw new UserError("AVENTURE.Error.NoActiveGM");
    let record = await finishPending(true);
    if (record.rev !== rev) throw new UserError("AVENTURE.Exploration.Error.moved");
    const { options } = explorationOptions();
    const now = game.time.worldTime;
    switch (req.op) {
      case "start": {
        if (record.state) throw new UserError("AVENTURE.Exploration.Error.running");
        const members = party(req.tokens);
        assertFeature("exploration"); // docs/rules.md §0: refused where the game has no exploration time
        const state = startExploration(featureRuleset("exploration"), options);
        await writeRecord({ v: 1, rev: record.rev + 1, state, time: now, party: members, restDue: false, op: null });
        return { rev: record.rev + 1, messageId: null };
      }
      case "end": {
        requireState(record);
        await writeRecord({ v: 1, rev: record.rev + 1, state: null, time: now, party: [], restDue: false, op: null });
        return { rev: record.rev + 1, messageId: null };
      }
      case "party": {
        requireState(record);
        await writeRecord({ ...record, rev: record.rev + 1, party: party(req.tokens) });
        return { rev: record.rev + 1, messageId: null };
      }
      case "advance": {
        requireState(record);
        const amount = "seconds" in req ? req.seconds : req.turns;
        // World time moved meanwhile (and not yet counted) is counted first, on its own card.
        await syncWithWorldTime();
        record = currentRecord();
        const planned = await planAdvance(record, req.action, amount);
        if (!planned) return { rev: record.rev, messageId: null };
        return applyOp(record, planned.op, planned.rolls);
      }
      case "light":
        return applyOp(record, planLight(record, pick(req.token), req.kind, req.turns, options), []);
      case "putOut":
        return applyOp(record, planPutOut(record, pick(req.token)), []);
    }
  });
}

/** A token reference as the record keeps it. */
const pick = (r: TokenRef): TokenRef => ({ sceneId: r.sceneId, tokenId: r.tokenId });

/** Lighting a torch, a lantern or another light carried by a token (relit: its remembered radii come back). */
function planLight(
  record: ExplorationRecord,
  r: TokenRef,
  kind: LightKind,
  turns: number | null,
  options: ExplorationState["options"],
): ExplorationOp {
  const state: ExplorationState = { ...requireState(record), options };
  const token = tokenOf(r);
  if (!token) throw new UserError("AVENTURE.Exploration.Error.noToken");
  const name = token.name;
  if (state.lights.some((l) => l.id === lightId(r)))
    throw new UserError("AVENTURE.Exploration.Error.alreadyLit", { name });
  const light = tokenLight(token);
  if (!isLit(light) && !light.remembered) throw new UserError("AVENTURE.Exploration.Error.noLightData", { name });
  const next = addLight(state, turns === null ? { id: lightId(r), kind } : { id: lightId(r), kind, turns });
  const lights: LightChange[] =
    !isLit(light) && light.remembered
      ? [{ ...r, name, before: light, after: { ...light.remembered, remembered: null } }]
      : [];
  return {
    id: foundry.utils.randomID(16),
    kind: "light",
    time: null,
    lights,
    card: null,
    target: { state: next, time: record.time, restDue: record.restDue },
  };
}

/** Putting a light out before it burns out: the token's light goes out (remembered to relight it). */
function planPutOut(record: ExplorationRecord, r: TokenRef): ExplorationOp {
  const state = requireState(record);
  if (!state.lights.some((l) => l.id === lightId(r)))
    throw new UserError("AVENTURE.Exploration.Error.notLit", { name: nameOf(record, r) });
  const token = tokenOf(r);
  const change = token ? outChange(r, token) : null;
  return {
    id: foundry.utils.randomID(16),
    kind: "putOut",
    time: null,
    lights: change ? [change] : [],
    card: null,
    target: { state: removeLight(state, lightId(r)), time: record.time, restDue: record.restDue },
  };
}

// ------------------------------------------------------------------------------------------------ hooks

/** updateWorldTime (every client): the active GM counts the turns world time moved by (once, whoever moved it). */
export function onUpdateWorldTime(): Promise<void> | void {
  if (!isActiveGM()) return;
  return serial(async () => {
    if (isActiveGM()) await syncWithWorldTime();
  }).catch(reportError);
}

/**
 * On ready, and when this client becomes the active GM: an operation left applying is finished, then world time is
 * caught up.
 */
export function recoverExploration(): Promise<void> {
  return serial(async () => {
    if (isActiveGM()) await syncWithWorldTime();
    else await finishPending(); // this GM's own operation, left by its previous page
  });
}
