/**
 * Side initiative in the combat tracker (RULES.md §7.3; pmt and ose, or any ruleset with the "side
 * initiative" setting): at the start of every round each side rolls 1d6 — one chat message per round —
 * and every combatant of a side gets its side's value in one update. Surprised sides (an encounter's
 * flags) are skipped in round 1 (§7.2). Everything here runs on the active GM only.
 */
import { MODULE_ID, template } from "../../constants.js";
import {
  rollSideInitiative,
  sideInitiativeValues,
  sideTiesFor,
  type SideInitiativeRoll,
  type SideTies,
} from "../../rules/encounter.js";
import { foundryDice, type FoundryDice } from "../dice.js";
import { postCard } from "../chat.js";
import { getSetting } from "../settings.js";
import { isActiveGM } from "../gm.js";
import { t } from "../i18n.js";
import { adapterFor, setOwnCondition, type ActorLike } from "../adapters/adapter.js";
import { isSideId, sideOfDisposition, SIDE_IDS, type SideId } from "../encounter/sides.js";
import type { CombatLike, CombatantLike, EncounterCombatState, SideRoundState } from "./types.js";
import { sideRoundCardContext } from "./tracker-context.js";

/** Side initiative replaces individual initiative: ruleset pmt or ose, or the "sideInitiative" setting. */
export function sideInitiativeActive(): boolean {
  const rs = getSetting("ruleset");
  return rs === "pmt" || rs === "ose" || getSetting("sideInitiative");
}

/** Polaris action phases: ruleset polaris (unless the side initiative setting is on). */
export function polarisPhasesActive(): boolean {
  return getSetting("ruleset") === "polaris" && !getSetting("sideInitiative");
}

/** A combatant's side: the one picked in the encounter dialog (flag), otherwise its token's disposition. */
export function combatantSide(c: CombatantLike): SideId {
  const picked = c.getFlag(MODULE_ID, "side");
  return isSideId(picked) ? picked : sideOfDisposition(c.token?.disposition);
}

export function encounterState(combat: CombatLike): EncounterCombatState | null {
  const s = combat.getFlag(MODULE_ID, "encounter") as EncounterCombatState | undefined;
  return s && Array.isArray(s.surprised) ? s : null;
}

export function sideRoundState(combat: CombatLike): SideRoundState | null {
  const s = combat.getFlag(MODULE_ID, "sides") as SideRoundState | undefined;
  return s && Array.isArray(s.values) ? s : null;
}

/** The sides that cannot act in `round`: the surprised sides in round 1. */
export function skippedSides(combat: CombatLike, round: number = combat.round): SideId[] {
  if (round !== 1) return [];
  const enc = encounterState(combat);
  if (!enc) return [];
  // Surprised and not acting in round 1 (ose, everyone surprised: confusion, everyone acts).
  return enc.surprised.filter((s) => isSideId(s) && !(enc.firstRound ?? []).includes(s));
}

export function isSkipped(combat: CombatLike, c: CombatantLike, round: number = combat.round): boolean {
  const skipped = skippedSides(combat, round);
  return skipped.length > 0 && skipped.includes(combatantSide(c));
}

/** The sides with at least one combatant, in SIDE_IDS order. */
export function presentSides(combat: CombatLike): SideId[] {
  const present = new Set(combat.combatants.contents.map(combatantSide));
  return SIDE_IDS.filter((s) => present.has(s));
}

/** The index in `combat.turns` of the first combatant that may act this round, or null. */
export function firstActingIndex(combat: CombatLike): number | null {
  const i = combat.turns.findIndex((c) => !isSkipped(combat, c) && !c.defeated);
  return i < 0 ? null : i;
}

/** The value of a side in the current round's state, if it rolled. */
export function sideValue(state: SideRoundState | null, side: SideId): number | undefined {
  return state?.values.find(([s]) => s === side)?.[1];
}

