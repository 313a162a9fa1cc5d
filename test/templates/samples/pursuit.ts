/**
 * Samples for the Pursuit templates (see ../samples.ts): the dialog before a chase, the card of an outdoor
 * chase's last day, and the log of a dungeon chase as the dialog shows it (rounds merged, exhaustion).
 */
import {
  chaseLines,
  defaultSetup,
  pursuitCardContext,
  pursuitDialogContext,
  type ChaseRecord,
  type PursuitSetup,
} from "../../../src/pursuit/pursuit-context.js";
import { startPursuit, type PursuitState } from "../../../src/rules/index.js";
import type { Localize, Sample } from "../samples.js";

function setup(): PursuitSetup {
  const s = defaultSetup();
  s.place = "outdoors";
  s.sceneId = "scene1";
  s.groups.party = { count: 4, speed: 9, tokenIds: ["a", "b", "c", "d"], names: ["Aldric", "Brune", "Cyril", "Doria"] };
  s.groups.opponents = { count: 2, speed: 12, tokenIds: ["g1", "g2"], names: ["Gobelin 1", "Gobelin 2"] };
  s.woods = true;
  return s;
}

/** A three-day chase: two failed escapes (not caught), then caught on day 3. */
function outdoorRecord(): ChaseRecord {
  const start: PursuitState = startPursuit({ fleeing: 4, pursuers: 2, fleeingBonus: 20, pursuersFaster: true });
  const outdoors: PursuitState = {
    ...start,
    day: 3,
    outcome: "caught",
    log: [
      { day: 1, chance: 90, band: 2, evasionRoll: 94, catchRoll: 71, outcome: "continues", reason: "notCaught" },
      { day: 2, chance: 90, band: 2, evasionRoll: 97, catchRoll: 88, outcome: "continues", reason: "notCaught" },
      { day: 3, chance: 90, band: 2, evasionRoll: 99, catchRoll: 12, outcome: "caught", reason: "caught" },
    ],
  };
  const s = setup();
  return {
    version: 1,
    id: "sample",
    step: 3,
    place: "outdoors",
    ruleset: "pmt",
    fleeingSide: "party",
    sceneId: "scene1",
    groups: s.groups,
    surprise: "none",
    startedBy: "gm",
    outdoors,
    dungeon: null,
    over: true,
    shownFrom: 2,
    exhaustedActors: [],
  };
}

function dungeonRecord(): ChaseRecord {
  const s = setup();
  return {
    ...outdoorRecord(),
    place: "dungeon",
    ruleset: "ose",
    step: 31,
    outdoors: null,
    over: false,
    shownFrom: 30,
    exhaustedActors: ["Aldric", "Brune"],
    groups: { party: { ...s.groups.party, count: 2, names: ["Aldric", "Brune"] }, opponents: s.groups.opponents },
    dungeon: {
      ruleset: "ose",
      fleeingSpeed: 9,
      pursuerSpeed: 12,
      pursuersCanCatch: true,
      pursues: null,
      suggested: null,
      rounds: 30,
      exhausted: true,
      outcome: "continues",
      log: [
        { kind: "start", round: 0, outcome: "continues", reason: "pursuit", reactionTotal: null, dropRoll: null },
        ...Array.from({ length: 29 }, (_, i) => ({
          kind: "round" as const,
          round: i + 1,
          outcome: "continues" as const,
          reason: "running" as const,
          reactionTotal: null,
          dropRoll: null,
        })),
        { kind: "round", round: 30, outcome: "continues", reason: "exhausted", reactionTotal: null, dropRoll: null },
      ],
    },
  };
}

const env = (l: Localize, busy = false) => ({
  ruleset: "pmt" as const,
  isGM: true,
  localize: (k: string, d?: Record<string, string | number>) => l(k, d),
  errorText: (e: unknown) => String(e),
  resumable: false,
  busy,
});

export const SAMPLES: Record<string, Sample> = {
  "pursuit/dialog.hbs": {
    kind: "dialog",
    title: "AVENTURE.Pursuit.title",
    width: 600,
    context: (l) => pursuitDialogContext(setup(), null, env(l)),
  },
  "pursuit/card.hbs": {
    kind: "card",
    // Day 3 finished after a reload, one write reported (the resumed note and a warning line in both themes).
    context: (l) =>
      pursuitCardContext(
        {
          ...outdoorRecord(),
          apply: {
            status: "applied",
            time: { before: 86400, after: 172800 },
            exhaust: null,
            resumed: true,
            problems: [{ key: "AVENTURE.Operation.drifted", data: { what: l("AVENTURE.Pursuit.stepTime") } }],
          },
        },
        (k, d) => l(k, d),
      ),
  },
  "pursuit/log.hbs": {
    kind: "card",
    context: (l) => ({ lines: chaseLines((k, d) => l(k, d), dungeonRecord(), 0, [], true) }),
  },
};
