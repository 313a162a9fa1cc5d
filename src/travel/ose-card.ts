/**
 * The words of an Old-School Essentials wilderness journey (docs/rules.md §12), for the Travel dialog's summary and
 * the GM's journey card: legs with their terrain and modifier, each day's checks, rations and rests. Pure (tested
 * without Foundry): OSE words only, no DC, passive Perception nor exhaustion.
 */
import { OSE_TERRAIN_TABLE, type OseJourney, type OseJourneyDay, type OseTerrain } from "../rules/ose-wilderness.js";
import { formatKm, plural, type Localize } from "./format.js";

/** "×⅔": a terrain's distance modifier. */
export function oseModifier(terrain: OseTerrain): string {
  const { num, den } = OSE_TERRAIN_TABLE[terrain].speed;
  const known: Record<string, string> = { "1/1": "×1", "2/3": "×⅔", "1/2": "×½", "3/2": "×1½" };
  return known[`${num}/${den}`] ?? `×${num}/${den}`;
}

/** "forest ×⅔": a terrain's name and modifier. */
export function oseTerrainText(terrain: OseTerrain, l: Localize): string {
  return `${l(`AVENTURE.Wilderness.Terrain.${terrain}`)} ${oseModifier(terrain)}`;
}

/** "27 km · maintained road ×1½ · Chemin royal": one leg. */
export function oseLegText(
  leg: { metres: number; terrain: OseTerrain; regions: readonly string[] },
  l: Localize,
  lang: string,
): string {
  return [
    formatKm(leg.metres, lang),
    oseTerrainText(leg.terrain, l),
    ...(leg.regions.length ? [leg.regions.join(", ")] : []),
  ].join(" · ");
}

/**
 * The lines of one day: where it went, the checks rolled (not with `rolls: false`, the dialog's preview), foraging,
 * rations, the rest penalty.
 */
export function oseDayText(d: OseJourneyDay, l: Localize, lang: string, rolls = true): string {
  const parts: string[] = [];
  if (d.kind === "rest") parts.push(l(`AVENTURE.Wilderness.Day.rest.${d.restReason ?? "weekly"}`));
  else if (d.kind === "lost")
    parts.push(l("AVENTURE.Wilderness.Day.lost", { terrain: l(`AVENTURE.Wilderness.Terrain.${d.terrain}`) }));
  else
    parts.push(
      l(d.forcedMarch ? "AVENTURE.Wilderness.Day.forcedMarch" : "AVENTURE.Wilderness.Day.travel", {
        from: formatKm(d.startMetres, lang),
        to: formatKm(d.endMetres, lang),
      }),
    );
  if (rolls && d.lost.roll !== null)
    parts.push(
      l(d.lost.of === 100 ? "AVENTURE.Wilderness.Day.lostCheck100" : "AVENTURE.Wilderness.Day.lostCheck", {
        roll: d.lost.roll,
        chance: d.lost.chance,
      }),
    );
  else if (rolls && d.kind !== "rest") parts.push(l("AVENTURE.Wilderness.Day.noLostCheck"));
  if (rolls && d.wandering.roll !== null) {
    parts.push(
      l(d.wandering.result ? "AVENTURE.Wilderness.Day.encounter" : "AVENTURE.Wilderness.Day.noEncounter", {
        roll: d.wandering.roll,
        chance: d.wandering.chance,
      }),
    );
  }
  if (rolls && d.forage.roll !== null)
    parts.push(
      d.forage.result
        ? l("AVENTURE.Wilderness.Day.foraged", { roll: d.forage.roll, n: d.foraged })
        : l("AVENTURE.Wilderness.Day.noFood", { roll: d.forage.roll }),
    );
  parts.push(plural(l, lang, "AVENTURE.Wilderness.Day.rations", d.rations));
  if (d.rationsShort > 0) parts.push(l("AVENTURE.Wilderness.Day.short", { n: d.rationsShort }));
  if (d.restPenalty < 0) parts.push(l("AVENTURE.Wilderness.Day.penalty"));
  if (d.arrived) parts.push(l("AVENTURE.Wilderness.Day.arrived"));
  return parts.join(" · ");
}

export interface OseCardView {
  headline: string;
  base: string;
  options: string[];
  legs: { text: string; slow: boolean }[];
  days: { day: string; text: string; bad: boolean; encounter: boolean }[];
  totals: string[];
  /** Wandering monsters were met: the card offers the Encounter dialog (GMs). */
  encounters: boolean;
}

export interface OseCardInput {
  journey: OseJourney;
  legs: readonly { metres: number; terrain: OseTerrain; regions: readonly string[] }[];
  baseMetres: number;
  /** Who sets the base movement (the slowest member), or "" when the GM gave it. */
  slowest: string;
  openTerrain: OseTerrain;
  flags: {
    forcedMarch: boolean;
    flying: boolean;
    guide: boolean;
    river: boolean;
    forage: boolean;
    restWhenDue: boolean;
  };
  rationsCounted: boolean;
}

/** The journey card's (and the dialog's) view of an OSE journey. */
export function oseCardView(input: OseCardInput, l: Localize, lang: string): OseCardView {
  const j = input.journey;
  const last = j.days.at(-1);
  const headline = j.arrived
    ? l("AVENTURE.Wilderness.Card.arrives", { day: j.arrivalDay ?? 0, distance: formatKm(j.routeMetres, lang) })
    : l("AVENTURE.Wilderness.Card.stopped", {
        day: last?.day ?? 0,
        reached: formatKm(j.endMetres, lang),
        total: formatKm(j.routeMetres, lang),
      });
  const base = input.slowest
    ? l("AVENTURE.Wilderness.Card.baseOf", { base: input.baseMetres, name: input.slowest })
    : l("AVENTURE.Wilderness.Card.base", { base: input.baseMetres });
  const options = (["forcedMarch", "flying", "guide", "river", "forage", "restWhenDue"] as const)
    .filter((k) => input.flags[k])
    .map((k) => l(`AVENTURE.Wilderness.Field.${k}`));
  const totals = [
    l(input.rationsCounted ? "AVENTURE.Wilderness.Card.rationsLeft" : "AVENTURE.Wilderness.Card.rations", {
      n: j.rationsUsed,
      left: j.rationsLeft ?? 0,
    }),
    ...(j.encounters ? [plural(l, lang, "AVENTURE.Wilderness.Card.encounters", j.encounters)] : []),
    ...(j.restPenalty < 0 ? [l("AVENTURE.Wilderness.Card.restOwed")] : []),
    ...(j.forcedMarchRestOwed ? [l("AVENTURE.Wilderness.Card.forcedMarchRest")] : []),
  ];
  return {
    headline,
    base,
    options,
    legs: input.legs.map((leg) => ({
      text: oseLegText(leg, l, lang),
      slow: OSE_TERRAIN_TABLE[leg.terrain].speed.num < OSE_TERRAIN_TABLE[leg.terrain].speed.den,
    })),
    days: j.days.map((d) => ({
      day: l("AVENTURE.Wilderness.Card.day", { n: d.day }),
      text: oseDayText(d, l, lang),
      bad: d.kind === "lost" || d.rationsShort > 0,
      encounter: d.wandering.result,
    })),
    totals,
    encounters: j.encounters > 0,
  };
}
