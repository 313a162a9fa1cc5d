/**
 * Falls (docs/rules.md §4.1): 1d6 per full 3 m (Foundry Roll, shown on the fall card), bludgeoning damage through the
 * system adapter (or an "Apply damage" button for the GM where the system has no damage API), and prone when the
 * creature really took damage.
 *
 * Who may do what (docs/security.md): a fall runs on the active GM, once. A player asks through the trusted request
 * channel (request "fall"): the GM takes the sender from the server, checks that the sender owns the token or actor,
 * validates the height, then runs it. The card's Apply damage goes through the channel too ("fallApply", GMs only)
 * and reads the card only if a GM wrote it.
 *
 * Exactly once: the card is posted FIRST, marked "applying" with the hit points before the damage and the GM that
 * executes it; the damage and prone follow; the card is then marked "applied". The damage goes through the system's
 * API, which is RELATIVE (applyDamage subtracts): reading the hit points back cannot make two concurrent runs safe
 * (each would read "not applied yet" while the other's write is on its way), so only the executor of record runs the
 * steps, checked before each one (operations.ts). If its client stops in between, a GM takes it over (on `ready`, or
 * when that GM leaves) and finishes it (damage only if the hit points are still those from before; prone only if
 * damage was taken), and says so on the card.
 */
import { featureActive, featureHandler, featureRuleset, worldFeatureNote } from "../core/features.js";
import { template } from "../core/constants.js";
import { fallDice, fallFormula, fallRules } from "../rules/movement.js";
import { isRulesError } from "../rules/errors.js";
import {
  adapterFor,
  Dnd5eAdapter,
  isOwnStatus,
  setOwnCondition,
  type ActorAdapter,
  type ActorLike,
} from "../actors/api.js";
import { authoredByGM, wireButtons } from "../core/cards.js";
import { cardData, cardState, cardUpdate } from "../core/card-model.js";
import { FALL_CARD, type FallCardFlag, type FallRef } from "./fall-card.js";
import { movementChangesLevel, renderTemplateCompat } from "../core/compat.js";
import { isActiveGM } from "../core/gm.js";
import { UserError, errorMessage, escapeHtml, guarded, reportError, t, tHtml, notify } from "../core/i18n.js";
import { readNumber } from "../actors/api.js";
import {
  execute,
  executorStamp,
  registerRecovery,
  resume,
  runSteps,
  finishFirst,
  type Executor,
  type Guard,
  type ReadBack,
  type Step,
} from "../core/operations.js";
import { registerRequest, sendRequest } from "../core/requests.js";
import { flagModel, optionalDocIdField, docIdField, type DataOf, type Fields } from "../core/flag-model.js";
import { isRecord } from "../core/values.js";
import { getSetting } from "../core/settings.js";
import { aventureActs } from "../core/dnd5e-owners.js";
import { assertOwner } from "../light/api.js";
import { fallCardContext, metresText, type FallSource } from "./movement-context.js";
import { isFlying, isTeleportAction, lastAction, sceneToMetres, type SceneLike } from "./token-data.js";
import { gmIds, speakerOf } from "../core/chat.js";
import { allowOrCancel, announce } from "../core/extension-hooks.js";

/** Who falls: a token (with its actor) or an actor alone. */
export interface FallTarget {
  token: FallToken | null;
  actor: ActorLike & { testUserPermission(user: User, level: "OWNER"): boolean };
}
export interface FallToken {
  id: string | null;
  name: string;
  actor: unknown;
  parent: unknown;
  movementAction?: string | null;
  /** Hidden by the GM (TokenDocument#hidden): its fall card goes to the GMs only. */
  hidden?: boolean;
  testUserPermission(user: User, level: "OWNER"): boolean;
}

export type { FallRef, FallCardFlag } from "./fall-card.js";

/**
 * The request a client sends: who falls, how far, and from what — the payload its model declares (FallRequestModel),
 * `source` left out meaning its default, "api".
 */
export type FallRequest = Omit<DataOf<typeof FallRequestModel>, "source"> & {
  source?: DataOf<typeof FallRequestModel>["source"];
};

export interface FallOutcome {
  metres: number;
  dice: number;
  total: number;
  /** The damage went through the system's API (false: the card waits for a GM to apply it). */
  applied: boolean;
  prone: boolean;
}

