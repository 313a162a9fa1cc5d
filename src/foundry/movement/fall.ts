/**
 * Falls (RULES.md §4.1): a Foundry Roll visible in chat, bludgeoning damage through the system adapter
 * (or a card with an "Apply damage" button for the GM where the system has no damage API), and the prone
 * condition when the creature took damage. A fall always runs on the active GM, once; a player's request
 * goes there as the "aventure.fall" query, which checks that the player owns the token or actor. The card's
 * Apply damage button goes there too ("aventure.fallApply"), so that two GMs clicking at once apply it once.
 */
import { MODULE_ID, template } from "../../constants.js";
import { FALL_RULES, fallDice, fallFormula } from "../../rules/movement.js";
import { isRulesError } from "../../rules/errors.js";
import { adapterFor, Dnd5eAdapter, type ActorAdapter, type ActorLike } from "../adapters/adapter.js";
import { readNumber } from "../adapters/read.js";
import { postCard } from "../chat.js";
import { askGM, isActiveGM, registerQuery } from "../gm.js";
import { UserError, errorMessage, guarded, reportError, t } from "../i18n.js";
import { getSetting } from "../settings.js";
import { assertOwner } from "../tokens.js";
import { fallCardContext, metresText, type FallSource } from "../../apps/movement-context.js";
import { isFlying, isTeleportAction, lastAction, sceneToMetres, type SceneLike } from "./token-data.js";

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
  movementAction?: string;
  testUserPermission(user: User, level: "OWNER"): boolean;
}

/** The query payload: the token (scene + token ids) or the actor, and the metres fallen. */
export interface FallRequest {
  sceneId?: string;
  tokenId?: string;
  actorId?: string;
  metres: number;
  source?: FallSource;
}
type FallReply = { ok: true; outcome: FallOutcome } | { ok: false; key: string; data: Record<string, string | number> };

export interface FallOutcome {
  metres: number;
  dice: number;
  total: number;
  /** The damage went through the system's API. */
  applied: boolean;
  prone: boolean;
}

/** Flags of a fall card waiting for the GM to apply the damage by hand. */
export interface PendingFall {
  sceneId?: string;
  tokenId?: string;
  actorId?: string;
  name: string;
  damage: number;
  pending: boolean;
}

const SOURCES: readonly FallSource[] = ["api", "region", "drop", "hud"];

/** Turns a token document, a token placeable or an actor into a request reference (no actor → UserError). */
export function fallReference(target: unknown): { ref: Omit<FallRequest, "metres">; owner: FallTarget["actor"] | FallToken; name: string } {
  if (!target || typeof target !== "object") throw new UserError("AVENTURE.Error.NoToken");
  const placeable = (target as { document?: unknown }).document;
  const doc = (placeable && typeof placeable === "object" ? placeable : target) as Partial<FallToken> & { documentName?: string };
  if (doc.documentName === "Token" || "actor" in doc) {
    const token = doc as FallToken;
    if (!token.actor) throw new UserError("AVENTURE.Error.NoActor", { name: token.name });
    const sceneId = (token.parent as { id?: string | null } | null)?.id;
    if (!sceneId || !token.id) throw new UserError("AVENTURE.Error.NoToken");
    return { ref: { sceneId, tokenId: token.id }, owner: token, name: token.name };
  }
  // A synthetic (unlinked) token actor falls as its token: its id is the base actor's.
  const synthetic = target as { isToken?: boolean; token?: unknown };
  if (synthetic.isToken === true && synthetic.token && typeof synthetic.token === "object") return fallReference(synthetic.token);
  const actor = target as FallTarget["actor"];
  if (!actor.id || typeof actor.testUserPermission !== "function") throw new UserError("AVENTURE.Error.NoToken");
  return { ref: { actorId: actor.id }, owner: actor, name: actor.name };
}

/** Resolves a request on the GM: the documents must exist and `user` must own them. */
export function resolveFallRequest(data: unknown, user: User): { target: FallTarget; metres: number; source: FallSource } {
  if (!data || typeof data !== "object") throw new UserError("AVENTURE.Error.Missing", { name: "data" });
  const d = data as Record<string, unknown>;
  const metres = d.metres;
  fallDice(metres as number); // validates: a finite number ≥ 0 (RulesError otherwise)
  const source = SOURCES.includes(d.source as FallSource) ? (d.source as FallSource) : "api";
  if (typeof d.sceneId === "string" && typeof d.tokenId === "string") {
    const scene = (game as unknown as { scenes: { get(id: string): { tokens: { get(id: string): FallToken | undefined } } | undefined } }).scenes.get(
      d.sceneId,
    );
    const token = scene?.tokens.get(d.tokenId);
    if (!token) throw new UserError("AVENTURE.Error.NoToken");
    assertOwner(user, token);
    if (!token.actor) throw new UserError("AVENTURE.Error.NoActor", { name: token.name });
    return { target: { token, actor: token.actor as FallTarget["actor"] }, metres: metres as number, source };
  }
  if (typeof d.actorId === "string") {
    const actor = game.actors.get(d.actorId) as unknown as FallTarget["actor"] | undefined;
    if (!actor) throw new UserError("AVENTURE.Error.NoToken");
    assertOwner(user, actor);
    return { target: { token: null, actor }, metres: metres as number, source };
  }
  throw new UserError("AVENTURE.Error.NoToken");
}

