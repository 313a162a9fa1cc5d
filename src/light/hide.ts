/**
 * Hiding (docs/rules.md §6): checks the prerequisite against every creature that may notice the hider (the setting
 * "detectionObservers": friendly ↔ hostile, or every other disposition) and the observers named — none may see it,
 * whatever the request names —, rolls Dexterity (Stealth) through the adapter, compares it with the passive Perception
 * of the observers rolled against (the ones named, else every hostile token and every creature that may notice; a
 * searching observer rolls Wisdom (Perception)), marks the token hidden (the system's status where it has one), keeps
 * the hiding state on the scene and whispers the GMs a card of who noticed, the rolls attached. Hiding ends on an
 * attack, when an observer can see the token again (it moved into sight, an observer moved, it left the darkness),
 * when a searching observer spots it, or from the token HUD.
 *
 * What `from` means: the observers the hide rolled against that missed it, and only them. A creature that may notice
 * but was not rolled against (the request named others) is not hidden from: it joins `seenBy` (it knows where the
 * hider is), so neither ambient detection nor a search treats the hider as hidden from it. A creature that was not
 * there (or could not see at all) when it hid is in neither list: ambient detection compares its passive Perception
 * with the hide's Stealth result the first time it could see the hider (docs/rules.md §6, "Ambient detection"); with
 * ambient detection off, its seeing the hider ends the hiding.
 *
 * Rolls: the GMs' (a monster's Stealth, a searching observer's Perception) are made without a chat message of their
 * own and attached to the GM card; a hider a player owns has its Stealth roll whispered to the GMs and its player
 * owners (the DC of their own hide is theirs).
 *
 * What a player learns (docs/security.md): a refused hide names only the creatures the player can see (sight.ts
 * `knownTo`), the others as "someone you cannot see"; the reply keeps the ids of the creatures the player can see and
 * the rolls of the player's own tokens; a proposal's answer gives the DC, no count. GMs get everything on their card.
 *
 * Who may do what (docs/security.md). Everything runs on the active GM, reached through the trusted request channel
 * (requests.ts), which takes the sender from the server:
 * - request "hide": the sender must own the hider. Observers and searchers the sender names must all be theirs;
 *   otherwise the GMs get a proposal (kind "hide") with the request checked and stored. A GM names anyone (its targets
 *   by default). Without named observers, the hostile tokens observe.
 * - request "endHide": the owner may report "revealed", "attacked" or "noise" about their own token; a GM any event.
 * - request "setSearching": GMs only. The marks live on the scene (searching.ts), which only GMs may write; a
 *   `flags.aventure.searching` a player writes on their own token is never read.
 * - the hiding state (Stealth DC, `from`, `seenBy`) lives on the scene too (hide-state.ts, written by these operations
 *   on the active GM only); a `flags.aventure.hide` a player writes on their own token is never read.
 * - attacks: dnd5e's `dnd5e.postRollAttack` fires on the roller's client, which asks "endHide" for the hidden tokens of
 *   the attacking actor that it owns; OSE's attack messages (flags.ose.roll === "attack") end the speaker's hiding on
 *   the active GM only when the message's author (the server's userId) owns that token.
 * Exactly once: hide-state.ts (each change recorded on its GM card before its first write, finished on ready).
 */
import { featureHandler } from "../core/features.js";
import {
  canTryToHide,
  hideEnds,
  hideResult,
  HIDE_END_EVENTS,
  type HideBecause,
  type HideCheckObserver,
  type HideEndEvent,
  type HideReason,
} from "../rules/index.js";
import { adapterFor, type ActorLike } from "../actors/api.js";
import { gmIds, postCard, speakerOf } from "../core/chat.js";
import { isActiveGM } from "../core/gm.js";
import { guarded, t, tHtml, UserError, notify } from "../core/i18n.js";
import { executorStamp, registerRecovery, type StepGuard } from "../core/operations.js";
import { propose, registerProposalKind, type ProposalApplyContext } from "../core/proposals.js";
import { registerRequest, sendRequest } from "../core/requests.js";
import { getSetting } from "../core/settings.js";
import { assertOwner } from "./tokens.js";
import { template } from "../core/constants.js";
import {
  hideCardContext,
  hideEndCardContext,
  searchCardContext,
  type HideCardObserver,
  type SearchCardRow,
} from "./hide-card-context.js";
import {
  canvasLike,
  tokenCenter,
  tokenRefId,
  type CanvasLike,
  type TokenRef,
  type TokenDocLike,
  type TokenObjLike,
} from "./scene.js";
import { mayNoticeHider } from "./detection-pairs.js";
import { isSearching, writeSearchingMarks } from "./searching.js";
import { isRecord } from "../core/values.js";
import { docIdField, flagModel, type DataOf, type Fields } from "../core/flag-model.js";
import { ableToSee, invisible, knownTo, observerInput, playerOwners } from "./sight.js";
import { lightTracker, placeable, type TokenLightState } from "./tracker.js";
import {
  claimTokens,
  hideFlagOf,
  ID,
  MAX_IDS,
  recoverHideOps,
  HIDE_CARD_KINDS,
  releaseTokens,
  runHideOp,
  sceneToken,
  tokenBusy,
  type HideChange,
  type HideFlag,
  type HideOp,
} from "./hide-state.js";

export { hideFlagOf, type HideFlag } from "./hide-state.js";

