/**
 * The travel counters Aventure keeps on an actor (docs/rules.md §4.3–4.4): `flags.aventure.fastingDays` (days on half
 * rations or none, halves included) and `flags.aventure.thirstDays` (whole days without enough water). Each is read
 * on its own through its field: anything but a number of days (a hand-edited flag, a negative, text) reads as none.
 */
import { MODULE_ID } from "../core/constants.js";
import { flagValue } from "../core/flag-model.js";
import type { ActorLike } from "../actors/api.js";

export type Counter = "fastingDays" | "thirstDays";

const TravelCounter = flagValue({
  name: "AventureTravelCounter",
  value: (f) => new f.NumberField({ required: true, nullable: false, min: 0 }),
});

/** A counter as stored (a number of days), or null when the actor has none (or one that is not a number of days). */
export function counterValue(actor: ActorLike, key: Counter): number | null {
  return TravelCounter.read(actor.getFlag(MODULE_ID, key));
}

/** A counter as the rules use it: 0 when the actor has none; thirst counts whole days. */
export function counterDays(actor: ActorLike, key: Counter): number {
  const v = counterValue(actor, key) ?? 0;
  return key === "thirstDays" ? Math.floor(v) : v;
}
