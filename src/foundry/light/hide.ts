/**
 * Hiding (RULES.md §6): checks the prerequisites against the observers (hostile tokens, or the ones the GM targets),
 * rolls Dexterity (Stealth) through the adapter, compares with each observer's passive Perception, marks the token
 * hidden (the system's status where it has one), stores the DC on the token and whispers the GM a card of who noticed.
 * Hiding ends on an attack, when an observer can see the token again (it moved into sight, an observer moved, it left
 * the darkness), or from the token HUD. Everything runs on the active GM; players ask it through queries.
 */
import {
  canTryToHide,
  hideEnds,
  hideResult,
  HIDE_END_EVENTS,
  type HideBecause,
  type HideCheckObserver,
  type HideEndEvent,
  type HideObserver,
  type LightLevel,
} from "../../rules/index.js";
import { isRulesError } from "../../rules/errors.js";
import { adapterFor, setOwnCondition, type ActorLike } from "../adapters/adapter.js";
import { postCard } from "../chat.js";
import { askGM, isActiveGM, registerQuery } from "../gm.js";
import { guarded, t, UserError } from "../i18n.js";
import { getSetting } from "../settings.js";
import { assertOwner } from "../tokens.js";
import { template } from "../../constants.js";
import {
  hideCardContext,
  hideEndCardContext,
  searchCardContext,
  type HideCardObserver,
  type SearchCardRow,
} from "../../apps/hide-card-context.js";
import {
  canvasLike,
  hasLineOfSight,
  metresBetween,
  tokenCenter,
  tokenRefId,
  type CanvasLike,
  type TokenRef,
  type TokenDocLike,
  type TokenObjLike,
} from "./scene.js";
import { tokenSenses } from "./senses.js";
import { lightTracker, placeable, type TokenLightState } from "./tracker.js";

/** What Aventure stores on a hidden token (flags.aventure.hide). */
export interface HideFlag {
  /** The Stealth total: the DC to spot it. */
  dc: number;
  /** Token ids of the observers it is hidden from. */
  from: string[];
  /** Why each of them could not see it when it hid. */
  because: Record<string, HideBecause>;
  /** The actual light at the token when it hid. */
  light: LightLevel;
  /** Where it hid (canvas pixels), to tell "it moved into sight" from "an observer moved". */
  x: number;
  y: number;
}

export interface HideOutcome {
  dc: number;
  spottedBy: string[];
  hiddenFrom: string[];
  /** Observers whose passive Perception is unknown (the GM decides). */
  unknown: string[];
  /** The Wisdom (Perception) totals of the searching observers, by token id. */
  searchRolls: Record<string, number>;
  hidden: boolean;
}

/** Options of `api.hide`: the observers (token ids) and which of them are searching (GM only). */
export interface HideOptions {
  observers?: string[];
  /** Observers actively searching: they roll Wisdom (Perception). Default: the tokens the GM marked as searching. */
  searching?: string[];
}

/** Whether the GM marked this token as searching (flags.aventure.searching): it rolls Perception against hiders. */
export function isSearching(doc: TokenDocLike): boolean {
  return doc.getFlag("aventure", "searching") === true;
}

/** Api and HUD (GM only): marks a token of the viewed scene as searching, or no longer searching. */
export async function setSearching(ref: TokenRef, searching = true): Promise<boolean> {
  if (!game.user.isGM) throw new UserError("AVENTURE.Error.GMOnly");
  const c = requireCanvas();
  const tok = resolveToken(c, ref);
  if (isSearching(tok.document) === searching) return searching;
  if (searching) await tok.document.setFlag("aventure", "searching", true);
  else await tok.document.unsetFlag("aventure", "searching");
  if (searching) await searchForHidden(c, tok);
  return searching;
}

/**
 * A creature that starts searching rolls Wisdom (Perception) once, through the adapter, against the DC of every token
 * hidden from it (RULES.md §6, `hideResult`). A token it spots is no longer hidden from it; hidden from nobody any
 * more, it is no longer hidden at all. The GM gets one card. Nothing happens when nothing is hidden from it.
 */
