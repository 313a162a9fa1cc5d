/**
 * Ambient detection's pair conditions (docs/rules.md §6, "Ambient detection"), from plain data: no Foundry globals, so
 * it is
 * benchmarked (bench/detection.bench.ts) and its work is counted in tests. The glue (detection.ts) turns tokens into
 * these shapes and keeps what was judged; the rules (`perceivedHider`, `passiveNotices`, `detectionChanges`) decide.
 *
 * A pair is (observer, hider). Its condition is what the judgement depends on: whether the observer has the hider's
 * spot in view (line of sight through walls), the hider's light as that observer perceives it (senses at its distance,
 * obscurity, invisibility), the observer's passive Perception and whether it searches, and the hider's Stealth DC.
 *
 * What makes it cheap (the naive baseline, `evaluatePairsNaive`, does none of it):
 * - only the pairs of the tokens that changed are evaluated (`dirty`); a full pass evaluates every pair once;
 * - the perceived light of a pair depends only on which of the observer's three senses reach the hider, so it is
 *   looked up in a table of the 8 combinations computed once per kind of hider (light, obscurity, invisibility) by the
 *   rules engine itself, instead of a rules call per pair;
 * - the line-of-sight test (Foundry's sight collision test in play: the costly part) runs only when its answer can
 *   change the judgement: the perceived light is not dark, and the observer searches (it rolls) or its passive
 *   Perception can reach the DC in that light. Otherwise the condition records `inView: false` (not tested: the
 *   observer could not notice the hider wherever it stands);
 * - a pair whose two tokens are as they were (spot, light, obscurity, senses, passive Perception, DC...) keeps its
 *   condition, even in a full pass: after a change of light only the pairs of the hiders whose light changed are
 *   computed again;
 * - a line of sight already tested between the same two spots is reused until a wall it crosses changes
 *   (`wallsChanged(segment)`: a door opens, a wall is drawn or deleted), so a door tests again only what it blocks.
 */
import { passiveNotices, perceivedHider, type DetectionCondition } from "../rules/detection.js";
import type { LightLevel, Obscurity, VisionSenses } from "../rules/light.js";
import type { RulesetId } from "../rules/rulesets.js";
import { clean } from "../rules/units.js";

/** A point on the canvas (pixels) with its elevation (metres) and, on v14, its scene level (null: none). */
export interface DetectPoint {
  x: number;
  y: number;
  elevation: number;
  level?: string | null;
}

export interface DetectHider extends DetectPoint {
  id: string;
  /** Its Stealth total: the DC to notice it. */
  dc: number;
  /** The actual light at its spot, how obscured the spot is, whether it is invisible. */
  light: LightLevel;
  obscurity: Obscurity;
  invisible: boolean;
  disposition: number;
  /**
   * A player owns it: it counts as friendly too, whatever its disposition (which its owner may set: `mayNoticeHider`).
   */
  playerOwned?: boolean;
  /** The observers it hid from: judged whatever their disposition. */
  from: ReadonlySet<string>;
  /** The observers that know where it is: never judged. */
  seenBy: ReadonlySet<string>;
}

export interface DetectObserver extends DetectPoint {
  id: string;
  /** Ranges in metres (0 or absent: lacks the sense). */
  senses: VisionSenses;
  /** Passive Perception; null when unknown (then only a searching observer is judged: it rolls). */
  passive: number | null;
  searching: boolean;
  disposition: number;
}

/** Which tokens observe a hider besides those it hid from (world setting "detectionObservers"). */
export type ObserverRule = "hostile" | "all";

export interface DetectScene {
  ruleset: RulesetId;
  /** Metres per canvas pixel. */
  metresPerPixel: number;
  observers: ObserverRule;
  /** Line of sight between two points through walls (Foundry's sight collision test in play). */
  lineOfSight(from: DetectPoint, to: DetectPoint): boolean;
}

/** The work done (tests and the benchmark count it). */
export interface PairCounters {
  evaluations: number;
  sightTests: number;
}

export function newCounters(): PairCounters {
  return { evaluations: 0, sightTests: 0 };
}

/**
 * Whether a token of disposition `observer` may notice a hidden creature of disposition `hider` by the setting
 * "detectionObservers" (besides the creatures it hid from): friendly ↔ hostile, or with "all" any other disposition.
 * The same notion says whom a hide's prerequisite holds against (hide.ts).
 */
export function mayNotice(rule: ObserverRule, hider: number, observer: number): boolean {
  if (rule === "all") return observer !== hider;
  return (hider === 1 && observer === -1) || (hider === -1 && observer === 1);
}