const SOURCES: readonly FallSource[] = ["api", "region", "drop", "hud"];

/** Turns a token document, a token placeable or an actor into a request reference (no actor → UserError). */
export function fallReference(target: unknown): {
  ref: FallRef;
  owner: { name: string; testUserPermission(u: User, l: "OWNER"): boolean };
  name: string;
} {
  if (!target || typeof target !== "object") throw new UserError("AVENTURE.Error.NoToken");
  const placeable = (target as { document?: unknown }).document;
  const doc = (placeable && typeof placeable === "object" ? placeable : target) as Partial<FallToken> & {
    documentName?: string;
  };
  if (doc.documentName === "Token" || "actor" in doc) {
    const token = doc as FallToken;
    if (!token.actor) throw new UserError("AVENTURE.Error.NoActor", { name: token.name });
    const sceneId = (token.parent as { id?: string | null } | null)?.id;
    if (!sceneId || !token.id) throw new UserError("AVENTURE.Error.NoToken");
    return { ref: { sceneId, tokenId: token.id }, owner: token, name: token.name };
  }
  // A synthetic (unlinked) token actor falls as its token: its id is the base actor's.
  const synthetic = target as { isToken?: boolean; token?: unknown };
  if (synthetic.isToken === true && synthetic.token && typeof synthetic.token === "object")
    return fallReference(synthetic.token);
  const actor = target as FallTarget["actor"];
  if (!actor.id || typeof actor.testUserPermission !== "function") throw new UserError("AVENTURE.Error.NoToken");
  return { ref: { actorId: actor.id }, owner: actor, name: actor.name };
}

/** A reference read from a request: ids only (their shape checked by the model). Null when it names nothing whole. */
function parseRef(d: { sceneId?: string | null; tokenId?: string | null; actorId?: string | null }): FallRef | null {
  if (typeof d.sceneId === "string" && typeof d.tokenId === "string") return { sceneId: d.sceneId, tokenId: d.tokenId };
  if (typeof d.actorId === "string" && d.sceneId === undefined && d.tokenId === undefined)
    return { actorId: d.actorId };
  return null;
}

const docId = optionalDocIdField;

/** The payload of "fall", declared once: who falls (a token, or an actor alone), how far, and from what. */
const fallRequestSchema = (f: Fields) => ({
  sceneId: docId(f),
  tokenId: docId(f),
  actorId: docId(f),
  metres: new f.NumberField({ required: true, nullable: false, min: 0, initial: undefined }),
  source: new f.StringField({ required: true, blank: false, choices: [...SOURCES], initial: "api" }),
});
const FallRequestModel = flagModel({ name: "AventureFallRequest", schema: fallRequestSchema, exact: true });

/** The payload of "fallApply": the pending fall card. */
const fallApplySchema = (f: Fields) => ({
  messageId: docIdField(f),
});
const FallApplyRequest = flagModel({ name: "AventureFallApplyRequest", schema: fallApplySchema, exact: true });

/** The documents a reference names, or null when they are gone. */
function resolveRef(ref: FallRef): FallTarget | null {
  if ("tokenId" in ref) {
    const scene = game.scenes.get(ref.sceneId);
    const token = scene?.tokens.get(ref.tokenId);
    if (!token) return null;
    return token.actor ? { token, actor: token.actor as FallTarget["actor"] } : null;
  }
  const actor = game.actors.get(ref.actorId);
  return actor ? { token: null, actor } : null;
}

/**
 * Validates a fall request received from anyone: the height (a finite number of metres ≥ 0, at most the rules'
 * bound), the source, the documents (they must exist) and that `user` (the server-reported sender) owns them.
 */
