import { RulesError } from "./errors.js";
import { RULES_LIMITS } from "./limits.js";
import { show } from "./text.js";
import { num, oneOf } from "./validate.js";

export const UNITS = Object.freeze(["m", "ft", "km", "mi"] as const);
export type Unit = (typeof UNITS)[number];

/** Default conversion factors to metres: the French 5e convention (5 ft = 1.5 m, 1 mile = 1.5 km). */
export const DEFAULT_FACTORS: Readonly<Record<Unit, number>> = Object.freeze({ m: 1, ft: 0.3, km: 1000, mi: 1500 });

/** The metres per unit an overriding factor may give: 1 µm to 1000 km. */
const FACTOR_RANGE = { min: 1e-6, max: 1e6 } as const;

function factorFor(unit: Unit, factor?: number): number {
  if (factor === undefined || unit === "m" || unit === "km") return DEFAULT_FACTORS[unit];
  return num("factor", factor, FACTOR_RANGE);
}

/**
 * Rounds away floating-point noise (0.1 + 0.2) without hiding real fractions: to 1e-9. Beyond 1e15 a number has no
 * such fraction left and is returned as it is. Throws NotANumber for anything but a finite number.
 */
export function clean(value: number): number {
  // Number.isFinite is false for anything but a finite number (a string, null...).
  if (!Number.isFinite(value)) throw new RulesError("AVENTURE.Error.NotANumber", { name: "value", value: show(value) });
  // Stryker disable next-line EqualityOperator: equivalent (1e15 rounds to itself either way).
  return Math.abs(value) >= 1e15 ? value : Math.round(value * 1e9) / 1e9;
}

/**
 * Converts `value` in `unit` to metres (at most ±10,000 km: OutOfRange beyond). The optional `factor` overrides the
 * metres per unit for ft or mi
 * (e.g. 0.3048 for an exact foot).
 */
export function toMetres(value: number, unit: Unit, factor?: number): number {
  const u = oneOf("unit", unit, UNITS);
  const f = factorFor(u, factor);
  const max = RULES_LIMITS.maxMetres;
  return clean(num("value", value, { min: -max / f, max: max / f }) * f);
}

/** Converts `metres` to `unit` (inverse of toMetres). */
export function fromMetres(metres: number, unit: Unit, factor?: number): number {
  const u = oneOf("unit", unit, UNITS);
  const f = factorFor(u, factor);
  return clean(num("metres", metres, { min: -RULES_LIMITS.maxMetres, max: RULES_LIMITS.maxMetres }) / f);
}

/** Normalises the unit names used by game systems ("ft", "feet", "m", "meters", "mi", "km") to a Unit. */
export function parseUnit(raw: unknown, fallback: Unit = "ft"): Unit {
  const fb = oneOf("fallback", fallback, UNITS);
  if (typeof raw !== "string" || raw === "") return fb;
  const u = raw.trim().toLowerCase();
  if (["meter", "meters", "metre", "metres", "mètre", "mètres"].includes(u)) return "m";
  if (["feet", "foot", "pi", "pieds"].includes(u)) return "ft";
  if (["kilometer", "kilometers", "kilometre", "kilometres"].includes(u)) return "km";
  if (["mile", "miles"].includes(u)) return "mi";
  // The unit ids themselves ("m", "ft", "km", "mi"), or UnknownValue.
  return oneOf("unit", u, UNITS);
}
