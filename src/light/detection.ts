/**
 * Ambient detection (docs/rules.md §6, "Ambient detection"), on the active GM only. After each recomputation of
 * the light (light tracker: a token moved, a light, a darkness source, an Obscurity region or a wall changed, a door
 * opened, a hiding state or a searching mark changed, both on the scene), the pairs of the tokens concerned are
 * evaluated
 * (detection-pairs.ts: line of sight through walls, distance, the hider's light and obscurity through the observer's
 * senses), the rules' `detectionChanges` keeps the pairs whose conditions changed, and each of those is judged once:
 * `passiveNotices` (a searching observer rolls Wisdom (Perception) instead, in secret, attached to the card).
 *
 * An observer that notices a hidden creature, by the world setting "detectionMode":
 * - prompt (default): a card whispered to the GMs, "Orc 2 notices Aria (passive 17 vs Stealth 12, dim light −5)",
 *   with Reveal / Ignore (request "detectionDecide", GMs only, once even with two GMs);
 * - auto: revealed at once (the same card says so);
 * - off: no ambient detection; hiding ends as before when an observer it hid from can see it (hide.ts).
 * Revealing ends the hiding for that observer: it joins the hider's `seenBy`, leaves its `from`; hidden from nobody any
 * more, the creature is no longer hidden (the same operation as a search that spots it, recorded on the card first).
 * The observer's player is told nothing: the card is whispered to the GMs, the rolls are on it.
 *
 * Observers: the tokens the hider hid from, and the tokens of the other side (friendly ↔ hostile, or with the setting
 * "detectionObservers" every other disposition) that do not know where it is, with an actor and able to see (a
 * blinded condition that is not Aventure's own light effect leaves them out). A token without an actor, an observer
 * without a passive Perception (and not searching), a hider whose Stealth result is missing: skipped, listed once in
 * a card's footnote.
 *
 * Pairs already judged are not judged again until something changes. The judgements that had an effect (a notice,
 * a roll) are kept on the scene (`flags.aventure.detection.pairs.<hider>.<observer>`, written by the GM only), so a
 * reload neither prompts again nor rolls again.
 */
import { MODULE_ID, template } from "../core/constants.js";
import { detectionChanges, passiveNotices, type DetectionCondition } from "../rules/detection.js";
import { LIGHT_LEVELS, type LightLevel } from "../rules/light.js";
import { detectionCardContext, type DetectReason, type DetectRow, type DetectSkipReason } from "./hide-card-context.js";
import { adapterFor, type ActorLike } from "../actors/api.js";
import { authoredByGM, wireButtons } from "../core/cards.js";
import { cardData, cardState, cardUpdate } from "../core/card-model.js";
import { gmIds } from "../core/chat.js";
import { deletion, renderTemplateCompat, tokenLevel } from "../core/compat.js";
import { isActiveGM } from "../core/gm.js";
import { reportError, t, tHtml, UserError } from "../core/i18n.js";
import { registerRequest, sendRequest } from "../core/requests.js";
import { docIdField, entryMap, flagModel, type Fields } from "../core/flag-model.js";
import { isRecord } from "../core/values.js";
import { executorStamp } from "../core/operations.js";
import { getSetting } from "../core/settings.js";
import {
  mayNoticeHider,
  PairEvaluator,
  type DetectHider,
  type DetectObserver,
  type DetectScene,
} from "./detection-pairs.js";
import {
  claimTokens,
  HIDE_CARD_KINDS,
  hideFlagOf,
  ID,
  rawHideEntry,
  MAX_IDS,
  parseHideFlag,
  releaseTokens,
  runHideOp,
  sceneToken,
  tokenBusy,
  type HideChange,
  type HideOp,
} from "./hide-state.js";
import { canvasLike, metresPerUnit, tokenCenter, tokensInSight, type CanvasLike, type TokenObjLike } from "./scene.js";
import { isSearching } from "./searching.js";
import { ableToSee, playerOwners } from "./sight.js";
import { placeable, type TokenLightState } from "./tracker.js";
import type { DetectCardState } from "./hide-cards.js";

/** What a pass did (api.checkDetection answers it). */
export interface DetectionReport {
  /** Pairs whose conditions were computed, and those of them that changed (judged). */
  evaluated: number;
  judged: number;
  /** Observer–hider pairs that noticed ("observerId|hiderId"). */
  noticed: string[];
  /** Tokens left out, with why. */
  skipped: { tokenId: string; reason: DetectSkipReason }[];
}

