/** Template contexts of the encounter dialog and chat card (pure: tested and screenshotted without Foundry). */
import { ENCOUNTER_PLACES, encounterRules, type EncounterPlace } from "../rules/encounter.js";
import type { RulesetId } from "../rules/rulesets.js";
import { SIDE_IDS, type SideId } from "../core/sides.js";
import type { EncounterResult } from "./run.js";
import type { PursuitSide } from "../pursuit/api.js";
import type { PursuitPlace, SurpriseChoice } from "../pursuit/api.js";

export type Localize = (key: string, data?: Record<string, string | number>) => string;

export interface EncounterToken {
  id: string;
  name: string;
  side: SideId;
  /** The speaker's Charisma modifier, when the adapter knows it. */
  chaMod: number | null;
}

export interface EncounterDialogState {
  ruleset: RulesetId;
  where: EncounterPlace;
  tokens: EncounterToken[];
  aware: Partial<Record<SideId, boolean>>;
  speakerId: string;
  rollReaction: boolean;
  gmOnly: boolean;
  result: EncounterResult | null;
}

/** The sides the dialog shows: those with tokens, or friendly and hostile when fewer than two have any. */
export function dialogSides(tokens: readonly EncounterToken[]): SideId[] {
  const present = SIDE_IDS.filter((s) => tokens.some((t) => t.side === s));
  if (present.length >= 2) return present;
  return SIDE_IDS.filter((s) => s !== "neutral" || present.includes(s));
}

const signed = (n: number) => (n >= 0 ? `+${n}` : `${n}`);

/**
 * The distance as a GM reads it: "30 m (1d4 → 3, × 10 m)", or with several dice "160 m (4d6 → 3 + 5 + 2 + 6 = 16,
 * × 10 m)": the dice rolled, what they gave, then the metres per point.
 */
export function distanceContext(d: EncounterResult["distance"]) {
  const dice = /^\d+d\d+/.exec(d.formula)?.[0] ?? d.formula;
  const sum = d.dice.reduce((a, b) => a + b, 0);
  return {
    metres: d.metres,
    dice,
    roll: d.dice.length > 1 ? `${d.dice.join(" + ")} = ${sum}` : String(sum),
    multiplier: d.multiplier,
  };
}

export function encounterCardContext(result: EncounterResult, speaker: string | null, l: Localize) {
  const side = (id: string) => l(`AVENTURE.Side.${id}`);
  const s = result.surprise;
  let note = "";
  if (s) {
    const o = s.outcome;
    if (o.note === "neither") note = l("AVENTURE.Encounter.surprise.neither");
    else if (o.note === "someSurprised") {
      note = l("AVENTURE.Encounter.surprise.some", {
        surprised: o.surprised.map(side).join(", "),
        alert: o.alert.map(side).join(", "),
      });
    } else
      note = l(
        o.firstRound?.length ? "AVENTURE.Encounter.surprise.allConfusion" : "AVENTURE.Encounter.surprise.allNobody",
      );
  }
  return {
    title: l("AVENTURE.Encounter.cardTitle"),
    rules: l("AVENTURE.Encounter.rulesUsed", { rules: l(`AVENTURE.Ruleset.${result.rules}`) }),
    where: l(`AVENTURE.Encounter.place.${result.where}`),
    distance: distanceContext(result.distance),
    surprise: s
      ? {
          sides: Object.entries(s.rolls).map(([id, roll]) => ({
            label: side(id),
            roll,
            aware: roll === null,
            surprised: s.outcome.surprised.includes(id),
          })),
          note,
        }
      : null,
    reaction: result.reaction
      ? {
          speaker: speaker ?? "",
          dice: result.reaction.dice.join(" + "),
          modifier: result.reaction.modifier !== 0 ? signed(result.reaction.modifier) : "",
          total: result.reaction.total,
          label: l(`AVENTURE.Reaction.${result.rules}.${result.reaction.result}`),
        }
      : null,
  };
}

export function encounterDialogContext(state: EncounterDialogState, l: Localize) {
  const rules = encounterRules(state.ruleset);
  const sides = dialogSides(state.tokens);
  const sideChoices = SIDE_IDS.map((s) => ({ value: s, label: l(`AVENTURE.Side.${s}`) }));
  const speaker = state.tokens.find((t) => t.id === state.speakerId) ?? null;
  return {
    rulesNote: l("AVENTURE.Encounter.rulesUsed", { rules: l(`AVENTURE.Ruleset.${rules}`) }),
    places: ENCOUNTER_PLACES.map((p) => ({ value: p, label: l(`AVENTURE.Encounter.place.${p}`) })),
    where: state.where,
    sides: sides.map((id) => ({
      id,
      label: l(`AVENTURE.Side.${id}`),
      aware: state.aware[id] === true,
      tokens: state.tokens.filter((t) => t.side === id).map((t) => ({ id: t.id, name: t.name, side: t.side })),
    })),
    sideChoices,
    speakers: state.tokens
      .filter((t) => t.side !== "hostile")
      .map((t) => ({
        value: t.id,
        label:
          rules === "ose" && t.chaMod !== null
            ? `${t.name} (${l("AVENTURE.Encounter.cha")} ${signed(t.chaMod)})`
            : t.name,
      })),
    speakerId: state.speakerId,
    chaNote: rules === "ose" ? l("AVENTURE.Encounter.chaNote") : "",
    rollReaction: state.rollReaction,
    gmOnly: state.gmOnly,
    noTokens: state.tokens.length === 0,
    canStart: state.tokens.length > 0,
    cannotStart: state.tokens.length === 0,
    result: state.result ? encounterCardContext(state.result, speaker?.name ?? null, l) : null,
  };
}

/** What the encounter hands over to the Pursuit dialog when the party flees (api.openPursuit options). */
export interface FleeHandOver {
  place: PursuitPlace;
  fleeingSide: PursuitSide;
  surprise: SurpriseChoice;
  reactionTotal: number | null;
}

/**
 * "Flee": the encounter as the Pursuit dialog's prefill. The party (friendly side) flees; the neutral and
 * hostile sides are the pursuers (the pursuit's groups). The dungeon stays the dungeon, the wilderness and
 * water are outdoors. Surprise: the fleeing party was surprised, the pursuers were (every pursuing side
 * surprised), both, or none. The reaction total already rolled, if any. Pure.
 */
export function fleeHandOver(
  tokens: readonly EncounterToken[],
  result: EncounterResult | null,
  where: EncounterPlace,
): FleeHandOver {
  const surprised = result?.surprise?.outcome.surprised ?? [];
  const pursuers = dialogSides(tokens).filter((s) => s !== "friendly");
  const partySurprised = surprised.includes("friendly");
  const pursuersSurprised = pursuers.length > 0 && pursuers.every((s) => surprised.includes(s));
  const surprise: SurpriseChoice = partySurprised
    ? pursuersSurprised
      ? "both"
      : "fleeing"
    : pursuersSurprised
      ? "pursuers"
      : "none";
  return {
    place: (result?.where ?? where) === "dungeon" ? "dungeon" : "outdoors",
    fleeingSide: "party",
    surprise,
    reactionTotal: result?.reaction?.total ?? null,
  };
}
