/**
 * Side initiative in the combat tracker (docs/rules.md §7.3; pmt and ose, or any ruleset with the "side initiative"
 * setting): the state a combat carries and what every client reads from it. Rolling happens in side-ops.ts, once per
 * (combat, round), on the active GM.
 *
 * Every state read here comes from the combat's own flags, which only GMs may write (a player may change only the
 * round and turn of a combat, and only while owning the current combatant); it is still validated field by field.
 */
import { featureActive } from "../core/features.js";
import { MODULE_ID } from "../core/constants.js";
import { getSetting } from "../core/settings.js";
import { isActiveGM } from "../core/gm.js";
import { valueMap } from "../core/flag-model.js";
import { adapterFor, setOwnCondition } from "../actors/api.js";
import { isSideId, sideOfDisposition, SIDE_IDS, type SideId } from "../core/sides.js";
import type { CombatLike, CombatantLike, EncounterCombatState, SideRoundState } from "./types.js";
import { confusedIds } from "./polaris-confusion.js";
import { combatStartTime, EncounterStateModel, readSideOp, SidesModel, StartedTurnsModel } from "./flags.js";

/**
 * Side initiative replaces individual initiative: the game has it or borrows it (docs/rules.md §0), or the
 * "sideInitiative" setting.
 */
export function sideInitiativeActive(): boolean {
  return featureActive("sideInitiative") || getSetting("sideInitiative");
}

/** Polaris action phases: the game has them or borrows them (docs/rules.md §0), unless side initiative is on. */
export function polarisPhasesActive(): boolean {
  return featureActive("polaris") && !sideInitiativeActive();
}

/**
 * The sides of a combat's combatants are GM state (docs/security.md): `flags.aventure.sideOf` on the COMBAT, combatant
 * id → side, which only GMs may write (a player may change only the round and turn of a combat). The active GM records
 * a combatant's side when it joins (its token's disposition then; the side picked in the encounter window for an
 * encounter's combat) and before any side roll. A combatant's own flags and its token's disposition — which their
 * owner may write — never change a recorded side. Aventure 0.1.x kept the side on the combatant
 * (`flags.aventure.side`):
 * that flag is never read (migrateCombatSides dropped them once: nothing proves who wrote them).
 */
const SideOfMap = valueMap({
  name: "AventureSideOf",
  value: (f) => new f.StringField({ required: true, blank: false, choices: [...SIDE_IDS] }),
});

/** The side a GM recorded for a combatant, if any. */
export function recordedSide(combat: CombatLike | null | undefined, id: string | null | undefined): SideId | null {
  const v = SideOfMap.get(combat?.getFlag(MODULE_ID, "sideOf"), id);
  return isSideId(v) ? v : null;
}

/**
 * A combatant's side: the one a GM recorded on its combat; before that (a combatant that just joined), its token's
 * disposition, which is what the active GM will record.
 */
export function combatantSide(c: CombatantLike, combat: CombatLike | null | undefined = c.parent): SideId {
  return recordedSide(combat, c.id) ?? sideOfDisposition(c.token?.disposition);
}

/**
 * Records (active GM) the side of every combatant of `combat` that has none yet: `picked` when given, else its token's
 * disposition now. One combat update, nothing when every side is recorded. A recorded side is never changed here.
 */
export async function recordSides(combat: CombatLike, picked: Readonly<Record<string, SideId>> = {}): Promise<void> {
  if (!isActiveGM()) return;
  const update: Record<string, SideId> = {};
  for (const c of combat.combatants.contents) {
    if (!c.id || recordedSide(combat, c.id)) continue;
    update[c.id] = picked[c.id] ?? sideOfDisposition(c.token?.disposition);
  }
  if (Object.keys(update).length) await combat.update({ flags: { [MODULE_ID]: { sideOf: update } } });
}

/** The encounter's state on a combat, read through its model (null when absent or malformed). */
export function encounterState(combat: CombatLike): EncounterCombatState | null {
  return EncounterStateModel.read(combat.getFlag(MODULE_ID, "encounter"));
}

