/**
 * The Aventure part of a token ruler waypoint label (pure: no Foundry globals, tested directly): the cost
 * in the display unit, the movement left this turn for the current combatant, the exceeding mark and the
 * "jump too long" warning.
 */
import { movementLeft } from "../rules/movement.js";
import { fromMetres, toMetres, type Unit } from "../rules/units.js";
import type { DistanceDisplay } from "../core/core-settings.js";

export interface LabelInput {
  /** Cumulative cost at the waypoint, in scene grid units (Infinity when unreachable). */
  cost: number;
  /**
   * Cumulative cost at the previous labelled waypoint (scene grid units), for the "(+x)" delta next to the
   * total; null or omitted: no delta.
   */
  previousCost?: number | null;
  /** The scene's grid unit as written on the scene ("ft", "m", "sq"...). */
  sceneUnits: string;
  /** The same as a convertible unit, or null (then everything stays in grid units). */
  unit: Unit | null;
  feetFactor: number;
  display: DistanceDisplay;
  /** The movement budget this turn in metres: only for the combatant whose turn it is. */
  budgetMetres: number | null;
  /** Set when a single jump is longer than the long jump: both in metres. */
  jump: { metres: number; longJump: number } | null;
  lang: string;
  localize: (key: string, data?: Record<string, string | number>) => string;
}

/**
 * A length of the scene (grid units) as the label shows it: in metres when the display setting says so and the scene's
 * unit converts, else in the scene's own units. Used for the cost, the distance and the elevation alike, so that one
 * label never mixes metres and feet.
 */
export function lengthForDisplay(
  gridValue: number,
  input: Pick<LabelInput, "unit" | "feetFactor" | "display" | "sceneUnits" | "lang">,
): { value: number; text: string; units: string } {
  const inMetres = input.display === "metres" && input.unit !== null;
  const value =
    inMetres && Number.isFinite(gridValue)
      ? toMetres(gridValue, input.unit!, input.unit === "ft" ? input.feetFactor : undefined)
      : gridValue;
  return { value, text: formatNumber(value, input.lang), units: inMetres ? "m" : input.sceneUnits };
}

/** A signed difference for the "(+x)" deltas, with a typographic minus. */
export function signedText(value: number, lang: string): string {
  if (!Number.isFinite(value)) return "∞";
  return `${value < 0 ? "−" : "+"}${formatNumber(Math.abs(value), lang)}`;
}

export interface AventureLabel {
  /** The total and, when `previousCost` was given, the signed delta since it: both in `units`. */
  cost: { total: string; units: string; delta?: string };
  /** Movement left this turn, or by how much the speed is exceeded when `exceeded`. */
  left: { total: string; units: string } | null;
  exceeded: boolean;
  warning: string | null;
  /** The unit every length of the label is shown in ("m", or the scene's units). */
  units: string;
}

export function formatNumber(value: number, lang: string): string {
  if (!Number.isFinite(value)) return "∞";
  return (Math.round(value * 100) / 100).toLocaleString(lang, { maximumFractionDigits: 2 });
}

/** Builds the Aventure fields of a waypoint label. */
export function aventureLabel(input: LabelInput): AventureLabel {
  const factor = input.unit === "ft" ? input.feetFactor : undefined;
  const inMetres = input.display === "metres" && input.unit !== null;
  const units = inMetres ? "m" : input.sceneUnits;
  const costMetres =
    input.unit !== null && Number.isFinite(input.cost) ? toMetres(input.cost, input.unit, factor) : null;
  const shownCost = inMetres && costMetres !== null ? costMetres : input.cost;
  // The delta in the same unit as the total (core's own delta is in grid units).
  const shown = (gridValue: number) =>
    inMetres && input.unit !== null && Number.isFinite(gridValue) ? toMetres(gridValue, input.unit, factor) : gridValue;
  let delta: string | undefined;
  if (typeof input.previousCost === "number") {
    const d = shown(input.cost) - shown(input.previousCost);
    delta = Number.isFinite(d) ? `${d < 0 ? "−" : "+"}${formatNumber(Math.abs(d), input.lang)}` : "∞";
  }

  let left: AventureLabel["left"] = null;
  let exceeded = false;
  if (input.budgetMetres !== null && input.unit !== null) {
    if (costMetres === null) {
      exceeded = true;
    } else {
      const r = movementLeft(input.budgetMetres, costMetres);
      exceeded = r.exceeded;
      // Beyond the speed the label says so and shows by how much (a positive number).
      const beyond = Math.abs(r.left);
      const shown = inMetres ? beyond : fromMetres(beyond, input.unit, factor);
      left = { total: formatNumber(shown, input.lang), units };
    }
  }
  const warning = input.jump
    ? input.localize("AVENTURE.Movement.Ruler.jumpTooLong", {
        jump: `${formatNumber(input.jump.metres, input.lang)} m`,
        longJump: `${formatNumber(input.jump.longJump, input.lang)} m`,
      })
    : null;
  const cost: AventureLabel["cost"] = { total: formatNumber(shownCost, input.lang), units };
  if (delta !== undefined) cost.delta = delta;
  return { cost, left, exceeded, warning, units };
}
