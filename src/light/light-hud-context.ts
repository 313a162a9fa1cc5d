/**
 * The token HUD light panel's template context (pure: tested and screenshotted without Foundry). The template
 * localizes the keys it is given; numbers are already rounded here.
 */
import type { LightLevel, Obscurity, PerceivedSense, VisibilityEffect, VisionSense } from "../rules/light.js";

export type SenseOrigin = "actor" | "vision" | "detection";

export interface LightHudInput {
  /** Actual light at the token. */
  level: LightLevel;
  /** How obscured its spot is (Obscurity regions); default none. */
  obscurity?: Obscurity;
  /** What the creature effectively experiences there, with its senses. */
  perceived: LightLevel;
  /** The sense that improved it ("none" when none did). */
  sense: PerceivedSense;
  effect: VisibilityEffect;
  senses: readonly { sense: VisionSense; range: number; from: SenseOrigin }[];
  /** Darkness level at the token, 0..1. */
  darkness: number;
  globalLight: boolean;
  inDarkness: boolean;
  /** Whether the world applies the effects (setting lightEffects). */
  effectsOn: boolean;
  /**
   * The hiding state, when the token is hidden (`from`: how many observers it hides from; null: not told, a player).
   */
  hidden: { dc: number; from: number | null } | null;
  /** Marked by the GM as searching (it rolls Wisdom (Perception) against creatures that hide). */
  searching?: boolean;
  /** Ranges at or above this are shown as unlimited. */
  unlimited?: number;
  /**
   * docs/rules.md §0: whether the world's game has light rules (light effects, senses, obscurity; default true).
   * Without
   * them the badge shows the light level only, and `noRule` says the game's book has no such rule.
   */
  rulesOn?: boolean;
  noRule?: string | null;
  /** "Rôle'n Play's rule" when the light rules are borrowed. */
  borrowed?: string | null;
}

export const LIGHT_GLYPH: Readonly<Record<LightLevel, string>> = Object.freeze({ bright: "☀", dim: "◐", dark: "☾" });

export interface LightHudContext extends Record<string, unknown> {
  level: LightLevel;
  glyph: string;
  levelKey: string;
  obscurity: Obscurity;
  /** The obscurity badge's text (null when not obscured) and what it does to those who look at the token. */
  obscurityKey: string | null;
  obscurityEffectKey: string | null;
  perceived: LightLevel;
  perceivedKey: string;
  improved: boolean;
  senseKey: string | null;
  effect: VisibilityEffect;
  effectKey: string;
  effectsOn: boolean;
  senses: { labelKey: string; range: number | null; unlimited: boolean; fromKey: string }[];
  darknessPercent: number;
  ambientKey: string;
  hidden: { dc: number; from: number | null } | null;
  /** The hiding line's key, chosen by the number of observers (no "(s)" plurals). */
  hiddenKey: string | null;
  searching: boolean;
  rulesOn: boolean;
  noRule: string | null;
  borrowed: string | null;
}

export function lightHudContext(input: LightHudInput): LightHudContext {
  const unlimited = input.unlimited ?? 1_000_000;
  const ambientKey = input.inDarkness
    ? "AVENTURE.Light.HUD.ambient.magicalDarkness"
    : input.globalLight
      ? "AVENTURE.Light.HUD.ambient.global"
      : "AVENTURE.Light.HUD.ambient.noGlobal";
  const obscurity = input.obscurity ?? "none";
  return {
    level: input.level,
    glyph: LIGHT_GLYPH[input.level],
    levelKey: `AVENTURE.Light.level.${input.level}`,
    obscurity,
    obscurityKey: obscurity === "none" ? null : `AVENTURE.Light.obscurity.${obscurity}`,
    obscurityEffectKey: obscurity === "none" ? null : `AVENTURE.Light.HUD.obscured.${obscurity}`,
    perceived: input.perceived,
    perceivedKey: `AVENTURE.Light.level.${input.perceived}`,
    improved: input.perceived !== input.level,
    senseKey: input.sense === "none" ? null : `AVENTURE.Light.sense.${input.sense}`,
    effect: input.effect,
    effectKey: `AVENTURE.Light.effect.${input.effect}`,
    effectsOn: input.effectsOn,
    senses: input.senses.map((s) => ({
      labelKey: `AVENTURE.Light.sense.${s.sense}`,
      range: s.range >= unlimited ? null : Math.round(s.range * 10) / 10,
      unlimited: s.range >= unlimited,
      fromKey: `AVENTURE.Light.HUD.from.${s.from}`,
    })),
    darknessPercent: Math.round(input.darkness * 100),
    ambientKey,
    hidden: input.hidden,
    hiddenKey: input.hidden
      ? `AVENTURE.Light.HUD.hidden.${input.hidden.from === null ? "own" : input.hidden.from === 1 ? "one" : "other"}`
      : null,
    searching: input.searching ?? false,
    rulesOn: input.rulesOn ?? true,
    noRule: input.rulesOn === false ? (input.noRule ?? null) : null,
    borrowed: input.rulesOn === false ? null : (input.borrowed ?? null),
  };
}