/**
 * The side initiative state of a combat, read through its model (flags.ts: a state of version 1 is migrated as a
 * round already rolled); its operation checked here.
 */
export function sideRoundState(combat: CombatLike): SideRoundState | null {
  const s = SidesModel.read(combat.getFlag(MODULE_ID, "sides"));
  return s ? { ...s, values: s.values as [SideId, number][], op: readSideOp(s.op) } : null;
}

/** The sides that cannot act in `round`: the surprised sides in round 1. */
export function skippedSides(combat: CombatLike, round: number = combat.round): SideId[] {
  if (round !== 1) return [];
  const enc = encounterState(combat);
  if (!enc) return [];
  // Surprised and not acting in round 1 (ose, everyone surprised: confusion, everyone acts).
  return enc.surprised.filter((s) => !enc.firstRound.includes(s));
}

export function isSkipped(combat: CombatLike, c: CombatantLike, round: number = combat.round): boolean {
  const skipped = skippedSides(combat, round);
  return skipped.length > 0 && skipped.includes(combatantSide(c, combat));
}

/** The sides with at least one combatant, in SIDE_IDS order. */
export function presentSides(combat: CombatLike): SideId[] {
  const present = new Set(combat.combatants.contents.map((c) => combatantSide(c, combat)));
  return SIDE_IDS.filter((s) => present.has(s));
}

/** Core's "defeated": the combatant's flag or the actor's defeated status (Combatant#isDefeated). */
export function defeated(c: CombatantLike): boolean {
  return c.isDefeated ?? c.defeated ?? false;
}

/** The Polaris combatants confused in `round` (a catastrophe on changing intention): they do nothing this round. */
export function confusedInRound(combat: CombatLike, round: number = combat.round): string[] {
  return polarisPhasesActive() ? confusedIds(combat, round) : [];
}

/**
 * The index in `combat.turns` of the first combatant after `after` that may act in `round` (not surprised in round 1;
 * not confused (Polaris); not defeated when core's "skip defeated" setting is on), or null.
 */
export function nextActingIndex(combat: CombatLike, after: number, round: number = combat.round): number | null {
  const skipDefeated = combat.settings?.skipDefeated === true;
  const confused = confusedInRound(combat, round);
  const turns = combat.turns;
  for (let i = Math.max(after + 1, 0); i < turns.length; i++) {
    const c = turns[i]!;
    if (isSkipped(combat, c, round) || (skipDefeated && defeated(c)) || (!!c.id && confused.includes(c.id))) continue;
    return i;
  }
  return null;
}

/**
 * Whether ending the current turn ends the round in the turn order as it stands: no later combatant would act this
 * round, as core's nextTurn and Aventure's go (its "skip defeated" setting, surprised sides in round 1, Polaris
 * confusion). The turn order follows initiatives a player may write: never proof that a round is over (see
 * everyTurnStarted).
 */
export function currentTurnEndsRound(combat: CombatLike): boolean {
  return combat.started && combat.turn !== null && nextActingIndex(combat, combat.turn) === null;
}

/**
 * The turns that started in a round (flags.aventure.turns `{round, ids}`), GM state written by the active GM alone
 * (side-ops.ts recordTurnStart): the combatant who had the first turn of the round, then each one the turn passed to
 * as core's nextTurn passes it. Read through its model (flags.ts); null when absent or malformed.
 */
export function startedTurns(combat: CombatLike): { round: number; ids: string[] } | null {
  return StartedTurnsModel.read(combat.getFlag(MODULE_ID, "turns"));
}

/**
 * Whether a combatant may act in `round`: not surprised in round 1, not confused (Polaris), not defeated when core
 * skips defeated.
 */
export function mayAct(combat: CombatLike, c: CombatantLike, round: number = combat.round): boolean {
  if (isSkipped(combat, c, round)) return false;
  if (combat.settings?.skipDefeated === true && defeated(c)) return false;
  return !(c.id && confusedInRound(combat, round).includes(c.id));
}

/**
 * Whether every combatant that may act in the combat's current round has had its turn started (startedTurns). Only
 * then may a player — who may end their own turn, never the round — make the active GM start the next round
 * (docs/security.md). Initiatives, which a player may write on their own combatant, play no part.
 */
