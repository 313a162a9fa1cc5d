/**
 * Suffocation in play (docs/rules.md §4.2): a creature holds its breath for `holdBreath(conMod)` seconds of world time,
 * then survives `suffocationRounds(conMod)` rounds out of air, then drops to 0 HP and is dying.
 *
 * Who may do what (docs/security.md): the token's owners start and stop it ("Hold breath" / "Breathe again" on the
 * token HUD, `api.holdBreath` / `api.breatheAgain`) through the trusted request channel (request "breath"); the
 * active GM checks that the server-given sender owns the token, reads the Constitution modifier through the adapter,
 * and writes the held breath on the token's SCENE (`flags.aventure.breath.<tokenId>`, GMs only write a scene) with
 * absolute world-time deadlines (state.ts): what a player writes on their own token is never read. Only a GM may give
 * the Constitution modifier by hand. The drop card goes to the GMs and the token's player owners, to the GMs only
 * while the token is hidden.
 *
 * Time: world time, which core advances per combat round (CONFIG.time.roundTime) and calendars or the GM advance
 * otherwise. On every `updateWorldTime` (and on ready, and when a GM takes over) the active GM looks for creatures
 * whose drop is due.
 *
 * Exactly once: the drop is an operation recorded on its GM card (an `aventure.suffocation` message) marked "applying",
 * with
 * the breath's id, the hit point path and the hit points before, BEFORE the first write; then the state-based steps
 * (hit points to 0, the unconscious status, the flag marked dropped), then "applied". A card for (scene, token,
 * breath id) means that breath's drop exists: a second GM, a reload or a later tick never posts another (two GMs
 * posting at once while the active GM changes: the card the server stored first is the drop, the other is deleted
 * before any step); the card records the GM that executes the drop, only that GM runs its steps, and recovery
 * finishes a card left "applying" only when that GM is gone (operations.ts). Nothing prevents healing on the system's
 * side: the card says that the creature cannot be stabilised
 * nor regain hit points while it cannot breathe.
 */
import { aventureActs } from "../core/dnd5e-owners.js";
import { featureHandler } from "../core/features.js";
import { template } from "../core/constants.js";
import { roundSeconds } from "../rules/time.js";
import { suffocationTimeline } from "../rules/suffocation.js";
import { adapterFor, isOwnStatus, setOwnCondition, type ActorAdapter, type ActorLike } from "../actors/api.js";
import { readNumber } from "../actors/api.js";
import { cardData, cardState, cardUpdate } from "../core/card-model.js";
import { SUFFOCATION_CARD, type SuffocationCard } from "./suffocation-card.js";
import { renderTemplateCompat } from "../core/compat.js";
import { isActiveGM } from "../core/gm.js";
import { UserError, guarded, notify, t } from "../core/i18n.js";
import {
  execute,
  executorStamp,
  registerRecovery,
  resume,
  runSteps,
  type Executor,
  type Guard,
  type ReadBack,
  type Step,
} from "../core/operations.js";
import { registerRequest, sendRequest, type RequestContext } from "../core/requests.js";
import { getSetting } from "../core/settings.js";
import { assertOwner } from "../light/api.js";
import { durationText, roundsText, suffocationCardContext } from "./breath-context.js";
import {
  breathFlagOf,
  breathNow,
  breathingTokens,
  isActorLike,
  isBreathToken,
  playersMaySee,
  sceneIdOf,
  sceneToken,
  writeBreath,
  type BreathFlag,
  type BreathToken,
} from "./state.js";
import { isRecord } from "../core/values.js";
import { docIdField, flagModel, type DataOf, type Fields } from "../core/flag-model.js";

// ------------------------------------------------------------------------------------------------ the request

export type BreathOp = "hold" | "release";

/** What the requester gets back (plain data, localized by the requester). */
export type BreathResult =
  { op: "hold"; name: string; holdSeconds: number; rounds: number } | { op: "release"; name: string; dropped: boolean };

/** Tokens whose breath the active GM is changing right now (a request, a drop): one change at a time per token. */
const busy = new Set<string>();
const tokenKey = (sceneId: string, tokenId: string) => `${sceneId}.${tokenId}`;

