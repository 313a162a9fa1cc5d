/**
 * Aventure's Combat subclass, built on whatever CONFIG.Combat.documentClass the game system set (dnd5e,
 * OSE... keep their behaviour): round start (side initiative, Polaris round reset, surprise), the tracker's
 * roll buttons (sides or Polaris scores), the order of the turns and the round-1 skip of surprised sides.
 * Every override falls back to the system's behaviour when its mode is off.
 * API: https://foundryvtt.com/api/v13/classes/foundry.documents.Combat.html (nextTurn, nextRound, _sortCombatants,
 * settings.skipDefeated), hookEvents.combatTurn (v13 options {advanceTime, direction}; v14 hookEvents.combatRound
 * {direction, worldTime}); dnd5e module/documents/combat.mjs (Combat5e#rollInitiative → _recoverUses).
 *
 * With side initiative the round never changes on the client that asks: startCombat and nextRound ask the active
 * GM (request "sideRound"), which rolls the round once and then moves the combat with the system's own
 * startCombat / nextRound (aventureBaseStart / aventureBaseNextRound), so core's update options (v13 advanceTime,
 * v14 worldTime), its hooks and its "skip defeated" setting apply.
 */
import { guarded } from "../core/i18n.js";
import type { CombatLike, CombatantLike } from "./types.js";
import {
  compareSides,
  confusedInRound,
  nextActingIndex,
  polarisPhasesActive,
  sideInitiativeActive,
  skippedSides,
} from "./side-initiative.js";
import { recoverInitiativeUses } from "./side-ops.js";
import { requestRollSides, requestSideRound } from "./round.js";
import { setTurnTarget } from "./turn-target.js";
import { comparePolarisCombatants, setPolarisInitiative, startPolarisRound } from "./polaris-phases.js";
import { onRoundStarted } from "./side-initiative.js";

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
  return c.parent ?? null;
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

    /** With side initiative, the active GM rolls round 1 once and starts the combat. */
    override async startCombat(): Promise<unknown> {
      if (sideInitiativeActive() && this.combatants.contents.length > 0) {
        await guarded(() => requestSideRound(this, 1));
        return this;
      }
      // Surprised sides (an encounter's) wait: round 1 starts with the first combatant who may act.
      const first = nextActingIndex(this, -1, 1);
      setTurnTarget(this, first !== null && first > 0 ? first : null);
      try {
        return await super.startCombat();
      } finally {
        setTurnTarget(this, null);
      }
    }

    /** The system's startCombat, without Aventure's (the active GM, once round 1 is rolled). */
    aventureBaseStart(): Promise<unknown> {
      return super.startCombat();
    }

    /** With side initiative, the active GM rolls the next round once and moves the combat to it. */
    override async nextRound(): Promise<unknown> {
      if (sideInitiativeActive() && this.combatants.contents.length > 0) {
        await guarded(() => requestSideRound(this, this.round + 1));
        return this;
      }
      return super.nextRound();
    }

    /** The system's nextRound, without Aventure's (the active GM, once the round is rolled). */
    aventureBaseNextRound(): Promise<unknown> {
      return super.nextRound();
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

    /**
     * The tracker's roll buttons (and rollAll, rollNPC, Actor#rollInitiative): with side initiative the active GM
     * rolls the sides of these combatants; with Polaris phases the actors' initiative scores are copied. Either way
     * dnd5e's "initiative" use recovery runs for the combatants that got their initiative, as Combat5e's does.
     */
    override async rollInitiative(ids: string | string[], options?: Record<string, unknown>): Promise<unknown> {
      const list = typeof ids === "string" ? [ids] : [...ids];
      if (sideInitiativeActive()) {
        if (list.length) await guarded(() => requestRollSides(this, list));
        return this;
      }
      if (polarisPhasesActive()) {
        await guarded(async () => recoverInitiativeUses(this, await setPolarisInitiative(this, list)));
        return this;
      }
      return super.rollInitiative(ids, options);
    }

    /**
     * Round 1 with surprised sides, or Polaris combatants confused this round: core's nextTurn runs (its hook, its
     * options, its "skip defeated" setting) and lands on the next combatant who may act; past the last one, the next
     * round.
     */
    override async nextTurn(): Promise<unknown> {
      if (skippedSides(this).length === 0 && confusedInRound(this).length === 0) return super.nextTurn();
      const next = nextActingIndex(this, this.turn ?? -1);
      if (next === null) return this.nextRound();
      setTurnTarget(this, next);
      try {
        return await super.nextTurn();
      } finally {
        setTurnTarget(this, null);
      }
    }
  }
  return AventureCombat;
}