async function searchForHidden(c: CanvasLike, observer: TokenObjLike): Promise<void> {
  const actor = observer.document.actor as unknown as ActorLike | null;
  const hiders = c.tokens.placeables.filter((h) => hideFlagOf(h.document)?.from.includes(observer.id));
  if (!actor || hiders.length === 0) return;
  const adapter = adapterFor();
  const r = await adapter.rollSkill(actor, "perception", { flavor: t("AVENTURE.Light.Hide.searchFlavor") });
  if (!Number.isFinite(r.total)) return;
  const roll = Math.round(r.total);
  const rows: SearchCardRow[] = [];
  for (const h of hiders) {
    const flag = hideFlagOf(h.document)!;
    const spotted =
      hideResult({ stealthTotal: flag.dc, observers: [{ id: observer.id, passivePerception: null, searching: true, perceptionRoll: roll }] })
        .spottedBy.length > 0;
    const from = spotted ? flag.from.filter((id) => id !== observer.id) : flag.from;
    if (spotted && from.length === 0) await clearHide(h);
    else if (spotted) await h.document.setFlag("aventure", "hide", { ...flag, from });
    rows.push({ name: h.document.name, dc: flag.dc, spotted, stillHidden: from.length > 0 });
  }
  await postCard({
    template: template("light/search-card.hbs"),
    context: searchCardContext({ observer: observer.document.name, roll, rows }),
    gmOnly: true,
    speaker: ChatMessage.getSpeaker({ actor: actor as never }),
    flags: { search: { tokenId: observer.id, roll } },
  });
}

export function hideFlagOf(doc: TokenDocLike): HideFlag | null {
  const f = doc.getFlag("aventure", "hide") as HideFlag | undefined | null;
  return f && typeof f.dc === "number" ? f : null;
}

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

/** The observers the GM targets (game.user.targets), when a GM runs it with targets. */
function gmTargets(c: CanvasLike, hider: TokenObjLike): TokenObjLike[] | null {
  if (!game.user.isGM) return null;
  const targets = (game.user as unknown as { targets?: Iterable<{ id: string }> }).targets;
  if (!targets) return null;
  const ids = [...targets].map((x) => x.id).filter((id) => id !== hider.id);
  if (!ids.length) return null;
  return ids.map((id) => placeable(c, id)).filter((x): x is TokenObjLike => !!x);
}

function invisible(actor: ActorLike): boolean {
  return adapterFor().hasCondition(actor, "invisible");
}

function observerInput(c: CanvasLike, hider: TokenObjLike, o: TokenObjLike): HideObserver {
  const a = { ...tokenCenter(c, hider), elevation: hider.document.elevation };
  const b = { ...tokenCenter(c, o), elevation: o.document.elevation };
  return {
    id: o.id,
    hasLineOfSight: hasLineOfSight(b, a),
    senses: tokenSenses(c, o.document).senses,
    distance: metresBetween(c, a, b),
  };
}

/**
 * Api: `api.hide(token, {observers, searching})` (both GM only). A player's request goes to the active GM (who must be
 * viewing the scene); searching observers (named, or marked by the GM) roll Wisdom (Perception) instead of passive.
 * Throws a UserError (nothing changes) when the prerequisites do not hold. Returns null when the roll was cancelled.
 */
export async function hide(ref: TokenRef, options: HideOptions = {}): Promise<HideOutcome | null> {
  const c = requireCanvas();
  const tok = resolveToken(c, ref);
  assertOwner(game.user, tok.document as never);
  const observers = tokenIds("observers", options.observers);
  const searching = tokenIds("searching", options.searching);
  if ((observers || searching) && !game.user.isGM) throw new UserError("AVENTURE.Error.GMOnly");
  if (!isActiveGM()) {
    // A GM who is not the active GM sends its choice of observers (its targets by default) along.
    const chosen = observers ?? (game.user.isGM ? gmTargets(c, tok)?.map((o) => o.id) : undefined);
    const data: HideQuery = { sceneId: c.scene!.id!, tokenId: tok.id, observers: chosen, searching };
    return unwrap(await askGM<HideQuery, Wrapped<HideOutcome | null>>("hide", data));
  }
  return performHide(c, tok, chooseObservers(c, tok, observers, true), searching);
}

interface HideQuery {
  sceneId: string;
  tokenId: string;
  observers?: string[];
  searching?: string[];
}