export function resolveFallRequest(
  data: unknown,
  user: User,
): { target: FallTarget; metres: number; source: FallSource; ref: FallRef } {
  if (!isRecord(data)) throw new UserError("AVENTURE.Error.Missing", { name: "data" });
  const d = FallRequestModel.read(data);
  if (!d) {
    const failed = FallRequestModel.failures(data);
    if (failed.includes("metres")) {
      fallDice(data.metres as number); // the rules' refusal: not a number, negative
      throw new UserError("AVENTURE.Error.NotANumber", { name: "metres", value: String(data.metres) });
    }
    if (failed.includes("source"))
      throw new UserError("AVENTURE.Error.UnknownValue", {
        name: "source",
        value: String(data.source),
        allowed: SOURCES.join(", "),
      });
    throw new UserError("AVENTURE.Error.NoToken");
  }
  const { metres, source } = d;
  fallDice(metres); // the rules' bound, on top of the model
  const ref = parseRef(d);
  if (!ref) throw new UserError("AVENTURE.Error.NoToken");
  if ("tokenId" in ref) {
    const token = game.scenes.get(ref.sceneId)?.tokens.get(ref.tokenId);
    if (!token) throw new UserError("AVENTURE.Error.NoToken");
    assertOwner(user, token);
    if (!token.actor) throw new UserError("AVENTURE.Error.NoActor", { name: token.name });
    return { target: { token, actor: token.actor as FallTarget["actor"] }, metres, source, ref };
  }
  const actor = game.actors.get(ref.actorId);
  if (!actor) throw new UserError("AVENTURE.Error.NoToken");
  assertOwner(user, actor);
  return { target: { token: null, actor }, metres, source, ref };
}

function refOf(target: FallTarget): FallRef {
  if (target.token)
    return { sceneId: (target.token.parent as { id?: string } | null)?.id ?? "", tokenId: target.token.id ?? "" };
  return { actorId: target.actor.id ?? "" };
}

/** Hit points as the adapter reads them (and dnd5e's temporary hit points), or null when it cannot. */
function hitPoints(adapter: ActorAdapter, actor: ActorLike): { value: number; temp: number } | null {
  const hp = adapter.read(actor).hp;
  if (!hp) return null;
  const temp = adapter instanceof Dnd5eAdapter ? (readNumber(actor, "system.attributes.hp.temp") ?? 0) : 0;
  return { value: hp.value, temp };
}

/** Whether hit points went down between two readings (unreadable: the damage the system applied counts as taken). */
function tookDamage(
  before: { value: number; temp: number } | null,
  after: { value: number; temp: number } | null,
): boolean {
  if (!before || !after) return true;
  return after.value < before.value || after.temp < before.temp;
}

const sameHp = (a: { value: number; temp: number } | null, b: { value: number; temp: number } | null) =>
  !!a && !!b && a.value === b.value && a.temp === b.temp;

const fmt = (metres: number): string => metresText(metres, game.i18n.lang);

/** The card's content for its state (the template escapes every value). */
async function cardContent(flag: FallCardFlag): Promise<string> {
  const context = fallCardContext(
    {
      name: flag.name,
      metres: flag.metres,
      dice: flag.dice,
      total: flag.damage,
      applied: flag.applied,
      prone: flag.prone,
      source: flag.source,
      lang: game.i18n.lang,
      status: flag.status,
      resumed: flag.resumed,
      problems: flag.problems.map((p) => t(p.key, p.data)),
      ruleset: featureRuleset("falls"),
      borrowed: worldFeatureNote("falls").borrowedLabel,
    },
    (k, d) => t(k, d),
  );
  return renderTemplateCompat(template("movement/fall-card.hbs"), context);
}

async function writeCard(message: ChatMessage, flag: FallCardFlag): Promise<void> {
  await message.update({ content: await cardContent(flag), ...cardUpdate(message, FALL_CARD, flag) });
}

/**
 * The steps that bring the world to what a fall card says (operations.ts): the damage (through the system's API, or
 * written by hand to the hit point path), then prone if damage was taken. Each step reads its state back from the
 * actor, so running them again after an interruption writes only what is missing.
 */
