import { RulesError } from "./errors.js";
import { show } from "./text.js";

export interface NumberConstraints {
  min?: number;
  max?: number;
  integer?: boolean;
}

/** A bound or a value for error data: the number itself when finite, otherwise its text. */
function datum(v: unknown, fallback: string): string | number {
  if (v === undefined) return fallback;
  return Number.isFinite(v) ? (v as number) : show(v);
}

/**
 * Checks that `value` is a finite number within the constraints and returns it.
 * Throws a RulesError naming the argument otherwise (never returns NaN, never defaults silently).
 */
export function num(name: string, value: unknown, c: NumberConstraints = {}): number {
  const n = show(name);
  if (
    c === null ||
    typeof c !== "object" ||
    !(c.min === undefined || typeof c.min === "number") ||
    !(c.max === undefined || typeof c.max === "number") ||
    !(c.integer === undefined || typeof c.integer === "boolean")
  ) {
    throw new RulesError("AVENTURE.Error.UnknownValue", {
      name: "constraints",
      value: show(c),
      allowed: "{ min?: number, max?: number, integer?: boolean }",
    });
  }
  // Number.isFinite is false for anything that is not a number (no coercion).
  if (!Number.isFinite(value)) throw new RulesError("AVENTURE.Error.NotANumber", { name: n, value: show(value) });
  const v = value as number;
  if (c.integer && !Number.isInteger(v)) {
    throw new RulesError("AVENTURE.Error.NotAnInteger", { name: n, value: v });
  }
  if (c.min === 0 && v < 0) throw new RulesError("AVENTURE.Error.Negative", { name: n, value: v });
  if (v < (c.min ?? Number.NEGATIVE_INFINITY) || v > (c.max ?? Number.POSITIVE_INFINITY)) {
    throw new RulesError("AVENTURE.Error.OutOfRange", {
      name: n,
      value: v,
      min: datum(c.min, "-∞"),
      max: datum(c.max, "∞"),
    });
  }
  return v;
}

/** A non-negative finite number. */
export function nonNeg(name: string, value: unknown): number {
  return num(name, value, { min: 0 });
}

/** Checks that `value` is one of `allowed` and returns it with the narrowed type. */
export function oneOf<const T extends string>(name: string, value: unknown, allowed: readonly T[]): T {
  if (!Array.isArray(allowed)) throw new RulesError("AVENTURE.Error.Missing", { name: "allowed" });
  if (typeof value !== "string" || !(allowed as readonly unknown[]).includes(value)) {
    throw new RulesError("AVENTURE.Error.UnknownValue", {
      name: show(name),
      value: show(value),
      allowed: allowed.map(show).join(", "),
    });
  }
  return value as T;
}

/** A boolean, or the default when undefined. Anything else throws. */
export function bool(name: string, value: unknown, fallback: boolean): boolean {
  if (typeof fallback !== "boolean")
    throw new RulesError("AVENTURE.Error.UnknownValue", {
      name: "fallback",
      value: show(fallback),
      allowed: "true, false",
    });
  if (value === undefined) return fallback;
  if (typeof value !== "boolean") {
    throw new RulesError("AVENTURE.Error.UnknownValue", {
      name: show(name),
      value: show(value),
      allowed: "true, false",
    });
  }
  return value;
}