/** A list of token ids from the API or a query: undefined when absent; a UserError when it is not a list of ids. */
function tokenIds(name: string, v: unknown): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.length > 200 || !v.every((x) => typeof x === "string" && x !== "")) {
    throw new UserError("AVENTURE.Error.UnknownValue", { name, value: String(v), allowed: '["tokenId", …]' });
  }
  return v as string[];
}

/** The observers: the ids given, else the GM's targets (when the caller is a GM), else the hostile tokens. */
function chooseObservers(c: CanvasLike, hider: TokenObjLike, ids: string[] | undefined, callerIsGM: boolean): TokenObjLike[] {
  if (ids) return ids.map((id) => resolveToken(c, id)).filter((o) => o.id !== hider.id);
  return (callerIsGM ? gmTargets(c, hider) : null) ?? defaultObservers(c, hider);
}

/** Api: hides each controlled token in turn (the compendium macro). Each token's error is reported; the others go on. */
export async function hideSelected(): Promise<(HideOutcome | null)[]> {
  const c = requireCanvas();
  const tokens = c.tokens.controlled;
  if (!tokens.length) throw new UserError("AVENTURE.Error.NoToken");
  const out: (HideOutcome | null)[] = [];
  for (const tok of tokens) out.push((await guarded(() => hide(tok))) ?? null);
  return out;
}

function reasonText(c: CanvasLike, attempt: ReturnType<typeof canTryToHide>): string {
  const parts: string[] = [];
  for (const r of attempt.reasons) {
    if (r === "observerSees") {
      const names = attempt.observers
        .filter((o) => !o.canHideFrom)
        .map((o) => {
          const name = placeable(c, o.id)?.document.name ?? o.id;
          return `${name} (${t(`AVENTURE.Light.Hide.blocker.${o.blockedBy ?? "light"}`)})`;
        });
      parts.push(t("AVENTURE.Light.Hide.reason.observerSees", { names: names.join(", ") }));
    } else parts.push(t(`AVENTURE.Light.Hide.reason.${r}`));
  }
  return parts.join(" ");
}

