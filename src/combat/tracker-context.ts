/**
 * Pure template contexts for the combat glue: the side-initiative chat card, the side headers and the
 * Polaris phase headers drawn into the combat tracker. No Foundry globals (tested and screenshotted as is).
 */
import type { SideInitiativeRoll } from "../rules/encounter.js";
import type { SideId } from "../core/sides.js";

export type Localize = (key: string, data?: Record<string, string | number>) => string;

export interface SideRoundCardInput {
  round: number;
  /** Every roll made (pass 0 = the first roll, then rerolls of tied sides). */
  rolls: readonly SideInitiativeRoll[];
  /** The acting order. */
  groups: readonly (readonly SideId[])[];
  /** Sides that cannot act this round (surprised in round 1). */
  skipped: readonly SideId[];
  fellBack: boolean;
  /** Rolled with the tracker's buttons rather than at the start of the round. */
  partial: boolean;
  /** Sides left out of this card (every combatant hidden from the players): their rolls go to the GMs only. */
  hide?: readonly SideId[];
  /** Posted by the active GM while finishing a roll interrupted by a reload (the dice are not attached). */
  resumed?: boolean;
}

export function sideLabel(side: string, l: Localize): string {
  return l(`AVENTURE.Side.${side}`);
}

/** The context of templates/encounter/side-round.hbs. */
export function sideRoundCardContext(input: SideRoundCardInput, l: Localize) {
  const hide = new Set<string>(input.hide ?? []);
  const first = input.rolls[0]?.rolls ?? {};
  const sides = Object.entries(first)
    .filter(([id]) => !hide.has(id))
    .map(([id, roll]) => ({
      id,
      label: sideLabel(id, l),
      roll,
      rerolls: input.rolls
        .slice(1)
        .filter((r) => id in r.rolls)
        .map((r) => r.rolls[id]!),
    }));
  const order = input.groups
    .map((g) => g.filter((s) => !hide.has(s)))
    .filter((g) => g.length > 0)
    .map((g, i) => ({
      rank: i + 1,
      label: g.map((s) => sideLabel(s, l)).join(", "),
      simultaneous: g.length > 1,
    }));
  return {
    title: l("AVENTURE.SideInit.roundTitle", { round: input.round }),
    sides,
    order,
    alone: input.rolls.length === 0 && input.groups.length === 1,
    skipped: input.skipped
      .filter((s) => !hide.has(s))
      .map((s) => sideLabel(s, l))
      .join(", "),
    nobody: input.groups.length === 0 && input.skipped.length > 0,
    fellBack: input.fellBack,
    partial: input.partial,
    resumed: input.resumed === true,
    /** Some side was rerolled: the card says what "→" means. */
    rerolled: sides.some((x) => x.rerolls.length > 0),
  };
}

export interface SideRow {
  id: string;
  side: SideId;
  initiative: number | null;
  /** Surprised: cannot act this round. */
  skipped: boolean;
}

/** The context of templates/encounter/tracker-sides.hbs: one header before each run of a side's rows. */
export function sideHeadersContext(rows: readonly SideRow[], l: Localize) {
  const valueCount = new Map<number, Set<SideId>>();
  for (const r of rows) {
    if (r.initiative === null) continue;
    const s = valueCount.get(r.initiative) ?? new Set<SideId>();
    s.add(r.side);
    valueCount.set(r.initiative, s);
  }
  const headers: {
    before: string;
    side: SideId;
    label: string;
    value: number | null;
    /** The value as shown ("—" when the side has not rolled). */
    display: string;
    simultaneous: boolean;
    surprised: boolean;
  }[] = [];
  let prev: SideRow | null = null;
  for (const r of rows) {
    if (!prev || prev.side !== r.side || prev.initiative !== r.initiative) {
      headers.push({
        before: r.id,
        side: r.side,
        label: sideLabel(r.side, l),
        value: r.initiative === null ? null : Math.floor(r.initiative),
        display: r.initiative === null ? "—" : String(Math.floor(r.initiative)),
        simultaneous: r.initiative !== null && (valueCount.get(r.initiative)?.size ?? 0) > 1,
        surprised: r.skipped,
      });
    }
    prev = r;
  }
  return { headers };
}

export interface PhaseRow {
  id: string;
  /** The phase the combatant acts at, null without initiative. */
  phase: number | null;
  hasten: boolean;
  delayTo: number | null;
  /** Confused this round (a catastrophe on changing intention): does nothing, skipped. */
  confused?: boolean;
}

/** The context of templates/polaris/tracker-phases.hbs: "Phase N" headers and hasten/delay/confused badges. */
export function phaseHeadersContext(rows: readonly PhaseRow[], l: Localize) {
  const headers: { before: string; phase: number | null; label: string }[] = [];
  let prev: PhaseRow | null = null;
  for (const r of rows) {
    if (!prev || prev.phase !== r.phase) {
      headers.push({
        before: r.id,
        phase: r.phase,
        label: r.phase === null ? l("AVENTURE.Polaris.noPhase") : l("AVENTURE.Polaris.phase", { phase: r.phase }),
      });
    }
    prev = r;
  }
  const badges = rows
    .filter((r) => r.hasten || r.delayTo !== null || r.confused === true)
    .map((r) => ({
      for: r.id,
      hasten: r.hasten,
      delayed: r.delayTo !== null,
      delayLabel: r.delayTo !== null ? l("AVENTURE.Polaris.delayedTo", { phase: r.delayTo }) : "",
      confused: r.confused === true,
    }));
  return { headers, badges };
}