/** The detection card's state (an `aventure.detect` message, declared by its schema in hide-cards.ts). */
export type DetectCard = DetectCardState;

/** A detection card a GM wrote, through its data model (hide-cards.ts); null for anything else. */
export function detectCardOf(message: Parameters<typeof cardState>[0]): DetectCard | null {
  return cardState<DetectCard>(message, HIDE_CARD_KINDS.detect);
}

async function cardContent(card: Pick<DetectCard, "rows" | "skipped">): Promise<string> {
  return renderTemplateCompat(template("light/detection-card.hbs"), detectionCardContext(card));
}

// ------------------------------------------------------------------------------------------------ judged pairs

const keyOf = (observer: string, hider: string) => `${observer}|${hider}`;

/** Aventure 0.1.x kept a judged pair as a signature "inView,light,passive,searching,dc" ("1,d,17,0,12"). */
const LEGACY_LIGHT: Record<string, LightLevel> = { b: "bright", d: "dim", x: "dark" };
function fromSignature(sig: unknown): Record<string, unknown> | null {
  const m = typeof sig === "string" ? /^([01]),([bdx]),(-?\d{1,3})?,([01]),(-?\d{1,3})$/.exec(sig) : null;
  if (!m) return null;
  const passive = m[3] === undefined ? null : Number(m[3]);
  return { inView: m[1] === "1", light: LEGACY_LIGHT[m[2]!], passive, searching: m[4] === "1", dc: Number(m[5]) };
}

/**
 * A judged pair as kept on the scene (flags.aventure.detection.pairs.<hider id>.<observer id>): the conditions it was
 * judged in (rules/detection.ts DetectionCondition, without the ids, which are its keys).
 */
const SCORE = { integer: true, min: -999, max: 999 } as const;
const PairEntries = entryMap({
  name: "AventureJudgedPair",
  schema: (f: Fields) => ({
    inView: new f.BooleanField({ required: true, initial: false }),
    light: new f.StringField({ required: true, blank: false, choices: [...LIGHT_LEVELS] }),
    passive: new f.NumberField({ required: true, nullable: true, initial: null, ...SCORE }),
    searching: new f.BooleanField({ required: true, initial: false }),
    dc: new f.NumberField({ required: true, nullable: false, ...SCORE }),
  }),
  exact: true,
  fromValue: fromSignature,
});

/** The judged pairs kept on a scene (flags.aventure.detection.pairs), each read on its own: a bad one is ignored. */
function storedPairs(
  scene: { getFlag?(scope: "aventure", key: string): unknown } | null | undefined,
): Map<string, DetectionCondition> {
  const out = new Map<string, DetectionCondition>();
  const raw = (scene?.getFlag?.(MODULE_ID, "detection") as { pairs?: unknown } | undefined)?.pairs;
  if (!isRecord(raw)) return out;
  for (const [hider, row] of Object.entries(raw)) {
    if (!ID.test(hider)) continue;
    for (const [observer, e] of PairEntries.read(row)) {
      const light = LIGHT_LEVELS.find((l) => l === e.light);
      if (light) out.set(keyOf(observer, hider), { observer, hider, ...e, light, passive: e.passive ?? null });
    }
  }
  return out;
}

/** Changes to the judged pairs kept on the scene, written in one scene update (GMs only may write a scene). */
class PairWrites {
  private readonly pairs: Record<string, Record<string, unknown>> = {};
  private count = 0;
  set(c: DetectionCondition): void {
    const { inView, light, passive, searching, dc } = c;
    (this.pairs[c.hider] ??= {})[c.observer] = PairEntries.make({ inView, light, passive, searching, dc });
    this.count++;
  }
  remove(c: Pick<DetectionCondition, "observer" | "hider">): void {
    Object.assign((this.pairs[c.hider] ??= {}), deletion(c.observer));
    this.count++;
  }
  async write(sceneId: string | null): Promise<void> {
    const scene = sceneId ? game.scenes.get(sceneId) : undefined;
    if (!scene || this.count === 0) return;
    await scene.update({ flags: { [MODULE_ID]: { detection: { pairs: this.pairs } } } });
  }
}