/** The payload of "breath", declared once: the op, the token's ids, and an optional Constitution modifier. */
const breathRequestSchema = (f: Fields) => ({
  op: new f.StringField({ required: true, blank: false, choices: ["hold", "release"], initial: undefined }),
  sceneId: docIdField(f),
  tokenId: docIdField(f),
  conMod: new f.NumberField({ required: true, nullable: true, integer: true, initial: null }),
});
const BreathRequest = flagModel({ name: "AventureBreathRequest", schema: breathRequestSchema, exact: true });

/** The request's payload read through its model; refused with what is wrong (the op, the token, the modifier). */
function parseRequest(data: unknown): DataOf<typeof BreathRequest> {
  if (!isRecord(data)) throw new UserError("AVENTURE.Error.Missing", { name: "data" });
  const req = BreathRequest.read(data);
  if (req) return req;
  const failed = BreathRequest.failures(data);
  if (failed.includes("op")) throw new UserError("AVENTURE.Error.Missing", { name: "op" });
  if (failed.includes("sceneId") || failed.includes("tokenId")) throw new UserError("AVENTURE.Error.NoToken");
  throw new UserError("AVENTURE.Error.NotAnInteger", { name: "conMod", value: String(data.conMod) });
}

/**
 * Request "breath" (active GM): starts or ends a held breath for a token the sender owns. The Constitution modifier
 * comes from the actor through the adapter; a GM may give it instead (a player may not).
 */
export async function onBreathRequest(
  data: unknown,
  { sender }: Pick<RequestContext, "sender">,
): Promise<BreathResult> {
  const req = parseRequest(data);
  const token = sceneToken(req.sceneId, req.tokenId);
  if (!token) throw new UserError("AVENTURE.Error.NoToken");
  assertOwner(sender, token);
  const actor = token.actor;
  if (!isActorLike(actor)) throw new UserError("AVENTURE.Error.NoActor", { name: token.name });
  if (req.conMod !== null && !sender.isGM) throw new UserError("AVENTURE.Error.GMOnly");
  const key = tokenKey(req.sceneId, req.tokenId);
  if (busy.has(key)) throw new UserError("AVENTURE.Breath.busy", { name: token.name });
  busy.add(key);
  try {
    const current = breathFlagOf(token);
    if (req.op === "release") {
      if (!current) throw new UserError("AVENTURE.Breath.notHolding", { name: token.name });
      await writeBreath(req.sceneId, req.tokenId, null);
      return { op: "release", name: token.name, dropped: current.dropped };
    }
    if (current) throw new UserError("AVENTURE.Breath.already", { name: token.name });
    // dnd5e owns suffocation in this world (dnd5e-owners.ts): no new held breath; one already held may still end.
    if (!aventureActs("suffocation"))
      throw new UserError("AVENTURE.Owner.dnd5eActs", { rule: t("AVENTURE.Owner.rule.suffocation") });
    const conMod = req.conMod ?? adapterFor().read(actor).conMod;
    if (conMod === null) throw new UserError("AVENTURE.Breath.noCon", { name: token.name });
    const timeline = suffocationTimeline(conMod, roundSeconds(getSetting("ruleset")));
    const start = game.time.worldTime;
    const flag: BreathFlag = {
      v: 1,
      id: foundry.utils.randomID(16),
      start,
      conMod,
      roundSeconds: timeline.roundSeconds,
      airUntil: start + timeline.holdSeconds,
      dropAt: start + timeline.dropSeconds,
      dropped: false,
    };
    await writeBreath(req.sceneId, req.tokenId, flag);
    return { op: "hold", name: token.name, holdSeconds: timeline.holdSeconds, rounds: timeline.rounds };
  } finally {
    busy.delete(key);
  }
}

