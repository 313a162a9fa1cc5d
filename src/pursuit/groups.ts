/**
 * The two groups of a flight, prefilled from the selected tokens by disposition: the party (friendly
 * tokens) and its opponents (hostile, neutral and secret tokens). Which of the two flees is chosen in the
 * dialog. Pure (no Foundry globals): the token reading is passed in.
 *
 * Built on the encounter feature's sides (src/core/sides.ts: friendly, neutral, hostile, secret
 * counting as hostile): a flight has exactly two groups, so the friendly side is the party and the
 * neutral and hostile sides together are its opponents.
 */
import { groupSpeed } from "../rules/pursuit.js";
import { sideOfDisposition } from "../core/sides.js";

export const PURSUIT_SIDES = ["party", "opponents"] as const;
export type PursuitSide = (typeof PURSUIT_SIDES)[number];

/** Friendly tokens form the party; every other disposition (neutral, hostile, secret) the opponents. */
export function pursuitSideOf(disposition: number | null | undefined): PursuitSide {
  return sideOfDisposition(disposition) === "friendly" ? "party" : "opponents";
}

export function otherSide(side: PursuitSide): PursuitSide {
  return side === "party" ? "opponents" : "party";
}

/** What the dialog needs of a token. */
export interface PursuitToken {
  id: string;
  name: string;
  disposition: number;
  /** Walking speed in metres per round from the adapter, or null when unknown. */
  speed: number | null;
}

export interface GroupDraft {
  tokens: { id: string; name: string; speed: number | null }[];
  /** Number of members (editable in the dialog: hirelings or monsters off the map count too). */
  count: number;
  /** The slowest known speed (metres per round), or null when no member's speed is known. */
  speed: number | null;
}

/** Groups tokens (duplicates by id ignored) into the party and the opponents. */
export function groupTokens(tokens: readonly PursuitToken[]): Record<PursuitSide, GroupDraft> {
  const out: Record<PursuitSide, GroupDraft> = {
    party: { tokens: [], count: 0, speed: null },
    opponents: { tokens: [], count: 0, speed: null },
  };
  const seen = new Set<string>();
  for (const t of tokens) {
    if (seen.has(t.id)) continue;
    seen.add(t.id);
    out[pursuitSideOf(t.disposition)].tokens.push({ id: t.id, name: t.name, speed: t.speed });
  }
  for (const side of PURSUIT_SIDES) {
    const g = out[side];
    g.count = g.tokens.length;
    const known = g.tokens.map((t) => t.speed).filter((s): s is number => s !== null);
    g.speed = known.length ? groupSpeed(known) : null;
  }
  return out;
}
