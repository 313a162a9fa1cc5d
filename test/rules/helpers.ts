/** Shared assertions of the rules tests: which RulesError key a call throws. */
import { expect } from "vitest";
import { RulesError } from "../../src/rules/errors.js";

const full = (key: string) => (key.startsWith("AVENTURE.") ? key : `AVENTURE.Error.${key}`);

/** The full key of the RulesError that `fn` throws (fails the test if it throws anything else, or nothing). */
export function errorKey(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(RulesError);
    return (e as RulesError).key;
  }
  throw new Error("did not throw");
}

/** The full key of the RulesError that the promise (or async function) rejects with. */
export async function rejectedKey(p: Promise<unknown> | (() => unknown)): Promise<string> {
  try {
    await (typeof p === "function" ? p() : p);
  } catch (e) {
    expect(e).toBeInstanceOf(RulesError);
    return (e as RulesError).key;
  }
  throw new Error("did not reject");
}

/** Asserts that `fn` throws the RulesError `key` ("Negative" or "AVENTURE.Error.Negative"). */
export function throwsKey(fn: () => unknown, key: string): void {
  expect(errorKey(fn)).toBe(full(key));
}

/** Asserts that the promise rejects with the RulesError `key`. */
export async function rejectsKey(p: Promise<unknown>, key: string): Promise<void> {
  expect(await rejectedKey(p)).toBe(full(key));
}

/** The RulesError that `fn` throws (fails the test if it throws anything else, or nothing). */
export function rulesError(fn: () => unknown): RulesError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(RulesError);
    return e as RulesError;
  }
  throw new Error("did not throw");
}

/**
 * Asserts the whole RulesError `fn` throws: its key and all of its data (the argument's name, its value, its bounds or
 * the allowed values), what the user reads in the localized message.
 */
export function throwsError(fn: () => unknown, key: string, data: Record<string, string | number>): void {
  const e = rulesError(fn);
  expect({ key: e.key, data: e.data }).toEqual({ key: full(key), data });
}
