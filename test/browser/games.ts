/**
 * What each game shows, for the browser check's forbidden-terms pass (docs/rules.md §0): under Portes, Monstres &
 * Trésors, Old-School Essentials and Polaris no window, card or HUD part may show a 5e term (test/forbidden-terms.ts)
 * unless it belongs to a borrowed rule, labelled with its game.
 *
 * - `GAME_SAMPLES`: for every template sample (test/templates/samples/) and stand-in, the games whose own rules show
 *   it as sampled (a sample of Rôle'n Play's jumps panel is not what a pmt GM sees: pmt's is `movement/jumps.hbs#pmt`).
 *   Every sample is classified (the browser check fails on one that is not), so a new window is checked at once.
 * - `gameViews`: the parts whose content depends on the game, built for each game from the same code as the module:
 *   the module settings form (its rows filtered by src/core/feature-visibility.ts), the Actor data menu (its
 *   fields filtered the same way) and the token HUD palette (the actions of the features that are on).
 */
import { actorDataContext } from "../../src/actors/actor-data-context.js";
import { hudPaletteContext, type PaletteAction } from "../../src/core/hud-palette-context.js";
import { DND5E_PATHS, OSE_PATHS } from "../../src/actors/presets.js";
import { EMPTY_PATHS, type ActorDataPaths } from "../../src/core/core-settings.js";
import {
  features,
  type FeatureBorrowings,
  type FeatureId,
  type FeatureState,
  type RulesetId,
} from "../../src/rules/index.js";
import type { Localize, Sample } from "../templates/samples.js";
import { settingsContext } from "./stand-ins/samples.js";

/** The games without 5e words, checked by the pass. */
export const CHECKED_GAMES = ["pmt", "ose", "polaris"] as const;
export type CheckedGame = (typeof CHECKED_GAMES)[number];

const ALL: readonly RulesetId[] = ["rnp", "dnd5e", "pmt", "ose", "polaris"];
const FIVE_E: readonly RulesetId[] = ["rnp", "dnd5e"];
const OLD_SCHOOL: readonly RulesetId[] = ["pmt", "ose"];

/**
 * The games whose own rules show each sample. "borrowed": a sample of a rule borrowed from another game, drawn with
 * its label (shown only where a GM borrowed it; exempt). "dynamic": replaced, per game, by `gameViews`.
 */
export const GAME_SAMPLES: Readonly<Record<string, readonly RulesetId[] | "borrowed" | "dynamic">> = {
  "breath/hud.hbs": FIVE_E,
  "breath/tracker.hbs": FIVE_E,
  "breath/card.hbs": FIVE_E,
  "actor-data.hbs": "dynamic",
  "actor-data.hbs#missing": FIVE_E, // D&D 5e's paths, one of them mistyped
  "proposal-card.hbs": FIVE_E, // a player's journey proposed to the GMs (Rôle'n Play's and D&D 5e's travel)
  "encounter/dialog.hbs": OLD_SCHOOL,
  "encounter/card.hbs": OLD_SCHOOL,
  "encounter/side-round.hbs": OLD_SCHOOL,
  "encounter/tracker-sides.hbs": OLD_SCHOOL,
  "exploration/panel.hbs": ["rnp", "pmt", "ose"],
  "exploration/card.hbs": OLD_SCHOOL,
  "exploration/card.hbs#rnp": ["rnp"],
  "exploration/card.hbs#borrowed": "borrowed",
  "hud/palette.hbs": "dynamic",
  "hud/palette.hbs#busy": FIVE_E, // hidden, searching, holding breath: Rôle'n Play's and D&D 5e's states
  "light/hud.hbs": FIVE_E,
  "light/hud.hbs#ose": ["pmt", "ose", "polaris"], // the light level, shown without rule effect
  "light/hide-card.hbs": FIVE_E,
  "light/search-card.hbs": FIVE_E,
  "light/detection-card.hbs": FIVE_E,
  "light/hide-end-card.hbs": FIVE_E,
  "movement/jumps.hbs": FIVE_E,
  "movement/jumps.hbs#pmt": OLD_SCHOOL, // the panel recalls encounter movement and running
  "movement/fall-card.hbs#ose": ["ose"],
  "movement/fall-dialog.hbs#ose": ["ose"],
  "movement/fall-dialog.hbs#borrowed": "borrowed",
  "movement/fall-card.hbs": FIVE_E,
  "movement/fall-dialog.hbs": FIVE_E,
  "movement/waypoint-label.hbs": FIVE_E, // a long jump's label in the ruler
  "polaris/test-dialog.hbs": ["polaris"],
  "polaris/test-dialog.hbs#attribute": ["polaris"],
  "polaris/test-summary.hbs": ["polaris"],
  "polaris/test-summary.hbs#critical": ["polaris"],
  "polaris/test-summary.hbs#exhausted": ["polaris"],
  "polaris/test-card.hbs": ["polaris"],
  "polaris/test-card.hbs#exhausted": ["polaris"],
  "polaris/test-card.hbs#intention": ["polaris"],
  "polaris/intention.hbs": ["polaris"],
  "polaris/tracker-phases.hbs": ["polaris"],
  // Aventure's own Polaris actor type exists in every world: its sheet must speak no 5e word whatever the game.
  "polaris/actor-sheet.hbs": ["pmt", "ose", "polaris"],
  "polaris/actor-sheet.hbs#template": ["pmt", "ose", "polaris"],
  "polaris/delay.hbs": ["polaris"],
  "pursuit/dialog.hbs": OLD_SCHOOL,
  "pursuit/card.hbs": OLD_SCHOOL,
  "pursuit/log.hbs": OLD_SCHOOL,
  "travel/form.hbs": FIVE_E,
  "travel/summary.hbs": FIVE_E,
  "travel/card.hbs": FIVE_E,
  "travel/ose-form.hbs": ["ose"],
  "travel/ose-summary.hbs": ["ose"],
  "travel/ose-card.hbs": ["ose"],
  "welcome.hbs": ALL,
  "welcome.hbs#chosen": ALL,
  "stand-in/settings-form.hbs": "dynamic",
  "stand-in/region-behavior.hbs": ALL, // the region behaviours are registered in every world
};

