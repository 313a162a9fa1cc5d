/**
 * The turn a combat should land on when Aventure asks core to start it or to move to the next turn while some
 * combatants may not act (surprised sides in round 1). Core's startCombat and nextTurn fire `combatStart` /
 * `combatTurn` on the initiating client with an `updateData` that "can be mutated"
 * (https://foundryvtt.com/api/v13/functions/hookEvents.combatTurn.html, hookEvents.combatStart.html): Aventure
 * lets core compute everything else (its update options — v13 advanceTime, v14 worldTime — its "skip defeated"
 * setting, its hooks for other modules) and only sets the turn, from its own handler of those hooks.
 */
const targets = new WeakMap<object, number>();

/** Sets (a number) or clears (null) the turn the next combatStart / combatTurn of `combat` on this client lands on. */
export function setTurnTarget(combat: object, turn: number | null): void {
  if (turn === null) targets.delete(combat);
  else targets.set(combat, turn);
}

/** combatStart / combatTurn handler (initiating client): applies the pending target, once. */
export function onTurnHook(combat: object, updateData: { turn?: number | null } | undefined): void {
  const turn = targets.get(combat);
  if (turn === undefined || !updateData || typeof updateData !== "object") return;
  targets.delete(combat);
  updateData.turn = turn;
}
