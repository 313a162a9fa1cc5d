/**
 * Sides of an encounter (docs/rules.md §7.2, §7.3): tokens grouped by disposition — friendly, neutral,
 * hostile; secret tokens join the hostile side (their apparent side) — and the surprise roll per side.
 * Reusable by other features (pursuit): no Foundry globals here apart from the Dice passed in.
 */
import type { Dice } from "../rules/dice.js";
import { isSurprised, surprisedSides, type SidesSurpriseOutcome } from "../rules/encounter.js";
import type { RulesetId } from "../rules/rulesets.js";

export const SIDE_IDS = ["friendly", "neutral", "hostile"] as const;
export type SideId = (typeof SIDE_IDS)[number];

/** CONST.TOKEN_DISPOSITIONS (stable since v10): SECRET -2, HOSTILE -1, NEUTRAL 0, FRIENDLY 1. */
export const DISPOSITION = { secret: -2, hostile: -1, neutral: 0, friendly: 1 } as const;

export function isSideId(value: unknown): value is SideId {
  return typeof value === "string" && (SIDE_IDS as readonly string[]).includes(value);
}

/** The side of a token disposition: friendly 1, neutral 0, hostile -1, and secret (-2) counts as hostile. */
export function sideOfDisposition(disposition: number | null | undefined): SideId {
  if (disposition === DISPOSITION.friendly) return "friendly";
  if (disposition === DISPOSITION.neutral) return "neutral";
  return "hostile";
}

/** The minimal token surface the sides need (a TokenDocument satisfies it). */
export interface SideToken {
  id: string | null;
  name: string;
  disposition: number;
}

/** The side a token is on: the `picked` side when given, otherwise its disposition's. */
export function sideOfToken(token: SideToken, picked?: Readonly<Record<string, SideId>>): SideId {
  const p = token.id ? picked?.[token.id] : undefined;
  return p ?? sideOfDisposition(token.disposition);
}

/** One side with its tokens. */
export interface Side<T extends SideToken = SideToken> {
  id: SideId;
  tokens: T[];
}

/**
 * Groups tokens into sides (in SIDE_IDS order; empty sides left out). `picked` moves a token (by id) to
 * another side than its disposition's.
 */
export function tokensToSides<T extends SideToken>(
  tokens: readonly T[],
  picked?: Readonly<Record<string, SideId>>,
): Side<T>[] {
  const by = new Map<SideId, T[]>(SIDE_IDS.map((s) => [s, []]));
  const seen = new Set<string>();
  for (const t of tokens) {
    if (t.id) {
      if (seen.has(t.id)) continue;
      seen.add(t.id);
    }
    by.get(sideOfToken(t, picked))!.push(t);
  }
  return SIDE_IDS.filter((s) => by.get(s)!.length > 0).map((id) => ({ id, tokens: by.get(id)! }));
}

/** Input of `rollSurprise`: one entry per side; an aware side does not roll. */
export interface SurpriseInput {
  id: string;
  aware: boolean;
}

export interface SurpriseRolls {
  /** Side id → the d6 rolled, or null for a side that was already aware (it does not roll). */
  rolls: Record<string, number | null>;
  /** docs/rules.md §7.2 applied to these sides (surprised, alert, first round...). */
  outcome: SidesSurpriseOutcome;
}

/**
 * §7.2: each side that is not already aware rolls 1d6 (1–2 = surprised), one roll per side in input
 * order (reason "surprise"). Throws the rules' errors (EmptyParty, duplicate ids...).
 */
export async function rollSurprise(sides: readonly SurpriseInput[], rs: RulesetId, dice: Dice): Promise<SurpriseRolls> {
  const rolls: Record<string, number | null> = {};
  const flags: { id: string; surprised: boolean }[] = [];
  for (const s of sides) {
    if (s.aware) {
      rolls[s.id] = null;
      flags.push({ id: s.id, surprised: false });
      continue;
    }
    const [d6] = await dice.roll(1, 6, "surprise");
    rolls[s.id] = d6!;
    flags.push({ id: s.id, surprised: isSurprised(d6!) });
  }
  return { rolls, outcome: surprisedSides(flags, rs) };
}