// ------------------------------------------------------------------------------------------------ the pass

/** Judged pair conditions by "observer|hider", indexed by token so that a move looks only at that token's pairs. */
class PairMap {
  private readonly byKey = new Map<string, DetectionCondition>();
  private readonly byToken = new Map<string, Set<string>>();

  get(key: string): DetectionCondition | undefined {
    return this.byKey.get(key);
  }

  set(c: DetectionCondition): void {
    const key = keyOf(c.observer, c.hider);
    this.byKey.set(key, c);
    for (const id of [c.observer, c.hider]) {
      let keys = this.byToken.get(id);
      if (!keys) this.byToken.set(id, (keys = new Set()));
      keys.add(key);
    }
  }

  delete(key: string): boolean {
    const c = this.byKey.get(key);
    if (!c) return false;
    this.byKey.delete(key);
    this.byToken.get(c.observer)?.delete(key);
    this.byToken.get(c.hider)?.delete(key);
    return true;
  }

  values(): DetectionCondition[] {
    return [...this.byKey.values()];
  }

  /** The pairs of these tokens (as observer or hider), each once. */
  involving(ids: Iterable<string>): DetectionCondition[] {
    const keys = new Set<string>();
    for (const id of ids) for (const key of this.byToken.get(id) ?? []) keys.add(key);
    return [...keys].map((k) => this.byKey.get(k)!);
  }
}

interface TokenInfo {
  disposition: number;
  hasActor: boolean;
  /** Able to see: not blinded by anything but Aventure's own light effect. */
  sees: boolean;
  passive: number | null;
  searching: boolean;
}

interface Notice {
  condition: DetectionCondition;
  roll: number | null;
  rollObject?: Roll;
}

class AmbientDetection {
  private sceneId: string | null = null;
  private evaluator = new PairEvaluator();
  /** Every pair's last judged condition. */
  private judged = new PairMap();
  /** The pairs whose judgement had an effect (kept on the scene). */
  private kept = new Map<string, DetectionCondition>();
  /** Pairs with a prompt the GMs have not answered yet (not prompted again meanwhile). */
  private pending: Set<string> | null = null;
  /** Tokens already listed as skipped ("tokenId|reason"), once per session and scene. */
  private reported = new Set<string>();
  private info = new Map<string, TokenInfo>();
  private running: Promise<DetectionReport | null> = Promise.resolve(null);
  last: DetectionReport | null = null;

  /** A wall changed (a door opened): the lines of sight crossing it (all, without a segment) are tested again. */
  wallsChanged(segment: readonly [number, number, number, number] | null): void {
    this.evaluator.wallsChanged(segment);
  }

  /** Work done since the scene was drawn (tests, diagnostics). */
  get counters() {
    return this.evaluator.counters;
  }

  /** Forgets the judgements of these tokens' pairs (api.checkDetection with `again`). */
  async forget(ids: ReadonlySet<string> | null): Promise<void> {
    if (ids) this.evaluator.forgetTokens(ids);
    else this.evaluator.retain(new Set());
    const pairs = new PairWrites();
    for (const c of ids ? this.judged.involving(ids) : this.judged.values()) {
      const key = keyOf(c.observer, c.hider);
      this.judged.delete(key);
      if (this.kept.delete(key)) pairs.remove(c);
    }
    await pairs.write(this.sceneId);
  }

  /** Runs one pass after the previous one (passes never overlap). */
  pass(
    states: ReadonlyMap<string, TokenLightState>,
    dirty: ReadonlySet<string> | null,
  ): Promise<DetectionReport | null> {
    const next = this.running.then(() => this.run(states, dirty));
    this.running = next.catch(() => null);
    return next;
  }

  private reset(sceneId: string | null): void {
    this.sceneId = sceneId;
    this.evaluator = new PairEvaluator();
    this.judged = new PairMap();
    this.pending = null;
    this.reported.clear();
    this.info.clear();
    const scene = sceneId ? game.scenes.get(sceneId) : null;
    this.kept = storedPairs(scene as { getFlag?(scope: "aventure", key: string): unknown } | null);
    // A reload: what had an effect is judged already.
    for (const c of this.kept.values()) this.judged.set(c);
  }

