/**
 * The side-initiative requests (docs/security.md), through the trusted request channel (requests.ts): every client
 * asks the active GM, which takes the sender from the server, checks every field and who may ask, and rolls once
 * (side-ops.ts).
 * - "sideRound" {combatId, round}: start round `round` (1: start the combat). GMs; or a player who owns the current
 *   combatant when ending that turn ends the round (nobody after it would act this round, core's "skip defeated"
 *   setting honoured): core lets that player end their turn, not the round — never round 1. A request for a round
 *   that already started, or was already claimed, changes nothing.
 * - "rollSides" {combatId, combatantIds}: the tracker's roll buttons. The sender must own every combatant named; a
 *   player rolls a side only while it has no initiative this round (core shows the button only then).
 */
import { canControl } from "../core/gm.js";
import { UserError } from "../core/i18n.js";
import { registerRequest, sendRequest } from "../core/requests.js";
import { notOwned } from "../light/api.js";
import type { CombatLike } from "./types.js";
import { rollSides, startSideRound, type RoundResult } from "./side-ops.js";
import { sideInitiativeActive } from "./side-initiative.js";
import { DOCUMENT_ID } from "../core/values.js";
import { flagModel, type Fields, docIdField } from "../core/flag-model.js";

/** At most this many combatants in one roll request (a tracker's roll-all of a big fight fits). */
export const MAX_COMBATANTS = 200;

/** The payload of "sideRound", declared once: the combat and the round to start. */
const sideRoundSchema = (f: Fields) => ({
  combatId: docIdField(f),
  round: new f.NumberField({
    required: true,
    nullable: false,
    integer: true,
    min: 1,
    max: 100_000,
    initial: undefined,
  }),
});
const SideRoundRequest = flagModel({ name: "AventureSideRoundRequest", schema: sideRoundSchema, exact: true });

/** The payload of "rollSides", declared once: the combat and the combatants to roll for (each once). */
const rollSidesSchema = (f: Fields) => ({
  combatId: docIdField(f),
  combatantIds: new f.ArrayField(docIdField(f), { min: 1, max: MAX_COMBATANTS }),
});
const RollSidesRequest = flagModel({
  name: "AventureRollSidesRequest",
  schema: rollSidesSchema,
  exact: true,
  joint: (d) => {
    if (new Set(d.combatantIds).size !== d.combatantIds.length) throw new Error("a combatant named twice");
  },
});

/** A payload read through its model, or the request's refusal. */
function payload<T>(model: { read(raw: unknown): T | null }, data: unknown): T {
  const d = model.read(data);
  if (!d) throw new UserError("AVENTURE.Combat.badRequest");
  return d;
}

/** The combat a request names (a well-formed id of an existing combat), or a UserError. */
export function combatOf(id: unknown): CombatLike {
  if (typeof id !== "string" || !DOCUMENT_ID.test(id)) throw new UserError("AVENTURE.Combat.badRequest");
  const combat = game.combats?.get(id);
  if (!combat) throw new UserError("AVENTURE.Combat.noCombat");
  return combat;
}

/** Request "sideRound" (active GM). */
export async function onSideRoundRequest(data: unknown, { sender }: { sender: User }): Promise<RoundResult> {
  const { combatId, round } = payload(SideRoundRequest, data);
  const combat = combatOf(combatId);
  if (!sideInitiativeActive()) throw new UserError("AVENTURE.SideInit.off");
  if (!sender.isGM) {
    // Core lets the owner of the current combatant end their turn, not the round: the next round only when that turn
    // is the round's last one that would be played (checked again under the combat's lock); starting a combat is for
    // GMs.
    if (!combat.started || round === 1) throw new UserError("AVENTURE.Error.GMOnly");
    const current = combat.turn === null ? undefined : combat.turns[combat.turn];
    if (!current || !current.testUserPermission(sender, "OWNER"))
      throw current ? notOwned(sender, current) : new UserError("AVENTURE.Error.NotOwnerUnknown.Combatant");
  }
  if (combat.combatants.contents.length === 0) throw new UserError("AVENTURE.Combat.badRequest");
  return startSideRound(combat, round, sender.isGM ? null : sender);
}

/** Request "rollSides" (active GM). */
export async function onRollSidesRequest(data: unknown, { sender }: { sender: User }): Promise<{ rolled: true }> {
  const { combatId, combatantIds: ids } = payload(RollSidesRequest, data);
  const combat = combatOf(combatId);
  if (!sideInitiativeActive()) throw new UserError("AVENTURE.SideInit.off");
  for (const id of ids) {
    const c = combat.combatants.get(id);
    if (!c) throw new UserError("AVENTURE.Combat.badRequest");
    if (!canControl(sender, c)) throw notOwned(sender, c);
  }
  await rollSides(combat, { ids, player: !sender.isGM });
  return { rolled: true };
}

/** Asks the active GM to start round `round` of `combat` (round 1: the combat's start). */
export function requestSideRound(combat: CombatLike, round: number): Promise<RoundResult> {
  return sendRequest<RoundResult>("sideRound", { combatId: combat.id, round });
}

/** Asks the active GM to roll the sides of the given combatants. */
export function requestRollSides(combat: CombatLike, ids: readonly string[]): Promise<{ rolled: true }> {
  return sendRequest<{ rolled: true }>("rollSides", { combatId: combat.id, combatantIds: [...ids] });
}

export function registerSideRequests(): void {
  registerRequest({ name: "sideRound", handle: onSideRoundRequest });
  registerRequest({ name: "rollSides", handle: onRollSidesRequest });
}