/**
 * What a hide answers. To a player, only what that player may know: the ids of the tokens they can see (sight.ts
 * `knownTo`) and the rolls of their own tokens; the DC of their own hide. To a GM, everything.
 */
export interface HideOutcome {
  dc: number;
  spottedBy: string[];
  hiddenFrom: string[];
  /** Observers whose passive Perception is unknown (the GM decides). */
  unknown: string[];
  /** Creatures that may notice it but were not rolled against (the request named others): not hidden from them. */
  notRolled: string[];
  /** The Wisdom (Perception) totals of the searching observers, by token id. */
  searchRolls: Record<string, number>;
  hidden: boolean;
}

/** What a hide request answers: the outcome, null (the roll gave nothing), or "sent to the GMs as a proposal". */
export type HideReply = HideOutcome | null | { proposed: true };

/** Options of `api.hide`: the observers (token ids) and which of them are searching. */
export interface HideOptions {
  observers?: string[];
  /** Observers actively searching: they roll Wisdom (Perception). Default: the tokens the GM marked as searching. */
  searching?: string[];
}

/** Events a player may report about their own token. */
const PLAYER_EVENTS: readonly HideEndEvent[] = ["revealed", "attacked", "noise"];

export { isSearching } from "./searching.js";

function requireCanvas(sceneId?: string): CanvasLike {
  const c = canvasLike();
  if (!c) throw new UserError("AVENTURE.Light.Error.noScene");
  if (sceneId !== undefined && c.scene?.id !== sceneId) throw new UserError("AVENTURE.Light.Error.sceneNotViewed");
  return c;
}

function resolveToken(c: CanvasLike, ref: TokenRef): TokenObjLike {
  const id = tokenRefId(ref);
  const tok = id ? placeable(c, id) : undefined;
  if (!tok) throw new UserError("AVENTURE.Light.Error.noToken");
  return tok;
}

/** Hostile tokens (opposite disposition; a neutral hider hides from every non-neutral token), with an actor. */
export function defaultObservers(c: CanvasLike, hider: TokenObjLike): TokenObjLike[] {
  const d = hider.document.disposition;
  return c.tokens.placeables.filter((o) => {
    if (o.id === hider.id || !o.document.actor) return false;
    const od = o.document.disposition;
    if (d === 0 || d === -2) return od !== 0 && od !== -2 && od !== d;
    return od * d < 0;
  });
}

/**
 * The creatures that may notice the hider (the setting "detectionObservers", as ambient detection counts them): other
 * tokens with an actor, able to see, on another side. The prerequisite holds against all of them, whatever a request
 * names. The hider's side is not only its disposition, which its owner may change: a creature a player owns counts as
 * friendly too (`mayNoticeHider`), so a player who turns their rogue hostile or neutral before hiding still has the
 * guard that sees it count.
 */
export function noticingObservers(c: CanvasLike, hider: TokenObjLike): TokenObjLike[] {
  const rule = getSetting("detectionObservers");
  const h = { disposition: hider.document.disposition, playerOwned: playerOwners(hider.document).length > 0 };
  return c.tokens.placeables.filter((o) => {
    const actor = o.document.actor as ActorLike | null;
    return o.id !== hider.id && !!actor && ableToSee(actor) && mayNoticeHider(rule, h, o.document.disposition);
  });
}

/** Tokens once each, in order. */
function uniqueTokens(...lists: readonly TokenObjLike[][]): TokenObjLike[] {
  const seen = new Map<string, TokenObjLike>();
  for (const list of lists) for (const t of list) if (!seen.has(t.id)) seen.set(t.id, t);
  return [...seen.values()];
}

/** The observers this GM targets (game.user.targets), sent along with a GM's request. */
function gmTargets(c: CanvasLike, hider: TokenObjLike): TokenObjLike[] | null {
  if (!game.user.isGM) return null;
  const targets = game.user.targets;
  if (!targets) return null;
  const ids = [...targets].map((x) => x.id).filter((id) => id !== hider.id);
  if (!ids.length) return null;
  return ids.map((id) => placeable(c, id)).filter((x): x is TokenObjLike => !!x);
}

// -------------------------------------------------------------------------------------------------------------------
// The API (any client): each action is a request to the active GM
// -------------------------------------------------------------------------------------------------------------------

/** A list of token ids from the API, a request or a proposal: undefined when absent; a UserError when malformed. */
function tokenIds(name: string, v: unknown): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.length > MAX_IDS || !v.every((x) => typeof x === "string" && ID.test(x))) {
    const value = Array.isArray(v) ? `${v.length} values` : String(v).slice(0, 60);
    throw new UserError("AVENTURE.Error.UnknownValue", { name, value, allowed: `[tokenId, …] (${MAX_IDS} at most)` });
  }
  return [...new Set(v as string[])];
}

/**
 * Api: `api.hide(token, {observers, searching})`. The active GM runs it. A player naming observers or searchers that
 * are not all theirs sends the GMs a proposal (the reply is `{proposed: true}`). Throws a UserError (nothing changes)
 * when the prerequisites do not hold.
 */