  private pendingPairs(sceneId: string): Set<string> {
    if (this.pending) return this.pending;
    const out = new Set<string>();
    for (const message of game.messages.contents) {
      const card = detectCardOf(message);
      if (!card || card.sceneId !== sceneId) continue;
      for (const r of card.rows) if (r.status === "pending") out.add(keyOf(r.observerId, r.hiderId));
    }
    return (this.pending = out);
  }

  /** A prompt was answered (or its pair is gone): it may be prompted again once its conditions change. */
  answered(observerId: string, hiderId: string): void {
    this.pending?.delete(keyOf(observerId, hiderId));
  }

  private tokenInfo(tok: TokenObjLike, refresh: boolean): TokenInfo {
    const known = this.info.get(tok.id);
    if (known && !refresh) return known;
    const doc = tok.document;
    const actor = doc.actor as ActorLike | null;
    const adapter = adapterFor();
    let sees = true;
    let passive: number | null = null;
    if (actor) {
      sees = ableToSee(actor);
      let p: number | null;
      try {
        p = adapter.read(actor).passivePerception;
      } catch {
        p = null; // unreadable sheet data: no passive Perception (listed as skipped)
      }
      passive = p === null || !Number.isFinite(p) ? null : Math.max(-100, Math.min(100, Math.round(p)));
    }
    // The mark a GM wrote on the scene (searching.ts); a flag on the token, which its owner may write, is not read.
    const info: TokenInfo = {
      disposition: doc.disposition,
      hasActor: !!actor,
      sees,
      passive,
      searching: isSearching(doc),
    };
    this.info.set(tok.id, info);
    return info;
  }

