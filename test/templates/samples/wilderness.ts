/**
 * Samples for the Old-School Essentials Travel dialog (a party of three along a painted route: 27 km of road, 24 km
 * of forest, 27 km of swamp) and the GM's journey card (five days: two wandering monsters, a day lost in the swamp).
 */
import {
  oseApplyChange,
  oseDefaultState,
  oseTravelContext,
  type OseRouteState,
} from "../../../src/travel/ose-travel-context.js";
import type { Localize as ContextLocalize } from "../../../src/travel/travel-context.js";
import { oseCardView } from "../../../src/travel/ose-card.js";
import { oseJourney, fixedDice } from "../../../src/rules/index.js";
import type { Localize, Sample } from "../samples.js";

export const ROUTE: OseRouteState = {
  sceneId: "karameikos",
  points: [
    { x: 100, y: 500 },
    { x: 7900, y: 500 },
  ],
  tokenIds: ["tAria", "tBram", "tCyl"],
  legs: [
    { metres: 27000, terrain: "road", regions: ["Chemin royal"], from: 0, to: 27000 },
    { metres: 24000, terrain: "forest", regions: ["Bois Noir"], from: 27000, to: 51000 },
    { metres: 27000, terrain: "swamp", regions: ["Marais de Fangeval"], from: 51000, to: 78000 },
  ],
};

function state() {
  let s = oseDefaultState(
    [
      { actorId: "aria", name: "Aria", baseMetres: 36 },
      { actorId: "bram", name: "Bram", baseMetres: 27 },
      { actorId: "cyl", name: "Cyl", baseMetres: null },
    ],
    ROUTE,
  );
  for (const [k, v] of [
    ["forage", true],
    ["rations", "21"],
    ["animals", "1"],
    ["restWhenDue", true],
  ] as const)
    s = oseApplyChange(s, k, v);
  return s;
}

const langOf = (l: Localize) => (l("AVENTURE.Wilderness.Terrain.swamp") === "marais" ? "fr" : "en");
const dialog = (l: Localize) =>
  oseTravelContext(state(), {
    localize: l as ContextLocalize,
    lang: langOf(l),
    isGM: true,
    playersApply: false,
    busy: false,
    addable: [{ id: "dun", name: "Dun" }],
    borrowed: false,
  });

/** The card's journey, rolled once through the rules with fixed dice. */
export const journey = await oseJourney(
  {
    baseMetres: 27,
    characters: 3,
    animals: 1,
    forage: true,
    rations: 21,
    legs: ROUTE.legs.map((x) => ({ metres: x.metres, terrain: x.terrain })),
  },
  // Two wandering monsters, a day lost in the swamp, then sixes.
  fixedDice([5, 4, 3, 1, 4, 5, 2, 6, 3, 6, 2, ...Array.from({ length: 40 }, () => 6)]),
);

function card(l: Localize) {
  const view = oseCardView(
    {
      journey,
      legs: ROUTE.legs,
      baseMetres: 27,
      slowest: "Bram",
      openTerrain: "clear",
      flags: { forcedMarch: false, flying: false, guide: false, river: false, forage: true, restWhenDue: false },
      rationsCounted: true,
    },
    l as ContextLocalize,
    langOf(l),
  );
  return {
    ...view,
    time: l("AVENTURE.Travel.Unit.daysShort", { n: journey.days.length }),
    status: l("AVENTURE.Travel.Card.status.applying"),
  };
}

export const SAMPLES: Record<string, Sample> = {
  "travel/ose-form.hbs": { kind: "dialog", title: "AVENTURE.Travel.title", width: 880, context: (l) => dialog(l) },
  "travel/ose-summary.hbs": { kind: "dialog", title: "AVENTURE.Travel.title", width: 880, context: (l) => dialog(l) },
  "travel/ose-card.hbs": { kind: "card", width: 300, context: (l) => card(l) },
};
