/**
 * Polaris action phases in the combat tracker (docs/rules.md §9.2): a combatant's initiative is its initiative
 * score (a Polaris character's own, docs/rules.md §9.3; else the adapter's data path; or typed in the tracker); the
 * tracker orders by phase then Réaction
 * (comparePolaris); Hasten (+3 this round) and Delay (a later phase) are per-round combatant flags that
 * stop counting, and are cleared, at the next round; so does a combatant's confusion (intention.ts).
 */
import { MODULE_ID } from "../core/constants.js";
import { deletion } from "../core/compat.js";
import { comparePolaris, polarisActingPhase, type PolarisCombatant } from "../rules/polaris.js";
import { isActiveGM } from "../core/gm.js";
import { UserError, t, notify } from "../core/i18n.js";
import type { CombatLike, CombatantLike } from "./types.js";
import { PolarisRoundModel } from "./flags.js";
import { keepTurn } from "./side-initiative.js";
import { recoverInitiativeUses } from "./side-ops.js";
import { confusionState } from "./polaris-confusion.js";
import { actorPolarisScores } from "../polaris/api.js";

/** The combatant's hasten/delay for `round` (stale flags of an earlier round count as none). */
export function polarisFlags(c: CombatantLike, round: number): { hasten: boolean; delayTo: number | null } {
  const f = PolarisRoundModel.read(c.getFlag(MODULE_ID, "polaris"));
  if (!f || f.round !== round) return { hasten: false, delayTo: null };
  return { hasten: f.hasten, delayTo: f.delayTo };
}

/**
 * The actor's Polaris stats (initiative score, Réaction: its type's own, else through the adapter), null when unknown.
 */
export function polarisStats(c: CombatantLike): { initiative: number | null; reaction: number | null } {
  return actorPolarisScores(c.actor);
}

/** The rules' view of a combatant this round, or null without an integer initiative. */
export function polarisCombatant(c: CombatantLike, round: number): PolarisCombatant | null {
  if (typeof c.initiative !== "number" || !Number.isInteger(c.initiative)) return null;
  const f = polarisFlags(c, round);
  const reaction = polarisStats(c).reaction;
  return {
    id: c.id ?? "",
    initiative: c.initiative,
    reaction: reaction !== null && Number.isInteger(reaction) ? reaction : 0,
    ...(f.hasten ? { hasten: true } : {}),
    ...(f.delayTo !== null ? { delayTo: f.delayTo } : {}),
  };
}

/** The phase a combatant acts at this round, or null (no initiative, or flags the rules refuse). */
export function actingPhase(c: CombatantLike, round: number): number | null {
  const p = polarisCombatant(c, round);
  if (!p) return null;
  try {
    return polarisActingPhase(p);
  } catch {
    return null;
  }
}

/** Tracker order: phase descending then Réaction (comparePolaris); no initiative last; 0 = keep order. */
export function comparePolarisCombatants(a: CombatantLike, b: CombatantLike, round: number): number {
  const pa = polarisCombatant(a, round);
  const pb = polarisCombatant(b, round);
  if (!pa || !pb) return (pa ? 0 : 1) - (pb ? 0 : 1);
  try {
    return comparePolaris(pa, pb);
  } catch {
    return 0;
  }
}

/**
 * Sets the initiative of `ids` from the actors' initiative score (the tracker's roll buttons: no dice in
 * Polaris). Combatants without a score are listed in a warning: type their initiative in the tracker. Returns the
 * ids of the combatants that got their first initiative.
 */
export async function setPolarisInitiative(combat: CombatLike, ids: readonly string[]): Promise<string[]> {
  const updates: Record<string, unknown>[] = [];
  const missing: string[] = [];
  const first: string[] = [];
  for (const id of ids) {
    const c = combat.combatants.get(id);
    if (!c) continue;
    const score = polarisStats(c).initiative;
    if (score === null) missing.push(c.name ?? "");
    else {
      updates.push({ _id: c.id, initiative: Math.trunc(score) });
      if (c.initiative === null) first.push(id);
    }
  }
  if (updates.length) {
    const current = combat.turn === null ? null : (combat.turns[combat.turn]?.id ?? null);
    await combat.updateEmbeddedDocuments("Combatant", updates, { turnEvents: false });
    await keepTurn(combat, current);
  }
  if (missing.length) notify("warn", t("AVENTURE.Polaris.noInitiative", { names: missing.join(", ") }));
  return first;
}