function fallSteps(flag: FallCardFlag, target: FallTarget, adapter: ActorAdapter, firstRun: boolean): Step[] {
  const actor = target.actor;
  const steps: Step[] = [];
  if (flag.damage > 0) {
    if (flag.manual) {
      const { path, after } = flag.manual;
      steps.push({
        label: t("AVENTURE.Movement.Fall.stepDamage", { name: flag.name }),
        state: () => {
          const now = readNumber(actor, path);
          if (now === after) return "done";
          return now === flag.hpBefore?.value ? "pending" : "drifted";
        },
        run: () => actor.update({ [path]: after }),
      });
    } else {
      steps.push({
        label: t("AVENTURE.Movement.Fall.stepDamage", { name: flag.name }),
        // Through the system's API (relative): still pending only while the hit points are those from before. With
        // unreadable hit points, only the first run knows that nothing was applied yet.
        state: () => {
          const now = hitPoints(adapter, actor);
          if (!flag.hpBefore || !now) return firstRun ? "pending" : "drifted";
          return sameHp(now, flag.hpBefore) ? "pending" : "done";
        },
        run: async () => {
          flag.applied = await adapter.applyDamage(
            actor,
            flag.damage,
            fallRules(featureRuleset("falls")).damageType ?? "bludgeoning",
          );
        },
      });
    }
    if (fallRules(featureRuleset("falls")).proneOnDamage) {
      const proneId = adapter.statusId("prone");
      steps.push({
        label: t("AVENTURE.Movement.Fall.stepProne", { name: flag.name }),
        state: () => {
          if (proneId && actor.statuses.has(proneId)) return "done";
          // The system may resist or ignore the damage (immunity): prone only when hit points went down.
          return tookDamage(flag.hpBefore, hitPoints(adapter, actor)) &&
            !sameHp(flag.hpBefore, hitPoints(adapter, actor))
            ? "pending"
            : "done";
        },
        run: () => setOwnCondition(adapter, actor, "prone", true),
      });
    }
  }
  return steps;
}

/** The fall card's operation read back from the world: its executor while it is applying (operations.ts). */
function readFallOp(messageId: string): ReadBack {
  return () => {
    const f = fallCardFlag(game.messages.get(messageId));
    return f?.status === "applying" ? { executor: f.executor ?? null } : undefined;
  };
}

/** Records `executor` as the fall's executor (a GM taking an interrupted fall over). */
const claimFall = (message: ChatMessage) => (executor: Executor) =>
  message.update(cardUpdate(message, FALL_CARD, { executor }));

/**
 * Brings the world to what the card says and marks it applied (first run, a retry, or recovery after a reload), each
 * write only while this client is still the fall's executor of record (`guard`).
 */
async function completeFall(
  message: ChatMessage,
  flag: FallCardFlag,
  firstRun: boolean,
  guard: Guard,
): Promise<FallCardFlag> {
  const target = resolveRef(flag.ref);
  const adapter = adapterFor();
  const next: FallCardFlag = { ...flag, problems: [...flag.problems] };
  if (!target) {
    next.status = "applied";
    next.problems.push({ key: "AVENTURE.Movement.Fall.gone", data: { name: flag.name } });
    guard.check();
    await writeCard(message, next);
    return next;
  }
  const report = await runSteps(fallSteps(next, target, adapter, firstRun), guard);
  for (const label of report.drifted) next.problems.push({ key: "AVENTURE.Operation.drifted", data: { what: label } });
  const proneId = adapter.statusId("prone");
  next.prone = !!proneId && target.actor.statuses.has(proneId) && isOwnStatus(target.actor, proneId);
  if (flag.manual || report.done.length || report.applied.length) next.applied = next.applied || flag.damage > 0;
  next.status = "applied";
  guard.check();
  await writeCard(message, next);
  announceFall(target, next, message.id);
  return next;
}

/** `aventure.fall`, once, on the GM who completed the fall. */
function announceFall(target: FallTarget, flag: FallCardFlag, messageId: string | null): void {
  announce("aventure.fall", {
    actor: target.actor,
    token: target.token,
    metres: flag.metres,
    damage: flag.damage,
    applied: flag.applied,
    prone: flag.prone,
    messageId,
  });
}

/**
 * Whether the GM hid what falls from the players (TokenDocument#hidden): its token; for an actor falling alone (a world
 * actor, `api.fall(actor)`), any token linked to it on any scene of the world — the same creature, which the players
 * must not learn about while it is hidden there.
 */
function hiddenFromPlayers(target: FallTarget): boolean {
  if (target.token) return target.token.hidden === true;
  const id = target.actor.id;
  if (!id) return false;
  for (const scene of game.scenes) {
    for (const tok of scene.tokens) if (tok.hidden && tok.actorLink && tok.actorId === id) return true;
  }
  return false;
}

