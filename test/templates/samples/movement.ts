/** Samples for the movement templates (see ../samples.ts): jump panel, fall card, fall dialog, ruler label. */
import { fallCardContext, fallDialogContext, jumpPanelContext } from "../../../src/movement/movement-context.js";
import { aventureLabel } from "../../../src/movement/label.js";
import type { Sample } from "../samples.js";

const langOf = (l: (k: string) => string) => (l("AVENTURE.Movement.Fall.title") === "Chute" ? "fr" : "en");

export const SAMPLES: Record<string, Sample> = {
  "movement/jumps.hbs": {
    kind: "dialog",
    title: "AVENTURE.Movement.Jump.title",
    width: 420,
    context: (l) =>
      jumpPanelContext(
        // Old-School Essentials borrowing Rôle'n Play's jumps (docs/rules.md §0): the jumps, labelled, and OSE's encounter movement.
        {
          name: "Aldric",
          ruleset: "ose",
          rulesetLabel: l("AVENTURE.Ruleset.ose"),
          strScore: 15,
          strMod: 2,
          height: 1.8,
          lang: langOf(l),
          borrowed: { jumps: "rnp" },
        },
        (k, d) => l(k, d),
      ),
  },
  // Portes, Monstres & Trésors: no jumps (one line), its encounter movement and running.
  "movement/jumps.hbs#pmt": {
    kind: "dialog",
    title: "AVENTURE.Movement.Jump.title",
    width: 420,
    context: (l) =>
      jumpPanelContext(
        {
          name: "Aldric",
          ruleset: "pmt",
          rulesetLabel: l("AVENTURE.Ruleset.pmt"),
          strScore: 15,
          strMod: 2,
          height: 1.8,
          lang: langOf(l),
        },
        (k, d) => l(k, d),
      ),
  },
  // Old-School Essentials' own falls (OSE SRD): no damage type, no prone.
  "movement/fall-card.hbs#ose": {
    kind: "card",
    context: (l) =>
      fallCardContext(
        {
          name: "Aldric",
          metres: 9,
          dice: 3,
          total: 11,
          applied: true,
          prone: false,
          source: "region",
          lang: langOf(l),
          ruleset: "ose",
        },
        (k, d) => l(k, d),
      ),
  },
  "movement/fall-dialog.hbs#ose": {
    kind: "dialog",
    title: "AVENTURE.Movement.Fall.title",
    width: 360,
    context: (l) =>
      fallDialogContext({ names: ["Aldric"], metres: 7.5, lang: langOf(l), ruleset: "ose" }, (k, d) => l(k, d)),
  },
  // Portes, Monstres & Trésors borrowing Rôle'n Play's falls: labelled.
  "movement/fall-dialog.hbs#borrowed": {
    kind: "dialog",
    title: "AVENTURE.Movement.Fall.title",
    width: 360,
    context: (l) =>
      fallDialogContext(
        { names: ["Aldric"], metres: 7.5, lang: langOf(l), ruleset: "rnp", borrowed: l("AVENTURE.Feature.from.rnp") },
        (k, d) => l(k, d),
      ),
  },
  "movement/fall-card.hbs": {
    kind: "card",
    context: (l) =>
      fallCardContext(
        {
          name: "Aldric",
          metres: 9,
          dice: 3,
          total: 11,
          applied: true,
          prone: true,
          source: "region",
          lang: langOf(l),
        },
        (k, d) => l(k, d),
      ),
  },
  "movement/fall-dialog.hbs": {
    kind: "dialog",
    title: "AVENTURE.Movement.Fall.title",
    width: 360,
    context: (l) => fallDialogContext({ names: ["Aldric", "Brune"], metres: 7.5, lang: langOf(l) }, (k, d) => l(k, d)),
  },
  "movement/waypoint-label.hbs": {
    kind: "ruler",
    // As Aventure's ruler builds it: the base label's fields (here core's, rendered by the stand-in partial) with
    // every length in metres (10 ft of elevation on a feet scene shown as 3 m), then Aventure's additions.
    context: (l) => ({
      aventureBase: "templates/hud/waypoint-label.hbs",
      action: { label: "AVENTURE.Movement.Jump.long" },
      cssClass: "aventure-exceeded",
      units: "m",
      aventureAthletics: l("AVENTURE.Movement.Ruler.athletics"),
      elevation: { total: "3", icon: "fa-solid fa-arrows-up-down", hidden: false, delta: "+3" },
      ...(() => {
        const a = aventureLabel({
          cost: 35,
          previousCost: 15,
          sceneUnits: "ft",
          unit: "ft",
          feetFactor: 0.3,
          display: "metres",
          budgetMetres: 9,
          jump: { metres: 6, longJump: 4.5 },
          lang: langOf(l),
          localize: (k, d) => l(k, d),
        });
        return { cost: a.cost, aventure: a };
      })(),
    }),
  },
};