  private async run(
    states: ReadonlyMap<string, TokenLightState>,
    dirty: ReadonlySet<string> | null,
  ): Promise<DetectionReport | null> {
    const c = canvasLike();
    const sceneId = c?.scene?.id ?? null;
    if (!c || !sceneId || !isActiveGM()) return null;
    if (sceneId !== this.sceneId) {
      this.reset(sceneId);
      dirty = null;
    }
    const rule = getSetting("detectionObservers");
    const mpu = metresPerUnit(c);
    const mpp = mpu * (c.grid.distance / c.grid.size);
    const elevation = (tok: TokenObjLike) => (tok.document.elevation ?? 0) * mpu;
    const skipped: { tok: TokenObjLike; reason: DetectSkipReason }[] = [];
    const hiders: DetectHider[] = [];
    const busy = new Set<string>();
    const tokens = c.tokens.placeables;
    for (const tok of tokens) {
      // The hiding state on the scene (GM-written, hide-state.ts); a hide flag on the token is never read.
      const raw = rawHideEntry(tok.document.parent, tok.id);
      if (raw === undefined || raw === null) continue;
      const flag = parseHideFlag(raw);
      const info = this.tokenInfo(tok, dirty === null || dirty.has(tok.id));
      if (tokenBusy(sceneId, tok.id)) {
        busy.add(tok.id);
        continue;
      }
      if (!flag) skipped.push({ tok, reason: "noStealth" });
      else if (!info.hasActor) skipped.push({ tok, reason: "noActor" });
      const state = states.get(tok.id);
      if (!flag || !info.hasActor || !state) continue;
      const actor = tok.document.actor as ActorLike;
      const p = tokenCenter(c, tok);
      hiders.push({
        id: tok.id,
        x: p.x,
        y: p.y,
        elevation: elevation(tok),
        level: tokenLevel(tok.document),
        dc: Math.max(-100, Math.min(200, flag.dc)),
        light: state.light.level,
        obscurity: state.obscurity,
        invisible: adapterFor().hasCondition(actor, "invisible"),
        disposition: info.disposition,
        // Who owns it, read now (only a GM changes it): a player's creature counts as friendly too
        // (detection-pairs.ts).
        playerOwned: playerOwners(tok.document).length > 0,
        from: new Set(flag.from),
        seenBy: new Set(flag.seenBy ?? []),
      });
    }
    const observers: DetectObserver[] = [];
    for (const tok of tokens) {
      const info = this.tokenInfo(tok, dirty === null || dirty.has(tok.id));
      const state = states.get(tok.id);
      const p = tokenCenter(c, tok);
      const o: DetectObserver = {
        id: tok.id,
        x: p.x,
        y: p.y,
        elevation: elevation(tok),
        level: tokenLevel(tok.document),
        senses: state?.senses.senses ?? {},
        // A searching observer rolls: its passive score is not part of its judgement (a player editing their
        // creature's passive Perception does not make the GM roll again).
        passive: info.searching ? null : info.passive,
        searching: info.searching,
        disposition: info.disposition,
      };
      const relevant = () =>
        hiders.some(
          (h) => h.id !== o.id && !h.seenBy.has(o.id) && (h.from.has(o.id) || mayNoticeHider(rule, h, o.disposition)),
        );
      if (!info.hasActor) {
        if (relevant()) skipped.push({ tok, reason: "noActor" });
        continue;
      }
      if (!info.sees || !state) continue;
      if (info.passive === null && !info.searching) {
        if (relevant()) skipped.push({ tok, reason: "noPassive" });
        continue;
      }
      observers.push(o);
    }

    const scene: DetectScene = {
      ruleset: getSetting("ruleset"),
      metresPerPixel: mpp,
      observers: rule,
      // Foundry's sight collision test, elevations back in scene units; v14: in the observer's level, and never to a
      // level the observer's level does not see (tokensInSight).
      lineOfSight: (a, b) =>
        tokensInSight(
          c,
          { x: a.x, y: a.y, elevation: a.elevation / mpu, level: a.level ?? null },
          { x: b.x, y: b.y, elevation: b.elevation / mpu, level: b.level ?? null },
        ),
    };
    if (!dirty) this.evaluator.retain(new Set(tokens.map((t) => t.id)));
    const current = this.evaluator.evaluate(scene, hiders, observers, dirty);
    const seen = new Set(current.map((x) => keyOf(x.observer, x.hider)));
    // Only the conditions computed now can have changed (the others were reused as their tokens did not change).
    const fresh = this.evaluator.fresh;
    const previous: DetectionCondition[] = [];
    for (const x of fresh) {
      const p = this.judged.get(keyOf(x.observer, x.hider));
      if (p) previous.push(p);
    }
    const changes = detectionChanges(previous, fresh);
    // A pair whose notice waits for the GMs is neither judged nor recorded meanwhile: once they answer, what changed
    // in between is judged (with or without a reload in between).
    const pending = this.pendingPairs(sceneId);
    const deferred = new Set(changes.map((x) => keyOf(x.observer, x.hider)).filter((k) => pending.has(k)));
    for (const x of changes)
      if (deferred.has(keyOf(x.observer, x.hider))) this.evaluator.forgetPair(x.observer, x.hider);

    // Pairs that are gone (the hiding ended, an observer left or knows where it is): forgotten.
    const writes = new PairWrites();
    for (const x of dirty ? this.judged.involving(dirty) : this.judged.values()) {
      const key = keyOf(x.observer, x.hider);
      if (seen.has(key) || busy.has(x.hider)) continue;
      this.judged.delete(key);
      if (this.kept.delete(key)) writes.remove(x);
    }
    for (const x of fresh) if (!deferred.has(keyOf(x.observer, x.hider))) this.judged.set(x);

    // Judge each changed pair once.
    const notices: Notice[] = [];
    for (const x of changes) {
      const key = keyOf(x.observer, x.hider);
      if (deferred.has(key)) continue;
      let effect = false;
      if (x.inView && x.light !== "dark") {
        if (x.searching) {
          const notice = await this.searchRoll(c, x);
          effect = notice !== null;
          if (notice && notice.roll !== null && notice.roll >= x.dc) notices.push(notice);
        } else if (x.passive !== null && passiveNotices({ passive: x.passive, dc: x.dc, light: x.light })) {
          effect = true;
          notices.push({ condition: x, roll: null });
        }
      }
      if (effect) {
        this.kept.set(key, x);
        writes.set(x);
      } else if (this.kept.delete(key)) writes.remove(x);
    }
    await writes.write(sceneId);

    const newlySkipped = skipped.filter((s) => !this.reported.has(`${s.tok.id}|${s.reason}`));
    for (const s of newlySkipped) this.reported.add(`${s.tok.id}|${s.reason}`);
    if (notices.length || newlySkipped.length) await this.post(c, sceneId, notices, newlySkipped, states);
    const report: DetectionReport = {
      evaluated: fresh.length,
      judged: changes.length,
      noticed: notices.map((n) => keyOf(n.condition.observer, n.condition.hider)),
      skipped: skipped.map((s) => ({ tokenId: s.tok.id, reason: s.reason })),
    };
    this.last = report;
    return report;
  }

