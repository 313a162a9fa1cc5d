/**
 * Internal helpers of the rules engine (not exported by index.ts): deep freezing of the tables, checked dice,
 * checked objects and lists. Every failure is a RulesError.
 */
import { RulesError } from "./errors.js";
import { RULES_LIMITS } from "./limits.js";
import { num } from "./validate.js";
import { show } from "./text.js";

/** Freezes `value` and everything reachable from it; returns it with its type. */
export function deepFreeze<T>(value: T): T {
  // Object.isFrozen is true for null and every primitive: only objects (and functions) are frozen.
  if (!Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as Record<string, unknown>)) deepFreeze(v);
  }
  return value;
}

export { show } from "./text.js";

/** A plain object (not null, not an array), or Missing. */
export function record(name: string, value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new RulesError("AVENTURE.Error.Missing", { name });
  return value as Record<string, unknown>;
}

/**
 * An array of at most `max` items (default RULES_LIMITS.maxList), or Missing / OutOfRange. Returns a dense copy: the
 * holes of a sparse array become undefined, for the item checks to refuse.
 */
export function list(name: string, value: unknown, max: number = RULES_LIMITS.maxList): readonly unknown[] {
  if (!Array.isArray(value)) throw new RulesError("AVENTURE.Error.Missing", { name });
  if (value.length > max) throw new RulesError("AVENTURE.Error.OutOfRange", { name, value: value.length, min: 0, max });
  return Array.from(value as unknown[]);
}

/** A distance in metres: 0..RULES_LIMITS.maxMetres. */
const METRES = Object.freeze({ min: 0, max: RULES_LIMITS.maxMetres });
export function metres(name: string, value: unknown): number {
  return num(name, value, METRES);
}

/** Anything that rolls: a Dice (dice.ts) as the rules take it, whatever its `roll` really resolves to. */
interface Rolling {
  roll(count: number, faces: number, reason?: string): Promise<unknown>;
}

/**
 * Rolls through any Dice and checks what comes back: `count` integers in 1..`faces`. A Dice that is not one, or
 * results that do not fit, throw (Missing, BadDie) instead of leaking into the rules.
 */
export async function rollChecked(dice: Rolling, count: number, faces: number, reason?: string): Promise<number[]> {
  const d = record("dice", dice);
  if (typeof d.roll !== "function") throw new RulesError("AVENTURE.Error.Missing", { name: "dice.roll" });
  num("count", count, { min: 1, max: 1000, integer: true });
  num("faces", faces, { min: 2, max: 1000, integer: true });
  const results: unknown = await (dice.roll as Rolling["roll"]).call(dice, count, faces, reason);
  if (!Array.isArray(results) || results.length !== count) {
    throw new RulesError("AVENTURE.Error.BadDie", {
      value: Array.isArray(results) ? results.length : show(results),
      faces,
    });
  }
  return results.map((r: unknown) => {
    if (!isDieResult(r, faces)) throw new RulesError("AVENTURE.Error.BadDie", { value: show(r), faces });
    return r;
  });
}

/**
 * Whether `r` is a result of a die of `faces` faces: an integer in 1..faces (Number.isInteger is false for a
 * non-number).
 */
export function isDieResult(r: unknown, faces: number): r is number {
  return Number.isInteger(r) && (r as number) >= 1 && (r as number) <= faces;
}