/**
 * Runs a fall on this client, which must be the active GM: rolls the dice with Foundry's Roll (shown in
 * chat), applies the damage through the adapter and sets prone when damage was taken; posts the card.
 */
export async function executeFall(target: FallTarget, metres: number, source: FallSource): Promise<FallOutcome> {
  if (!isActiveGM()) throw new UserError("AVENTURE.Error.NoActiveGM");
  const dice = fallDice(metres);
  const formula = fallFormula(metres);
  const actor = target.actor;
  const name = target.token?.name ?? actor.name;
  const speaker = ChatMessage.getSpeaker({ actor: actor as never });
  let total = 0;
  let applied = false;
  let prone = false;
  if (formula) {
    const roll = new Roll(formula);
    await roll.evaluate();
    await roll.toMessage({ speaker, flavor: t("AVENTURE.Movement.Fall.rollFlavor", { name, metres: fmt(metres) }) });
    total = roll.total ?? 0;
    const adapter = adapterFor();
    if (total > 0) {
      const before = hitPoints(adapter, actor);
      applied = await adapter.applyDamage(actor, total, FALL_RULES.damageType);
      // The system may resist or ignore the damage (immunity): prone only when hit points went down.
      if (applied && FALL_RULES.proneOnDamage && tookDamage(before, hitPoints(adapter, actor))) {
        await adapter.setCondition(actor, "prone", true);
        prone = true;
      }
    }
  }
  const pending: PendingFall | null =
    total > 0 && !applied
      ? {
          ...(target.token
            ? { sceneId: (target.token.parent as { id?: string } | null)?.id ?? "", tokenId: target.token.id ?? "" }
            : { actorId: actor.id ?? "" }),
          name,
          damage: total,
          pending: true,
        }
      : null;
  await postCard({
    template: template("movement/fall-card.hbs"),
    context: fallCardContext({ name, metres, dice, total, applied, prone, source, lang: game.i18n.lang }, (k, d) =>
      d ? game.i18n.format(k, d as Record<string, string>) : game.i18n.localize(k),
    ),
    speaker,
    ...(pending ? { flags: { fall: pending } } : {}),
  });
  return { metres, dice, total, applied, prone };
}

/** Hit points as the adapter reads them (and dnd5e's temporary hit points), or null when it cannot. */
function hitPoints(adapter: ActorAdapter, actor: ActorLike): { value: number; temp: number } | null {
  const hp = adapter.read(actor).hp;
  if (!hp) return null;
  const temp = adapter instanceof Dnd5eAdapter ? (readNumber(actor, "system.attributes.hp.temp") ?? 0) : 0;
  return { value: hp.value, temp };
}

/**
 * Whether the creature took damage: its hit points (or temporary hit points) went down. When they cannot be
 * read, the damage the system applied counts as taken.
 */
function tookDamage(before: { value: number; temp: number } | null, after: { value: number; temp: number } | null): boolean {
  if (!before || !after) return true;
  return after.value < before.value || after.temp < before.temp;
}

/** The text of `s` as HTML (a token's name may hold "<" or "&"). */
function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const fmt = (metres: number): string => metresText(metres, game.i18n.lang);

/** The "aventure.fall" query handler (active GM): validates, then runs the fall. Errors come back as keys. */
async function onFallQuery(data: unknown, sender: User): Promise<FallReply> {
  try {
    const { target, metres, source } = resolveFallRequest(data, sender);
    return { ok: true, outcome: await executeFall(target, metres, source) };
  } catch (e) {
    if (isRulesError(e) || e instanceof UserError) return { ok: false, key: e.key, data: { ...e.data } };
    throw e;
  }
}

export function registerFallQuery(): void {
  registerQuery("fall", onFallQuery);
  registerQuery("fallApply", fallApplyQuery);
}

/**
 * `api.fall(tokenOrActor, metres)`: makes a token (document or placeable) or an actor fall `metres`.
 * Anyone owning it may ask; the fall runs on the active GM. Errors are shown to the user and nothing changes
 * (the result is then undefined).
 */