/** The ids a token document gives a request (a placeable's document, or the document itself). */
function refOf(target: unknown): { sceneId: string; tokenId: string; token: BreathToken } {
  const doc: unknown = typeof target === "object" && target !== null && "document" in target ? target.document : target;
  if (!isBreathToken(doc)) throw new UserError("AVENTURE.Error.NoToken");
  const sceneId = sceneIdOf(doc);
  if (!sceneId || !doc.id) throw new UserError("AVENTURE.Error.NoToken");
  if (!doc.actor) throw new UserError("AVENTURE.Error.NoActor", { name: doc.name });
  return { sceneId, tokenId: doc.id, token: doc };
}

/** Starts (`hold`) or ends (`release`) a held breath for a token this user owns; says how it went. */
async function ask(
  target: unknown,
  op: BreathOp,
  options: { conMod?: number } = {},
): Promise<BreathResult | undefined> {
  return guarded(async () => {
    const { sceneId, tokenId, token } = refOf(target);
    assertOwner(game.user, token);
    const result = await sendRequest<BreathResult>("breath", {
      op,
      sceneId,
      tokenId,
      ...(options.conMod !== undefined ? { conMod: options.conMod } : {}),
    });
    if (result.op === "hold") {
      notify(
        "info",
        t("AVENTURE.Breath.started", {
          name: result.name,
          time: durationText(result.holdSeconds),
          rounds: roundsText(result.rounds, t),
        }),
      );
    } else notify("info", t("AVENTURE.Breath.ended", { name: result.name }));
    return result;
  });
}

/** `api.holdBreath(token, {conMod?})`: the token starts holding its breath now (world time). */
export function holdBreathFor(target: unknown, options: { conMod?: number } = {}): Promise<BreathResult | undefined> {
  return ask(target, "hold", options);
}

/** `api.breatheAgain(token)`: the token breathes again (its held breath, or its suffocation, ends). */
export function breatheAgainFor(target: unknown): Promise<BreathResult | undefined> {
  return ask(target, "release");
}

// ------------------------------------------------------------------------------------------------ the drop card

export type { SuffocationCard } from "./suffocation-card.js";

/** The state of a suffocation card a GM wrote, through its data model (suffocation-card.ts); null for anything else. */
export function suffocationCardOf(message: Parameters<typeof cardState>[0]): SuffocationCard | null {
  return cardState<SuffocationCard>(message, SUFFOCATION_CARD);
}

/** What Aventure uses of a chat message (a real ChatMessage satisfies it). */
interface CardMessage {
  id: string | null;
  author?: unknown;
  flags?: unknown;
  update(data: object): Promise<unknown>;
}

function isCardMessage(x: unknown): x is CardMessage {
  return typeof x === "object" && x !== null && "update" in x && typeof x.update === "function" && "id" in x;
}

function cardMessages(): { message: CardMessage; card: SuffocationCard }[] {
  const out: { message: CardMessage; card: SuffocationCard }[] = [];
  for (const message of game.messages?.contents ?? []) {
    if (!isCardMessage(message)) continue;
    const card = suffocationCardOf(message);
    if (card) out.push({ message, card });
  }
  return out;
}

async function cardContent(card: SuffocationCard): Promise<string> {
  const context = suffocationCardContext(
    {
      name: card.name,
      hpBefore: card.hpBefore,
      holdSeconds: card.holdSeconds,
      rounds: card.rounds,
      status: card.status,
      unconscious: card.unconscious,
      resumed: card.resumed,
      problems: card.problems.map((p) => t(p.key, p.data)),
    },
    t,
  );
  return renderTemplateCompat(template("breath/card.hbs"), context);
}

const PATH = /^system\.[\w.]+$/;

/** The hit point path the actor has (first alternative of the adapter's path that holds a number). */
function hpPathOf(adapter: ActorAdapter, actor: ActorLike): string | null {
  for (const alt of adapter.paths.hp.split("|")) {
    const p = alt.trim();
    if (PATH.test(p) && readNumber(actor, p) !== null) return p;
  }
  return null;
}

/**
 * The steps that bring the world to what a drop card says, each reading its state back: the hit points to 0 (and
 * dnd5e's temporary hit points), the unconscious status (Aventure's own, never one set by hand), the flag marked
 * dropped (left alone when the creature breathes again meanwhile, or breathes under another held breath).
 */
