/**
 * Applying a journey (on the active GM only) and undoing it.
 *
 * Apply: validate the request and the sender's ownership of every actor, read the actors, plan with the rules,
 * roll every save of the plan through the system adapter (without the system's own chat message: the rolls are
 * attached to the journey card, which lists each one), roll the daily lost check (pmt, Foundry dice) when a
 * chance is given, resolve with the rules, then write: exhaustion (adapter), the fasting and thirst counters
 * (actor flags), world time, and one chat card keeping what changed.
 * Nothing is written before every roll is in; if any write fails, what was written is put back and the GM told.
 * Undo (the card's button, GM): puts back the values kept on the card, with the same rollback on failure.
 */
import { MODULE_ID, template } from "../../constants.js";
import { isRulesError } from "../../rules/errors.js";
import { survivalSaveSucceeds, travelLostCheck, travelOutcome, travelPlan, type TravelPlan } from "../../rules/travel.js";
import { adapterFor, type ActorAdapter, type ActorLike } from "../adapters/adapter.js";
import { postCard } from "../chat.js";
import { foundryDice } from "../dice.js";
import { isActiveGM } from "../gm.js";
import { errorMessage, t, UserError } from "../i18n.js";
import { getSetting } from "../settings.js";
import { assertOwner } from "../tokens.js";
import { travelCardContext, type LostCheck, type RolledSave } from "./card.js";
import { actorById, readSnapshot } from "./party.js";
import { parseRequest, planInput } from "./request.js";

/**
 * Most rolls one Apply makes (saves and daily lost checks, all attached to the one card): a longer journey is
 * split into several.
 */
export const MAX_TRAVEL_SAVES = 500;

/** What Apply changed on one actor (before/after), kept on the card for Undo. null: not written. */
export interface TravelJournalActor {
  actorId: string;
  name: string;
  exhaustion: { before: number; after: number } | null;
  fasting: { before: number | null; after: number } | null;
  thirst: { before: number | null; after: number } | null;
}

export interface TravelJournal {
  /** Seconds added to the world time (0 when time was not advanced). */
  advanced: number;
  actors: TravelJournalActor[];
}

/** The card's flag: flags.aventure.travel. */
export interface TravelCardFlag {
  journal: TravelJournal;
  undone: boolean;
  /** The daily lost checks rolled (pmt), in day order; absent or empty when no chance was given. */
  lost?: LostCheck[];
}

/** A query's answer: plain data, so a player's client localizes an error in its own language. */
export type TravelApplyResult = { ok: true; messageId: string | null } | { ok: false; key: string; data: Record<string, string | number> };

/** Steps already done, each with its inverse; rollback runs the inverses in reverse order. */
export class Rollback {
  readonly #undo: (() => Promise<unknown>)[] = [];
  async step<T>(run: () => Promise<T>, undo: (result: T) => Promise<unknown>): Promise<T> {
    const result = await run();
    this.#undo.push(() => undo(result));
    return result;
  }
  /** Runs every inverse (even after one fails); true when all succeeded. */
  async rollback(): Promise<boolean> {
    let ok = true;
    for (const undo of this.#undo.reverse()) {
      try {
        await undo();
      } catch (e) {
        ok = false;
        console.error("aventure | travel rollback step failed", e);
      }
    }
    this.#undo.length = 0;
    return ok;
  }
}

const flagValue = (actor: ActorLike, key: "fastingDays" | "thirstDays"): number | null => {
  const v = actor.getFlag(MODULE_ID, key);
  return typeof v === "number" ? v : null;
};

async function writeCounter(actor: ActorLike, key: "fastingDays" | "thirstDays", value: number | null): Promise<void> {
  if (value === null) {
    await (actor as unknown as { unsetFlag(scope: string, key: string): Promise<unknown> }).unsetFlag(MODULE_ID, key);
  } else await actor.setFlag(MODULE_ID, key, value);
}