export async function hide(ref: TokenRef, options: HideOptions = {}): Promise<HideReply> {
  const c = requireCanvas();
  const tok = resolveToken(c, ref);
  assertOwner(game.user, tok.document);
  const observers = tokenIds("observers", options.observers);
  const searching = tokenIds("searching", options.searching);
  // A GM's targets are its choice of observers (targets live on its own client: they travel with the request).
  const chosen = observers ?? gmTargets(c, tok)?.map((o) => o.id);
  const reply = await sendRequest<HideReply>("hide", {
    sceneId: c.scene!.id!,
    tokenId: tok.id,
    ...(chosen ? { observers: chosen } : {}),
    ...(searching ? { searching } : {}),
  });
  if (reply && "proposed" in reply) notify("info", t("AVENTURE.Light.Hide.proposed", { name: tok.document.name }));
  return reply;
}

/**
 * Api: hides each controlled token in turn (the compendium macro). Each token's error is reported; the others go on.
 */
export async function hideSelected(): Promise<(HideReply | null)[]> {
  const c = requireCanvas();
  const tokens = c.tokens.controlled;
  if (!tokens.length) throw new UserError("AVENTURE.Error.NoToken");
  const out: (HideReply | null)[] = [];
  for (const tok of tokens) out.push((await guarded(() => hide(tok))) ?? null);
  return out;
}

/** Api: ends a token's hiding (the owner may report "revealed", "attacked", "noise"; a GM any event). */
export async function endHide(ref: TokenRef, event: HideEndEvent = "revealed"): Promise<boolean> {
  const c = requireCanvas();
  const tok = resolveToken(c, ref);
  assertOwner(game.user, tok.document);
  return sendRequest<boolean>("endHide", { sceneId: c.scene!.id!, tokenId: tok.id, event });
}

/** Api and HUD (GM only): marks a token of the viewed scene as searching, or no longer searching. */
export async function setSearching(ref: TokenRef, searching = true): Promise<boolean> {
  if (!game.user.isGM) throw new UserError("AVENTURE.Error.GMOnly");
  const c = requireCanvas();
  const tok = resolveToken(c, ref);
  return sendRequest<boolean>("setSearching", {
    sceneId: c.scene!.id!,
    tokenId: tok.id,
    searching: searching === true,
  });
}

// -------------------------------------------------------------------------------------------------------------------
// Requests (active GM): every field checked, the sender from the server
// -------------------------------------------------------------------------------------------------------------------

const tokenId = docIdField;
const tokenList = (f: Fields) =>
  new f.ArrayField(tokenId(f), { required: true, nullable: true, max: MAX_IDS, initial: null });

/** The payload of "hide", declared once (also a proposal's stored request): ids only, checked for shape. */
const hideRequestSchema = (f: Fields) => ({
  sceneId: tokenId(f),
  tokenId: tokenId(f),
  /** The observers rolled against (null: the hostile tokens and every creature that may notice). */
  observers: tokenList(f),
  /** The searchers among them (null: the GM's marks). */
  searching: tokenList(f),
});
const HideRequestModel = flagModel({ name: "AventureHideRequest", schema: hideRequestSchema, exact: true });

/** The payload of "endHide": the token and why its hiding ends. */
const endHideSchema = (f: Fields) => ({
  sceneId: tokenId(f),
  tokenId: tokenId(f),
  event: new f.StringField({ required: true, blank: false, choices: [...HIDE_END_EVENTS], initial: undefined }),
});
const EndHideRequest = flagModel({ name: "AventureEndHideRequest", schema: endHideSchema, exact: true });

/** The payload of "setSearching": the token and its mark. */
const setSearchingSchema = (f: Fields) => ({
  sceneId: tokenId(f),
  tokenId: tokenId(f),
  searching: new f.BooleanField({ required: true, nullable: false, initial: undefined }),
});
const SetSearchingRequest = flagModel({ name: "AventureSetSearchingRequest", schema: setSearchingSchema, exact: true });

/**
 * A payload read through its model; refused with what is wrong: not an object, the token, else `other` (the first
 * other field that failed).
 */
function payload<T>(
  model: { read(raw: unknown): T | null; failures(raw: unknown): string[] },
  data: unknown,
  other: (failed: string[], d: Record<string, unknown>) => never,
): T {
  if (!isRecord(data)) throw new UserError("AVENTURE.Error.Missing", { name: "data" });
  const read = model.read(data);
  if (read) return read;
  const failed = model.failures(data);
  if (failed.includes("sceneId") || failed.includes("tokenId")) throw new UserError("AVENTURE.Light.Error.noToken");
  return other(failed, data);
}

/** A hide request as sent (or stored on a proposal), each list without repeats. */
type HideRequest = DataOf<typeof HideRequestModel>;

function parseHideRequest(data: unknown): HideRequest {
  const d = payload(HideRequestModel, data, (failed, raw) => {
    for (const name of ["observers", "searching"]) if (failed.includes(name)) tokenIds(name, raw[name]);
    throw new UserError("AVENTURE.Error.Missing", { name: "data" });
  });
  const unique = (ids: string[] | null) => (ids ? [...new Set(ids)] : null);
  return { ...d, observers: unique(d.observers), searching: unique(d.searching) };
}

/**
 * The documents a hide request names, on the scene this GM views: each id must be a token there. The observers rolled
 * against: the ones named, else the hostile tokens and every creature that may notice.
 */