interface RolledSides {
  rolls: SideInitiativeRoll[];
  groups: SideId[][];
  values: Record<string, number>;
  fellBack: boolean;
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

const currentId = (combat: CombatLike): string | null => (combat.turn === null ? null : (combat.turns[combat.turn]?.id ?? null));

/** Rolls (or, for a single side, ranks without dice) the given sides with the rules engine. */
async function rollFor(sides: SideId[], ties: SideTies, dice: FoundryDice, rollAlone = false): Promise<RolledSides> {
  if (sides.length === 0) return { rolls: [], groups: [], values: {}, fellBack: false };
  if (sides.length === 1 && !rollAlone) return { rolls: [], groups: [sides], values: sideInitiativeValues([sides]), fellBack: false };
  const r = await rollSideInitiative(sides, ties, dice);
  return { rolls: r.rolls, groups: r.groups as SideId[][], values: r.values, fellBack: r.fellBack };
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
    combat.combatants.contents.filter((c) => combatantSide(c) === s).every((c) => c.hidden === true),
  );
}

/**
 * The round's chat card, public. Sides whose every combatant is hidden are left out of it (their existence
 * stays secret): then the GMs get the whole card with the dice, and the public card has no dice attached.
 */
async function postRoundCard(
  combat: CombatLike,
  round: number,
  rolled: RolledSides,
  skipped: SideId[],
  dice: FoundryDice,
  partial: boolean,
): Promise<void> {
  const input = { round, rolls: rolled.rolls, groups: rolled.groups, skipped, fellBack: rolled.fellBack, partial };
  const hide = hiddenSides(combat);
  const flags = { sideRound: { combat: combat.id, round } };
  const card = template("encounter/side-round.hbs");
  if (!hide.length) {
    await postCard({ template: card, context: sideRoundCardContext(input, t), rolls: dice.rolls, flags });
    return;
  }
  await postCard({ template: card, context: sideRoundCardContext({ ...input, hide }, t), flags });
  await postCard({ template: card, context: sideRoundCardContext(input, t), rolls: dice.rolls, gmOnly: true, flags });
}

/** Removes the surprised marker Aventure put on the surprised side's actors (from round 2 on). */
async function clearSurpriseMarkers(combat: CombatLike, enc: EncounterCombatState): Promise<void> {
  const adapter = adapterFor();
  for (const c of combat.combatants.contents) {
    if (!c.actor || !enc.surprised.includes(combatantSide(c))) continue;
    await setOwnCondition(adapter, c.actor as unknown as ActorLike, "surprised", false);
  }
}

/**
 * Side initiative for a round that is about to start (called before the round changes, so the new round
 * begins with the first side that acts): every side that may act rolls 1d6 (one chat message), and every
 * combatant gets its side's value in ONE update (turnEvents: false). Sides surprised in round 1 do not roll.
 * Round 1: initiative rolled with the tracker's buttons before the start counts and is not rolled again.
 * Returns whether nobody may act in that round (pmt, every side surprised). Active GM only.
 */
export async function rollRound(combat: CombatLike, round: number): Promise<{ nobodyActs: boolean }> {
  if (!isActiveGM() || !sideInitiativeActive()) return { nobodyActs: false };
  const skipped = skippedSides(combat, round);
  const present = presentSides(combat);
  const acting = present.filter((s) => !skipped.includes(s));
  const nobodyActs = present.length > 0 && acting.length === 0;
  const previous = sideRoundState(combat);
  const rolledBefore = round === 1 && previous?.round === 1 && acting.every((s) => sideValue(previous, s) !== undefined);
  if (rolledBefore || present.length === 0) return { nobodyActs };
  const dice = foundryDice();
  const rolled = await rollFor(acting, sideTiesFor(getSetting("ruleset"), getSetting("sideTies")), dice);
  const updates = combat.combatants.contents.map((c) => ({ _id: c.id, initiative: rolled.values[combatantSide(c)] ?? null }));
  await combat.updateEmbeddedDocuments("Combatant", updates, { turnEvents: false });
  const state: SideRoundState = {
    round,
    values: acting.map((s) => [s, rolled.values[s]!] as [SideId, number]),
    groups: rolled.groups,
  };
  await combat.update({ [`flags.${MODULE_ID}.sides`]: state });
  await postRoundCard(combat, round, rolled, skipped, dice, false);
  return { nobodyActs };
}

