/** The Dice of the rules engine, backed by Foundry's Roll: every roll is kept so it can be shown in chat. */
import type { Dice } from "../rules/dice.js";

export interface FoundryDice extends Dice {
  /** The evaluated Roll objects, in order, to attach to a chat message (Dice So Nice animates them). */
  readonly rolls: Roll[];
}

export function foundryDice(): FoundryDice {
  const rolls: Roll[] = [];
  return {
    rolls,
    async roll(count, faces) {
      const roll = new Roll(`${count}d${faces}`);
      await roll.evaluate();
      rolls.push(roll);
      const term = roll.dice[0];
      if (!term) return [];
      return term.results.filter((r) => r.active !== false).map((r) => r.result);
    },
  };
}