/** Core's friendly disposition (CONST.TOKEN_DISPOSITIONS.FRIENDLY). */
export const FRIENDLY = 1;

/**
 * Whether a token of disposition `observer` may notice hider `h` (`mayNotice`), and whom a hide's prerequisite holds
 * against (hide.ts). A token's owner may change its disposition (core lets an owner update their token), so a hider a
 * player owns counts as friendly — the players' side — whatever its disposition, and as its disposition too: its
 * owner can add creatures that may notice it, never remove one (docs/security.md). Who owns a token only a GM changes;
 * an observer's disposition is its owners', never the requester's unless the observer is theirs.
 */
export function mayNoticeHider(
  rule: ObserverRule,
  h: { disposition: number; playerOwned?: boolean },
  observer: number,
): boolean {
  return mayNotice(rule, h.disposition, observer) || (h.playerOwned === true && mayNotice(rule, FRIENDLY, observer));
}

/**
 * Whether `o` observes `h` (before any condition): not itself, not one that already knows where it is, and either one
 * it hid from or a token that may notice it (`mayNoticeHider`).
 */
export function observes(rule: ObserverRule, h: DetectHider, o: DetectObserver): boolean {
  if (o.id === h.id || h.seenBy.has(o.id)) return false;
  if (h.from.has(o.id)) return true;
  return mayNoticeHider(rule, h, o.disposition);
}

/** The perceived level for each combination of senses reaching (bit 1 darkvision, 2 blindsight, 4 truesight). */
type SenseTable = readonly LightLevel[];

function senseTable(ruleset: RulesetId, h: DetectHider): SenseTable {
  const out: LightLevel[] = [];
  for (let mask = 0; mask < 8; mask++) {
    const senses: VisionSenses = {
      darkvision: mask & 1 ? 1 : 0,
      blindsight: mask & 2 ? 1 : 0,
      truesight: mask & 4 ? 1 : 0,
    };
    out.push(
      perceivedHider({ ruleset, light: h.light, obscurity: h.obscurity, invisible: h.invisible, senses, distance: 0 }),
    );
  }
  return out;
}

interface PreparedObserver {
  o: DetectObserver;
  dv: number;
  bs: number;
  ts: number;
}

/** The sense ranges of an observer, cleaned like the rules engine compares them (an edge counts as inside). */
function prepareObserver(o: DetectObserver): PreparedObserver {
  const r = (v: number | undefined) => (v !== undefined && v > 0 ? clean(v) : -1);
  return { o, dv: r(o.senses.darkvision), bs: r(o.senses.blindsight), ts: r(o.senses.truesight) };
}

/**
 * Whether the observer could notice the hider in this light, wherever it stands (no line of sight needed to say no).
 */
function couldNotice(o: DetectObserver, dc: number, light: LightLevel, memo: Map<number, boolean>): boolean {
  if (light === "dark") return false;
  if (o.searching) return true;
  if (o.passive === null) return false;
  const key = light === "dim" ? o.passive + 1000 : o.passive; // passives are within ±100 (the rules refuse more)
  let yes = memo.get(key);
  if (yes === undefined) memo.set(key, (yes = passiveNotices({ passive: o.passive, dc, light })));
  return yes;
}

/** A line of sight as last tested between two spots. */
interface SightEntry {
  ax: number;
  ay: number;
  ae: number;
  bx: number;
  by: number;
  be: number;
  al: string | null;
  bl: string | null;
  clear: boolean;
}

/** A pair's condition with the versions of both tokens it was computed from. */
interface Memo {
  hv: string;
  ov: string;
  condition: DetectionCondition;
}

/** What a hider's pairs depend on (its spot, its light, obscurity, invisibility, DC, side and who it hid from). */
function hiderVersion(h: DetectHider): string {
  return `${h.x},${h.y},${h.elevation},${h.level ?? ""},${h.light},${h.obscurity},${h.invisible ? 1 : 0},${h.dc},${h.disposition},${h.playerOwned ? 1 : 0},${[...h.from].join(" ")},${[...h.seenBy].join(" ")}`;
}

/** What an observer's pairs depend on (its spot, senses, passive Perception, searching, side). */
function observerVersion(p: PreparedObserver): string {
  const o = p.o;
  return `${o.x},${o.y},${o.elevation},${o.level ?? ""},${p.dv},${p.bs},${p.ts},${o.passive},${o.searching ? 1 : 0},${o.disposition}`;
}