export function everyTurnStarted(combat: CombatLike): boolean {
  const state = startedTurns(combat);
  if (!combat.started || !state || state.round !== combat.round) return false;
  return combat.combatants.contents.every((c) => !mayAct(combat, c) || (!!c.id && state.ids.includes(c.id)));
}

/** The value of a side in the current round's state, if it rolled. */
export function sideValue(state: SideRoundState | null, side: SideId): number | undefined {
  return state?.values.find(([s]) => s === side)?.[1];
}

/** Groups sides by equal value, highest first (the acting order the tracker shows). */
export function groupsOf(values: readonly [SideId, number][]): SideId[][] {
  const sorted = [...values].sort((a, b) => b[1] - a[1] || SIDE_IDS.indexOf(a[0]) - SIDE_IDS.indexOf(b[0]));
  const groups: SideId[][] = [];
  let last: number | null = null;
  for (const [s, v] of sorted) {
    if (last !== null && v === last) groups.at(-1)!.push(s);
    else groups.push([s]);
    last = v;
  }
  return groups;
}

/** The sides whose every combatant is hidden from the players (a GM's ambush not yet revealed). */
export function hiddenSides(combat: CombatLike): SideId[] {
  return presentSides(combat).filter((s) =>
    combat.combatants.contents.filter((c) => combatantSide(c, combat) === s).every((c) => c.hidden === true),
  );
}

/**
 * After initiatives were written mid-round with `turnEvents: false` (core then leaves the turn index where it
 * was, so the turn could pass to whoever now sits there): the combatant who had the turn keeps it, as
 * core's own rollInitiative does. GMs only (a player's Polaris roll button leaves the turn alone).
 */
export async function keepTurn(combat: CombatLike, currentId: string | null | undefined): Promise<void> {
  if (!combat.started || !currentId || !game.user.isGM) return;
  const idx = combat.turns.findIndex((c) => c.id === currentId);
  if (idx >= 0 && idx !== combat.turn) await combat.update({ turn: idx }, { turnEvents: false });
}

export const currentCombatantId = (combat: CombatLike): string | null =>
  combat.turn === null ? null : (combat.turns[combat.turn]?.id ?? null);

/** Removes the surprised marker Aventure put on the surprised sides' actors (only Aventure's own). */
export async function clearSurpriseMarkers(combat: CombatLike, enc: EncounterCombatState): Promise<void> {
  const adapter = adapterFor();
  for (const c of combat.combatants.contents) {
    if (!c.actor || !enc.surprised.includes(combatantSide(c, combat))) continue;
    await setOwnCondition(adapter, c.actor, "surprised", false);
  }
}

/**
 * After a round started (Combat#_onStartRound, active GM): the surprised markers come off from round 2 on (only
 * Aventure's own), and the combat's start time is noted in round 1 (for the end-of-encounter turn). Both are
 * idempotent, so the recovery after a reload simply runs them again.
 */
export async function onRoundStarted(combat: CombatLike, round: number): Promise<void> {
  if (!isActiveGM()) return;
  const enc = encounterState(combat);
  const combatUpdate: Record<string, unknown> = {};
  if (enc?.marked && round >= 2) {
    await clearSurpriseMarkers(combat, enc);
    combatUpdate[`flags.${MODULE_ID}.encounter.marked`] = false;
  }
  if (round >= 1 && combatStartTime(combat) === null) {
    combatUpdate[`flags.${MODULE_ID}.startTime`] = game.time.worldTime;
  }
  if (Object.keys(combatUpdate).length) await combat.update(combatUpdate);
}

/** Sort with side initiative: value descending (unrolled last), then side, so tied sides stay together. */
export function compareSides(a: CombatantLike, b: CombatantLike): number {
  const ia = typeof a.initiative === "number" ? a.initiative : -Infinity;
  const ib = typeof b.initiative === "number" ? b.initiative : -Infinity;
  if (ia !== ib) return ib - ia;
  return SIDE_IDS.indexOf(combatantSide(a)) - SIDE_IDS.indexOf(combatantSide(b));
}
