/**
 * Hooks for other modules (docs/api.md, "Hooks for other modules"). Each is called on ONE client: the GM's who
 * executes the operation, once, when the operation completes there (a recovery that finishes an interrupted
 * operation calls it then; an operation found already done calls nothing). The `pre` hooks are called with
 * `Hooks.call` before anything is rolled or written: a handler that returns `false` cancels the operation, and the
 * user who asked is told that a module cancelled it. The others are called with `Hooks.callAll` after the last write,
 * and their return value is ignored. Handlers get plain objects; documents are passed by reference, not copied.
 */
import { UserError } from "./i18n.js";

/** What each hook's handler receives (documents as the live Foundry documents: Actor, TokenDocument, Combat). */
export interface AventureHookData {
  "aventure.preFall": { actor: unknown; token: unknown; metres: number; source: string };
  "aventure.fall": {
    actor: unknown;
    token: unknown;
    metres: number;
    damage: number;
    applied: boolean;
    prone: boolean;
    messageId: string | null;
  };
  "aventure.preTravel": { actors: unknown[]; proposerId: string | null };
  "aventure.travelApplied": { messageId: string; actorIds: string[]; secondsAdded: number };
  "aventure.travelUndone": { messageId: string; actorIds: string[] };
  "aventure.hidden": { token: unknown; stealth: number };
  "aventure.revealed": { token: unknown; event: string };
  "aventure.sideRound": { combat: unknown; round: number };
  "aventure.chaseStep": { messageId: string; chaseId: string; step: number; over: boolean };
  "aventure.explorationTurn": { turns: number; worldTime: number; messageId: string | null };
}

export type PreHook = "aventure.preFall" | "aventure.preTravel";
export type AfterHook = Exclude<keyof AventureHookData, PreHook>;

/** The hook names, as documented. */
export const EXTENSION_HOOKS: readonly (keyof AventureHookData)[] = [
  "aventure.preFall",
  "aventure.fall",
  "aventure.preTravel",
  "aventure.travelApplied",
  "aventure.travelUndone",
  "aventure.hidden",
  "aventure.revealed",
  "aventure.sideRound",
  "aventure.chaseStep",
  "aventure.explorationTurn",
];

type AnyHooks = { call(name: string, ...args: unknown[]): boolean; callAll(name: string, ...args: unknown[]): boolean };
const hooks = (): AnyHooks => Hooks as never; // cast: the pinned types know only core hook names; these are the module's own

/** Calls a `pre` hook; throws a UserError naming what was cancelled when a handler returned false. */
export function allowOrCancel<K extends PreHook>(name: K, data: AventureHookData[K]): void {
  if (hooks().call(name, data) === false) throw new UserError("AVENTURE.Hooks.cancelled", { hook: name });
}

/** Calls an "after" hook (every handler; their errors are Foundry's to report, never the operation's). */
export function announce<K extends AfterHook>(name: K, data: AventureHookData[K]): void {
  try {
    hooks().callAll(name, data);
  } catch (e) {
    console.error(`aventure | a handler of ${name} failed`, e);
  }
}