/** The palette's actions, each with the features it belongs to (src/<feature>/*: addHudButton's `feature`/`visible`). */
const PALETTE: readonly (PaletteAction & {
  on: (f: Readonly<Record<FeatureId, FeatureState>>) => FeatureState | null;
})[] = [
  { id: "travel", icon: "fa-solid fa-route", title: "AVENTURE.Travel.hud", on: (f) => (f.travel.on ? f.travel : null) },
  {
    id: "travelRoute",
    icon: "fa-solid fa-map-location-dot",
    title: "AVENTURE.Travel.Route.hud",
    on: (f) => (f.travel.on ? f.travel : null),
  },
  {
    id: "hide",
    icon: "fa-solid fa-user-secret",
    title: "AVENTURE.Light.Hide.button",
    on: (f) => (f.hiding.on ? f.hiding : null),
  },
  {
    id: "search",
    icon: "fa-solid fa-magnifying-glass",
    title: "AVENTURE.Light.Hide.searchButton",
    on: (f) => (f.hiding.on ? f.hiding : null),
  },
  // jumpsPanelUseful: jumps, or encounter movement and running (pmt, ose)
  {
    id: "jumps",
    icon: "fa-solid fa-person-arrow-up-from-line",
    title: "AVENTURE.Movement.Jump.hud",
    on: (f) =>
      f.jumps.on ? f.jumps : f.movementCosts.from === "pmt" || f.movementCosts.from === "ose" ? f.movementCosts : null,
  },
  {
    id: "fall",
    icon: "fa-solid fa-person-falling",
    title: "AVENTURE.Movement.Fall.hud",
    on: (f) => (f.falls.on ? f.falls : null),
  },
  {
    id: "hold-breath",
    icon: "fa-solid fa-lungs",
    title: "AVENTURE.Breath.hold",
    on: (f) => (f.suffocation.on ? f.suffocation : null),
  },
  {
    id: "pursuit",
    icon: "fa-solid fa-person-running",
    title: "AVENTURE.Pursuit.hud",
    on: (f) => (f.pursuit.on ? f.pursuit : null),
  },
  {
    id: "polaris-test",
    icon: "fa-solid fa-dice-d20",
    title: "AVENTURE.Polaris.hudTest",
    on: (f) => (f.polaris.on ? f.polaris : null),
  },
];

/** The actor-data preset the first-run window sets for a game (Polaris: its own paths, typed once). */
const GAME_PATHS: Record<RulesetId, ActorDataPaths> = {
  rnp: DND5E_PATHS,
  dnd5e: DND5E_PATHS,
  pmt: OSE_PATHS,
  ose: OSE_PATHS,
  polaris: {
    ...EMPTY_PATHS,
    polarisInitiative: "system.initiative",
    polarisReaction: "system.reaction",
    polarisSkillLevel: "system.skills.*.level",
    polarisSkillMastery: "system.skills.*.mastery",
    polarisAttributeLevel: "system.attributes.*.value",
  },
};

export interface GameView extends Sample {
  /** The template under templates/, or "stand-in/<file>". */
  template: string;
}

/** The parts whose content depends on the game (see the file's comment), as `game` with `borrowed` shows them. */
export function gameViews(game: RulesetId, borrowed: FeatureBorrowings = {}): Record<string, GameView> {
  const f = features(game, borrowed);
  const actions = (l: Localize) =>
    PALETTE.flatMap(({ on, ...a }) => {
      const s = on(f);
      return s ? [{ ...a, borrowed: s.borrowed && s.from ? l(`AVENTURE.Feature.from.${s.from}`) : null }] : [];
    });
  return {
    "stand-in/settings-form.hbs": {
      template: "stand-in/settings-form.hbs",
      kind: "dialog",
      title: "Configure Settings",
      width: 640,
      context: (l) => settingsContext(l, game, borrowed),
    },
    "actor-data.hbs": {
      template: "actor-data.hbs",
      kind: "dialog",
      title: "AVENTURE.ActorData.title",
      width: 620,
      context: (l) => actorDataContext(GAME_PATHS[game], [{ id: "aldric", name: "Aldric" }], null, l, f),
    },
    "hud/palette.hbs": {
      template: "hud/palette.hbs",
      kind: "hud",
      width: 380,
      height: 340,
      context: (l) => hudPaletteContext("aldric", actions(l), l, true),
    },
  };
}