function resultError(e: unknown): TravelApplyResult {
  if (isRulesError(e) || e instanceof UserError) return { ok: false, key: e.key, data: { ...e.data } };
  return { ok: false, key: "AVENTURE.Travel.Error.Failed", data: { error: errorMessage(e) } };
}

/** The save's line on the card: "Day 2, 10th hour" / "Day 2, water". */
function saveFlavor(plan: TravelPlan, s: TravelPlan["saves"][number]): string {
  const name = plan.members.find((m) => m.id === s.memberId)?.name ?? "";
  return s.kind === "forcedMarch"
    ? t("AVENTURE.Travel.Save.forcedMarchFlavor", { name, day: s.day, hour: s.hour!, dc: s.dc })
    : t("AVENTURE.Travel.Save.dehydrationFlavor", { name, day: s.day, dc: s.dc });
}

/**
 * The active GM's handler of a travel request (from the dialog, a macro or a player's query). Returns a
 * result instead of throwing so the requester shows the error in its own language.
 */
export async function applyTravel(raw: unknown, sender: User): Promise<TravelApplyResult> {
  try {
    if (!isActiveGM()) throw new UserError("AVENTURE.Error.NoActiveGM");
    const req = parseRequest(raw);
    const actors = req.members.map((m) => {
      const a = actorById(m.actorId);
      if (!a) throw new UserError("AVENTURE.Travel.Error.UnknownActor", { id: m.actorId });
      assertOwner(sender, a as unknown as { name: string; testUserPermission(user: User, level: "OWNER"): boolean });
      return a;
    });
    const adapter = adapterFor();
    const trackFood = getSetting("travelTrackFood");
    const snapshots = actors.map((a) => readSnapshot(adapter, a));
    const plan = travelPlan(planInput(req, snapshots, getSetting("ruleset"), trackFood));
    const rollCount = plan.saves.length + plan.days.filter((d) => d.lostCheckChance !== null).length;
    if (rollCount > MAX_TRAVEL_SAVES) {
      throw new UserError("AVENTURE.Travel.Error.TooManySaves", { count: rollCount, max: MAX_TRAVEL_SAVES });
    }
    const rolled = await rollSaves(adapter, plan, actors);
    const lost = await rollLostChecks(plan);
    const outcome = travelOutcome(plan, Object.fromEntries(rolled.map((r) => [r.id, r.total])));
    const journal: TravelJournal = { advanced: 0, actors: [] };
    const rollback = new Rollback();
    try {
      for (const [i, actor] of actors.entries()) {
        const m = outcome.members[i]!;
        const entry: TravelJournalActor = { actorId: actor.id!, name: actor.name, exhaustion: null, fasting: null, thirst: null };
        journal.actors.push(entry);
        if (m.levelsGained > 0 && snapshots[i]!.exhaustion !== null) {
          entry.exhaustion = await rollback.step(
            async () => adapter.addExhaustion(actor, m.levelsGained),
            async (r) => (r ? adapter.setExhaustion(actor, r.before) : undefined),
          );
        }
        if (trackFood) {
          const fasting = { before: flagValue(actor, "fastingDays"), after: m.fastingAfter };
          await rollback.step(
            () => writeCounter(actor, "fastingDays", fasting.after),
            () => writeCounter(actor, "fastingDays", fasting.before),
          );
          entry.fasting = fasting;
          const thirst = { before: flagValue(actor, "thirstDays"), after: m.thirstAfter };
          await rollback.step(
            () => writeCounter(actor, "thirstDays", thirst.after),
            () => writeCounter(actor, "thirstDays", thirst.before),
          );
          entry.thirst = thirst;
        }
      }
      if (getSetting("travelAdvanceTime") && plan.durationSeconds > 0) {
        const seconds = plan.durationSeconds;
        await rollback.step(
          () => game.time.advance(seconds),
          () => game.time.advance(-seconds),
        );
        journal.advanced = seconds;
      }
      const flag: TravelCardFlag = { journal, undone: false, lost: lost.checks };
      const message = await postCard({
        template: template("travel/card.hbs"),
        context: travelCardContext(plan, outcome, rolled, journal, {
          localize: t,
          lang: game.i18n.lang,
          trackFood,
          exhaustionTracked: snapshots.map((s) => s.exhaustion !== null),
          lost: lost.checks,
        }),
        rolls: [...lost.rolls, ...rolled.flatMap((r) => (r.roll ? [r.roll] : []))],
        flags: { travel: flag },
      });
      if (!message) throw new Error("the chat card was not created");
      return { ok: true, messageId: message.id ?? null };
    } catch (e) {
      const clean = await rollback.rollback();
      const key = clean ? "AVENTURE.Travel.Error.RolledBack" : "AVENTURE.Travel.Error.RollbackFailed";
      // The requester reports the error; a player's request also warns the GM here.
      if (sender.id !== game.user.id) ui.notifications?.error(t(key, { error: errorMessage(e) }));
      console.error("aventure | travel apply failed", e);
      return { ok: false, key, data: { error: errorMessage(e) } };
    }
  } catch (e) {
    return resultError(e);
  }
}

