/**
 * Keeps the light state of every token of the viewed scene. Hooks mark what changed (one token, or everything when the
 * lighting changed); a debounced flush recomputes only that, redraws the icons whose level changed and, on the active
 * GM, reconciles the light effects and the hidden tokens. Never per frame: refreshToken is not listened to.
 */
import { featureActive } from "../core/features.js";
import {
  lightThresholds,
  mildestEffect,
  perceivedLightDetail,
  perceivedVisibility,
  visibilityEffect,
  LIGHT_THRESHOLDS,
  type LightLevel,
  type LightThresholds,
  type Obscurity,
  type PerceivedSense,
  type VisibilityEffect,
} from "../rules/light.js";
import type { ActorLike } from "../actors/api.js";
import { isActiveGM } from "../core/gm.js";
import { reportError, t, notify } from "../core/i18n.js";
import { getSetting } from "../core/settings.js";
import { lightAtToken, prepareScene, type TokenLight } from "./compute.js";
import { applyLightEffect, removeLightEffects } from "./effects.js";
import { drawLightIcon } from "./icons.js";
import { obscurityAt, obscuritySources } from "./obscurity.js";
import { canvasLike, darknessSources, lightSources, plainTokens, type CanvasLike, type TokenObjLike } from "./scene.js";
import { tokenSenses, type SenseEntry, type TokenSenses } from "./senses.js";

export interface TokenLightState {
  tokenId: string;
  light: TokenLight;
  /** How obscured its spot is (Obscurity regions): others see it at best dim (light) or not at all (heavy). */
  obscurity: Obscurity;
  senses: TokenSenses;
  /** The level the creature effectively experiences where it stands (its senses at distance 0, the obscurity there). */
  perceived: LightLevel;
  sense: PerceivedSense;
  effect: VisibilityEffect;
}

/** What the HUD and `api.lightAt` show of a token's light state (senses in metres). */
export interface LightAt {
  level: LightLevel;
  obscurity: Obscurity;
  perceived: LightLevel;
  sense: PerceivedSense;
  effect: VisibilityEffect;
  senses: SenseEntry[];
  darkness: number;
  globalLight: boolean;
  inDarkness: boolean;
}

export function lightAtOf(s: TokenLightState): LightAt {
  return {
    level: s.light.level,
    obscurity: s.obscurity,
    perceived: s.perceived,
    sense: s.sense,
    effect: s.effect,
    senses: s.senses.entries,
    darkness: s.light.darkness,
    globalLight: s.light.globalLight,
    inDarkness: s.light.inDarkness,
  };
}

/**
 * Called after each flush on the active GM with the states that changed, every state, and the tokens that were
 * recomputed (null: all of them): hiding and ambient detection look at what moved or changed.
 */
export type AfterFlush = (
  changed: TokenLightState[],
  all: ReadonlyMap<string, TokenLightState>,
  recomputed: ReadonlySet<string> | null,
) => Promise<void>;

let warnedThresholds = false;

/** The world's thresholds; invalid settings (bright above dim) fall back to the defaults with a warning. */
export function currentThresholds(): LightThresholds {
  try {
    return lightThresholds({ bright: getSetting("lightThresholdBright"), dim: getSetting("lightThresholdDim") });
  } catch {
    if (!warnedThresholds && game.user.isGM) {
      warnedThresholds = true;
      notify("warn", t("AVENTURE.Light.badThresholds"));
    }
    return LIGHT_THRESHOLDS;
  }
}

function key(s: TokenLightState): string {
  return `${s.light.level}|${s.obscurity}|${s.perceived}|${s.sense}|${s.effect}`;
}

export class LightTracker {
  readonly states = new Map<string, TokenLightState>();
  private readonly dirty = new Set<string>();
  private all = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<TokenLightState[]> | null = null;
  /** Debounce delay, ms. */
  delay = 120;
  /** Longest wait, ms, while hooks keep coming (a long token animation): recompute at least this often. */
  maxWait = 1000;
  private firstScheduled: number | null = null;
  /** Number of recomputations done (tests, diagnostics). */
  flushes = 0;
  afterFlush: AfterFlush | null = null;

