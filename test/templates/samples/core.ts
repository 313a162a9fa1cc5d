/** Samples for the foundation's templates (see ../samples.ts). */
import { actorDataContext } from "../../../src/actors/actor-data-context.js";
import { DND5E_PATHS } from "../../../src/actors/presets.js";
import { proposalCardContext } from "../../../src/core/proposal-context.js";
import type { Sample } from "../samples.js";

const hero = {
  id: "hero",
  name: "Aldric",
  system: {
    abilities: {
      str: { value: 15, mod: 2 },
      dex: { value: 14, mod: 2 },
      con: { value: 13, mod: 1 },
      cha: { value: 8, mod: -1 },
    },
    skills: { prc: { passive: 13 } },
    attributes: {
      senses: { darkvision: 60, units: "ft" },
      movement: { walk: 30, units: "ft" },
      hp: { value: 12, max: 12 },
      exhaustion: 0,
    },
  },
};

export const SAMPLES: Record<string, Sample> = {
  "actor-data.hbs": {
    kind: "dialog",
    title: "AVENTURE.ActorData.title",
    width: 620,
    context: (l) =>
      actorDataContext(
        { ...DND5E_PATHS, polarisInitiative: "system.polaris.init" },
        [hero, { id: "b", name: "Brune" }],
        hero,
        l,
      ),
  },
  // In use: the GM typed a path with a typo for the Strength score ("valeur") and checks it on Aldric, in a window
  // of the default width: the field is marked, the note says why, the other fields show what they read.
  "actor-data.hbs#missing": {
    kind: "dialog",
    title: "AVENTURE.ActorData.title",
    width: 480,
    context: (l) =>
      actorDataContext(
        { ...DND5E_PATHS, strScore: "system.abilities.str.valeur | system.abilities.str.score" },
        [hero, { id: "b", name: "Brune" }],
        hero,
        l,
      ),
  },
  "proposal-card.hbs": {
    kind: "card",
    context: (l) =>
      proposalCardContext(
        {
          title: "AVENTURE.Travel.title",
          proposer: "Camille",
          // Built with the card's own strings, so that the French sample reads French.
          lines: [
            l("AVENTURE.Travel.Proposal.party", { names: "Aria, Bram" }),
            l("AVENTURE.Travel.Proposal.item", { label: l("AVENTURE.Travel.Field.hoursPerDay"), value: "8" }),
          ],
          status: "pending",
          decidedBy: "",
          outcome: "",
          error: "",
        },
        (k, d) => l(k, d),
      ),
  },
};