/** Whether segment a→b meets segment c→d (touching counts). */
export function segmentsMeet(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  dx: number,
  dy: number,
): boolean {
  const d1 = (dx - cx) * (ay - cy) - (dy - cy) * (ax - cx);
  const d2 = (dx - cx) * (by - cy) - (dy - cy) * (bx - cx);
  const d3 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  const d4 = (bx - ax) * (dy - ay) - (by - ay) * (dx - ax);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  const on = (px: number, py: number, qx: number, qy: number, rx: number, ry: number) =>
    Math.min(px, qx) <= rx && rx <= Math.max(px, qx) && Math.min(py, qy) <= ry && ry <= Math.max(py, qy);
  return (
    (d1 === 0 && on(cx, cy, dx, dy, ax, ay)) ||
    (d2 === 0 && on(cx, cy, dx, dy, bx, by)) ||
    (d3 === 0 && on(ax, ay, bx, by, cx, cy)) ||
    (d4 === 0 && on(ax, ay, bx, by, dx, dy))
  );
}

/**
 * Evaluates pair conditions for one scene on the active GM, remembering between passes what it computed: each
 * pair's condition with the versions of its two tokens (a pair whose tokens did not change is not computed again,
 * even in a full pass), and the lines of sight it tested (until a wall they cross changes). The counters say how
 * much work was done.
 */
export class PairEvaluator {
  readonly counters: PairCounters = newCounters();
  private readonly sight = new Map<string, SightEntry>();
  private readonly memo = new Map<string, Memo>();
  private sceneKey = "";
  /** The conditions computed by the last `evaluate` (the others were unchanged, reused as they were). */
  fresh: DetectionCondition[] = [];

  /**
   * A wall changed. With its segment (a door opened or closed, a wall drawn or deleted: [x1, y1, x2, y2]) only the
   * lines of sight crossing it are tested again; without (a wall moved), every one.
   */
  wallsChanged(segment?: readonly [number, number, number, number] | null): void {
    for (const [key, e] of [...this.sight]) {
      if (segment && !segmentsMeet(e.ax, e.ay, e.bx, e.by, segment[0], segment[1], segment[2], segment[3])) continue;
      this.sight.delete(key);
      this.memo.delete(key);
    }
  }

  /** Forgets one pair's condition: it is computed again next time (a pair judged later than it was computed). */
  forgetPair(observer: string, hider: string): void {
    this.memo.delete(`${observer}|${hider}`);
  }

  /** Forgets these tokens' pairs (judged anew, as if new). */
  forgetTokens(ids: ReadonlySet<string>): void {
    for (const map of [this.sight, this.memo] as Map<string, unknown>[]) {
      for (const key of [...map.keys()]) {
        const [o, h] = key.split("|");
        if (ids.has(o!) || ids.has(h!)) map.delete(key);
      }
    }
  }

  /** Keeps only the pairs between these tokens (tokens deleted or gone from the scene are forgotten). */
  retain(ids: ReadonlySet<string>): void {
    for (const map of [this.sight, this.memo] as Map<string, unknown>[]) {
      for (const key of [...map.keys()]) {
        const [o, h] = key.split("|");
        if (!ids.has(o!) || !ids.has(h!)) map.delete(key);
      }
    }
  }

  private lineOfSight(scene: DetectScene, key: string, o: DetectObserver, h: DetectHider): boolean {
    const e = this.sight.get(key);
    const al = o.level ?? null;
    const bl = h.level ?? null;
    if (
      e &&
      e.ax === o.x &&
      e.ay === o.y &&
      e.ae === o.elevation &&
      e.al === al &&
      e.bx === h.x &&
      e.by === h.y &&
      e.be === h.elevation &&
      e.bl === bl
    )
      return e.clear;
    this.counters.sightTests++;
    const clear = scene.lineOfSight(o, h);
    this.sight.set(key, { ax: o.x, ay: o.y, ae: o.elevation, al, bx: h.x, by: h.y, be: h.elevation, bl, clear });
    return clear;
  }

  private condition(
    scene: DetectScene,
    key: string,
    h: DetectHider,
    table: SenseTable,
    notices: Map<number, boolean>,
    p: PreparedObserver,
  ): DetectionCondition {
    this.counters.evaluations++;
    const o = p.o;
    const k = scene.metresPerPixel;
    const dx = (h.x - o.x) * k;
    const dy = (h.y - o.y) * k;
    const dz = h.elevation - o.elevation;
    const d = clean(Math.sqrt(dx * dx + dy * dy + dz * dz));
    const mask = (d <= p.dv ? 1 : 0) | (d <= p.bs ? 2 : 0) | (d <= p.ts ? 4 : 0);
    const light = table[mask] ?? "dark";
    let inView = false;
    if (couldNotice(o, h.dc, light, notices)) inView = this.lineOfSight(scene, key, o, h);
    return { observer: o.id, hider: h.id, inView, light, passive: o.passive, searching: o.searching, dc: h.dc };
  }

