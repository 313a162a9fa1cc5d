/** Samples for the encounter and side-initiative templates (see ../samples.ts). */
import {
  encounterCardContext,
  encounterDialogContext,
  type EncounterDialogState,
} from "../../../src/encounter/encounter-context.js";
import { sideHeadersContext, sideRoundCardContext } from "../../../src/combat/tracker-context.js";
import type { EncounterResult } from "../../../src/encounter/run.js";
import { surprisedSides } from "../../../src/rules/encounter.js";
import type { Sample } from "../samples.js";

const result: EncounterResult = {
  ruleset: "ose",
  rules: "ose",
  where: "wilderness",
  surprise: {
    rolls: { friendly: 5, neutral: null, hostile: 2 },
    outcome: surprisedSides(
      [
        { id: "friendly", surprised: false },
        { id: "neutral", surprised: false },
        { id: "hostile", surprised: true },
      ],
      "ose",
    ),
  },
  distance: { metres: 30, dice: [3], formula: "1d4*10", multiplier: 10 },
  reaction: { dice: [4, 5], modifier: 2, total: 11, result: "indifferent" },
};

const state: EncounterDialogState = {
  ruleset: "ose",
  where: "wilderness",
  tokens: [
    { id: "a", name: "Aldric", side: "friendly", chaMod: 2 },
    { id: "b", name: "Brune", side: "friendly", chaMod: -1 },
    { id: "c", name: "Colporteur", side: "neutral", chaMod: 0 },
    { id: "o1", name: "Orc", side: "hostile", chaMod: null },
    { id: "o2", name: "Orc chef", side: "hostile", chaMod: null },
  ],
  aware: { neutral: true },
  speakerId: "a",
  rollReaction: true,
  gmOnly: false,
  result: null,
};

export const SAMPLES: Record<string, Sample> = {
  "encounter/dialog.hbs": {
    kind: "dialog",
    title: "AVENTURE.Encounter.title",
    width: 480,
    context: (l) => encounterDialogContext(state, l),
  },
  "encounter/card.hbs": {
    kind: "card",
    context: (l) => encounterCardContext(result, "Aldric", l),
  },
  "encounter/side-round.hbs": {
    kind: "card",
    context: (l) =>
      sideRoundCardContext(
        {
          round: 3,
          rolls: [
            { pass: 0, rolls: { friendly: 4, neutral: 4, hostile: 2 } },
            { pass: 1, rolls: { friendly: 3, neutral: 6 } },
          ],
          groups: [["neutral"], ["friendly"], ["hostile"]],
          skipped: [],
          fellBack: false,
          partial: false,
        },
        l,
      ),
  },
  "encounter/tracker-sides.hbs": {
    kind: "tracker",
    title: "AVENTURE.Ruleset.ose",
    width: 300,
    rows: [
      // Each combatant carries its side's initiative; the surprised side has none this round.
      { id: "a", name: "Aldric", initiative: 5 },
      { id: "b", name: "Brune", initiative: 5 },
      { id: "c", name: "Colporteur", initiative: 5 },
      { id: "o1", name: "Orc", initiative: "—" },
      { id: "o2", name: "Orc chef", initiative: "—" },
    ],
    context: (l) =>
      // Round 1 after an ambush: the hostile side is surprised (no roll, skipped), friendly and neutral
      // rolled 5 and act simultaneously; the rows come in the tracker's order (core sorts by initiative).
      sideHeadersContext(
        [
          { id: "a", side: "friendly", initiative: 5, skipped: false },
          { id: "b", side: "friendly", initiative: 5, skipped: false },
          { id: "c", side: "neutral", initiative: 5, skipped: false },
          { id: "o1", side: "hostile", initiative: null, skipped: true },
          { id: "o2", side: "hostile", initiative: null, skipped: true },
        ],
        l,
      ),
  },
};