/**
 * After a round started (Combat#_onStartRound, active GM): the surprised markers come off in round 2, the
 * combat's start time is noted in round 1 (for the end-of-encounter turn), and if the current combatant
 * may not act (surprised, round 1) the turn moves to the first one who may.
 */
export async function onRoundStarted(combat: CombatLike, round: number): Promise<void> {
  if (!isActiveGM()) return;
  const enc = encounterState(combat);
  const combatUpdate: Record<string, unknown> = {};
  if (enc?.marked && round >= 2) {
    await clearSurpriseMarkers(combat, enc);
    combatUpdate[`flags.${MODULE_ID}.encounter`] = { ...enc, marked: false };
  }
  if (round === 1 && combat.getFlag(MODULE_ID, "startTime") === undefined) {
    combatUpdate[`flags.${MODULE_ID}.startTime`] = game.time.worldTime;
  }
  const current = combat.turn === null ? undefined : combat.turns[combat.turn];
  if (current && isSkipped(combat, current, round)) {
    const idx = firstActingIndex(combat);
    if (idx !== null) combatUpdate.turn = idx;
  }
  if (Object.keys(combatUpdate).length) await combat.update(combatUpdate);
}

/**
 * The tracker's roll buttons with side initiative: rolls for the sides of `ids` (each side once) and gives
 * every combatant of those sides the value, in one update; the other sides keep theirs. Ties are settled
 * among the sides rolled together. Surprised sides cannot roll in round 1. Active GM only (players go
 * through the "rollSides" query).
 */
export async function rollSidesFor(combat: CombatLike, ids: readonly string[]): Promise<void> {
  const round = Math.max(combat.round, 1);
  const skipped = skippedSides(combat, round);
  const sides = SIDE_IDS.filter((s) =>
    ids.some((id) => {
      const c = combat.combatants.get(id);
      return c && combatantSide(c) === s;
    }),
  ).filter((s) => !skipped.includes(s));
  if (!sides.length) return;
  const dice = foundryDice();
  const rolled = await rollFor(sides, sideTiesFor(getSetting("ruleset"), getSetting("sideTies")), dice, true);
  const updates = combat.combatants.contents
    .filter((c) => sides.includes(combatantSide(c)))
    .map((c) => ({ _id: c.id, initiative: rolled.values[combatantSide(c)]! }));
  const current = currentId(combat);
  await combat.updateEmbeddedDocuments("Combatant", updates, { turnEvents: false });
  await keepTurn(combat, current);
  const previous = sideRoundState(combat);
  const kept = previous?.round === round ? previous.values.filter(([s]) => !sides.includes(s)) : [];
  const values = [...kept, ...sides.map((s) => [s, rolled.values[s]!] as [SideId, number])];
  const state: SideRoundState = { round, values, groups: groupsOf(values) };
  await combat.update({ [`flags.${MODULE_ID}.sides`]: state });
  await postRoundCard(combat, round, rolled, [], dice, true);
}

/** A combatant added mid-combat takes its side's value of the current round (active GM). */
export async function onCreateCombatant(combatant: CombatantLike & { parent?: CombatLike | null }): Promise<void> {
  if (!isActiveGM() || !sideInitiativeActive()) return;
  const combat = combatant.parent;
  if (!combat?.started || combatant.initiative !== null) return;
  const state = sideRoundState(combat);
  if (state?.round !== combat.round || isSkipped(combat, combatant)) return;
  const value = sideValue(state, combatantSide(combatant));
  if (value === undefined) return;
  const current = currentId(combat);
  await combat.updateEmbeddedDocuments("Combatant", [{ _id: combatant.id, initiative: value }], { turnEvents: false });
  await keepTurn(combat, current);
}

/** Sort with side initiative: value descending (unrolled last), then side, so tied sides stay together. */
export function compareSides(a: CombatantLike, b: CombatantLike): number {
  const ia = typeof a.initiative === "number" ? a.initiative : -Infinity;
  const ib = typeof b.initiative === "number" ? b.initiative : -Infinity;
  if (ia !== ib) return ib - ia;
  return SIDE_IDS.indexOf(combatantSide(a)) - SIDE_IDS.indexOf(combatantSide(b));
}