  /** Marks tokens (or everything) for recomputation and arms the debounce timer. */
  schedule(ids?: Iterable<string | null | undefined>): void {
    if (ids === undefined) this.all = true;
    else for (const id of ids) if (id) this.dirty.add(id);
    if (!this.all && this.dirty.size === 0) return;
    const now = Date.now();
    this.firstScheduled ??= now;
    // Debounce: each call pushes the recomputation back, but never beyond maxWait after the first call.
    if (this.timer !== null) {
      if (now - this.firstScheduled >= this.maxWait) return;
      clearTimeout(this.timer);
    }
    const wait = Math.min(this.delay, Math.max(0, this.firstScheduled + this.maxWait - now));
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush().catch(reportError);
    }, wait);
  }

  /** Forgets everything (scene changed) and removes the icons. */
  reset(): void {
    const c = canvasLike();
    for (const id of this.states.keys()) {
      const tok = c?.tokens.placeables.find((p) => p.id === id);
      if (tok) drawLightIcon(tok, null);
    }
    this.states.clear();
    this.dirty.clear();
    this.all = false;
  }

  get pending(): boolean {
    return this.all || this.dirty.size > 0;
  }

  /** Recomputes what was marked now (the timer calls it; tests and the API may too). Returns the changed states. */
  async flush(): Promise<TokenLightState[]> {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.firstScheduled = null;
    while (this.running) await this.running;
    if (!this.pending) return [];
    this.running = this.run();
    try {
      return await this.running;
    } finally {
      this.running = null;
    }
  }

  private async run(): Promise<TokenLightState[]> {
    const c = canvasLike();
    const ids = this.all ? undefined : new Set(this.dirty);
    this.all = false;
    this.dirty.clear();
    if (!c) {
      this.states.clear();
      return [];
    }
    this.flushes++;
    const computed = this.compute(c, ids);
    const changed: TokenLightState[] = [];
    for (const s of computed) {
      const prev = this.states.get(s.tokenId);
      this.states.set(s.tokenId, s);
      if (!prev || key(prev) !== key(s)) changed.push(s);
    }
    if (!ids) {
      const present = new Set(computed.map((s) => s.tokenId));
      for (const id of [...this.states.keys()]) if (!present.has(id)) this.states.delete(id);
    }
    for (const s of changed) {
      const tok = placeable(c, s.tokenId);
      if (tok) drawLightIcon(tok, s.light.level);
    }
    if (isActiveGM()) {
      if (getSetting("lightEffects") && featureActive("lightEffects")) await this.applyEffects(c, changed);
      if (this.afterFlush) await this.afterFlush(changed, this.states, ids ?? null);
    }
    return changed;
  }

  /** The states of the given tokens (all when undefined), computed now without touching the stored ones. */
  compute(c: CanvasLike, ids?: ReadonlySet<string>): TokenLightState[] {
    const thresholds = currentThresholds();
    const ruleset = getSetting("ruleset");
    const scene = prepareScene(lightSources(c), darknessSources(c));
    const fog = obscuritySources(c.scene?.regions);
    return plainTokens(c, ids).map((tok) => {
      const light = lightAtToken(tok, scene, thresholds);
      const obscurity = fog.length ? obscurityAt(fog, tok.x, tok.y, tok.elevation) : "none";
      const doc = placeable(c, tok.id)!.document;
      const senses = tokenSenses(c, doc);
      // What it sees where it stands: its senses at distance 0, then the obscurity of its own spot (a creature in
      // thick fog sees nothing, docs/rules.md §5). The sense named is the one that gave the final level, if any did.
      const detail = perceivedLightDetail(ruleset, light.level, senses.senses, 0);
      const perceived = perceivedVisibility(ruleset, light.level, obscurity, senses.senses, 0);
      const sense = perceived === detail.level ? detail.sense : "none";
      return { tokenId: tok.id, light, obscurity, senses, perceived, sense, effect: visibilityEffect(perceived) };
    });
  }

  /** The state of one token: the stored one, or computed now. */
  stateOf(tokenId: string): TokenLightState | null {
    const known = this.states.get(tokenId);
    if (known && !this.dirty.has(tokenId) && !this.all) return known;
    const c = canvasLike();
    if (!c || !placeable(c, tokenId)) return null;
    return this.compute(c, new Set([tokenId]))[0] ?? null;
  }

  /**
   * Applies the effect of each state's actor once. A linked actor placed several times on the scene (the same Actor
   * object behind several tokens; an unlinked token has its own synthetic actor) gets the mildest effect of its
   * tokens (rules mildestEffect), whichever token changed, so the result does not depend on the order of the changes.
   */
  private applying: Promise<void> = Promise.resolve();

  /** One application of effects at a time (a recomputation and a setting turned on may both apply, never at once). */
  private applyEffects(c: CanvasLike, states: readonly TokenLightState[]): Promise<void> {
    const next = this.applying.then(() => this.applyEffectsNow(c, states));
    this.applying = next.catch(() => undefined);
    return next;
  }

  private async applyEffectsNow(c: CanvasLike, states: readonly TokenLightState[]): Promise<void> {
    const done = new Set<ActorLike>();
    for (const s of states) {
      const actor = placeable(c, s.tokenId)?.document.actor;
      if (!actor || done.has(actor)) continue;
      done.add(actor);
      const effects = c.tokens.placeables
        .filter((t) => (t.document.actor as unknown) === actor)
        .map((t) => this.states.get(t.id)?.effect)
        .filter((e): e is VisibilityEffect => e !== undefined);
      await applyLightEffect(actor, mildestEffect(effects.length ? effects : [s.effect]));
    }
  }

  /** Setting turned on: apply to every token; turned off: remove what Aventure added. Active GM only. */
  async reconcileAll(on: boolean): Promise<void> {
    if (!isActiveGM()) return;
    const c = canvasLike();
    if (!c) return;
    if (on) {
      await this.flush();
      await this.applyEffects(c, [...this.states.values()]);
      return;
    }
    for (const tok of c.tokens.placeables) {
      const actor = tok.document.actor;
      if (actor) await removeLightEffects(actor);
    }
  }

  /** Redraws every icon from the stored states (client setting changed, token redrawn). */
  redrawIcons(only?: TokenObjLike): void {
    const c = canvasLike();
    if (!c) return;
    for (const tok of only ? [only] : c.tokens.placeables)
      drawLightIcon(tok, this.states.get(tok.id)?.light.level ?? null);
  }
}

export function placeable(c: CanvasLike, id: string): TokenObjLike | undefined {
  return c.tokens.get?.(id) ?? c.tokens.placeables.find((p) => p.id === id);
}

/** The one tracker of this client. */
export const lightTracker = new LightTracker();
