/**
 * The travel tests' common party and journey (docs/rules.md §2): Aria alone, fed and watered, at the front; a day's
 * 36 km on foot at normal pace in normal terrain under Rôle'n Play, with any field replaced.
 */
import type { TravelInput, TravelMemberInput } from "../../src/rules/travel.js";

export const aria: TravelMemberInput = {
  id: "aria",
  name: "Aria",
  conMod: 0,
  passivePerception: 12,
  food: "full",
  water: "full",
  position: "front",
};

export const trip = (over: Record<string, unknown> = {}): TravelInput =>
  ({
    ruleset: "rnp",
    pace: "normal",
    terrain: "normal",
    mode: "foot",
    distance: 36_000,
    party: [aria],
    ...over,
  }) as TravelInput;
