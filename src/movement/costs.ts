/**
 * Movement costs on the canvas: the walk, climb, swim, crawl and jump movement actions get cost functions
 * that follow docs/rules.md §3.1 for the current ruleset (src/rules/movement.ts), so the token ruler and
 * TokenDocument#measureMovementPath show rule costs.
 *
 * Core calls `getCostFunction(token, options)` once per measurement, then the returned function once per
 * segment with `baseCost`: the distance already multiplied by the terrain difficulty of core's
 * "Modify Movement Cost" regions. The rules ADD the extra costs (difficult climbing = 3 m per metre) where
 * core multiplies (2 × 2), so the terrain multiplier is never applied twice: the segment is "difficult"
 * when baseCost / distance > 1, and the cost is distance × the rule's metres per metre.
 */
import { terrainCostsApply } from "../core/features.js";
import { aventureActs } from "../core/dnd5e-owners.js";
import { MOVEMENT_ACTIONS, hasSpeedFor, movementCostPerMetre, type MovementAction } from "../rules/movement.js";
import type { RulesetId } from "../rules/rulesets.js";
import { getSetting } from "../core/settings.js";
import { movementStats } from "./token-data.js";

/** Core's TokenMovementActionCostFunction. */
export type CostFunction = (baseCost: number, from: unknown, to: unknown, distance: number, segment: unknown) => number;

/** 1 + relative tolerance when comparing baseCost with the distance (floating-point noise of the grid). */
const TOLERANCE = 1 + 1e-9;

/** True when core's terrain made the segment dearer than its length (a "Modify Movement Cost" region > 1). */
export function isDifficult(baseCost: number, distance: number): boolean {
  return distance > 0 && baseCost > distance * TOLERANCE;
}

/** cache[ruleset][action][hasSpeed ? 1 : 0]: no string key to build on every measurement. */
const cache: Partial<Record<string, Partial<Record<string, [CostFunction?, CostFunction?]>>>> = {};

/**
 * The cost function of `action` for `ruleset` (cached: one per ruleset, action and hasSpeed). Terrain
 * multipliers ≤ 1 count as normal terrain (the rules know no easier terrain); an infinite baseCost
 * (impassable) stays infinite. Throws UnknownRuleset / UnknownValue up front; the returned function does
 * not allocate.
 */
export function ruleCostFunction(ruleset: RulesetId, action: MovementAction, hasSpeed: boolean): CostFunction {
  const slot = ((cache[ruleset] ??= {})[action] ??= []);
  const known = slot[hasSpeed ? 1 : 0];
  if (known) return known;
  const normal = movementCostPerMetre(ruleset, action, false, hasSpeed);
  const difficult = movementCostPerMetre(ruleset, action, true, hasSpeed);
  const fn: CostFunction = (baseCost, _from, _to, distance) => {
    // Same test as isDifficult, inlined: the ruler calls this for every segment on every refresh.
    if (baseCost > distance * TOLERANCE) return baseCost === Infinity ? baseCost : distance * difficult;
    return distance * normal;
  };
  slot[hasSpeed ? 1 : 0] = fn;
  return fn;
}

/** The rule cost function for a token (its actor's climbing / swimming speed waives dnd5e's extra cost). */
export function tokenCostFunction(token: { actor?: unknown } | null, action: MovementAction): CostFunction {
  const actor = token?.actor ?? null;
  const speeds = actor ? movementStats(actor).speeds : null;
  return ruleCostFunction(getSetting("ruleset"), action, speeds ? hasSpeedFor(speeds, action) : false);
}

const installed = new WeakSet<object>();

/**
 * Replaces getCostFunction of the five rule actions in CONFIG.Token.movement.actions (call at `setup`,
 * after the game system has configured them). Core's (or the system's) function stays in use while the
 * "movementCosts" setting is off, and if reading the token fails.
 */
export function installMovementCosts(): void {
  const actions = CONFIG.Token.movement.actions;
  for (const action of MOVEMENT_ACTIONS) {
    const config = actions[action];
    if (!config || installed.has(config)) continue;
    const original = config.getCostFunction?.bind(config) ?? ((): CostFunction => (baseCost: number) => baseCost);
    config.getCostFunction = (token, options) => {
      // In a dnd5e world whose movement costs dnd5e owns (dnd5e-owners.ts), dnd5e's own cost functions run alone.
      if (!getSetting("movementCosts") || !terrainCostsApply() || !aventureActs("movementCosts"))
        return original(token, options);
      try {
        return tokenCostFunction(token as { actor?: unknown }, action);
      } catch (e) {
        console.error("aventure | movement cost", e);
        return original(token, options);
      }
    };
    installed.add(config);
  }
}