/**
 * Start of a Polaris round (active GM): last round's hasten/delay are cleared and combatants without an
 * initiative take their actor's score, in one update (dnd5e then recovers their "initiative" uses); last round's
 * confusion is removed from the combat.
 */
export async function startPolarisRound(combat: CombatLike, round: number): Promise<void> {
  if (!isActiveGM()) return;
  const updates: Record<string, unknown>[] = [];
  const first: string[] = [];
  for (const c of combat.combatants.contents) {
    const u: Record<string, unknown> = {};
    const f = PolarisRoundModel.read(c.getFlag(MODULE_ID, "polaris"));
    if (f && f.round !== round && (f.hasten || f.delayTo != null))
      u[`flags.${MODULE_ID}.polaris`] = { round, hasten: false, delayTo: null };
    if (c.initiative === null) {
      const score = polarisStats(c).initiative;
      if (score !== null) {
        u.initiative = Math.trunc(score);
        first.push(c.id!);
      }
    }
    if (Object.keys(u).length) updates.push({ _id: c.id, ...u });
  }
  if (updates.length) await combat.updateEmbeddedDocuments("Combatant", updates, { turnEvents: false });
  await recoverInitiativeUses(combat, first);
  // Last round's confusion (a catastrophe on changing intention) is over: it counted only in its round anyway.
  const confusion = confusionState(combat);
  if (confusion && confusion.round !== round) await combat.update(deletion(`flags.${MODULE_ID}.polarisConfused`));
}

type Updatable = CombatantLike & { update(data: Record<string, unknown>): Promise<unknown> };

function requireInitiative(c: CombatantLike, round: number): PolarisCombatant {
  const p = polarisCombatant(c, round);
  if (!p) throw new UserError("AVENTURE.Polaris.needInitiative", { name: c.name ?? "" });
  return p;
}

/** Hasten (+3 initiative this round) on or off. The rules check the result (and a pending delay). */
export async function setHasten(combat: CombatLike, c: Updatable, on: boolean): Promise<void> {
  const round = combat.round;
  const p = requireInitiative(c, round);
  const cur = polarisFlags(c, round);
  const next = { ...p, hasten: on } as PolarisCombatant;
  if (!on) delete next.hasten;
  polarisActingPhase(next); // throws OutOfRange when a delay no longer fits
  await c.update({ [`flags.${MODULE_ID}.polaris`]: { round, hasten: on, delayTo: cur.delayTo } });
}

/** Delay to a later phase (lower number, ≥ 1), or null to act at the normal phase. */
export async function setDelay(combat: CombatLike, c: Updatable, phase: number | null): Promise<void> {
  const round = combat.round;
  const p = requireInitiative(c, round);
  const cur = polarisFlags(c, round);
  if (phase !== null) {
    const next: PolarisCombatant = { ...p, delayTo: phase };
    polarisActingPhase(next); // OutOfRange unless 1 ≤ phase < current phase
  }
  await c.update({ [`flags.${MODULE_ID}.polaris`]: { round, hasten: cur.hasten, delayTo: phase } });
}

/** The phases a combatant may delay to this round (later = lower numbers), highest first. */
export function delayChoices(c: CombatantLike, round: number): number[] {
  const p = polarisCombatant(c, round);
  if (!p) return [];
  const { delayTo: _ignored, ...rest } = p;
  let natural: number;
  try {
    natural = polarisActingPhase(rest);
  } catch {
    return [];
  }
  return Array.from({ length: Math.max(0, natural - 1) }, (_, i) => natural - 1 - i);
}