  /**
   * The conditions of the pairs to look at: every pair when `dirty` is null (a full pass), otherwise only the pairs of
   * the tokens in `dirty` (as hider or as observer), in hider order, then observer order. A pair whose two tokens are
   * as when it was last computed is returned as it was (not counted); `fresh` lists the ones computed now.
   */
  evaluate(
    scene: DetectScene,
    hiders: readonly DetectHider[],
    observers: readonly DetectObserver[],
    dirty: ReadonlySet<string> | null,
  ): DetectionCondition[] {
    const sceneKey = `${scene.ruleset}|${scene.observers}|${scene.metresPerPixel}`;
    if (sceneKey !== this.sceneKey) {
      this.sceneKey = sceneKey;
      this.memo.clear();
    }
    const all = observers.map(prepareObserver);
    const changed = dirty ? all.filter((p) => dirty.has(p.o.id)) : all;
    const versions = new Map<PreparedObserver, string>();
    const tables = new Map<string, SenseTable>();
    const out: DetectionCondition[] = [];
    const fresh: DetectionCondition[] = [];
    for (const h of hiders) {
      const list = !dirty || dirty.has(h.id) ? all : changed;
      if (!list.length) continue;
      const hv = hiderVersion(h);
      let table: SenseTable | undefined;
      // The rules' passiveNotices for this hider's DC, once per passive score and light.
      const notices = new Map<number, boolean>();
      for (const p of list) {
        if (!observes(scene.observers, h, p.o)) continue;
        const key = `${p.o.id}|${h.id}`;
        let ov = versions.get(p);
        if (ov === undefined) versions.set(p, (ov = observerVersion(p)));
        const m = this.memo.get(key);
        if (m && m.hv === hv && m.ov === ov) {
          out.push(m.condition);
          continue;
        }
        if (!table) {
          const kind = `${h.light}|${h.obscurity}|${h.invisible ? 1 : 0}`;
          table = tables.get(kind);
          if (!table) tables.set(kind, (table = senseTable(scene.ruleset, h)));
        }
        const condition = this.condition(scene, key, h, table, notices, p);
        this.memo.set(key, { hv, ov, condition });
        out.push(condition);
        fresh.push(condition);
      }
    }
    this.fresh = fresh;
    return out;
  }
}

/** One evaluation without a line-of-sight memory (tests, one-off passes). */
export function evaluatePairs(
  scene: DetectScene,
  hiders: readonly DetectHider[],
  observers: readonly DetectObserver[],
  dirty: ReadonlySet<string> | null,
  counters: PairCounters = newCounters(),
): DetectionCondition[] {
  const evaluator = new PairEvaluator();
  const out = evaluator.evaluate(scene, hiders, observers, dirty);
  counters.evaluations += evaluator.counters.evaluations;
  counters.sightTests += evaluator.counters.sightTests;
  return out;
}

/**
 * The benchmark's baseline: every pair on every change, the rules engine called for each pair and its line of sight
 * always tested. Same conditions as `evaluatePairs` where the sight test matters (the judgement is the same).
 */
export function evaluatePairsNaive(
  scene: DetectScene,
  hiders: readonly DetectHider[],
  observers: readonly DetectObserver[],
  counters: PairCounters = newCounters(),
): DetectionCondition[] {
  const out: DetectionCondition[] = [];
  for (const h of hiders) {
    for (const o of observers) {
      if (!observes(scene.observers, h, o)) continue;
      counters.evaluations++;
      const distance = Math.hypot(
        (h.x - o.x) * scene.metresPerPixel,
        (h.y - o.y) * scene.metresPerPixel,
        h.elevation - o.elevation,
      );
      const light = perceivedHider({
        ruleset: scene.ruleset,
        light: h.light,
        obscurity: h.obscurity,
        invisible: h.invisible,
        senses: o.senses,
        distance,
      });
      counters.sightTests++;
      const inView = scene.lineOfSight(o, h);
      out.push({ observer: o.id, hider: h.id, inView, light, passive: o.passive, searching: o.searching, dc: h.dc });
    }
  }
  return out;
}