function resolveHideRequest(
  req: HideRequest,
  viewer: User | null,
): { c: CanvasLike; tok: TokenObjLike; observers: TokenObjLike[]; searching?: string[] } {
  const c = requireCanvas(req.sceneId);
  const tok = resolveToken(c, req.tokenId);
  const observers = req.observers
    ? req.observers.filter((id) => id !== tok.id).map((id) => resolveToken(c, id))
    : uniqueTokens(defaultObservers(c, tok), noticingObservers(c, tok));
  if (req.searching) {
    for (const id of req.searching) resolveToken(c, id);
    const ids = new Set(observers.map((o) => o.id));
    const stray = req.searching.filter((id) => !ids.has(id));
    if (stray.length) {
      // The observers a player may be told of (the default ones may include creatures they cannot see).
      const known = viewer ? knownTo(c, viewer) : () => true;
      const allowed = [...ids].filter(known).join(", ").slice(0, 200);
      throw new UserError("AVENTURE.Error.UnknownValue", {
        name: "searching",
        value: stray.join(", ").slice(0, 200),
        allowed,
      });
    }
  }
  return { c, tok, observers, ...(req.searching ? { searching: req.searching } : {}) };
}

/** Request "hide" (active GM). */
async function onHideRequest(data: unknown, { sender }: { sender: User }): Promise<HideReply> {
  const req = parseHideRequest(data);
  const { c, tok, observers, searching } = resolveHideRequest(req, sender);
  assertOwner(sender, tok.document);
  // A player's own choice: observers that are all theirs, and searchers only among them (searchers are observers).
  // A list of searchers without named observers (even an empty one) would overrule the GM's marks on the hostile
  // tokens, which are not the player's.
  const theirs = (ids: readonly string[]) =>
    ids.every((id) => placeable(c, id)!.document.testUserPermission(sender, "OWNER"));
  const own =
    (!req.observers || theirs(req.observers)) && (!req.searching || (req.observers !== null && theirs(req.observers)));
  if (!sender.isGM && !own) {
    // Players propose, GMs dispose: someone else's tokens as observers or searchers. Refused at once when it could
    // not be applied now (the player hears why, in what they may know); otherwise stored, checked, on a card for the
    // GMs.
    checkHide(c, tok, observers, { requester: sender });
    return propose(
      "hide",
      {
        sceneId: req.sceneId,
        tokenId: req.tokenId,
        observers: req.observers ?? null,
        searching: req.searching ?? null,
      },
      sender,
    );
  }
  const out = await performHide(c, tok, observers, searching, { requester: sender });
  return out && outcomeFor(c, out, sender);
}

/** A hide's outcome reduced to what `user` may know (sight.ts `knownTo`); a GM gets it whole. */
function outcomeFor(c: CanvasLike, out: HideOutcome, user: User): HideOutcome {
  if (user.isGM) return out;
  const known = knownTo(c, user);
  const ids = (list: string[]) => list.filter(known);
  const own = (id: string) => placeable(c, id)?.document.testUserPermission(user, "OWNER") === true;
  return {
    dc: out.dc,
    hidden: out.hidden,
    spottedBy: ids(out.spottedBy),
    hiddenFrom: ids(out.hiddenFrom),
    unknown: ids(out.unknown),
    notRolled: ids(out.notRolled),
    searchRolls: Object.fromEntries(Object.entries(out.searchRolls).filter(([id]) => own(id))),
  };
}

/** Request "endHide" (active GM): the event must be one the sender may report; the sender must own the token. */
async function onEndHideRequest(data: unknown, { sender }: { sender: User }): Promise<boolean> {
  const allowed = sender.isGM ? HIDE_END_EVENTS : PLAYER_EVENTS;
  const unknownEvent = (event: unknown) =>
    new UserError("AVENTURE.Error.UnknownValue", {
      name: "event",
      value: String(event).slice(0, 60),
      allowed: allowed.join(", "),
    });
  const d = payload(EndHideRequest, data, (_failed, raw) => {
    throw unknownEvent(raw.event);
  });
  const ref = { sceneId: d.sceneId, tokenId: d.tokenId };
  if (!allowed.includes(d.event)) throw unknownEvent(d.event);
  const doc = sceneToken(ref.sceneId, ref.tokenId);
  if (!doc) throw new UserError("AVENTURE.Light.Error.noToken");
  assertOwner(sender, doc);
  return performEndHide(ref.sceneId, doc, d.event);
}

/** Request "setSearching" (GMs only, active GM). */
async function onSetSearchingRequest(data: unknown): Promise<boolean> {
  const d = payload(SetSearchingRequest, data, () => {
    throw new UserError("AVENTURE.Error.Missing", { name: "searching" });
  });
  const ref = { sceneId: d.sceneId, tokenId: d.tokenId };
  const c = requireCanvas(ref.sceneId);
  const tok = resolveToken(c, ref.tokenId);
  if (isSearching(tok.document) === d.searching) return d.searching;
  if (!d.searching) {
    await writeSearchingMarks(ref.sceneId, { [tok.id]: false });
    return false;
  }
  await searchForHidden(c, tok);
  return true;
}

// -------------------------------------------------------------------------------------------------------------------
// The proposal of a player who names someone else's tokens
// -------------------------------------------------------------------------------------------------------------------

function tokenName(sceneId: string, id: string): string {
  return sceneToken(sceneId, id)?.name ?? id;
}