  /**
   * A searching observer rolls Wisdom (Perception), in secret (the roll goes on the GMs' card), with disadvantage in
   * dim light.
   */
  private async searchRoll(c: CanvasLike, x: DetectionCondition): Promise<Notice | null> {
    const actor = placeable(c, x.observer)?.document.actor as ActorLike | null | undefined;
    if (!actor) return null;
    try {
      const r = await adapterFor().rollSkill(actor, "perception", {
        flavor: tHtml("AVENTURE.Light.Hide.searchFlavor"),
        message: false,
        disadvantage: x.light === "dim",
      });
      if (!Number.isFinite(r.total)) return null;
      return { condition: x, roll: Math.round(r.total), ...(r.roll ? { rollObject: r.roll } : {}) };
    } catch (e) {
      reportError(e);
      return null;
    }
  }

  private async post(
    c: CanvasLike,
    sceneId: string,
    notices: Notice[],
    skipped: { tok: TokenObjLike; reason: DetectSkipReason }[],
    states: ReadonlyMap<string, TokenLightState>,
  ): Promise<void> {
    const auto = getSetting("detectionMode") === "auto";
    const rows: DetectRow[] = notices.map((n) => {
      const x = n.condition;
      const hider = placeable(c, x.hider)!.document;
      const observer = placeable(c, x.observer)!.document;
      // Why a penalty: the hider was seen in dim light, or capped to dim by light fog or foliage.
      const state = states.get(x.hider);
      const reason: DetectReason =
        x.light !== "dim"
          ? "none"
          : state?.obscurity === "light" && state.light.level === "bright"
            ? "obscured"
            : "dim";
      return {
        observerId: x.observer,
        hiderId: x.hider,
        observer: observer.name,
        hider: hider.name,
        passive: n.roll === null ? x.passive : null,
        roll: n.roll,
        dc: x.dc,
        reason,
        status: auto ? "revealed" : "pending",
        ended: false,
      };
    });
    const card: DetectCard = {
      v: 1,
      sceneId,
      rows,
      skipped: skipped.map((s) => ({ name: s.tok.document.name, reason: s.reason })),
      op: null,
    };
    const rolls = notices.flatMap((n) => (n.rollObject ? [n.rollObject] : []));
    const op = auto && rows.length ? revealOp(sceneId, rows) : null;
    if (op) {
      card.op = op.op;
      op.rows.forEach((ended, i) => ended && (rows[i]!.ended = true));
    }
    const message = await ChatMessage.implementation.create({
      content: await cardContent(card),
      whisper: gmIds(),
      speaker: { alias: t("AVENTURE.Light.Detect.title") },
      ...(rolls.length ? { rolls } : {}),
      ...cardData(HIDE_CARD_KINDS.detect, card),
    });
    if (!auto) for (const r of rows) this.pendingPairs(sceneId).add(keyOf(r.observerId, r.hiderId));
    if (op && message) {
      if (!claimTokens(sceneId, op.tokens)) return; // another change of these tokens runs: recovery finishes this one
      try {
        await runHideOp(message, "detect", op.op, false);
      } finally {
        releaseTokens(sceneId, op.tokens);
      }
    }
  }
}

/**
 * The operation that reveals hiders to observers (rows in order): each hider's flag before and after (the observers
 * join its `seenBy` and leave its `from`; hidden from nobody any more, it is no longer hidden). `rows[i]` says whether
 * row i ended the hiding. Rows whose hider is no longer hidden, or already known to that observer, change nothing.
 */
