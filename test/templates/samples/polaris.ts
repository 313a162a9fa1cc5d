/** Samples for the Polaris templates (see ../samples.ts). */
import { polarisCardContext, polarisDialogContext } from "../../../src/apps/polaris-context.js";
import { phaseHeadersContext } from "../../../src/foundry/combat/tracker-context.js";
import { polarisTest } from "../../../src/rules/polaris.js";
import type { Sample } from "../samples.js";

export const SAMPLES: Record<string, Sample> = {
  "polaris/test-dialog.hbs": {
    kind: "dialog",
    title: "AVENTURE.Polaris.title",
    width: 400,
    context: (l) =>
      polarisDialogContext(
        { chance: "14", difficulty: "hard", custom: 0, secret: false, attempt: 2, pressed: false, label: "Pilotage", isGM: true },
        l,
      ),
  },
  "polaris/test-card.hbs": {
    kind: "card",
    context: (l) =>
      polarisCardContext(
        {
          label: "Pilotage",
          chance: 14,
          difficulty: "hard",
          retryPenalty: -1,
          die: 8,
          result: polarisTest({ chance: 14, difficulty: "hard", roll: 8, retryPenalty: -1, mastery: 4 }),
          hideDifficulty: false,
          kind: "skill",
        },
        l,
      ),
  },
  "polaris/tracker-phases.hbs": {
    kind: "tracker",
    title: "AVENTURE.Ruleset.polaris",
    width: 300,
    rows: [
      { id: "merc", name: "Mercenaire" },
      { id: "shark", name: "Requin" },
      { id: "diver", name: "Plongeur" },
      { id: "novice", name: "Novice" },
    ],
    context: (l) =>
      phaseHeadersContext(
        [
          { id: "merc", phase: 12, hasten: false, delayTo: null },
          { id: "shark", phase: 12, hasten: true, delayTo: null },
          { id: "diver", phase: 9, hasten: false, delayTo: null },
          { id: "novice", phase: 5, hasten: false, delayTo: 5 },
        ],
        l,
      ),
  },
  "polaris/delay.hbs": {
    kind: "dialog",
    title: "AVENTURE.Polaris.delay",
    width: 360,
    context: (l) => ({
      name: "Mercenaire",
      delayed: true,
      phases: [11, 10, 9, 8].map((p) => ({ value: p, label: l("AVENTURE.Polaris.phase", { phase: p }), selected: p === 9 })),
    }),
  },
};
