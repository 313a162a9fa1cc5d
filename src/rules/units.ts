import { num, oneOf } from "./validate.js";

export const UNITS = ["m", "ft", "km", "mi"] as const;
export type Unit = (typeof UNITS)[number];

/** Default conversion factors to metres: the French 5e convention (5 ft = 1.5 m, 1 mile = 1.5 km). */
export const DEFAULT_FACTORS: Readonly<Record<Unit, number>> = { m: 1, ft: 0.3, km: 1000, mi: 1500 };

function factorFor(unit: Unit, factor?: number): number {
  if (factor === undefined || unit === "m" || unit === "km") return DEFAULT_FACTORS[unit];
  return num("factor", factor, { min: Number.MIN_VALUE });
}

/** Rounds away floating-point noise (0.1 + 0.2) without hiding real fractions. */
export function clean(value: number): number {
  return Math.round(value * 1e9) / 1e9;
}

/**
 * Converts `value` in `unit` to metres. The optional `factor` overrides the metres per unit for ft or mi
 * (e.g. 0.3048 for an exact foot).
 */
export function toMetres(value: number, unit: Unit, factor?: number): number {
  const u = oneOf("unit", unit, UNITS);
  return clean(num("value", value) * factorFor(u, factor));
}

/** Converts `metres` to `unit` (inverse of toMetres). */
export function fromMetres(metres: number, unit: Unit, factor?: number): number {
  const u = oneOf("unit", unit, UNITS);
  return clean(num("metres", metres) / factorFor(u, factor));
}

/** Normalises the unit names used by game systems ("ft", "feet", "m", "meters", "mi", "km") to a Unit. */
export function parseUnit(raw: unknown, fallback: Unit = "ft"): Unit {
  if (typeof raw !== "string" || raw === "") return fallback;
  const u = raw.trim().toLowerCase();
  if (["m", "meter", "meters", "metre", "metres", "mètre", "mètres"].includes(u)) return "m";
  if (["ft", "feet", "foot", "pi", "pieds"].includes(u)) return "ft";
  if (["km", "kilometer", "kilometers", "kilometre", "kilometres"].includes(u)) return "km";
  if (["mi", "mile", "miles"].includes(u)) return "mi";
  return oneOf("unit", u, UNITS);
}