function describeHide(data: unknown): string[] {
  const req = parseHideRequest(data);
  const names = (ids: string[]) => ids.map((id) => tokenName(req.sceneId, id)).join(", ");
  return [
    t("AVENTURE.Light.Hide.proposal.hider", { name: tokenName(req.sceneId, req.tokenId) }),
    req.observers
      ? t("AVENTURE.Light.Hide.proposal.observers", { names: names(req.observers) })
      : t("AVENTURE.Light.Hide.proposal.defaultObservers"),
    ...(req.searching ? [t("AVENTURE.Light.Hide.proposal.searching", { names: names(req.searching) })] : []),
  ];
}

/**
 * A GM applies a hide proposal: checked again (the scene may have changed), run with the GM's authority. The outcome
 * (shown to the GMs and told to the proposer) gives the DC of the proposer's own hide, no count of observers; a
 * refusal carries a version for the proposer that names only what they may know.
 */
async function applyHideProposal(data: unknown, { proposer, guard }: ProposalApplyContext): Promise<string> {
  const req = parseHideRequest(data);
  const { c, tok, observers, searching } = resolveHideRequest(req, null);
  if (proposer) assertOwner(proposer, tok.document);
  const out = await performHide(c, tok, observers, searching, { requester: null, proposer, guard });
  const name = tok.document.name;
  if (!out) return t("AVENTURE.Light.Hide.proposal.cancelled", { name });
  return out.hidden
    ? t("AVENTURE.Light.Hide.proposal.hidden", { name, dc: out.dc })
    : t("AVENTURE.Light.Hide.proposal.seen", { name, dc: out.dc });
}

// -------------------------------------------------------------------------------------------------------------------
// On the active GM
// -------------------------------------------------------------------------------------------------------------------

/**
 * The words of a refusal for one reader: every creature that sees the hider is named for a GM; for a player, only those
 * the player can see (`known`), the others as "someone you cannot see".
 */
function reasonText(
  c: CanvasLike,
  attempt: ReturnType<typeof canTryToHide>,
  reasons: readonly HideReason[],
  known: (id: string) => boolean,
): string {
  const parts: string[] = [];
  for (const r of reasons) {
    if (r === "observerSees") {
      const blockers = attempt.observers.filter((o) => !o.canHideFrom);
      const names = blockers
        .filter((o) => known(o.id))
        .map((o) => {
          const name = placeable(c, o.id)?.document.name ?? o.id;
          return `${name} (${t(`AVENTURE.Light.Hide.blocker.${o.blockedBy ?? "light"}`)})`;
        });
      const unseen = names.length < blockers.length;
      if (!names.length) parts.push(t("AVENTURE.Light.Hide.reason.observerSeesUnseen"));
      else
        parts.push(
          t(unseen ? "AVENTURE.Light.Hide.reason.observerSeesAndUnseen" : "AVENTURE.Light.Hide.reason.observerSees", {
            names: names.join(", "),
          }),
        );
    } else parts.push(t(`AVENTURE.Light.Hide.reason.${r}`));
  }
  return parts.join(" ");
}

/**
 * Who reads a refusal: the requester (a player's is reduced to what they may know; null: a GM's authority, e.g. a
 * proposal being applied) and, for a proposal, the proposer (told their own version).
 */
interface HideAudience {
  requester: User | null;
  proposer?: User | null;
  /** An applied proposal's executor check (proposals.ts), made before each write. */
  guard?: StepGuard;
}

/**
 * The §6 prerequisites: throws a UserError (nothing rolled) when the token cannot hide now. None of the observers
 * rolled
 * against, nor any creature that may notice it (`noticingObservers`), may see it, whatever the request names.
 */
function checkHide(
  c: CanvasLike,
  tok: TokenObjLike,
  observers: TokenObjLike[],
  audience: HideAudience,
): { attempt: ReturnType<typeof canTryToHide>; state: TokenLightState; actor: ActorLike; watchers: TokenObjLike[] } {
  const doc = tok.document;
  const actor = doc.actor;
  if (!actor) throw new UserError("AVENTURE.Error.NoActor", { name: doc.name });
  if (hideFlagOf(doc)) throw new UserError("AVENTURE.Light.Error.alreadyHidden", { name: doc.name });
  const state = lightTracker.stateOf(tok.id);
  if (!state) throw new UserError("AVENTURE.Light.Error.noToken");
  const watchers = uniqueTokens(observers, noticingObservers(c, tok));
  const attempt = canTryToHide({
    ruleset: getSetting("ruleset"),
    hiderLight: state.light.level,
    hiderObscurity: state.obscurity,
    invisible: invisible(actor),
    observers: watchers.map((o) => observerInput(c, tok, o)),
  });
  // Nobody to roll against (only creatures that may notice count as observers when none is named).
  const reasons: HideReason[] =
    observers.length || attempt.reasons.includes("noObservers")
      ? [...attempt.reasons]
      : ["noObservers", ...attempt.reasons];
  if (reasons.length) {
    const text = (user: User | null) => reasonText(c, attempt, reasons, user ? knownTo(c, user) : () => true);
    const proposer = audience.proposer && !audience.proposer.isGM ? audience.proposer : null;
    throw new UserError(
      "AVENTURE.Light.Hide.cannot",
      { name: doc.name, reasons: text(audience.requester) },
      proposer ? { key: "AVENTURE.Light.Hide.cannot", data: { name: doc.name, reasons: text(proposer) } } : undefined,
    );
  }
  return { attempt, state, actor, watchers };
}