export async function fall(tokenOrActor: unknown, metres: number, source: FallSource = "api"): Promise<FallOutcome | undefined> {
  return guarded(async () => {
    const { ref, owner } = fallReference(tokenOrActor);
    fallDice(metres);
    assertOwner(game.user, owner as { name: string; testUserPermission(u: User, l: "OWNER"): boolean });
    const reply = await askGM<FallRequest, FallReply>("fall", { ...ref, metres, source });
    if (!reply.ok) throw new UserError(reply.key, reply.data);
    return reply.outcome;
  });
}

// -------------------------------------------------------------------------------------------------
// Elevation drops
// -------------------------------------------------------------------------------------------------

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
  origin?: { elevation?: number };
  destination?: { elevation?: number };
  passed?: { waypoints?: readonly { action?: string }[] };
  pending?: { waypoints?: readonly { action?: string }[] };
}

/**
 * `moveToken` (all clients; acts on the active GM): a drop of 3 m or more (a fall with dice) of a token that
 * does not fly is a fall, automatically or after asking the GM, per the "fallOnDrop" setting. Not a fall: an
 * undone move (method "undo") and a teleport (blink, displace). At most one fall per movement.
 */
export async function onElevationDrop(token: FallToken, movement: MovementLike): Promise<void> {
  if (!isActiveGM()) return;
  const mode = getSetting("fallOnDrop");
  if (mode === "off") return;
  const from = movement.origin?.elevation;
  const to = movement.destination?.elevation;
  if (typeof from !== "number" || typeof to !== "number" || !(from > to)) return;
  const metres = sceneToMetres(from - to, token.parent as SceneLike);
  if (metres === null || fallDice(metres) === 0) return;
  if (movement.method === "undo" || isTeleportAction(lastAction(movement)) || isFlying(token, movement)) return;
  if (!claimMovementFall(token, movement.id)) return;
  await guarded(async () => {
    if (!token.actor) throw new UserError("AVENTURE.Error.NoActor", { name: token.name });
    if (mode === "ask") {
      const ok = await foundry.applications.api.DialogV2.confirm({
        window: { title: "AVENTURE.Movement.Fall.title" },
        content: `<p>${escapeHtml(t("AVENTURE.Movement.Fall.askDrop", { name: token.name, metres: fmt(metres) }))}</p>`,
      } as never);
      if (!ok) return;
    }
    await executeFall({ token, actor: token.actor as FallTarget["actor"] }, metres, "drop");
  });
}

// -------------------------------------------------------------------------------------------------
// The "Apply damage" button (systems without a damage API)
// -------------------------------------------------------------------------------------------------

/**
 * Applies a pending fall by hand (GM): lowers the hit points at the adapter's path, then sets prone (the
 * damage is applied in full here, so the creature took it). The card's button reaches it through the
 * "aventure.fallApply" query, on the active GM only.
 */
export async function applyPendingFall(flag: PendingFall): Promise<boolean> {
  if (!game.user.isGM) throw new UserError("AVENTURE.Error.GMOnly");
  if (!flag.pending) return false;
  const { target } = resolveFallRequest({ ...flag, metres: 0 }, game.user);
  const actor = target.actor;
  const adapter = adapterFor();
  const hpPath = adapter.paths.hp.split("|")[0]?.trim() ?? "";
  const hp = adapter.read(actor).hp;
  if (!hpPath || !hp) throw new UserError("AVENTURE.Movement.Fall.noHp", { name: flag.name, damage: flag.damage });
  await actor.update({ [hpPath]: Math.max(0, hp.value - flag.damage) });
  if (FALL_RULES.proneOnDamage) await adapter.setCondition(actor, "prone", true);
  return true;
}

/** True when a GM wrote the message (ChatMessage#author is a User; a user id is accepted too). */
function authoredByGM(message: { author?: unknown }): boolean {
  const author = message.author;
  if (typeof author === "string") return game.users.get(author)?.isGM === true;
  return (author as { isGM?: boolean } | null | undefined)?.isGM === true;
}

/** A fall card as the query handler sees it. */
interface FallMessageLike {
  id?: string | null;
  author?: unknown;
  flags?: Record<string, unknown>;
  setFlag(scope: string, key: string, value: unknown): Promise<unknown>;
}

