/** Samples for the sheet of Aventure's Polaris character type (see ../samples.ts). */
import { polarisSheetContext } from "../../../src/polaris/polaris-sheet-context.js";
import type { PolarisActorSystem } from "../../../src/polaris/actor-type.js";
import type { Localize, Sample } from "../samples.js";

/** The Mercenaire of the rulebook's preview (seed 003) with three skills; `fr` names them in French. */
function mercenaire(fr: boolean): PolarisActorSystem {
  return {
    attributes: {
      for: { value: 14 },
      con: { value: 14 },
      coo: { value: 16 },
      ada: { value: 16 },
      per: { value: 12 },
      int: { value: 9 },
      vol: { value: 17 },
      pre: { value: 8 },
    },
    chance: 13,
    reaction: 14,
    initiative: 12,
    skills: {
      escalade: { label: fr ? "Escalade" : "Climbing", attribute: "coo", level: 11, mastery: 2 },
      skill2: { label: fr ? "Pilotage" : "Piloting", attribute: null, level: 14, mastery: 4 },
      skill3: { label: fr ? "Plongée sous-marine" : "Deep-sea diving", attribute: "con", level: 12, mastery: -1 },
    },
  };
}

/** A portrait stand-in (a coloured disc), as the tracker samples draw tokens. */
const PORTRAIT = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><circle cx="32" cy="32" r="30" fill="#3d6b8c" stroke="#000"/></svg>')}`;

const isFrench = (l: Localize) => l("AVENTURE.PolarisActor.skills") === "Compétences";

export const SAMPLES: Record<string, Sample> = {
  // The Mercenaire typed in, as its owner sees the sheet.
  "polaris/actor-sheet.hbs": {
    kind: "dialog",
    title: "TYPES.Actor.aventure.polaris",
    width: 560,
    context: (l) =>
      polarisSheetContext(
        { name: "Mercenaire", img: PORTRAIT, system: mercenaire(isFrench(l)), editable: true },
        (k, d) => l(k, d),
      ),
  },
  // The template just imported (nothing typed), as a player who does not own it sees it (read-only).
  "polaris/actor-sheet.hbs#template": {
    kind: "dialog",
    title: "TYPES.Actor.aventure.polaris",
    width: 560,
    context: (l) =>
      polarisSheetContext(
        {
          name: l("TYPES.Actor.aventure.polaris"),
          img: PORTRAIT,
          system: {
            attributes: {} as PolarisActorSystem["attributes"],
            chance: null,
            reaction: null,
            initiative: null,
            skills: {},
          },
          editable: false,
        },
        (k, d) => l(k, d),
      ),
  },
};