function revealOp(
  sceneId: string,
  rows: readonly Pick<DetectRow, "observerId" | "hiderId" | "hider">[],
): { op: HideOp; rows: boolean[]; tokens: string[] } {
  const changes = new Map<string, HideChange>();
  for (const r of rows) {
    const doc = sceneToken(sceneId, r.hiderId);
    const existing = changes.get(r.hiderId);
    const before = existing ? existing.before : doc ? hideFlagOf(doc) : null;
    // The flag as the rows before this one left it (null: an earlier row already ended the hiding).
    const prev = existing ? existing.after : before;
    if (!before || !prev) continue;
    const from = prev.from.filter((id) => id !== r.observerId);
    const seenBy = [...new Set([...(prev.seenBy ?? []), r.observerId])];
    changes.set(r.hiderId, {
      tokenId: r.hiderId,
      name: doc?.name ?? r.hider,
      before,
      after: from.length ? { ...prev, from, seenBy } : null,
    });
  }
  const list = [...changes.values()];
  return {
    // Whole (the card may hold none yet: its system gets the operation as one value).
    op: {
      v: 1,
      status: "applying",
      sceneId,
      changes: list,
      mark: null,
      resumed: false,
      problems: [],
      executor: executorStamp(),
    },
    rows: rows.map((r) => changes.get(r.hiderId)?.after === null),
    tokens: list.map((ch) => ch.tokenId),
  };
}

/** The one ambient detection of this client (it works only while this client is the active GM). */
export const ambientDetection = new AmbientDetection();

// ------------------------------------------------------------------------------------------------ GM decisions

const deciding = new Set<string>();

/** Writes a detection card's rows (and its operation, when given) and its content in one update. */
async function writeCard(message: ChatMessage, card: DetectCard, rows: DetectRow[], op?: HideOp): Promise<void> {
  await message.update({
    content: await cardContent({ ...card, rows }),
    ...cardUpdate(message, HIDE_CARD_KINDS.detect, { ...card, rows, ...(op ? { op } : {}) }),
  });
}

const docId = docIdField;

/** The payload of "detectionDecide", declared once: the card, the notice's row, and Reveal (true) or Ignore. */
const decideSchema = (f: Fields) => ({
  messageId: docId(f),
  row: new f.NumberField({ required: true, nullable: false, integer: true, min: 0, initial: undefined }),
  reveal: new f.BooleanField({ required: true, nullable: false, initial: undefined }),
});
const DecideRequest = flagModel({ name: "AventureDetectionDecideRequest", schema: decideSchema, exact: true });

/** The payload of "checkDetection": the tokens to look at (null: all) and whether to forget their judgements. */
const checkSchema = (f: Fields) => ({
  tokenIds: new f.ArrayField(docId(f), { required: true, nullable: true, max: MAX_IDS, initial: null }),
  again: new f.BooleanField({ required: true, nullable: false, initial: false }),
});
const CheckRequest = flagModel({ name: "AventureCheckDetectionRequest", schema: checkSchema, exact: true });

/** The pending card a decision names, with the row's index; refused as not pending when either is not there. */
function decidedRow(messageId: unknown, row: unknown): { id: string; message: ChatMessage; card: DetectCard } {
  const id = typeof messageId === "string" && ID.test(messageId) ? messageId : null;
  const message = id ? game.messages.get(id) : undefined;
  const card = detectCardOf(message);
  if (!id || !message || !card) throw new UserError("AVENTURE.Light.Detect.notPending");
  if (typeof row !== "number" || !Number.isInteger(row) || row < 0 || row >= card.rows.length)
    throw new UserError("AVENTURE.Light.Detect.notPending");
  return { id, message, card };
}

/** Request "detectionDecide" (GMs only, active GM): reveal or ignore one pending notice of a GM-authored card, once. */
async function onDecide(raw: unknown): Promise<{ status: DetectRow["status"] }> {
  const d = DecideRequest.read(raw);
  if (!d) {
    // As before the model: what is not a pending notice is said first, then a Reveal that is not true or false.
    const sent = isRecord(raw) ? raw : {};
    const failed = DecideRequest.failures(sent);
    if (failed.includes("messageId") || failed.includes("row")) throw new UserError("AVENTURE.Light.Detect.notPending");
    decidedRow(sent.messageId, sent.row);
    throw new UserError("AVENTURE.Error.Missing", { name: "reveal" });
  }
  const { id, message, card } = decidedRow(d.messageId, d.row);
  const index = d.row;
  const row = card.rows[index]!;
  const key = `${id}.${index}`;
  if (row.status !== "pending" || deciding.has(key)) throw new UserError("AVENTURE.Light.Detect.alreadyDecided");
  deciding.add(key);
  const set = (status: DetectRow["status"], ended = false) =>
    card.rows.map((r, i) => (i === index ? { ...r, status, ...(ended ? { ended: true } : {}) } : r));
  try {
    ambientDetection.answered(row.observerId, row.hiderId);
    if (!d.reveal) {
      await writeCard(message, card, set("ignored"));
      // What changed while the notice waited is judged now.
      await checkNow?.(new Set([row.observerId, row.hiderId]));
      return { status: "ignored" };
    }
    // Nothing to reveal: no longer hidden, or this observer already knows where it is.
    const doc = sceneToken(card.sceneId, row.hiderId);
    const flag = doc ? hideFlagOf(doc) : null;
    if (!flag || (flag.seenBy ?? []).includes(row.observerId)) {
      await writeCard(message, card, set("gone"));
      return { status: "gone" };
    }
    const { op, rows: ended, tokens } = revealOp(card.sceneId, [row]);
    if (!claimTokens(card.sceneId, tokens)) throw new UserError("AVENTURE.Light.Error.busy", { name: row.hider });
    try {
      // Recorded before the first write: a reload in between is finished by the recovery of hiding operations.
      await writeCard(message, card, set("revealed", ended[0] === true), op);
      await runHideOp(message, "detect", op, false);
    } finally {
      releaseTokens(card.sceneId, tokens);
    }
    return { status: "revealed" };
  } finally {
    deciding.delete(key);
  }
}