/**
 * Hides a token (active GM, one change per token at a time): prerequisites, Stealth roll, searching observers' rolls,
 * then the card (recording the change, "applying", the GMs' rolls attached), the hidden status and the hiding state,
 * and the card marked applied. The Stealth roll of a hider a player owns is whispered to the GMs and its player owners.
 */
async function performHide(
  c: CanvasLike,
  tok: TokenObjLike,
  observers: TokenObjLike[],
  searchingIds: string[] | undefined,
  audience: HideAudience,
): Promise<HideOutcome | null> {
  const doc = tok.document;
  const sceneId = c.scene!.id!;
  if (!claimTokens(sceneId, [tok.id])) throw new UserError("AVENTURE.Light.Error.busy", { name: doc.name });
  try {
    const { attempt, state, actor, watchers } = checkHide(c, tok, observers, audience);
    const adapter = adapterFor();
    // No chat message of the roll's own (it would follow the GM's roll mode, public by default): the GMs' rolls go
    // on their card, a player's own Stealth roll to that player.
    const flavor = tHtml("AVENTURE.Light.Hide.flavor");
    const roll = await adapter.rollSkill(actor, "stealth", { flavor, message: false });
    if (!Number.isFinite(roll.total)) return null;
    const cardRolls: Roll[] = [];
    const owners = playerOwners(doc);
    if (roll.roll) {
      if (owners.length) {
        audience.guard?.check();
        await ChatMessage.implementation.create({
          speaker: speakerOf(actor),
          flavor,
          rolls: [roll.roll],
          whisper: [...gmIds(), ...owners],
        });
      } else cardRolls.push(roll.roll);
    }

    // Searching observers roll Wisdom (Perception) through the adapter; the others use their passive score.
    const searching = new Set(searchingIds ?? observers.filter((o) => isSearching(o.document)).map((o) => o.id));
    const known: HideCheckObserver[] = [];
    const unknown: string[] = [];
    const searchRolls: Record<string, number> = {};
    for (const o of observers) {
      const oActor = o.document.actor;
      if (!oActor) {
        unknown.push(o.id); // a named token without an actor: the GM decides
        continue;
      }
      const p = adapter.read(oActor).passivePerception;
      const passive = p === null ? null : Math.round(p);
      if (searching.has(o.id)) {
        const r = await adapter.rollSkill(oActor, "perception", {
          flavor: tHtml("AVENTURE.Light.Hide.searchFlavor"),
          message: false,
        });
        if (r.roll) cardRolls.push(r.roll);
        if (Number.isFinite(r.total)) {
          searchRolls[o.id] = Math.round(r.total);
          known.push({ id: o.id, passivePerception: passive, searching: true, perceptionRoll: searchRolls[o.id] });
          continue;
        }
      }
      if (passive === null) unknown.push(o.id);
      else known.push({ id: o.id, passivePerception: passive, searching: false });
    }
    const result = hideResult({ stealthTotal: Math.round(roll.total), observers: known });
    // Creatures that may notice it but were not rolled against: it is not hidden from them (they know where it is).
    const rolled = new Set(observers.map((o) => o.id));
    const notRolled = watchers.filter((o) => !rolled.has(o.id));
    const hidden = result.hiddenFrom.length > 0;
    const changes: HideChange[] = [];
    if (hidden) {
      const because: Record<string, HideBecause> = {};
      for (const o of attempt.observers) if (o.because && rolled.has(o.id)) because[o.id] = o.because;
      const at = tokenCenter(c, tok);
      const flag: HideFlag = {
        dc: result.dc,
        from: result.hiddenFrom,
        because,
        light: state.light.level,
        obscurity: state.obscurity !== "none" ? state.obscurity : undefined,
        seenBy: [...new Set([...result.spottedBy, ...notRolled.map((o) => o.id)])],
        x: at.x,
        y: at.y,
      };
      changes.push({ tokenId: tok.id, name: doc.name, before: null, after: flag });
    }
    const rows: HideCardObserver[] = observers.map((o) => {
      const k = known.find((x) => x.id === o.id);
      return {
        name: o.document.name,
        passive: k ? k.passivePerception : null,
        searchRoll: searchRolls[o.id] ?? null,
        spotted: k ? result.spottedBy.includes(o.id) : null,
        because: attempt.observers.find((x) => x.id === o.id)?.because ?? null,
      };
    });
    for (const o of notRolled) {
      rows.push({
        name: o.document.name,
        passive: null,
        spotted: null,
        notRolled: true,
        because: attempt.observers.find((x) => x.id === o.id)?.because ?? null,
      });
    }
    const op: HideOp = {
      v: 1,
      status: hidden ? "applying" : "applied",
      sceneId,
      changes,
      mark: null,
      resumed: false,
      problems: [],
      executor: hidden ? executorStamp() : null,
    };
    audience.guard?.check();
    const message = await postCard({
      template: template("light/hide-card.hbs"),
      context: hideCardContext({ hider: doc.name, dc: result.dc, hidden, observers: rows }),
      gmOnly: true,
      rolls: cardRolls,
      speaker: speakerOf(actor),
      card: { kind: HIDE_CARD_KINDS.hide, state: { tokenId: tok.id, dc: result.dc, op } },
    });
    if (hidden && message) await runHideOp(message, "hide", op, false);
    return {
      dc: result.dc,
      spottedBy: result.spottedBy,
      hiddenFrom: result.hiddenFrom,
      unknown,
      notRolled: notRolled.map((o) => o.id),
      searchRolls,
      hidden,
    };
  } finally {
    releaseTokens(sceneId, [tok.id]);
  }
}