/**
 * Runs a fall on this client, which must be the active GM: rolls the dice with Foundry's Roll (attached to the card),
 * posts the card marked "applying", applies the damage through the adapter, sets prone when damage was taken, and
 * marks the card applied. Where the system has no damage API the card waits for a GM ("pending").
 */
export async function executeFall(target: FallTarget, metres: number, source: FallSource): Promise<FallOutcome> {
  if (!isActiveGM()) throw new UserError("AVENTURE.Error.NoActiveGM");
  const rules = featureRuleset("falls");
  const dice = fallDice(metres, rules);
  const formula = fallFormula(metres, rules);
  const actor = target.actor;
  allowOrCancel("aventure.preFall", { actor, token: target.token, metres, source });
  const name = target.token?.name ?? actor.name;
  const adapter = adapterFor();
  let total = 0;
  const rolls: Roll[] = [];
  if (formula) {
    const roll = new Roll(formula);
    await roll.evaluate();
    total = roll.total ?? 0;
    rolls.push(roll);
  }
  const hpBefore = hitPoints(adapter, actor);
  const api = adapter.canApplyDamage(actor);
  const flag: FallCardFlag = {
    v: 2,
    status: total > 0 ? (api ? "applying" : "pending") : "applied",
    ref: refOf(target),
    name,
    metres,
    dice,
    damage: total,
    source,
    hpBefore,
    manual: null,
    applied: false,
    prone: false,
    resumed: false,
    executor: total > 0 && api ? executorStamp() : null,
    problems: [],
  };
  const message = (await ChatMessage.implementation.create({
    content: await cardContent(flag),
    speaker: speakerOf(actor),
    flavor: tHtml("AVENTURE.Movement.Fall.rollFlavor", { name, metres: fmt(metres) }),
    ...(rolls.length ? { rolls } : {}),
    // A token the GM hid from the players (TokenDocument#hidden), or an actor falling alone one of whose linked tokens
    // is hidden: its fall, roll and all, is the GMs' (as breath cards).
    ...(hiddenFromPlayers(target) ? { whisper: gmIds() } : {}),
    ...cardData(FALL_CARD, flag),
  })) as ChatMessage | undefined;
  if (!message?.id) throw new UserError("AVENTURE.Movement.Fall.applyFailed", { error: "chat" });
  const id = message.id;
  const done =
    flag.status === "applying"
      ? await execute(`fall.${id}`, readFallOp(id), (guard) => completeFall(message, flag, true, guard))
      : flag;
  if (flag.status !== "applying") announceFall(target, flag, id); // nothing to apply: the fall is complete
  return { metres, dice, total, applied: done.applied, prone: done.prone };
}

/** Request "fall" (active GM): the sender is the server's; it must own what falls. */
async function onFallRequest(data: unknown, { sender }: { sender: User }): Promise<FallOutcome> {
  const { target, metres, source } = resolveFallRequest(data, sender);
  return executeFall(target, metres, source);
}

/**
 * `api.fall(tokenOrActor, metres)`: makes a token (document or placeable) or an actor fall `metres`. Anyone owning it
 * may ask; the fall runs on the active GM. Errors are shown to the user and nothing changes (the result is then
 * undefined).
 */
export async function fall(
  tokenOrActor: unknown,
  metres: number,
  source: FallSource = "api",
): Promise<FallOutcome | undefined> {
  return guarded(async () => {
    const { ref, owner } = fallReference(tokenOrActor);
    fallDice(metres);
    assertOwner(game.user, owner);
    return sendRequest<FallOutcome>("fall", { ...ref, metres, source });
  });
}

// -------------------------------------------------------------------------------------------------
// One fall per movement
// -------------------------------------------------------------------------------------------------

/** Movements that already made their token fall on this client (the active GM), oldest first. */
const fallenMovements = new Set<string>();
/** How many movements are remembered (a movement only matters while its updates and region events arrive). */
const REMEMBERED_MOVEMENTS = 500;

/**
 * Claims the fall of a token's movement: true the first time, false once the movement already made the token
 * fall (a fall region and an elevation drop in the same move, two fall regions, or one `moveToken` per
 * checkpoint of a long move). A movement without an id (a fall outside any movement) always falls. Called
 * synchronously on the active GM before anything is awaited, so that two triggers cannot both pass.
 */