function dropSteps(card: SuffocationCard, token: BreathToken, actor: ActorLike, adapter: ActorAdapter): Step[] {
  const steps: Step[] = [];
  const { hpPath, tempPath } = card;
  if (hpPath) {
    steps.push({
      label: t("AVENTURE.Breath.stepHp", { name: card.name }),
      state: () => {
        const hp = readNumber(actor, hpPath);
        const temp = tempPath ? (readNumber(actor, tempPath) ?? 0) : 0;
        if (hp === null) return "missing";
        return hp <= 0 && temp <= 0 ? "done" : "pending";
      },
      run: () =>
        actor.update({ [hpPath]: 0, ...(tempPath && (readNumber(actor, tempPath) ?? 0) > 0 ? { [tempPath]: 0 } : {}) }),
    });
  }
  const unconsciousId = adapter.statusId("unconscious");
  if (unconsciousId) {
    steps.push({
      label: t("AVENTURE.Breath.stepUnconscious", { name: card.name }),
      state: () => (actor.statuses.has(unconsciousId) ? "done" : "pending"),
      run: () => setOwnCondition(adapter, actor, "unconscious", true),
    });
  }
  steps.push({
    label: t("AVENTURE.Breath.stepFlag", { name: card.name }),
    state: () => {
      const flag = breathFlagOf(token);
      if (!flag || flag.id !== card.breathId) return "drifted";
      return flag.dropped ? "done" : "pending";
    },
    run: async () => {
      const flag = breathFlagOf(token);
      if (flag) await writeBreath(card.sceneId, card.tokenId, { ...flag, dropped: true });
    },
  });
  return steps;
}

/** The drop card's operation read back from the world: its executor while it is applying. */
function readDropOp(messageId: string): ReadBack {
  return () => {
    const card = suffocationCardOf(game.messages.get(messageId));
    return card?.status === "applying" ? { executor: card.executor ?? null } : undefined;
  };
}

/** Records `executor` as the drop's executor (a GM taking an interrupted drop over). */
const claimDrop = (message: CardMessage) => (executor: Executor) =>
  message.update(cardUpdate(message, SUFFOCATION_CARD, { executor }));

/**
 * Brings the world to what the card says and marks it applied (the first run, or recovery after a reload), each write
 * only while this client is still the drop's executor of record (`guard`).
 */
async function completeDrop(
  message: CardMessage,
  card: SuffocationCard,
  resumed: boolean,
  guard: Guard,
): Promise<void> {
  const next: SuffocationCard = { ...card, problems: [...card.problems], ...(resumed ? { resumed: true } : {}) };
  const token = sceneToken(card.sceneId, card.tokenId);
  const actor = token?.actor;
  if (!token || !isActorLike(actor)) {
    next.problems.push({ key: "AVENTURE.Breath.gone", data: { name: card.name } });
  } else {
    const adapter = adapterFor();
    const report = await runSteps(dropSteps(card, token, actor, adapter), guard);
    for (const what of report.drifted) next.problems.push({ key: "AVENTURE.Operation.drifted", data: { what } });
    if (!card.hpPath) next.problems.push({ key: "AVENTURE.Breath.noHp", data: { name: card.name } });
    const id = adapter.statusId("unconscious");
    next.unconscious = !!id && actor.statuses.has(id) && isOwnStatus(actor, id);
  }
  next.status = "applied";
  const { problems, ...rest } = next;
  guard.check();
  // Without problems, the state is written without them (the model reads none).
  const state = problems.length ? next : rest;
  await message.update({ content: await cardContent(next), ...cardUpdate(message, SUFFOCATION_CARD, state) });
}

/**
 * The drop of one token whose breath ran out, on the active GM, once: nothing when a card for this token's breath
 * exists
 * (recovery finishes one left "applying"); else the card first, marked "applying" with the hit points before, then
 * the steps, then "applied".
 */
