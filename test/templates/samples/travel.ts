/** Samples for the Travel dialog (a party of four on a forced march through a forest) and the journey card. */
import {
  applyChange,
  defaultState,
  travelContext,
  type Localize as ContextLocalize,
  type TravelRouteState,
} from "../../../src/travel/travel-context.js";
import { travelCardContext, type RolledSave, type SurvivalResult } from "../../../src/travel/card.js";
import { planInput, type MemberSnapshot, type TravelRequest } from "../../../src/travel/request.js";
import { planRouteJourney } from "../../../src/travel/route-plan.js";
import { travelOutcome, travelSurvivalChecks } from "../../../src/rules/travel.js";
import type { Localize, Sample } from "../samples.js";

export const PARTY: MemberSnapshot[] = [
  { actorId: "aria", name: "Aria", conMod: 2, passivePerception: 14, exhaustion: 0, fasting: 0, thirst: 0 },
  { actorId: "bram", name: "Bram", conMod: 0, passivePerception: 12, exhaustion: 0, fasting: 0, thirst: 0 },
  { actorId: "cyl", name: "Cyl", conMod: -1, passivePerception: 16, exhaustion: 1, fasting: 1, thirst: 0 },
  { actorId: "dun", name: "Dun", conMod: 1, passivePerception: null, exhaustion: 0, fasting: 0, thirst: 0 },
];

/**
 * A route drawn on a regional map (1 km a space): 18 km of road, then 45 km through the Forêt de Brocéliande, the
 * party's four tokens moved along it.
 */
export const ROUTE: TravelRouteState = {
  sceneId: "armorique",
  points: [
    { x: 100, y: 500 },
    { x: 1900, y: 500 },
    { x: 6400, y: 500 },
  ],
  tokenIds: ["tAria", "tBram", "tCyl", "tDun"],
  legs: [
    { metres: 18000, terrain: "normal", regions: [], from: 0, to: 18000 },
    { metres: 45000, terrain: "difficult", regions: ["Forêt de Brocéliande"], from: 18000, to: 63000 },
  ],
};

/** Three days along the route at normal pace, 10 hours a day: forced march every day. */
export function forcedMarchState() {
  let s = defaultState(PARTY, 8, ROUTE);
  const changes: [string, string | boolean][] = [
    ["hoursPerDay", "10"],
    ["members.0.activity", "watch"],
    ["members.1.food", "half"],
    ["members.1.water", "half"],
    ["members.1.activity", "navigate"],
    ["members.2.food", "none"],
    ["members.2.activity", "map"],
    ["members.3.water", "none"],
    ["members.3.ppInput", "11"],
  ];
  for (const [k, v] of changes) s = applyChange(s, k, v);
  return s;
}

const env = (l: Localize, lang: string) => ({
  ruleset: "rnp" as const,
  trackFood: true,
  isGM: true,
  lang,
  localize: l as ContextLocalize,
  addable: [{ id: "eve", name: "Eve" }],
  worldTime: 7 * 3600,
});

const langOf = (l: Localize) => (l("AVENTURE.Travel.apply") === "Appliquer" ? "fr" : "en");

export function cardSample(l: Localize) {
  const state = forcedMarchState();
  const ctx = travelContext(state, env(l, langOf(l)));
  const req = ctx.request as TravelRequest;
  const members = state.members.map((m) => ({ ...m, passivePerception: m.passivePerception ?? 11 }));
  const journey = planRouteJourney((legs) => planInput(req, members, "rnp", true, legs), ROUTE.legs, null);
  const plan = journey.plan;
  // Fixed totals: Bram fails his first forced-march save and his first water save; Dun fails day 2, hour 10.
  const fail = new Set(["bram:1:forcedMarch:9", "bram:1:dehydration", "dun:2:forcedMarch:10"]);
  const rolled: RolledSave[] = plan.saves.map((s, i) => {
    const total = fail.has(s.id) ? s.dc - 3 : s.dc + (i % 5);
    const natural = total - (PARTY.find((m) => m.actorId === s.memberId)!.conMod ?? 0);
    return {
      id: s.id,
      memberId: s.memberId,
      day: s.day,
      kind: s.kind,
      hour: s.hour,
      dc: s.dc,
      total,
      natural,
      success: total >= s.dc,
    };
  });
  const outcome = travelOutcome(plan, Object.fromEntries(rolled.map((r) => [r.id, r.total])));
  // Bram navigates (Wisdom (Survival) DC 10): he loses the way on day 2.
  const survival: SurvivalResult[] = travelSurvivalChecks(plan, req.survivalDC).map((c) => {
    const natural = c.day === 2 ? 6 : 12 + c.day;
    return {
      memberId: c.memberId,
      day: c.day,
      activity: c.activity,
      total: natural,
      dc: c.dc,
      success: natural >= c.dc,
      natural,
    };
  });
  return travelCardContext(plan, outcome, rolled, plan.durationSeconds, {
    localize: l as ContextLocalize,
    lang: langOf(l),
    trackFood: true,
    exhaustionTracked: [true, true, true, true],
    // A pmt-style daily lost check of 20 %: the second day's 1d100 is 12, the group goes astray.
    lost: [
      { day: 1, chance: 20, roll: 64, lost: false },
      { day: 2, chance: 20, roll: 12, lost: true },
      { day: 3, chance: 20, roll: 87, lost: false },
    ],
    survival,
    route: { legs: journey.legs, reached: journey.reached, total: journey.total, stopped: false },
    departure: 7 * 3600,
    status: l("AVENTURE.Travel.Card.status.undone"),
  });
}

export const SAMPLES: Record<string, Sample> = {
  "travel/form.hbs": {
    kind: "dialog",
    title: "AVENTURE.Travel.title",
    width: 880,
    context: (l) => travelContext(forcedMarchState(), env(l, langOf(l))),
  },
  "travel/summary.hbs": {
    kind: "dialog",
    title: "AVENTURE.Travel.title",
    width: 880,
    context: (l) => travelContext(forcedMarchState(), env(l, langOf(l))),
  },
  "travel/card.hbs": {
    kind: "card",
    width: 300,
    // Three days of forced march, one day lost, a death: the common case at a glance, the rolls folded.
    heightBudget: 365,
    context: (l) => cardSample(l),
  },
};