/**
 * Ends a token's hiding (active GM): the card first (recording the change), then the hiding state (scene) and the
 * hidden status
 * Aventure added (a status set by hand stays), and the card marked applied. False when it was not hidden, or when
 * another change of this token is running (two GMs ending it at once end it once).
 */
async function performEndHide(sceneId: string, doc: TokenDocLike, event: HideEndEvent): Promise<boolean> {
  if (!doc.id || !claimTokens(sceneId, [doc.id])) return false;
  try {
    const flag = hideFlagOf(doc);
    if (!flag) return false;
    const end = hideEnds(event);
    const actor = doc.actor;
    const op: HideOp = {
      v: 1,
      status: "applying",
      sceneId,
      changes: [{ tokenId: doc.id, name: doc.name, before: flag, after: null }],
      mark: null,
      resumed: false,
      problems: [],
      executor: executorStamp(),
    };
    const message = await postCard({
      template: template("light/hide-end-card.hbs"),
      context: hideEndCardContext({
        hider: doc.name,
        event: end.event,
        perceptionCheck: end.perceptionCheck,
        dc: flag.dc,
      }),
      gmOnly: true,
      speaker: actor ? speakerOf(actor) : undefined,
      card: { kind: HIDE_CARD_KINDS.hideEnd, state: { tokenId: doc.id, event, op } },
    });
    if (!message) return false;
    await runHideOp(message, "hideEnd", op, false);
    return true;
  } finally {
    releaseTokens(sceneId, [doc.id]);
  }
}

/**
 * A creature that starts searching rolls Wisdom (Perception) once, through the adapter, against the DC of every token
 * hidden from it (docs/rules.md §6, `hideResult`). A token it spots is no longer hidden from it; hidden from nobody any
 * more, it is no longer hidden at all. The GM gets one card, which records the changes and the searching mark before
 * they are written. Without anyone hidden from it, only the mark is written.
 */
async function searchForHidden(c: CanvasLike, observer: TokenObjLike): Promise<void> {
  const sceneId = c.scene!.id!;
  const actor = observer.document.actor;
  const hiders = c.tokens.placeables.filter(
    (h) => hideFlagOf(h.document)?.from.includes(observer.id) && !tokenBusy(sceneId, h.id),
  );
  if (!actor || hiders.length === 0) {
    await writeSearchingMarks(sceneId, { [observer.id]: true });
    return;
  }
  const claimed = [observer.id, ...hiders.map((h) => h.id)];
  if (!claimTokens(sceneId, claimed))
    throw new UserError("AVENTURE.Light.Error.busy", { name: observer.document.name });
  try {
    // No message of its own (the GM's roll mode could make it public): the roll goes on the GMs' search card.
    const r = await adapterFor().rollSkill(actor, "perception", {
      flavor: tHtml("AVENTURE.Light.Hide.searchFlavor"),
      message: false,
    });
    if (!Number.isFinite(r.total)) return;
    const roll = Math.round(r.total);
    const rows: SearchCardRow[] = [];
    const changes: HideChange[] = [];
    for (const h of hiders) {
      const flag = hideFlagOf(h.document)!;
      const spotted =
        hideResult({
          stealthTotal: flag.dc,
          observers: [{ id: observer.id, passivePerception: null, searching: true, perceptionRoll: roll }],
        }).spottedBy.length > 0;
      const from = spotted ? flag.from.filter((id) => id !== observer.id) : flag.from;
      const seenBy = [...new Set([...(flag.seenBy ?? []), observer.id])];
      if (spotted)
        changes.push({
          tokenId: h.id,
          name: h.document.name,
          before: flag,
          after: from.length ? { ...flag, from, seenBy } : null,
        });
      rows.push({ name: h.document.name, dc: flag.dc, spotted, stillHidden: from.length > 0 });
    }
    const op: HideOp = {
      v: 1,
      status: "applying",
      sceneId,
      changes,
      mark: observer.id,
      resumed: false,
      problems: [],
      executor: executorStamp(),
    };
    const message = await postCard({
      template: template("light/search-card.hbs"),
      context: searchCardContext({ observer: observer.document.name, roll, rows }),
      gmOnly: true,
      ...(r.roll ? { rolls: [r.roll] } : {}),
      speaker: speakerOf(actor),
      card: { kind: HIDE_CARD_KINDS.search, state: { tokenId: observer.id, roll, op } },
    });
    if (message) await runHideOp(message, "search", op, false);
  } finally {
    releaseTokens(sceneId, claimed);
  }
}

export function registerHideRequests(): void {
  registerRequest({ name: "hide", handle: featureHandler("hiding", onHideRequest) });
  registerRequest({ name: "endHide", handle: onEndHideRequest });
  registerRequest({ name: "setSearching", gmOnly: true, handle: featureHandler("hiding", onSetSearchingRequest) });
  registerProposalKind({
    kind: "hide",
    title: "AVENTURE.Light.Hide.proposalTitle",
    describe: describeHide,
    apply: applyHideProposal,
  });
  registerRecovery("hide", recoverHideOps);
}

// -------------------------------------------------------------------------------------------------------------------
// Hiding that ends by itself
// -------------------------------------------------------------------------------------------------------------------