export function claimMovementFall(token: { id: string | null; parent: unknown }, movementId: unknown): boolean {
  if (typeof movementId !== "string" || movementId === "") return true;
  const sceneId = (token.parent as { id?: string | null } | null)?.id ?? "";
  const key = `${sceneId}.${token.id ?? ""}.${movementId}`;
  if (fallenMovements.has(key)) return false;
  fallenMovements.add(key);
  if (fallenMovements.size > REMEMBERED_MOVEMENTS) {
    const oldest = fallenMovements.values().next().value;
    if (oldest !== undefined) fallenMovements.delete(oldest);
  }
  return true;
}

interface MovementLike {
  id?: string;
  method?: string;
  origin?: { elevation?: number; level?: string };
  destination?: { elevation?: number; level?: string };
  passed?: { waypoints?: readonly { action?: string; level?: string }[] };
  pending?: { waypoints?: readonly { action?: string; level?: string }[] };
}

/**
 * `moveToken` (all clients; acts on the active GM): a drop of 3 m or more (a fall with dice) of a token that
 * does not fly is a fall, automatically or after asking the GM, per the "fallOnDrop" setting. Not a fall: an
 * undone move (method "undo"), a teleport (blink, displace) and, on v14, a move to another scene level (stairs, a
 * lift: core's Change Level behaviour; docs/compat.md). At most one fall per movement.
 */
export async function onElevationDrop(token: FallToken, movement: MovementLike): Promise<void> {
  if (!isActiveGM()) return;
  if (!featureActive("falls")) return; // docs/rules.md §0: the world's game has no falling rule
  if (!aventureActs("falls")) return; // dnd5e owns falls in this world (dnd5e-owners.ts)
  const mode = getSetting("fallOnDrop");
  if (mode === "off") return;
  const from = movement.origin?.elevation;
  const to = movement.destination?.elevation;
  if (typeof from !== "number" || typeof to !== "number" || !(from > to)) return;
  const metres = sceneToMetres(from - to, token.parent as SceneLike);
  if (metres === null || fallDice(metres, featureRuleset("falls")) === 0) return;
  if (movement.method === "undo" || isTeleportAction(lastAction(movement)) || isFlying(token, movement)) return;
  if (movementChangesLevel(movement)) return;
  if (!claimMovementFall(token, movement.id)) return;
  await guarded(async () => {
    if (!token.actor) throw new UserError("AVENTURE.Error.NoActor", { name: token.name });
    if (mode === "ask") {
      const ok = await foundry.applications.api.DialogV2.confirm({
        window: { title: "AVENTURE.Movement.Fall.title" },
        content: `<p>${tHtml("AVENTURE.Movement.Fall.askDrop", { name: token.name, metres: fmt(metres) })}</p>`,
      });
      if (!ok) return;
    }
    await executeFall({ token, actor: token.actor as FallTarget["actor"] }, metres, "drop");
  });
}

// -------------------------------------------------------------------------------------------------
// The card: its state, the "Apply damage" button (systems without a damage API), recovery
// -------------------------------------------------------------------------------------------------

/**
 * The state of a fall card a GM wrote, through its data model (fall-card.ts: older cards migrated); null for anything
 * else (a player's message never counts).
 */
export function fallCardFlag(message: Parameters<typeof cardState>[0]): FallCardFlag | null {
  return cardState<FallCardFlag>(message, FALL_CARD);
}

/** The answer to the card's Apply damage: plain data, localized by the requester. */
export type FallApplyResult = { name: string; damage: number };

/** Fall cards whose damage the active GM is applying right now (two clicks at once: the second is refused). */
const applying = new Set<string>();

/**
 * Request "fallApply" (GMs only, active GM): the Apply damage of a pending fall card a GM wrote. Marks the card
 * "applying" with the hit points to write (absolute) BEFORE writing them, then completes it (completeFall).
 */
