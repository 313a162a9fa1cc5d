/** Samples for the light feature's templates (see ../samples.ts): the HUD panel and the hiding cards. */
import { lightHudContext } from "../../../src/light/light-hud-context.js";
import {
  detectionCardContext,
  hideCardContext,
  hideEndCardContext,
  searchCardContext,
} from "../../../src/light/hide-card-context.js";
import type { Sample } from "../samples.js";

export const SAMPLES: Record<string, Sample> = {
  "light/hud.hbs": {
    kind: "hud",
    width: 380,
    // Drawn open: the badge's line and its details.
    context: () => ({
      open: true,
      ...lightHudContext({
        level: "dark",
        obscurity: "light",
        perceived: "dim",
        sense: "darkvision",
        effect: "disadvantage",
        senses: [
          { sense: "darkvision", range: 18, from: "actor" },
          { sense: "blindsight", range: 3, from: "detection" },
          { sense: "truesight", range: 1_000_000, from: "detection" },
        ],
        darkness: 0.85,
        globalLight: false,
        inDarkness: false,
        effectsOn: true,
        hidden: { dc: 15, from: 2 },
        searching: true,
      }),
    }),
  },
  // A game without light rules (Portes, Monstres & Trésors, Old-School Essentials, Polaris): the level only, and one line.
  "light/hud.hbs#ose": {
    kind: "hud",
    width: 380,
    context: (l) => ({
      open: true,
      ...lightHudContext({
        level: "dim",
        perceived: "dim",
        sense: "none",
        effect: "disadvantage",
        senses: [],
        darkness: 0.5,
        globalLight: true,
        inDarkness: false,
        effectsOn: false,
        hidden: null,
        rulesOn: false,
        noRule: l("AVENTURE.Feature.noRule", {
          game: l("AVENTURE.Ruleset.ose"),
          feature: l("AVENTURE.Feature.name.lightEffects"),
        }),
      }),
    }),
  },
  "light/hide-card.hbs": {
    kind: "card",
    context: () =>
      hideCardContext({
        hider: "Lysandre",
        dc: 15,
        hidden: true,
        observers: [
          { name: "Pontgarde", passive: 10, spotted: false, because: "darkness" },
          { name: "Sergent Varenne", passive: 14, spotted: false, because: "cover" },
          { name: "Chien de garde", passive: 18, spotted: true, because: "darkness" },
          { name: "Capitaine Orsane", passive: 13, searchRoll: 17, spotted: true, because: "cover" },
          { name: "Espion", passive: null, spotted: null, because: "darkness" },
          { name: "Guetteur", passive: null, spotted: null, notRolled: true, because: "cover" },
        ],
      }),
  },
  "light/search-card.hbs": {
    kind: "card",
    context: () =>
      searchCardContext({
        observer: "Sergent Varenne",
        roll: 16,
        rows: [
          { name: "Lysandre", dc: 15, spotted: true, stillHidden: true },
          { name: "Corbin", dc: 12, spotted: true, stillHidden: false },
          { name: "Mirelle", dc: 19, spotted: false, stillHidden: true },
        ],
      }),
  },
  "light/detection-card.hbs": {
    kind: "card",
    context: () =>
      detectionCardContext({
        rows: [
          {
            observerId: "orc2",
            hiderId: "aria",
            observer: "Orc 2",
            hider: "Aria",
            passive: 17,
            roll: null,
            dc: 12,
            reason: "dim",
            status: "pending",
            ended: false,
          },
          {
            observerId: "cap",
            hiderId: "aria",
            observer: "Capitaine Orsane",
            hider: "Aria",
            passive: null,
            roll: 15,
            dc: 12,
            reason: "obscured",
            status: "revealed",
            ended: false,
          },
          {
            observerId: "dog",
            hiderId: "corbin",
            observer: "Chien de garde",
            hider: "Corbin",
            passive: 16,
            roll: null,
            dc: 14,
            reason: "none",
            status: "revealed",
            ended: true,
          },
          {
            observerId: "orc3",
            hiderId: "corbin",
            observer: "Orc 3",
            hider: "Corbin",
            passive: 19,
            roll: null,
            dc: 14,
            reason: "obscured",
            status: "ignored",
            ended: false,
          },
        ],
        skipped: [
          { name: "Statue", reason: "noActor" },
          { name: "Coffre", reason: "noPassive" },
        ],
      }),
  },
  "light/hide-end-card.hbs": {
    kind: "card",
    context: () => hideEndCardContext({ hider: "Lysandre", event: "leftDarkness", perceptionCheck: true, dc: 14 }),
  },
};
