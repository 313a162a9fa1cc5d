import { RulesError } from "./errors.js";

export interface NumberConstraints {
  min?: number;
  max?: number;
  integer?: boolean;
}

/**
 * Checks that `value` is a finite number within the constraints and returns it.
 * Throws a RulesError naming the argument otherwise (never returns NaN, never defaults silently).
 */
export function num(name: string, value: unknown, c: NumberConstraints = {}): number {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new RulesError("AVENTURE.Error.NotANumber", { name, value: String(value) });
  }
  if (c.integer && !Number.isInteger(value)) {
    throw new RulesError("AVENTURE.Error.NotAnInteger", { name, value });
  }
  if (c.min === 0 && value < 0) throw new RulesError("AVENTURE.Error.Negative", { name, value });
  if ((c.min !== undefined && value < c.min) || (c.max !== undefined && value > c.max)) {
    throw new RulesError("AVENTURE.Error.OutOfRange", {
      name,
      value,
      min: c.min ?? "-∞",
      max: c.max ?? "∞",
    });
  }
  return value;
}

/** A non-negative finite number. */
export function nonNeg(name: string, value: unknown): number {
  return num(name, value, { min: 0 });
}

/** Checks that `value` is one of `allowed` and returns it with the narrowed type. */
export function oneOf<const T extends string>(name: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value !== "string" || !(allowed as readonly string[]).includes(value)) {
    throw new RulesError("AVENTURE.Error.UnknownValue", {
      name,
      value: String(value),
      allowed: allowed.join(", "),
    });
  }
  return value as T;
}

/** A boolean, or the default when undefined. Anything else throws. */
export function bool(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== "boolean") {
    throw new RulesError("AVENTURE.Error.UnknownValue", { name, value: String(value), allowed: "true, false" });
  }
  return value;
}