/**
 * Rolls every save of the plan, in order, through the adapter (once each), without the system's own chat
 * message: the journey card carries the rolls and lists every result. Nothing is written here.
 */
async function rollSaves(
  adapter: ActorAdapter,
  plan: TravelPlan,
  actors: ActorLike[],
): Promise<(RolledSave & { roll?: Roll })[]> {
  const byId = new Map(actors.map((a) => [a.id!, a]));
  const out: (RolledSave & { roll?: Roll })[] = [];
  for (const s of plan.saves) {
    const r = await adapter.rollSave(byId.get(s.memberId)!, "con", { dc: s.dc, flavor: saveFlavor(plan, s), message: false });
    if (!Number.isFinite(r.total)) throw new UserError("AVENTURE.Travel.Error.SaveNotRolled", { name: byId.get(s.memberId)!.name });
    out.push({
      id: s.id,
      memberId: s.memberId,
      day: s.day,
      kind: s.kind,
      hour: s.hour,
      dc: s.dc,
      total: r.total,
      natural: r.natural,
      success: survivalSaveSucceeds(s.id, r.total, s.dc),
      ...(r.roll ? { roll: r.roll } : {}),
    });
  }
  return out;
}

/** RULES.md §2.7 (pmt): the referee's 1d100 at the start of each day, with Foundry dice, judged by the rules. */
async function rollLostChecks(plan: TravelPlan): Promise<{ checks: LostCheck[]; rolls: Roll[] }> {
  const dice = foundryDice();
  const checks: LostCheck[] = [];
  for (const d of plan.days) {
    if (d.lostCheckChance === null) continue;
    const [roll] = await dice.roll(1, 100);
    if (roll === undefined) throw new UserError("AVENTURE.Travel.Error.Failed", { error: "1d100" });
    checks.push({ day: d.day, chance: d.lostCheckChance, roll, lost: travelLostCheck(d.lostCheckChance, roll) });
  }
  return { checks, rolls: dice.rolls };
}

/** The minimal chat message surface Undo needs. */
export interface TravelMessageLike {
  id?: string | null;
  getFlag(scope: string, key: string): unknown;
  setFlag(scope: string, key: string, value: unknown): Promise<unknown>;
}

export function travelFlag(message: TravelMessageLike): TravelCardFlag | null {
  const f = message.getFlag(MODULE_ID, "travel") as TravelCardFlag | undefined;
  return f && typeof f === "object" && f.journal && Array.isArray(f.journal.actors) ? f : null;
}

const undoing = new WeakSet<object>();

