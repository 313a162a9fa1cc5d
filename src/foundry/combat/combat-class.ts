/**
 * Aventure's Combat subclass, built on whatever CONFIG.Combat.documentClass the game system set (dnd5e,
 * OSE... keep their behaviour): round start (side initiative, Polaris round reset, surprise), the tracker's
 * roll buttons (sides or Polaris scores), the order of the turns and the round-1 skip of surprised sides.
 * Every override falls back to the system's behaviour when its mode is off.
 */
import { askGM } from "../gm.js";
import { prepareSideRound } from "./round.js";
import { guarded } from "../i18n.js";
import type { CombatLike, CombatantLike } from "./types.js";
import {
  compareSides,
  isSkipped,
  polarisPhasesActive,
  onRoundStarted,
  rollSidesFor,
  sideInitiativeActive,
  skippedSides,
} from "./side-initiative.js";
import { comparePolarisCombatants, setPolarisInitiative, startPolarisRound } from "../polaris/phases.js";

/** The Combat methods the subclass overrides or calls (the real class has many more). */
export interface CombatBase extends CombatLike {
  _onStartRound(context: { round: number; turn?: number; skipped?: boolean }): Promise<void>;
  _sortCombatants(a: CombatantLike, b: CombatantLike): number;
  rollInitiative(ids: string | string[], options?: Record<string, unknown>): Promise<unknown>;
  nextTurn(): Promise<unknown>;
  startCombat(): Promise<unknown>;
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CombatCtor = new (...args: any[]) => CombatBase;

/** The combat the comparator is sorting for (core calls _sortCombatants unbound; combatants know it). */
function parentOf(c: CombatantLike): CombatLike | null {
  return (c as unknown as { parent?: CombatLike | null }).parent ?? null;
}

export function aventureCombatClass(Base: CombatCtor): CombatCtor {
  class AventureCombat extends Base {
    override async _onStartRound(context: { round: number; turn?: number; skipped?: boolean }): Promise<void> {
      await super._onStartRound(context);
      const round = context?.round ?? this.round;
      await guarded(async () => {
        if (polarisPhasesActive()) await startPolarisRound(this, round);
        await onRoundStarted(this, round);
      });
    }

    /** Side initiative is rolled before round 1 starts, so the round begins with the first side to act. */
    override async startCombat(): Promise<unknown> {
      const prepared = await guarded(() => prepareSideRound(this, 1));
      const out = await super.startCombat();
      if (prepared?.nobodyActs) await this.nextRound(); // pmt, every side surprised: nobody acts in round 1
      return out;
    }

    /** Side initiative for the next round is rolled before the round changes (active GM, via a query if need be). */
    override async nextRound(): Promise<unknown> {
      const prepared = await guarded(() => prepareSideRound(this, this.round + 1));
      const out = await super.nextRound();
      if (prepared?.nobodyActs) return this.nextRound();
      return out;
    }

    // Core calls this unbound (array sort): it must not use `this`.
    override _sortCombatants(a: CombatantLike, b: CombatantLike): number {
      if (sideInitiativeActive()) {
        const r = compareSides(a, b);
        if (r !== 0) return r;
      } else if (polarisPhasesActive()) {
        const r = comparePolarisCombatants(a, b, parentOf(a)?.round ?? 0);
        if (r !== 0) return r;
      }
      return Base.prototype._sortCombatants.call(parentOf(a) ?? {}, a, b);
    }

    override async rollInitiative(ids: string | string[], options?: Record<string, unknown>): Promise<unknown> {
      const list = typeof ids === "string" ? [ids] : [...ids];
      if (sideInitiativeActive()) {
        await guarded(() =>
          game.user.isGM && game.users.activeGM?.isSelf
            ? rollSidesFor(this, list)
            : askGM("rollSides", { combatId: this.id, combatantIds: list }),
        );
        return this;
      }
      if (polarisPhasesActive()) {
        await guarded(() => setPolarisInitiative(this, list));
        return this;
      }
      return super.rollInitiative(ids, options);
    }

    /** Round 1: the surprised sides' turns are skipped; past the last one who may act, the next round. */
    override async nextTurn(): Promise<unknown> {
      if (skippedSides(this).length === 0) return super.nextTurn();
      for (let i = (this.turn ?? -1) + 1; i < this.turns.length; i++) {
        const c = this.turns[i]!;
        if (isSkipped(this, c) || c.defeated) continue;
        // As core's nextTurn: the combatTurn hook (initiating client, data and options mutable), then the update.
        const updateData = { round: this.round, turn: i };
        const updateOptions = { direction: 1 };
        Hooks.callAll("combatTurn", this as never, updateData, updateOptions as never);
        return this.update(updateData, updateOptions);
      }
      return this.nextRound();
    }
  }
  return AventureCombat;
}
