/**
 * The state of a creature that holds its breath (RULES.md §4.2): `flags.aventure.breath` on its token, written only by
 * the active GM, with ABSOLUTE world-time deadlines (when the air runs out, when it drops to 0 HP), so that it survives
 * a reload and every client reads the same thing. The token's owner can write its flags too (docs/security.md, "What
 * Aventure cannot prevent"): the flag is checked field by field, and its deadlines must be the ones the rules give for
 * its start, Constitution modifier and round.
 */
import { MODULE_ID } from "../../constants.js";
import { breathState, suffocationTimeline, type BreathState } from "../../rules/suffocation.js";
import type { ActorLike } from "../adapters/adapter.js";

export interface BreathFlag {
  v: 1;
  /** One id per held breath: its drop card names it (one drop per held breath). */
  id: string;
  /** World time when it started holding its breath (seconds). */
  start: number;
  conMod: number;
  /** The ruleset's round when it started (seconds). */
  roundSeconds: number;
  /** World time when the air runs out. */
  airUntil: number;
  /** World time when it drops to 0 HP (the start of the round after the last one survived). */
  dropAt: number;
  /** The drop was applied (its card says so). */
  dropped: boolean;
}

export const BREATH_ID = /^[A-Za-z0-9]{8,32}$/;
export const DOC_ID = /^[A-Za-z0-9]{1,64}$/;
/** World times beyond this are not believed (Foundry keeps seconds; a calendar's far future is well below). */
const MAX_WORLD_TIME = 1e13;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const finite = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

/** A breath flag checked field by field, its deadlines against the rules; null when it is not one. */
export function parseBreathFlag(raw: unknown): BreathFlag | null {
  if (!isRecord(raw) || raw.v !== 1) return null;
  const { id, start, conMod, roundSeconds, airUntil, dropAt, dropped } = raw;
  if (typeof id !== "string" || !BREATH_ID.test(id) || typeof dropped !== "boolean") return null;
  if (!finite(start) || Math.abs(start) > MAX_WORLD_TIME || !finite(conMod) || !finite(roundSeconds) || !finite(airUntil) || !finite(dropAt)) return null;
  try {
    const timeline = suffocationTimeline(conMod, roundSeconds);
    if (airUntil !== start + timeline.holdSeconds || dropAt !== start + timeline.dropSeconds) return null;
  } catch {
    return null;
  }
  return { v: 1, id, start, conMod, roundSeconds, airUntil, dropAt, dropped };
}

/** The breath flag of a token document, or null when it is not holding its breath. */
export function breathFlagOf(doc: { flags?: unknown } | null | undefined): BreathFlag | null {
  const flags = doc?.flags;
  if (!isRecord(flags)) return null;
  const mine = flags[MODULE_ID];
  return isRecord(mine) ? parseBreathFlag(mine.breath) : null;
}

/** Where the creature stands at `worldTime` (the rules' breathState, from the flag's start). */
export function breathNow(flag: BreathFlag, worldTime: number): BreathState {
  return breathState(flag.conMod, flag.roundSeconds, worldTime - flag.start);
}

/** What Aventure uses of a token document (a real TokenDocument satisfies it). */
export interface BreathToken {
  id: string | null;
  name: string;
  parent: unknown;
  actor: unknown;
  flags?: unknown;
  isOwner?: boolean;
  testUserPermission(user: User, level: "OWNER" | "OBSERVER"): boolean;
  setFlag(scope: "aventure", key: "breath", value: BreathFlag): Promise<unknown>;
  unsetFlag(scope: "aventure", key: "breath"): Promise<unknown>;
}

export function isBreathToken(x: unknown): x is BreathToken {
  return (
    isRecord(x) &&
    (typeof x.id === "string" || x.id === null) &&
    typeof x.name === "string" &&
    typeof x.testUserPermission === "function" &&
    typeof x.setFlag === "function" &&
    typeof x.unsetFlag === "function"
  );
}

export function isActorLike(x: unknown): x is ActorLike {
  return isRecord(x) && typeof x.update === "function" && typeof x.toggleStatusEffect === "function" && x.statuses instanceof Set && typeof x.getFlag === "function";
}

/** A token on a scene, read from the world (no canvas needed). */
export function sceneToken(sceneId: string, tokenId: string): BreathToken | null {
  const token: unknown = game.scenes?.get(sceneId)?.tokens.get(tokenId);
  return isBreathToken(token) ? token : null;
}

/** The scene id of a token document. */
export function sceneIdOf(token: { parent: unknown }): string | null {
  const parent = token.parent;
  return isRecord(parent) && typeof parent.id === "string" ? parent.id : null;
}

/** Every token of every scene that holds its breath (or is down for want of air), with its flag. */
export function breathingTokens(): { sceneId: string; token: BreathToken; flag: BreathFlag }[] {
  const out: { sceneId: string; token: BreathToken; flag: BreathFlag }[] = [];
  for (const scene of game.scenes ?? []) {
    const sceneId = scene.id;
    if (!sceneId) continue;
    for (const token of scene.tokens as Iterable<unknown>) {
      if (!isBreathToken(token)) continue;
      const flag = breathFlagOf(token);
      if (flag) out.push({ sceneId, token, flag });
    }
  }
  return out;
}
