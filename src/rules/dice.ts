import { RulesError } from "./errors.js";
import { isDieResult, list, rollChecked } from "./guard.js";
import { show } from "./text.js";
import { num } from "./validate.js";

/**
 * The dice abstraction. Every rule that rolls takes a Dice: tests inject fixed or seeded results, the
 * Foundry glue injects one backed by Foundry's Roll (so rolls show in chat and in Dice So Nice).
 * `roll(count, faces)` resolves to the individual results, each in 1..faces.
 */
export interface Dice {
  roll(count: number, faces: number, reason?: string): Promise<number[]>;
}

/** One roll made through a Dice, as recorded by `recordingDice`. */
export interface RolledDice {
  count: number;
  faces: number;
  reason?: string;
  results: number[];
}

function checkRequest(count: number, faces: number): void {
  num("count", count, { min: 1, max: 1000, integer: true });
  num("faces", faces, { min: 2, max: 1000, integer: true });
}

/**
 * Dice that return the given results in order (for tests and replays). Throws when they run out or
 * when a result does not fit the die asked for.
 */
export function fixedDice(results: readonly number[]): Dice & { remaining(): number } {
  const queue = [...list("results", results, 100_000)];
  let i = 0;
  return {
    async roll(count, faces) {
      checkRequest(count, faces);
      const out: number[] = [];
      for (let k = 0; k < count; k++) {
        if (i >= queue.length) throw new RulesError("AVENTURE.Error.DiceExhausted", { faces });
        const r = queue[i++];
        if (!isDieResult(r, faces)) throw new RulesError("AVENTURE.Error.BadDie", { value: show(r), faces });
        out.push(r);
      }
      return out;
    },
    remaining: () => queue.length - i,
  };
}

/** A small deterministic PRNG (mulberry32): the same seed gives the same dice. */
export function seededDice(seed: number): Dice {
  let a = num("seed", seed, { integer: true }) >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    async roll(count, faces) {
      checkRequest(count, faces);
      return Array.from({ length: count }, () => 1 + Math.floor(next() * faces));
    },
  };
}

/** Wraps a Dice and keeps every roll made through it, in order (results checked: `count` integers in 1..`faces`). */
export function recordingDice(inner: Dice): Dice & { log: RolledDice[] } {
  if (inner === null || typeof inner !== "object" || typeof inner.roll !== "function")
    throw new RulesError("AVENTURE.Error.Missing", { name: "dice" });
  const log: RolledDice[] = [];
  return {
    log,
    async roll(count, faces, reason) {
      const results = await rollChecked(inner, count, faces, reason);
      log.push(reason === undefined ? { count, faces, results } : { count, faces, reason, results });
      return results;
    },
  };
}

/** Rolls and adds up (the results checked: `count` integers in 1..`faces`, at most 1000 dice of 1000 faces). */
export async function rollTotal(dice: Dice, count: number, faces: number, reason?: string): Promise<number> {
  const r = await rollChecked(dice, count, faces, reason);
  return r.reduce((a, b) => a + b, 0);
}
