/** Samples for the Polaris templates (see ../samples.ts); "<template>#<variant>" shows a template in another state. */
import {
  polarisCardContext,
  polarisDialogContext,
  type PolarisTestState,
} from "../../../src/polaris/polaris-context.js";
import { phaseHeadersContext } from "../../../src/combat/tracker-context.js";
import { countdownLeft, DIFFICULTIES, POLARIS_DIFFICULTY_IDS, polarisTest } from "../../../src/rules/polaris.js";
import type { Localize, Sample } from "../samples.js";

const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");
const l2 = (l: Localize) => (k: string, d?: Record<string, string | number>) => l(k, d);

/** A GM's dialog for Mercenaire's Pilotage (skills from the actor), 1 degree harder, a countdown of 3, pressed. */
function state(over: Partial<PolarisTestState> = {}): PolarisTestState {
  return {
    chance: "14",
    kind: "skill",
    skill: "pilotage",
    attribute: "",
    mastery: "4",
    difficulty: "hard",
    custom: 0,
    harder: "1",
    secret: false,
    attempt: 1,
    pressed: true,
    label: "Mercenaire — Pilotage",
    isGM: true,
    countdown: { max: "3", catastropheCost: 2, tests: [polarisTest({ chance: 14, difficulty: "veryHard", roll: 11 })] },
    last: null,
    actorName: "Mercenaire",
    skills: [
      { key: "adaptation", label: "Adaptation", level: 11, mastery: 2 },
      { key: "pilotage", label: "Pilotage", level: 14, mastery: 4 },
      { key: "plongee", label: "Plongée", level: 12, mastery: 3 },
    ],
    attributes: [],
    ...over,
  };
}

/** Chance 14, Difficile raised by 1 (Très difficile −7), second attempt pressed (−3): final 4; die 4 = critical. */
const critical = polarisTest({ chance: 14, difficulty: "veryHard", roll: 4, retryPenalty: -3, mastery: 4 });
const firstTry = polarisTest({ chance: 14, difficulty: "veryHard", roll: 11 });
/** A catastrophe: chance 5, Difficile, die 20 → margin 20, Catastrophique. */
const catastrophe = polarisTest({ chance: 5, difficulty: "hard", roll: 20 });