export async function onFallApplyRequest(raw: unknown): Promise<FallApplyResult> {
  const id = FallApplyRequest.read(raw)?.messageId;
  const message = id ? (game.messages.get(id) ?? undefined) : undefined;
  const flag = fallCardFlag(message);
  if (!message || !flag || !id) throw new UserError("AVENTURE.Movement.Fall.notPending");
  if (flag.status === "applied" || applying.has(id))
    throw new UserError("AVENTURE.Movement.Fall.alreadyApplied", { name: flag.name });
  applying.add(id);
  try {
    let next = flag;
    if (flag.status === "applying") {
      // Interrupted: finished here unless another GM still executes it (then refused: "busy").
      await finishFirst(`fall.${id}`, readFallOp(id), claimFall(message), (guard) =>
        completeFall(message, fallCardFlag(message) ?? flag, false, guard),
      );
      return { name: flag.name, damage: flag.damage };
    }
    if (flag.status === "pending") {
      const target = resolveRef(flag.ref);
      if (!target) throw new UserError("AVENTURE.Movement.Fall.gone", { name: flag.name });
      const adapter = adapterFor();
      const hpPath = adapter.paths.hp.split("|")[0]?.trim() ?? "";
      const hp = adapter.read(target.actor).hp;
      if (!/^system\.[\w.]+$/.test(hpPath) || !hp)
        throw new UserError("AVENTURE.Movement.Fall.noHp", { name: flag.name, damage: flag.damage });
      next = {
        ...flag,
        status: "applying",
        hpBefore: { value: hp.value, temp: 0 },
        manual: { path: hpPath, after: Math.max(0, hp.value - flag.damage) },
        executor: executorStamp(),
      };
      await writeCard(message, next);
    }
    try {
      const applying = next;
      await execute(`fall.${id}`, readFallOp(id), (guard) => completeFall(message, applying, false, guard));
    } catch (e) {
      if (isRulesError(e) || e instanceof UserError) throw e;
      throw new UserError("AVENTURE.Movement.Fall.applyFailed", { error: errorMessage(e) });
    }
    return { name: flag.name, damage: flag.damage };
  } finally {
    applying.delete(id);
  }
}

/** The card's Apply damage button (GM): the active GM applies it; this client says how it went. */
export async function requestFallApply(messageId: string): Promise<FallApplyResult | null> {
  try {
    const result = await sendRequest<FallApplyResult>("fallApply", { messageId });
    notify("info", t("AVENTURE.Movement.Fall.applied", { name: result.name, damage: result.damage }));
    return result;
  } catch (e) {
    reportError(e);
    return null;
  }
}

/**
 * Card part (the renderChatMessageHTML listener of cards.ts): wires the "Apply damage" button of a pending (or
 * interrupted) fall card for GMs, removes it
 * otherwise. Only a card a GM wrote counts: a player's message carrying the same flags gets no button. The button
 * stays disabled while its request runs.
 */
export function onRenderFallCard(message: ChatMessage, html: HTMLElement): void {
  const flag = fallCardFlag(message);
  const usable = !!flag && flag.status !== "applied" && game.user.isGM && authoredByGM(message);
  wireButtons(html, "aventure-apply-fall", {
    allowed: () => usable,
    run: () => (message.id ? requestFallApply(message.id) : undefined),
  });
}

/**
 * Recovery (every GM: ready, a GM leaving): fall cards left "applying" whose executor is gone (or is this GM's own
 * previous page) are taken over and finished, and say so; those another GM still executes are left to it.
 */
export async function recoverFalls(): Promise<void> {
  for (const message of [...game.messages.contents]) {
    const flag = fallCardFlag(message);
    const id = message.id;
    if (!flag || flag.status !== "applying" || !id || applying.has(id)) continue;
    applying.add(id);
    try {
      // The card as it stands once this client is its executor (the claim is part of it).
      await resume(`fall.${id}`, readFallOp(id), claimFall(message), (guard) =>
        completeFall(message, { ...(fallCardFlag(message) ?? flag), resumed: true }, false, guard),
      );
    } catch (e) {
      console.error("aventure | could not finish an interrupted fall", e);
    } finally {
      applying.delete(id);
    }
  }
}

export function registerFallRequests(): void {
  registerRequest({ name: "fall", handle: featureHandler("falls", onFallRequest) });
  registerRequest({ name: "fallApply", gmOnly: true, handle: onFallApplyRequest });
  registerRecovery("fall", recoverFalls);
}

export { escapeHtml };