async function dropIfDue(sceneId: string, token: BreathToken, worldTime: number): Promise<void> {
  const flag = breathFlagOf(token);
  if (!flag || flag.dropped || !token.id || breathNow(flag, worldTime).phase !== "down") return;
  if (!aventureActs("suffocation")) return; // dnd5e owns suffocation in this world: Aventure drops no one
  const key = tokenKey(sceneId, token.id);
  if (busy.has(key)) return;
  busy.add(key);
  try {
    if (cardMessages().some(({ card: c }) => c.sceneId === sceneId && c.tokenId === token.id && c.breathId === flag.id))
      return;
    const actor = token.actor;
    if (!isActorLike(actor)) return;
    const adapter = adapterFor();
    const hpPath = hpPathOf(adapter, actor);
    const tempPath =
      adapter.id === "dnd5e" && readNumber(actor, "system.attributes.hp.temp") !== null
        ? "system.attributes.hp.temp"
        : null;
    const timeline = suffocationTimeline(flag.conMod, flag.roundSeconds);
    const card: SuffocationCard = {
      v: 1,
      status: "applying",
      breathId: flag.id,
      sceneId,
      tokenId: token.id,
      name: token.name,
      holdSeconds: timeline.holdSeconds,
      rounds: timeline.rounds,
      hpPath,
      hpBefore: hpPath ? readNumber(actor, hpPath) : null,
      tempPath,
      unconscious: false,
      resumed: false,
      problems: [],
      executor: executorStamp(),
    };
    const message: unknown = await ChatMessage.implementation.create({
      content: await cardContent(card),
      speaker: { alias: token.name },
      whisper: cardReaders(token),
      ...cardData(SUFFOCATION_CARD, card),
    });
    if (!isCardMessage(message) || !message.id) return;
    // Two GMs posted this drop at once (the active GM changed meanwhile): the card the server stored first is the
    // drop; a later one is deleted before any step (every client sees the cards in the server's order).
    const first = cardMessages().find(
      ({ card: c }) => c.sceneId === sceneId && c.tokenId === token.id && c.breathId === flag.id,
    );
    if (first && first.message.id !== message.id) {
      await game.messages.get(message.id)?.delete();
      return;
    }
    const id = message.id;
    await execute(`breath.${id}`, readDropOp(id), (guard) => completeDrop(message, card, false, guard));
  } finally {
    busy.delete(key);
  }
}

/** Who receives a drop card: the GMs, and the token's player owners unless the token is hidden. */
function cardReaders(token: BreathToken): string[] {
  const ids: string[] = [];
  for (const user of game.users) {
    if (user.id && (user.isGM || (playersMaySee(token) && token.testUserPermission(user, "OWNER")))) ids.push(user.id);
  }
  return ids;
}

/** On the active GM: every creature whose drop is due drops, once (updateWorldTime, ready, a GM taking over). */
export async function checkBreaths(worldTime: number = game.time.worldTime): Promise<void> {
  if (!isActiveGM()) return;
  for (const { sceneId, token } of breathingTokens()) {
    try {
      await dropIfDue(sceneId, token, worldTime);
    } catch (e) {
      console.error("aventure | could not apply a suffocation", e);
    }
  }
}

/**
 * Recovery (every GM, on ready and when a GM leaves): cards left "applying" whose executor is gone (or is this GM's
 * own previous page) are finished; then, on the active GM, due drops run.
 */
export async function recoverBreaths(): Promise<void> {
  for (const { message, card } of cardMessages()) {
    if (card.status !== "applying" || !message.id) continue;
    const key = tokenKey(card.sceneId, card.tokenId);
    if (busy.has(key)) continue;
    busy.add(key);
    const id = message.id;
    try {
      await resume(`breath.${id}`, readDropOp(id), claimDrop(message), (guard) =>
        completeDrop(message, suffocationCardOf(game.messages.get(id)) ?? card, true, guard),
      );
    } catch (e) {
      console.error("aventure | could not finish an interrupted suffocation", e);
    } finally {
      busy.delete(key);
    }
  }
  await checkBreaths();
}

export function registerBreathRequests(): void {
  registerRequest({ name: "breath", handle: featureHandler("suffocation", onBreathRequest) });
  registerRecovery("breath", recoverBreaths);
}