async function performHide(
  c: CanvasLike,
  tok: TokenObjLike,
  observers: TokenObjLike[],
  searchingIds?: string[],
): Promise<HideOutcome | null> {
  const doc = tok.document;
  const actor = doc.actor as unknown as ActorLike | null;
  if (!actor) throw new UserError("AVENTURE.Error.NoActor", { name: doc.name });
  if (hideFlagOf(doc)) throw new UserError("AVENTURE.Light.Error.alreadyHidden", { name: doc.name });
  const state = lightTracker.stateOf(tok.id);
  if (!state) throw new UserError("AVENTURE.Light.Error.noToken");
  const inputs = observers.map((o) => observerInput(c, tok, o));
  const attempt = canTryToHide({
    ruleset: getSetting("ruleset"),
    hiderLight: state.light.level,
    invisible: invisible(actor),
    observers: inputs,
  });
  if (!attempt.ok) throw new UserError("AVENTURE.Light.Hide.cannot", { name: doc.name, reasons: reasonText(c, attempt) });

  const adapter = adapterFor();
  const roll = await adapter.rollSkill(actor, "stealth", { flavor: t("AVENTURE.Light.Hide.flavor") });
  if (!Number.isFinite(roll.total)) return null;

  // Searching observers roll Wisdom (Perception) through the adapter; the others use their passive score.
  const searching = new Set(searchingIds ?? observers.filter((o) => isSearching(o.document)).map((o) => o.id));
  const known: HideCheckObserver[] = [];
  const unknown: string[] = [];
  const searchRolls: Record<string, number> = {};
  for (const o of observers) {
    const oActor = o.document.actor as unknown as ActorLike | null;
    if (!oActor) {
      unknown.push(o.id); // a targeted token without an actor: the GM decides
      continue;
    }
    const p = adapter.read(oActor).passivePerception;
    const passive = p === null ? null : Math.round(p);
    if (searching.has(o.id)) {
      const r = await adapter.rollSkill(oActor, "perception", { flavor: t("AVENTURE.Light.Hide.searchFlavor") });
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
  const hidden = result.hiddenFrom.length > 0;
  if (hidden) {
    const because: Record<string, HideBecause> = {};
    for (const o of attempt.observers) if (o.because) because[o.id] = o.because;
    const at = tokenCenter(c, tok);
    const flag: HideFlag = { dc: result.dc, from: result.hiddenFrom, because, light: state.light.level, x: at.x, y: at.y };
    await setOwnCondition(adapter, actor, "hidden", true);
    await doc.setFlag("aventure", "hide", flag);
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
  await postCard({
    template: template("light/hide-card.hbs"),
    context: hideCardContext({ hider: doc.name, dc: result.dc, hidden, observers: rows }),
    gmOnly: true,
    speaker: ChatMessage.getSpeaker({ actor: actor as never }),
    flags: { hide: { tokenId: tok.id, dc: result.dc } },
  });
  return { dc: result.dc, spottedBy: result.spottedBy, hiddenFrom: result.hiddenFrom, unknown, searchRolls, hidden };
}

/**
 * Ends hiding: removes the flag and the hidden status Aventure added (a status set by hand stays) and whispers the GM
 * why, and whether observers get a Wisdom (Perception) check. Active GM, or a request from the token's owner.
 */
export async function endHide(ref: TokenRef, event: HideEndEvent = "revealed"): Promise<boolean> {
  const c = requireCanvas();
  const tok = resolveToken(c, ref);
  assertOwner(game.user, tok.document as never);
  if (!isActiveGM()) {
    return unwrap(
      await askGM<{ sceneId: string; tokenId: string; event: HideEndEvent }, Wrapped<boolean>>("endHide", {
        sceneId: c.scene!.id!,
        tokenId: tok.id,
        event,
      }),
    );
  }
  return performEndHide(tok, event);
}

/** Removes the hiding flag and the hidden status Aventure added (a status set by hand stays). */
async function clearHide(tok: TokenObjLike): Promise<void> {
  await tok.document.unsetFlag("aventure", "hide");
  const actor = tok.document.actor as unknown as ActorLike | null;
  if (actor) await setOwnCondition(adapterFor(), actor, "hidden", false);
}

async function performEndHide(tok: TokenObjLike, event: HideEndEvent): Promise<boolean> {
  const doc = tok.document;
  if (!hideFlagOf(doc)) return false;
  const end = hideEnds(event);
  await clearHide(tok);
  const actor = doc.actor as unknown as ActorLike | null;
  await postCard({
    template: template("light/hide-end-card.hbs"),
    context: hideEndCardContext({ hider: doc.name, event: end.event, perceptionCheck: end.perceptionCheck }),
    gmOnly: true,
    speaker: actor ? ChatMessage.getSpeaker({ actor: actor as never }) : undefined,
    flags: { hideEnd: { tokenId: tok.id, event } },
  });
  return true;
}

/**
 * Query answers carry a UserError as data: an error thrown on the GM's client would reach the player as a bare message
 * (the untranslated key); this way the player sees it in their own language.
 */
type Wrapped<T> = { ok: T } | { error: { key: string; data: Record<string, string | number> } };

async function wrap<T>(fn: () => Promise<T>): Promise<Wrapped<T>> {
  try {
    return { ok: await fn() };
  } catch (e) {
    if (e instanceof UserError) return { error: { key: e.key, data: e.data } };
    if (isRulesError(e)) return { error: { key: e.key, data: e.data as Record<string, string | number> } };
    throw e;
  }
}

function unwrap<T>(w: Wrapped<T>): T {
  if ("error" in w) throw new UserError(w.error.key, w.error.data);
  return w.ok;
}

/** Events a player may report about their own token. */
const PLAYER_EVENTS: readonly HideEndEvent[] = ["revealed", "attacked", "noise"];

export function registerHideQueries(): void {
  registerQuery<{ sceneId?: unknown; tokenId?: unknown; observers?: unknown; searching?: unknown }, Wrapped<HideOutcome | null>>(
    "hide",
    (data, sender) =>
      wrap(async () => {
        if (typeof data?.sceneId !== "string" || typeof data.tokenId !== "string") throw new UserError("AVENTURE.Light.Error.noToken");
        const observers = tokenIds("observers", data.observers);
        const searching = tokenIds("searching", data.searching);
        // Only a GM chooses the observers and who searches; a player's request uses the hostile tokens and the marks.
        if ((observers || searching) && !sender.isGM) throw new UserError("AVENTURE.Error.GMOnly");
        const c = requireCanvas(data.sceneId);
        const tok = resolveToken(c, data.tokenId);
        assertOwner(sender, tok.document as never);
        return performHide(c, tok, chooseObservers(c, tok, observers, false), searching);
      }),
  );
  registerQuery<{ sceneId?: unknown; tokenId?: unknown; event?: unknown }, Wrapped<boolean>>("endHide", (data, sender) => wrap(async () => {
    if (typeof data?.sceneId !== "string" || typeof data.tokenId !== "string") throw new UserError("AVENTURE.Light.Error.noToken");
    const event = data.event as HideEndEvent;
    if (!HIDE_END_EVENTS.includes(event) || (!sender.isGM && !PLAYER_EVENTS.includes(event))) {
      throw new UserError("AVENTURE.Error.UnknownValue", { name: "event", value: String(data.event), allowed: PLAYER_EVENTS.join(", ") });
    }
    const c = requireCanvas(data.sceneId);
    const tok = resolveToken(c, data.tokenId);
    assertOwner(sender, tok.document as never);
    return performEndHide(tok, event);
  }));
}

/**
 * After each recomputation on the active GM: a hidden token stops being hidden as soon as one of the observers it hid
 * from can see it (line of sight, light as that observer perceives it, invisibility). The event names why: it left the
 * darkness that hid it, it moved into sight, or an observer moved so that it sees it.
 */
export async function checkHiddenTokens(_changed: readonly TokenLightState[], states: ReadonlyMap<string, TokenLightState>): Promise<void> {
  const c = canvasLike();
  if (!c) return;
  for (const tok of c.tokens.placeables) {
    const flag = hideFlagOf(tok.document);
    if (!flag) continue;
    const actor = tok.document.actor as unknown as ActorLike | null;
    const state = states.get(tok.id);
    if (!actor || !state) continue;
    const observers = flag.from.map((id) => placeable(c, id)).filter((o): o is TokenObjLike => !!o);
    if (!observers.length) continue;
    const attempt = canTryToHide({
      ruleset: getSetting("ruleset"),
      hiderLight: state.light.level,
      invisible: invisible(actor),
      observers: observers.map((o) => observerInput(c, tok, o)),
    });
    if (attempt.seenBy.length === 0) continue;
    const at = tokenCenter(c, tok);
    const moved = Math.hypot(at.x - flag.x, at.y - flag.y) > 1;
    const leftDarkness = flag.light === "dark" && state.light.level !== "dark";
    const event: HideEndEvent = leftDarkness ? "leftDarkness" : moved ? "enteredView" : "seenByMover";
    await performEndHide(tok, event);
  }
}

/** dnd5e.postRollAttack(rolls, {subject}): the attacker stops being hidden (fires on the roller's client only). */
export function onAttackRolled(_rolls: unknown, data: { subject?: { actor?: { id?: string | null } | null } } | undefined): void {
  const actorId = data?.subject?.actor?.id;
  if (actorId) void endHideForActor(actorId, "attacked");
}

/** OSE has no attack hook: its attack chat messages carry flags.ose.roll === "attack" (all clients; active GM acts). */
export function onChatMessageCreated(message: { flags?: Record<string, unknown>; speaker?: { actor?: string | null } }): void {
  const ose = message.flags?.ose as { roll?: string } | undefined;
  if (ose?.roll !== "attack" || !isActiveGM()) return;
  const actorId = message.speaker?.actor;
  if (actorId) void endHideForActor(actorId, "attacked");
}

async function endHideForActor(actorId: string, event: HideEndEvent): Promise<void> {
  const c = canvasLike();
  if (!c) return;
  for (const tok of c.tokens.placeables) {
    if ((tok.document.actor as { id?: string | null } | null)?.id !== actorId || !hideFlagOf(tok.document)) continue;
    if (!isActiveGM() && !tok.document.isOwner) continue;
    try {
      await endHide(tok, event);
    } catch (e) {
      console.error("aventure |", e);
    }
  }
}