/**
 * After each recomputation on the active GM: a hidden token stops being hidden as soon as one of the observers it hid
 * from can see it (line of sight, light as that observer perceives it, invisibility). The event names why: it left the
 * darkness that hid it, it moved into sight, or an observer moved so that it sees it.
 */
export async function checkHiddenTokens(
  _changed: readonly TokenLightState[],
  states: ReadonlyMap<string, TokenLightState>,
): Promise<void> {
  const c = canvasLike();
  const sceneId = c?.scene?.id;
  if (!c || !sceneId) return;
  for (const tok of c.tokens.placeables) {
    const flag = hideFlagOf(tok.document);
    if (!flag || tokenBusy(sceneId, tok.id)) continue;
    const actor = tok.document.actor;
    const state = states.get(tok.id);
    if (!actor || !state) continue;
    // The observers it hid from, and the creatures that may notice it and do not know where it is (they were not
    // there when it hid, or could not see at all): seeing it, any of them ends the hiding.
    const seenBy = new Set(flag.seenBy ?? []);
    const hidFrom = flag.from.map((id) => placeable(c, id)).filter((o): o is TokenObjLike => !!o);
    const observers = uniqueTokens(
      hidFrom,
      noticingObservers(c, tok).filter((o) => !seenBy.has(o.id)),
    );
    if (!observers.length) continue;
    const attempt = canTryToHide({
      ruleset: getSetting("ruleset"),
      hiderLight: state.light.level,
      hiderObscurity: state.obscurity,
      invisible: invisible(actor),
      observers: observers.map((o) => observerInput(c, tok, o)),
    });
    if (attempt.seenBy.length === 0) continue;
    const at = tokenCenter(c, tok);
    const moved = Math.hypot(at.x - flag.x, at.y - flag.y) > 1;
    // It left the zone of no visibility that hid it: the darkness, or the thick fog or dense foliage.
    const leftDarkness =
      (flag.light === "dark" && state.light.level !== "dark") ||
      (flag.obscurity === "heavy" && state.obscurity !== "heavy");
    const event: HideEndEvent = leftDarkness ? "leftDarkness" : moved ? "enteredView" : "seenByMover";
    await performEndHide(sceneId, tok.document, event);
  }
}

interface AttackingActor {
  isToken?: boolean;
  token?: { id?: string | null } | null;
}

/**
 * dnd5e.postRollAttack(rolls, {subject}) fires on the roller's client only (dnd5e 5.3.3
 * module/documents/activity/attack.mjs; subject is the AttackActivity, subject.actor its actor): the attacking
 * actor's hidden tokens that this user owns stop being hidden, through the request channel ("endHide", "attacked").
 */
export function onAttackRolled(
  _rolls: unknown,
  data: { subject?: { actor?: unknown } | null } | undefined,
): Promise<void> | void {
  const actor = data?.subject?.actor as AttackingActor | null | undefined;
  const c = canvasLike();
  if (!actor || !c) return;
  // An unlinked token's actor is its own (synthetic) actor: only that token. A world actor: its linked tokens.
  const tokens = c.tokens.placeables.filter((tok) =>
    actor.isToken ? tok.document.id === actor.token?.id : (tok.document.actor as unknown) === actor,
  );
  return endHideOwned(tokens.filter((tok) => hideFlagOf(tok.document) && tok.document.isOwner));
}

async function endHideOwned(tokens: TokenObjLike[]): Promise<void> {
  for (const tok of tokens) {
    try {
      await endHide(tok, "attacked");
    } catch (e) {
      console.error("aventure | could not end hiding after an attack", e);
    }
  }
}

interface SpeakerLike {
  scene?: string | null;
  actor?: string | null;
  token?: string | null;
}

/**
 * OSE has no attack hook: its attack chat messages carry flags.ose.roll === "attack" (docs/research/systems.md,
 * vttred/ose helpers-dice). createChatMessage fires on every client with the server's `userId`; the active GM ends
 * the hiding of the speaker's token (the speaker's linked tokens when the message names only an actor) only when that
 * user owns it: a player's message naming someone else's creature changes nothing.
 */
export function onChatMessageCreated(
  message: { flags?: Record<string, unknown>; speaker?: SpeakerLike | null },
  _options: unknown,
  userId: string,
): Promise<void> | void {
  const ose = message.flags?.ose as { roll?: unknown } | undefined;
  if (ose?.roll !== "attack" || !isActiveGM()) return;
  const author = game.users.get(userId);
  const speaker = message.speaker ?? {};
  const sceneId = typeof speaker.scene === "string" && ID.test(speaker.scene) ? speaker.scene : canvasLike()?.scene?.id;
  if (!author || !sceneId) return;
  const scene = game.scenes.get(sceneId);
  if (!scene) return;
  let tokens: TokenDocLike[];
  if (typeof speaker.token === "string" && ID.test(speaker.token)) {
    const doc = sceneToken(sceneId, speaker.token);
    tokens = doc ? [doc] : [];
  } else if (typeof speaker.actor === "string" && ID.test(speaker.actor)) {
    const actor = game.actors.get(speaker.actor);
    tokens = actor ? [...scene.tokens].filter((doc) => (doc.actor as unknown) === actor) : [];
  } else return;
  const mine = tokens.filter((doc) => hideFlagOf(doc) && doc.testUserPermission(author, "OWNER"));
  if (!mine.length) return;
  return (async () => {
    for (const doc of mine) await performEndHide(sceneId, doc, "attacked");
  })();
}