/** Card part (cards.ts): Reveal / Ignore on the pending notices of a detection card a GM wrote, for GMs only. */
export function onRenderDetectionCard(message: ChatMessage, html: HTMLElement): void {
  const card = detectCardOf(message);
  const gm = game.user.isGM && authoredByGM(message);
  wireButtons(html, "aventure-detect", {
    allowed: (b) => !!card && gm && card.rows[Number(b.dataset.row)]?.status === "pending",
    run: (b) =>
      message.id
        ? sendRequest("detectionDecide", {
            messageId: message.id,
            row: Number(b.dataset.row),
            reveal: b.dataset.reveal === "true",
          })
        : undefined,
    // Reveal and Ignore of one notice wait together.
    together: (b, all) => all.filter((x) => x.dataset.row === b.dataset.row),
  });
}

// ------------------------------------------------------------------------------------------------ API

/** Request "checkDetection" (GMs only, active GM): a pass now over these tokens (all when absent). */
async function onCheck(raw: unknown): Promise<DetectionReport | null> {
  const sent = isRecord(raw) ? raw : {}; // not an object: a pass over every token, as before the model
  const d = CheckRequest.read(sent);
  if (!d) {
    if (CheckRequest.failures(sent).includes("tokenIds"))
      throw new UserError("AVENTURE.Error.UnknownValue", {
        name: "tokenIds",
        value: String(sent.tokenIds).slice(0, 60),
        allowed: `[tokenId, …] (${MAX_IDS} at most)`,
      });
    throw new UserError("AVENTURE.Error.Missing", { name: "again" });
  }
  return runCheck(d.tokenIds ? new Set(d.tokenIds) : null, d.again);
}

/** Set by hooks.ts: schedules the light tracker for these tokens (all when null) and waits for its pass. */
let checkNow: ((ids: ReadonlySet<string> | null) => Promise<void>) | null = null;

async function runCheck(ids: ReadonlySet<string> | null, again: boolean): Promise<DetectionReport | null> {
  if (!canvasLike()) throw new UserError("AVENTURE.Light.Error.noScene");
  if (getSetting("detectionMode") === "off") throw new UserError("AVENTURE.Light.Detect.off");
  if (again) await ambientDetection.forget(ids);
  ambientDetection.last = null;
  await checkNow?.(ids);
  return ambientDetection.last;
}

/** Api `checkDetection(tokenIds?, {again})` (GMs): a pass now, run by the active GM. */
export async function checkDetection(
  tokenIds?: string[] | null,
  options: { again?: boolean } = {},
): Promise<DetectionReport | null> {
  if (!game.user.isGM) throw new UserError("AVENTURE.Error.GMOnly");
  return sendRequest<DetectionReport | null>("checkDetection", {
    tokenIds: tokenIds ?? null,
    again: options.again === true,
  });
}

export function registerDetection(check: (ids: ReadonlySet<string> | null) => Promise<void>): void {
  checkNow = check;
  registerRequest({ name: "detectionDecide", gmOnly: true, handle: onDecide });
  registerRequest({ name: "checkDetection", gmOnly: true, handle: onCheck });
}
