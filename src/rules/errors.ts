import { show } from "./text.js";

/**
 * Errors raised by the rules engine. Each carries a localization key (under AVENTURE.Error.*) and the
 * data to format it, so the Foundry glue can show a message in the user's language.
 */
export type RulesErrorKey =
  | "AVENTURE.Error.NotANumber"
  | "AVENTURE.Error.Negative"
  | "AVENTURE.Error.OutOfRange"
  | "AVENTURE.Error.NotAnInteger"
  | "AVENTURE.Error.UnknownValue"
  | "AVENTURE.Error.UnknownRuleset"
  | "AVENTURE.Error.EmptyParty"
  | "AVENTURE.Error.DiceExhausted"
  | "AVENTURE.Error.BadDie"
  | "AVENTURE.Error.Missing";

/** The data as JSON (a record always writes as a string), or its tag when JSON cannot write it (a BigInt inside). */
function json(data: Record<string, unknown>): string {
  try {
    return JSON.stringify(data);
  } catch {
    return show(data);
  }
}

export class RulesError extends Error {
  readonly key: RulesErrorKey;
  readonly data: Record<string, string | number>;
  constructor(key: RulesErrorKey, data: Record<string, string | number> = {}) {
    super(`${show(key)} ${json(data)}`);
    this.name = "RulesError";
    this.key = key;
    this.data = data;
  }
}

export function isRulesError(e: unknown): e is RulesError {
  return e instanceof RulesError;
}