/** Whether the actor's exhaustion or counters changed since the journey (Undo then overwrites those changes). */
function driftedSince(adapter: ActorAdapter, actor: ActorLike, entry: TravelJournalActor): boolean {
  if (entry.exhaustion && adapter.read(actor).exhaustion !== entry.exhaustion.after) return true;
  if (entry.fasting && flagValue(actor, "fastingDays") !== entry.fasting.after) return true;
  return !!entry.thirst && flagValue(actor, "thirstDays") !== entry.thirst.after;
}

/**
 * Undoes the journey of a card (GM): exhaustion, counters and world time back to what they were before, then
 * marks the card undone. If a write fails, what Undo already restored is re-applied and a UserError says so.
 * Returns the names of the actors whose values had changed since the journey (Undo overwrote them).
 * Run it on the active GM (the card's button goes through the query aventure.travelUndo), so that two GMs
 * clicking at once cannot rewind the clock twice.
 */
export async function undoTravel(message: TravelMessageLike): Promise<string[]> {
  if (!game.user.isGM) throw new UserError("AVENTURE.Error.GMOnly");
  const flag = travelFlag(message);
  if (!flag) throw new UserError("AVENTURE.Travel.Error.NoJourney");
  if (flag.undone || undoing.has(message)) throw new UserError("AVENTURE.Travel.Error.AlreadyUndone");
  undoing.add(message);
  const adapter = adapterFor();
  const rollback = new Rollback();
  const changedSince: string[] = [];
  try {
    for (const entry of flag.journal.actors) {
      const actor = actorById(entry.actorId);
      if (!actor) throw new UserError("AVENTURE.Travel.Error.UnknownActor", { id: entry.name });
      if (driftedSince(adapter, actor, entry)) changedSince.push(actor.name);
      const ex = entry.exhaustion;
      if (ex) await rollback.step(() => adapter.setExhaustion(actor, ex.before), () => adapter.setExhaustion(actor, ex.after));
      const fasting = entry.fasting;
      if (fasting) {
        await rollback.step(
          () => writeCounter(actor, "fastingDays", fasting.before),
          () => writeCounter(actor, "fastingDays", fasting.after),
        );
      }
      const thirst = entry.thirst;
      if (thirst) {
        await rollback.step(
          () => writeCounter(actor, "thirstDays", thirst.before),
          () => writeCounter(actor, "thirstDays", thirst.after),
        );
      }
    }
    const seconds = flag.journal.advanced;
    if (seconds) await rollback.step(() => game.time.advance(-seconds), () => game.time.advance(seconds));
    await message.setFlag(MODULE_ID, "travel", { ...flag, undone: true });
    return changedSince;
  } catch (e) {
    const clean = await rollback.rollback();
    const key = clean ? "AVENTURE.Travel.Error.UndoRolledBack" : "AVENTURE.Travel.Error.RollbackFailed";
    throw new UserError(key, { error: errorMessage(e) });
  } finally {
    undoing.delete(message);
  }
}

/** A query's answer to Undo: plain data, localized by the requester. */
export type TravelUndoResult = { ok: true; changedSince: string[] } | { ok: false; key: string; data: Record<string, string | number> };

/** The active GM's handler of the card's Undo (query aventure.travelUndo): GMs only, a journey card by id. */
export async function undoTravelQuery(raw: unknown, sender: User): Promise<TravelUndoResult> {
  try {
    if (!isActiveGM()) throw new UserError("AVENTURE.Error.NoActiveGM");
    if (!sender.isGM) throw new UserError("AVENTURE.Error.GMOnly");
    const id = (raw as { messageId?: unknown } | null)?.messageId;
    const message = typeof id === "string" ? (game.messages.get(id) as unknown as TravelMessageLike | undefined) : undefined;
    if (!message) throw new UserError("AVENTURE.Travel.Error.NoJourney");
    return { ok: true, changedSince: await undoTravel(message) };
  } catch (e) {
    return resultError(e) as TravelUndoResult;
  }
}
