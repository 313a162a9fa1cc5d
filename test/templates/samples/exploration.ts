/**
 * Samples for the exploration templates (see ../samples.ts): the Exploration panel of a Rôle'n Play party at turn 7
 * (the rest overdue, a torch about to burn out, a light out, a token gone, a setting the rules refused; Rôle'n Play has
 * no wandering checks, and the rules say so in one line), the card of two turns with wandering monsters on the first
 * check and a torch burning out (Portes, Monstres & Trésors or Old-School Essentials), the card of two Rôle'n Play
 * turns (no check: its book has none), and the same with the checks borrowed from Old-School Essentials (labelled).
 */
import {
  explorationCardContext,
  explorationPanelContext,
  type Localize as ContextLocalize,
} from "../../../src/exploration/exploration-context.js";
import { featureNote } from "../../../src/core/feature-context.js";
import {
  addLight,
  features,
  startExploration,
  type ExplorationState,
  type FeatureBorrowings,
} from "../../../src/rules/index.js";
import type { ExplorationRecord } from "../../../src/exploration/record.js";
import type { Localize, Sample } from "../samples.js";

const langOf = (l: Localize) => (l("AVENTURE.Exploration.putOut") === "Éteindre" ? "fr" : "en");

function state(): ExplorationState {
  let s = startExploration("rnp");
  s = addLight(s, { id: "scene1.tA", kind: "torch" });
  s = addLight(s, { id: "scene1.tG", kind: "lantern" });
  return {
    ...s,
    turn: 7,
    turnsSinceRest: 7,
    lights: [
      { id: "scene1.tA", kind: "torch", turnsLeft: 1 },
      { id: "scene1.tG", kind: "lantern", turnsLeft: 17 },
    ],
  };
}

function record(): ExplorationRecord {
  return {
    v: 1,
    rev: 12,
    state: state(),
    time: 4200,
    party: [
      { sceneId: "scene1", tokenId: "tA", name: "Aldric" },
      { sceneId: "scene1", tokenId: "tB", name: "Brune" },
      { sceneId: "scene1", tokenId: "tC", name: "Cyril" },
      { sceneId: "scene1", tokenId: "tD", name: "Doria" },
    ],
    restDue: true,
    op: null,
  };
}

function panelSample(l: Localize) {
  const lang = langOf(l);
  const rec = record();
  return explorationPanelContext(
    {
      record: rec,
      ruleset: "rnp",
      options: rec.state!.options,
      bad: [
        {
          setting: "explorationTorchTurns",
          value: 0,
          error: l("AVENTURE.Error.OutOfRange", { name: l("AVENTURE.Arg.torchTurns"), value: 0, min: 1, max: 1000 }),
          fallback: 6,
        },
      ],
      wandering: rnpWandering(l),
      worldTime: 4440,
      members: [
        { sceneId: "scene1", tokenId: "tA", name: "Aldric", gone: false, dark: false },
        { sceneId: "scene1", tokenId: "tB", name: "Brune", gone: false, dark: false },
        { sceneId: "scene1", tokenId: "tC", name: "Cyril", gone: false, dark: true },
        { sceneId: "scene1", tokenId: "tD", name: "Doria", gone: true, dark: false },
      ],
      otherNames: { "scene1.tG": "Pontgarde" },
      lang,
      busy: false,
    },
    l as ContextLocalize,
  );
}

/** Rôle'n Play's note about wandering checks: its book has none (docs/rules.md §0), unless borrowed. */
function rnpWandering(l: Localize, borrowed: FeatureBorrowings = {}) {
  return featureNote("rnp", "wandering", features("rnp", borrowed).wandering, l as ContextLocalize);
}

function rnpCardSample(l: Localize, borrowed: boolean) {
  return explorationCardContext(
    {
      action: "explore",
      seconds: 1200,
      turnFrom: 3,
      turnTo: 5,
      checks: borrowed ? [{ turn: 4, roll: 3, encounter: false }] : [],
      notRolled: 0,
      die: 6,
      chance: 1,
      wandering: borrowed,
      restDue: false,
      attackPenalty: 0,
      turnsSinceRest: 5,
      lightsOut: [],
    },
    {
      localize: l as ContextLocalize,
      lang: langOf(l),
      resumed: false,
      problems: [],
      wandering: rnpWandering(l, borrowed ? { wandering: "ose" } : {}),
    },
  );
}

function cardSample(l: Localize) {
  return explorationCardContext(
    {
      action: "explore",
      seconds: 1200,
      turnFrom: 5,
      turnTo: 7,
      checks: [{ turn: 6, roll: 1, encounter: true }],
      notRolled: 0,
      die: 6,
      chance: 1,
      wandering: true,
      restDue: true,
      attackPenalty: -1,
      turnsSinceRest: 7,
      lightsOut: [{ name: "Brune", kind: "torch" }],
    },
    { localize: l as ContextLocalize, lang: langOf(l), resumed: false, problems: [] },
  );
}

export const SAMPLES: Record<string, Sample> = {
  "exploration/panel.hbs": {
    kind: "dialog",
    title: "AVENTURE.Exploration.title",
    width: 500,
    context: (l) => panelSample(l),
  },
  "exploration/card.hbs": { kind: "card", width: 300, context: (l) => cardSample(l) },
  "exploration/card.hbs#rnp": { kind: "card", width: 300, context: (l) => rnpCardSample(l, false) },
  "exploration/card.hbs#borrowed": { kind: "card", width: 300, context: (l) => rnpCardSample(l, true) },
};