export const SAMPLES: Record<string, Sample> = {
  "polaris/test-dialog.hbs": {
    kind: "dialog",
    title: "AVENTURE.Polaris.title",
    width: 480,
    context: (l) => polarisDialogContext(state(), l2(l)),
  },
  "polaris/test-dialog.hbs#attribute": {
    kind: "dialog",
    title: "AVENTURE.Polaris.title",
    width: 480,
    context: (l) =>
      polarisDialogContext(
        state({
          kind: "attribute",
          chance: "9",
          isGM: false,
          label: "",
          actorName: "",
          skills: [],
          harder: "",
          pressed: false,
          countdown: { max: "", catastropheCost: 1, tests: [] },
          attempt: 2,
        }),
        l2(l),
      ),
  },
  "polaris/test-summary.hbs": {
    kind: "dialog",
    title: "AVENTURE.Polaris.title",
    width: 480,
    context: (l) => polarisDialogContext(state({ last: { die: 11, result: firstTry, kind: "skill" } }), l2(l)),
  },
  "polaris/test-summary.hbs#critical": {
    kind: "dialog",
    title: "AVENTURE.Polaris.title",
    width: 480,
    context: (l) =>
      polarisDialogContext(
        state({
          countdown: { max: "3", catastropheCost: 2, tests: [firstTry, critical] },
          last: { die: 4, result: critical, kind: "skill" },
        }),
        l2(l),
      ),
  },
  "polaris/test-summary.hbs#exhausted": {
    kind: "dialog",
    title: "AVENTURE.Polaris.title",
    width: 480,
    context: (l) =>
      polarisDialogContext(
        state({
          chance: "5",
          skill: "",
          difficulty: "hard",
          harder: "",
          countdown: { max: "3", catastropheCost: 2, tests: [catastrophe] },
          last: { die: 20, result: catastrophe, kind: "skill" },
        }),
        l2(l),
      ),
  },
  "polaris/test-card.hbs": {
    kind: "card",
    context: (l) =>
      polarisCardContext(
        {
          label: "Mercenaire — Pilotage",
          chance: 14,
          difficulty: "veryHard",
          harder: { from: "hard", steps: 1 },
          retryPenalty: -3,
          die: 4,
          result: critical,
          hideDifficulty: false,
          kind: "skill",
          countdown: { max: 3, cost: 2, after: countdownLeft(3, [firstTry, critical], 2) },
        },
        l2(l),
      ),
  },
  "polaris/test-card.hbs#exhausted": {
    kind: "card",
    context: (l) =>
      polarisCardContext(
        {
          label: "Plongeuse — Plongée",
          chance: 5,
          difficulty: "hard",
          retryPenalty: 0,
          die: 20,
          result: catastrophe,
          hideDifficulty: false,
          kind: "skill",
          countdown: { max: 3, cost: 2, after: countdownLeft(3, [catastrophe], 2) },
        },
        l2(l),
      ),
  },
  "polaris/test-card.hbs#intention": {
    kind: "card",
    context: (l) =>
      polarisCardContext(
        {
          label: "",
          title: l("AVENTURE.Polaris.intention.title", { name: "Requin" }),
          chanceLabel: l("AVENTURE.Polaris.intention.chance"),
          chance: 5,
          difficulty: "average",
          retryPenalty: 0,
          die: 20,
          result: polarisTest({ chance: 5, difficulty: "average", roll: 20 }),
          hideDifficulty: false,
          kind: "skill",
          notes: [l("AVENTURE.Polaris.intention.confused", { name: "Requin" })],
        },
        l2(l),
      ),
  },
  "polaris/intention.hbs": {
    kind: "dialog",
    title: "AVENTURE.Polaris.intention.menu",
    width: 420,
    // askIntention (src/polaris/hooks.ts): DialogV2.prompt with an OK button labelled "Roll 1d20".
    buttons: [{ label: "AVENTURE.Polaris.roll", icon: "fa-solid fa-check" }],
    context: (l) => ({
      name: "Plongeuse",
      chance: "",
      mastery: "2",
      difficulty: "average",
      difficulties: POLARIS_DIFFICULTY_IDS.map((id) => ({
        value: id,
        label: `${l(`AVENTURE.Polaris.difficulty.${id}`)} (${signed(DIFFICULTIES[id].modifier)})`,
      })),
    }),
  },
  "polaris/tracker-phases.hbs": {
    kind: "tracker",
    title: "AVENTURE.Ruleset.polaris",
    width: 300,
    rows: [
      // The initiative core shows is the combatant's phase.
      { id: "merc", name: "Mercenaire", initiative: 12 },
      { id: "shark", name: "Requin", initiative: 12 },
      { id: "diver", name: "Plongeur", initiative: 9 },
      { id: "novice", name: "Novice", initiative: 5 },
    ],
    context: (l) =>
      phaseHeadersContext(
        [
          { id: "merc", phase: 12, hasten: false, delayTo: null },
          { id: "shark", phase: 12, hasten: true, delayTo: null, confused: true },
          { id: "diver", phase: 9, hasten: false, delayTo: null },
          { id: "novice", phase: 5, hasten: false, delayTo: 5 },
        ],
        l2(l),
      ),
  },
  "polaris/delay.hbs": {
    kind: "dialog",
    title: "AVENTURE.Polaris.delay",
    width: 360,
    // askDelay (src/combat/hooks.ts): DialogV2.prompt with an OK button labelled "Delay".
    buttons: [{ label: "AVENTURE.Polaris.delay", icon: "fa-solid fa-check" }],
    context: (l) => ({
      name: "Mercenaire",
      delayed: true,
      phases: [11, 10, 9, 8].map((p) => ({
        value: p,
        label: l("AVENTURE.Polaris.phase", { phase: p }) as string,
        selected: p === 9,
      })),
    }),
  },
};