/** The flag of a pending fall card, checked field by field (a message's flags are whatever its author wrote). */
function pendingFlag(message: FallMessageLike): PendingFall | null {
  const flag = (message.flags?.[MODULE_ID] as { fall?: unknown } | undefined)?.fall;
  if (!flag || typeof flag !== "object") return null;
  const f = flag as Record<string, unknown>;
  const str = (v: unknown) => typeof v === "string" && v !== "";
  if (typeof f.pending !== "boolean" || typeof f.name !== "string") return null;
  if (typeof f.damage !== "number" || !Number.isFinite(f.damage) || f.damage <= 0) return null;
  const ref =
    str(f.sceneId) && str(f.tokenId)
      ? { sceneId: f.sceneId as string, tokenId: f.tokenId as string }
      : str(f.actorId)
        ? { actorId: f.actorId as string }
        : null;
  if (!ref) return null;
  return { ...ref, name: f.name, damage: f.damage, pending: f.pending };
}

/** The answer to the card's Apply damage: plain data, localized by the requester. */
export type FallApplyResult = { ok: true; name: string; damage: number } | { ok: false; key: string; data: Record<string, string | number> };

/** Fall cards whose damage the active GM is applying right now (two clicks at once: the second is refused). */
const applying = new Set<string>();

/**
 * The active GM's handler of the card's Apply damage (query aventure.fallApply): GM senders only, a pending
 * fall card a GM wrote, by id. Marks the card not pending, then applies; if applying fails, the card is
 * pending again and the error comes back.
 */
export async function fallApplyQuery(raw: unknown, sender: User): Promise<FallApplyResult> {
  let claimed: string | null = null;
  try {
    if (!isActiveGM()) throw new UserError("AVENTURE.Error.NoActiveGM");
    if (!sender.isGM) throw new UserError("AVENTURE.Error.GMOnly");
    const id = (raw as { messageId?: unknown } | null)?.messageId;
    const message = typeof id === "string" ? (game.messages.get(id) as unknown as FallMessageLike | undefined) : undefined;
    const flag = message && authoredByGM(message) ? pendingFlag(message) : null;
    if (!message || !flag || typeof id !== "string") throw new UserError("AVENTURE.Movement.Fall.notPending");
    if (!flag.pending || applying.has(id)) throw new UserError("AVENTURE.Movement.Fall.alreadyApplied", { name: flag.name });
    applying.add(id);
    claimed = id;
    await message.setFlag(MODULE_ID, "fall", { ...flag, pending: false });
    try {
      await applyPendingFall(flag);
    } catch (e) {
      await message.setFlag(MODULE_ID, "fall", { ...flag, pending: true });
      if (isRulesError(e) || e instanceof UserError) throw e;
      throw new UserError("AVENTURE.Movement.Fall.applyFailed", { error: errorMessage(e) });
    }
    return { ok: true, name: flag.name, damage: flag.damage };
  } catch (e) {
    if (isRulesError(e) || e instanceof UserError) return { ok: false, key: e.key, data: { ...e.data } };
    return { ok: false, key: "AVENTURE.Movement.Fall.applyFailed", data: { error: errorMessage(e) } };
  } finally {
    if (claimed) applying.delete(claimed);
  }
}

/** The card's Apply damage button (GM): the active GM applies it; this client says how it went. */
export async function requestFallApply(messageId: string): Promise<FallApplyResult> {
  try {
    const result = await askGM<{ messageId: string }, FallApplyResult>("fallApply", { messageId });
    if (!result.ok) reportError(new UserError(result.key, result.data));
    else ui.notifications?.info(t("AVENTURE.Movement.Fall.applied", { name: result.name, damage: result.damage }));
    return result;
  } catch (e) {
    reportError(e);
    const err = e instanceof UserError ? e : new UserError("AVENTURE.Movement.Fall.applyFailed", { error: errorMessage(e) });
    return { ok: false, key: err.key, data: { ...err.data } };
  }
}

/**
 * renderChatMessageHTML: wires the "Apply damage" button of a pending fall card for GMs, hides it otherwise.
 * Only a card a GM wrote counts (the active GM posts them): a player's message carrying the same flags
 * gets no button. The click goes to the active GM (query aventure.fallApply), which applies it once.
 */
export function onRenderFallCard(message: { id?: string | null; flags?: Record<string, unknown>; author?: unknown }, html: HTMLElement): void {
  const button = html.querySelector<HTMLButtonElement>("[data-action='aventure-apply-fall']");
  if (!button) return;
  const flag = (message.flags?.aventure as { fall?: PendingFall } | undefined)?.fall;
  if (!flag?.pending || !game.user.isGM || !authoredByGM(message)) {
    button.remove();
    return;
  }
  button.addEventListener("click", (event) => {
    event.preventDefault();
    const id = message.id;
    if (!id) return;
    button.disabled = true;
    void requestFallApply(id).finally(() => {
      button.disabled = false;
    });
  });
}
