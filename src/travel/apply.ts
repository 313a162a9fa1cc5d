/**
 * Applying a journey (on the active GM only) and undoing it (docs/security.md, docs/api/travel.md).
 *
 * Who may do what: a GM's journey is applied. A player's journey is a proposal for the GMs (proposals.ts, kind
 * "travel": Apply / Decline), unless the world setting "Players may apply journeys of their own characters" is on
 * and every member is the player's own character. A player may name characters they can see (a proposal the GM
 * decides); a character they cannot see is unknown to them. Everything reaches the active GM through the trusted
 * request channel (request "travelApply"; "travelUndo" for GMs only), whose sender comes from the server.
 *
 * Exactly once: everything is rolled first (saves through the system adapter, without the system's own chat
 * message; the daily lost checks with Foundry dice), nothing written. Then the journey card is posted, marked
 * "applying", holding the whole journal in absolute values (journey.ts); then the steps run (exhaustion, counters,
 * world time), each read back from the world; then the card is marked "applied". A write the server refuses rolls
 * back what was applied (state-based) and the card says so ("failed"). Undo marks the card "undoing" with the world
 * time to come back to, runs the inverse steps, marks it "undone". A card left "applying" or "undoing" (a reload, a
 * GM leaving) is finished by the active GM on ready, and says so. A value changed meanwhile is left alone and
 * reported; a deleted actor is skipped and reported.
 */
import { allowOrCancel, announce } from "../core/extension-hooks.js";
import { template } from "../core/constants.js";
import {
  survivalSaveSucceeds,
  travelLostCheck,
  travelOutcome,
  travelPlan,
  travelSurvivalChecks,
  TRAVEL_SURVIVAL_DC,
  type MarchingPosition,
  type TravelPlan,
  type TravelSurvivalCheck,
} from "../rules/travel.js";
import { adapterFor, type ActorAdapter, type ActorLike } from "../actors/api.js";
import { postCard } from "../core/chat.js";
import { cardUpdate } from "../core/card-model.js";
import { foundryDice } from "../core/dice.js";
import { isActiveGM } from "../core/gm.js";
import { errorMessage, t, tHtml, UserError } from "../core/i18n.js";
import { propose } from "../core/proposals.js";
import {
  execute,
  executorStamp,
  finishFirst,
  OperationLost,
  resume,
  type Executor,
  type Guard,
  type ReadBack,
  type StepGuard,
} from "../core/operations.js";
import type { ProposalApplyContext } from "../core/proposals.js";
import { getSetting } from "../core/settings.js";
import { formatDuration, formatKm, formatNumber, plural } from "./format.js";
import {
  legText,
  routeText,
  travelCardContext,
  type CardRoute,
  type LostCheck,
  type RolledSave,
  type SurvivalResult,
} from "./card.js";
import { counterValue } from "./counters.js";
import {
  readJourney,
  runJourneyReport,
  runJourneySteps,
  writeJourney,
  TRAVEL_CARD,
  type TokenAccess,
  type TravelCardFlag,
  type TravelJournal,
  type TravelJournalActor,
  type TravelJournalToken,
} from "./journey.js";
import { actorById, readSnapshot } from "./party.js";
import { parseRequest, planInput, type MemberSnapshot, type TravelRequest } from "./request.js";
import { planRouteJourney, type RouteJourney } from "./route-plan.js";
import { remainingRoute, type MeasuredRoute } from "./route/measure.js";
import {
  measureOnScene,
  routeScene,
  routeTokens,
  tokenTargets,
  type RouteScene,
  type RouteToken,
} from "./route/scene.js";
import { oseNextRequest, oseSeconds, oseTokenJournal, planOse, rollOse, type PlannedOse } from "./ose.js";
import { oseCardView, oseLegText } from "./ose-card.js";
import { tokenLevel } from "../core/compat.js";
import { flagModel, type Fields, docIdField } from "../core/flag-model.js";

/**
 * Most rolls one Apply makes (saves and daily lost checks, all attached to the one card): a longer journey is
 * split into several.
 */
export const MAX_TRAVEL_SAVES = 500;

export { TRAVEL_REQUEST_TIMEOUT } from "./request.js";

/** What the active GM answers to "travelApply": the journey card, or a proposal sent to the GMs. */
export interface TravelApplyAnswer {
  messageId: string | null;
  proposed: boolean;
}
/** What the API and the dialog resolve to: plain data, so every client localizes an error in its own language. */
export type TravelApplyResult =
  ({ ok: true } & TravelApplyAnswer) | { ok: false; key: string; data: Record<string, string | number> };

/** What the active GM answers to "travelUndo": the characters left alone (changed since) or gone. */
export interface TravelUndoAnswer {
  changedSince: string[];
  missing: string[];
  /**
   * True when the journey was to move world time but did not (the clock moved meanwhile, so its time step was left
   * alone on Apply): Undo leaves world time as it is.
   */
  timeLeft: boolean;
}
export type TravelUndoResult =
  ({ ok: true } & TravelUndoAnswer) | { ok: false; key: string; data: Record<string, string | number> };

/**
 * The data a travel proposal keeps on its card (written by the active GM): the request (checked again by its own model
 * when read, with its refusals) and the members that are not the proposer's own.
 */
const TravelProposalModel = flagModel({
  name: "AventureTravelProposal",
  schema: (f: Fields) => ({
    request: new f.AnyField({ required: true }),
    foreign: new f.ArrayField(docIdField(f), { required: true, initial: [], max: 1000 }),
  }),
});

/** Journey cards this client (the active GM) is applying, undoing or finishing now: never run twice at once. */
const running = new Set<string>();

let queue: Promise<unknown> = Promise.resolve();

/**
 * Runs `fn` after every apply, undo or recovery queued before it on this client (the active GM): two journeys asked
 * at once (two users) never read the same world time before, nor undo against each other's clock.
 */
function serial<T>(fn: () => Promise<T>): Promise<T> {
  const run = queue.then(fn, fn);
  queue = run.catch(() => undefined);
  return run;
}

/**
 * The world time a journey moves (seconds): its duration rounded to whole seconds, so world time never moves by a
 * fraction of a second (a journey under half a second moves none). 0 when the setting is off.
 */
function timeMoved(duration: number): number {
  return getSetting("travelAdvanceTime") ? Math.max(0, Math.round(duration)) : 0;
}

/**
 * What a journey really added to world time on Apply: the card's record, or for a card applied before it was kept,
 * the whole journey unless its time step was found changed (drifted) on Apply.
 */
function timeAdded(flag: TravelCardFlag): number {
  const time = flag.journal.time;
  if (!time) return 0;
  if (flag.timeAdded !== null) return flag.timeAdded;
  return flag.problems.some((p) => p.what === "time" && p.kind === "drifted" && p.phase === "apply")
    ? 0
    : time.after - time.before;
}

type OwnedActor = ActorLike & { testUserPermission(user: User, level: "LIMITED" | "OWNER"): boolean };

/**
 * The actors a request names: each must exist, and a player must at least see it (LIMITED, as the dialog's list);
 * an actor a player cannot see is unknown to them (its existence is not revealed). `viewer` null: a GM's authority.
 */
function resolveActors(req: TravelRequest, viewer: User | null): OwnedActor[] {
  return req.members.map((m) => {
    const a = actorById(m.actorId) as OwnedActor | null;
    if (!a || (viewer && !viewer.isGM && !a.testUserPermission(viewer, "LIMITED")))
      throw new UserError("AVENTURE.Travel.Error.UnknownActor", { id: m.actorId });
    return a;
  });
}

/** A journey along a route, as the GM measured it on the scene. */
interface PlannedRoute {
  scene: RouteScene;
  measured: MeasuredRoute;
  journey: RouteJourney;
  tokens: RouteToken[];
}

interface Planned {
  adapter: ActorAdapter;
  trackFood: boolean;
  snapshots: MemberSnapshot[];
  plan: TravelPlan;
  survival: TravelSurvivalCheck[];
  route: PlannedRoute | null;
  rollCount: number;
}

/**
 * Reads the actors (and, for a route, the scene: its grid, its regions, the party's tokens) and plans the journey
 * with the rules; refuses a journey over the roll cap. Writes nothing. A route is measured here, on the GM, from the
 * scene itself: whatever legs a client saw, these are the ones applied.
 */
function planJourney(req: TravelRequest, actors: ActorLike[]): Planned {
  const adapter = adapterFor();
  const trackFood = getSetting("travelTrackFood");
  const snapshots = actors.map((a) => readSnapshot(adapter, a));
  const ruleset = getSetting("ruleset");
  let plan: TravelPlan;
  let route: PlannedRoute | null = null;
  if (req.route) {
    const scene = routeScene(req.route.sceneId);
    const tokens = routeTokens(scene, req.route.tokenIds);
    const measured = measureOnScene(scene, req.route.points, tokens[0]?.elevation ?? 0, tokenLevel(tokens[0]));
    const journey = planRouteJourney(
      (legs) => planInput(req, snapshots, ruleset, trackFood, legs),
      measured.legs,
      req.route.days,
    );
    plan = journey.plan;
    route = { scene, measured, journey, tokens };
  } else plan = travelPlan(planInput(req, snapshots, ruleset, trackFood));
  const survival = travelSurvivalChecks(plan, req.survivalDC);
  const rollCount = plan.saves.length + plan.days.filter((d) => d.lostCheckChance !== null).length + survival.length;
  if (rollCount > MAX_TRAVEL_SAVES)
    throw new UserError("AVENTURE.Travel.Error.TooManySaves", { count: rollCount, max: MAX_TRAVEL_SAVES });
  return { adapter, trackFood, snapshots, plan, survival, route, rollCount };
}

const ORDER: Record<MarchingPosition, number> = { front: 0, middle: 1, rear: 2 };

/**
 * The party's tokens in marching order (the position of each token's actor in the plan: front, middle, rear; a token
 * of no member last), each with where it stands before and after the journey.
 */
function tokenJournal(planned: PlannedRoute, plan: TravelPlan): TravelJournalToken[] {
  const rank = (t: RouteToken) => {
    const m = plan.members.find((x) => x.id === t.actor?.id);
    return m ? ORDER[m.position] : 3;
  };
  const ordered = planned.tokens
    .map((t, i) => ({ t, i }))
    .sort((a, b) => rank(a.t) - rank(b.t) || a.i - b.i)
    .map((x) => x.t);
  const targets = tokenTargets(planned.measured, planned.journey.reached, ordered, planned.scene.grid.size);
  return ordered.map((t, i) => ({
    sceneId: planned.scene.id ?? "",
    tokenId: t.id ?? "",
    name: t.name,
    before: { x: t.x, y: t.y },
    after: targets[i]!,
    stops: [],
  }));
}

/** The rest of a route a journey stopped on, as the request "Continue the journey" opens with. */
function nextRequest(req: TravelRequest, planned: PlannedRoute): TravelRequest | null {
  if (!req.route || !planned.journey.stopped) return null;
  const points = remainingRoute(planned.measured.points, planned.journey.reached, planned.measured.metresPerPixel);
  return { ...req, route: { ...req.route, points, days: null } };
}

/** The save's flavor, given to the system's roll (HTML there: the name is escaped). */
function saveFlavor(plan: TravelPlan, s: TravelPlan["saves"][number]): string {
  const name = plan.members.find((m) => m.id === s.memberId)?.name ?? "";
  return s.kind === "forcedMarch"
    ? tHtml("AVENTURE.Travel.Save.forcedMarchFlavor", { name, day: s.day, hour: s.hour!, dc: s.dc })
    : tHtml("AVENTURE.Travel.Save.dehydrationFlavor", { name, day: s.day, dc: s.dc });
}

/**
 * Rolls every save of the plan, in order, through the adapter (once each), without the system's own chat
 * message: the journey card carries the rolls and lists every result. Nothing is written here.
 */
async function rollSaves(
  adapter: ActorAdapter,
  plan: TravelPlan,
  actors: ActorLike[],
): Promise<(RolledSave & { roll?: Roll })[]> {
  const byId = new Map(actors.map((a) => [a.id!, a]));
  const out: (RolledSave & { roll?: Roll })[] = [];
  for (const s of plan.saves) {
    const r = await adapter.rollSave(byId.get(s.memberId)!, "con", {
      dc: s.dc,
      flavor: saveFlavor(plan, s),
      message: false,
    });
    if (!Number.isFinite(r.total))
      throw new UserError("AVENTURE.Travel.Error.SaveNotRolled", { name: byId.get(s.memberId)!.name });
    out.push({
      id: s.id,
      memberId: s.memberId,
      day: s.day,
      kind: s.kind,
      hour: s.hour,
      dc: s.dc,
      total: r.total,
      natural: r.natural,
      success: survivalSaveSucceeds(s.id, r.total, s.dc),
      ...(r.roll ? { roll: r.roll } : {}),
    });
  }
  return out;
}

/** docs/rules.md §2.7 (pmt): the referee's 1d100 at the start of each day, with Foundry dice, judged by the rules. */
async function rollLostChecks(plan: TravelPlan): Promise<{ checks: LostCheck[]; rolls: Roll[] }> {
  const dice = foundryDice();
  const checks: LostCheck[] = [];
  for (const d of plan.days) {
    if (d.lostCheckChance === null) continue;
    const [roll] = await dice.roll(1, 100);
    if (roll === undefined) throw new UserError("AVENTURE.Travel.Error.Failed", { error: "1d100" });
    checks.push({ day: d.day, chance: d.lostCheckChance, roll, lost: travelLostCheck(d.lostCheckChance, roll) });
  }
  return { checks, rolls: dice.rolls };
}

/** The survival check's flavor, given to the system's roll (HTML there: the name is escaped). */
function survivalFlavor(plan: TravelPlan, c: TravelSurvivalCheck): string {
  const name = plan.members.find((m) => m.id === c.memberId)?.name ?? "";
  return tHtml("AVENTURE.Travel.Survival.flavor", {
    name,
    what: t(`AVENTURE.Travel.Activity.${c.activity}`),
    day: c.day,
    dc: c.dc,
  });
}

/**
 * docs/rules.md §2.6: the Wisdom (Survival) checks of the members who navigate, track or forage, once per travel day,
 * through the adapter (dnd5e: the actor's Survival skill; other systems: the configured data path), without the
 * system's own chat message. Rolled before anything is written, once each.
 */
async function rollSurvival(
  adapter: ActorAdapter,
  plan: TravelPlan,
  checks: readonly TravelSurvivalCheck[],
  actors: ActorLike[],
): Promise<(SurvivalResult & { roll?: Roll })[]> {
  const byId = new Map(actors.map((a) => [a.id!, a]));
  const out: (SurvivalResult & { roll?: Roll })[] = [];
  for (const c of checks) {
    const actor = byId.get(c.memberId)!;
    const r = await adapter.rollSkill(actor, "survival", { dc: c.dc, flavor: survivalFlavor(plan, c), message: false });
    if (!Number.isFinite(r.total)) throw new UserError("AVENTURE.Travel.Error.SaveNotRolled", { name: actor.name });
    out.push({
      memberId: c.memberId,
      day: c.day,
      activity: c.activity,
      total: r.total,
      dc: c.dc,
      success: r.total >= c.dc,
      natural: r.natural,
      ...(r.roll ? { roll: r.roll } : {}),
    });
  }
  return out;
}

/** Moves the party's tokens (the active GM): each in one movement straight to its place, all at once. */
const TOKENS: TokenAccess<RouteToken & { move?: unknown; update(data: object): Promise<unknown> }> = {
  get: (sceneId, tokenId) => game.scenes.get(sceneId)?.tokens.get(tokenId) ?? null,
  move: (moves) =>
    Promise.all(
      moves.map(({ token, x, y }) =>
        // v13 TokenDocument#move: a teleport-like "displace" (no path walked, no region crossed on the way).
        typeof token.move === "function"
          ? token.move([{ x, y, action: "displace" }], { method: "api", autoRotate: false, showRuler: false })
          : token.update({ x, y }),
      ),
    ),
};

/**
 * Runs a journey on this client, which must be the active GM — or, for a proposal a GM applies, the proposal's executor
 * (`guard`, checked before the card, its first write: proposals.ts): rolls everything, posts the card ("applying",
 * with the journal), applies the steps, marks the card applied. Resolves to the card's id. Throws a UserError when
 * refused, or when a write failed (then what was written is put back and the card says so).
 */
export function executeJourney(
  req: TravelRequest,
  actors: ActorLike[],
  proposer: string | null,
  guard?: StepGuard,
): Promise<string> {
  return serial(() => runJourney(req, actors, proposer, guard));
}

async function runJourney(
  req: TravelRequest,
  actors: ActorLike[],
  proposer: string | null,
  guard?: StepGuard,
): Promise<string> {
  if (guard) guard.check();
  else if (!isActiveGM()) throw new UserError("AVENTURE.Error.NoActiveGM");
  allowOrCancel("aventure.preTravel", { actors, proposerId: proposer });
  if (req.ose) return runOseJourney(req, actors, proposer, guard);
  const { adapter, trackFood, snapshots, plan, survival: checks, route } = planJourney(req, actors);
  const rolled = await rollSaves(adapter, plan, actors);
  const survival = await rollSurvival(adapter, plan, checks, actors);
  const lost = await rollLostChecks(plan);
  const outcome = travelOutcome(plan, Object.fromEntries(rolled.map((r) => [r.id, r.total])));
  const actorsJournal = actors.map((actor, i): TravelJournalActor => {
    const m = outcome.members[i]!;
    const s = snapshots[i]!;
    return {
      actorId: actor.id!,
      name: actor.name,
      exhaustion:
        s.exhaustion !== null && m.exhaustionAfter !== s.exhaustion
          ? { before: s.exhaustion, after: m.exhaustionAfter }
          : null,
      fasting: trackFood ? { before: counterValue(actor, "fastingDays"), after: m.fastingAfter } : null,
      thirst: trackFood ? { before: counterValue(actor, "thirstDays"), after: m.thirstAfter } : null,
    };
  });
  const now = game.time.worldTime;
  // A journey stopped after N days of a route takes N whole days (the night at the camp included).
  const seconds = timeMoved(route ? route.journey.durationSeconds : plan.durationSeconds);
  const journal: TravelJournal = {
    actors: actorsJournal,
    time: seconds > 0 ? { before: now, after: now + seconds } : null,
    tokens: route ? tokenJournal(route, plan) : [],
    days: null,
  };
  const flag: TravelCardFlag = {
    v: 2,
    status: "applying",
    journal,
    undoTime: null,
    timeAdded: null,
    lost: lost.checks,
    survival: survival.map(({ roll: _roll, ...c }) => c),
    next: route ? nextRequest(req, route) : null,
    problems: [],
    resumed: false,
    error: null,
    rolledBack: false,
    proposer,
    executor: executorStamp(),
  };
  const cardRoute: CardRoute | null = route
    ? {
        legs: route.journey.legs,
        reached: route.journey.reached,
        total: route.journey.total,
        stopped: route.journey.stopped,
      }
    : null;
  guard?.check();
  const message = await postCard({
    template: template("travel/card.hbs"),
    context: travelCardContext(plan, outcome, rolled, seconds, {
      localize: t,
      lang: game.i18n.lang,
      trackFood,
      exhaustionTracked: snapshots.map((s) => s.exhaustion !== null),
      lost: lost.checks,
      survival,
      route: cardRoute,
      departure: route?.journey.stopped ? null : now,
      status: t("AVENTURE.Travel.Card.status.applying"),
    }),
    rolls: [
      ...lost.rolls,
      ...rolled.flatMap((r) => (r.roll ? [r.roll] : [])),
      ...survival.flatMap((r) => (r.roll ? [r.roll] : [])),
    ],
    card: { kind: TRAVEL_CARD, state: flag },
  });
  return applyPosted(message, flag);
}

/** A journey's card is posted "applying": runs its operation (exactly once) and resolves to the card's id. */
async function applyPosted(message: ChatMessage | undefined, flag: TravelCardFlag): Promise<string> {
  if (!message?.id) throw new UserError("AVENTURE.Travel.Error.Failed", { error: "chat" });
  const id = message.id;
  running.add(id);
  try {
    await execute(`journey.${id}`, readJourneyOp(id), (guard) => finishApply(message, flag, false, guard));
  } finally {
    running.delete(id);
  }
  return id;
}

/**
 * An Old-School Essentials wilderness journey (docs/rules.md §12), on the active GM: the days rolled first with
 * Foundry dice (lost, wandering monsters, forage: for the GMs only, the card is whispered to them), then the card
 * posted "applying" with the journal (walked a day at a time: the party's tokens to where each day ends, then a day of
 * world time;
 * no actor data: rations are counted on the card), then the same exactly-once operation as every journey.
 */
async function runOseJourney(
  req: TravelRequest,
  actors: ActorLike[],
  proposer: string | null,
  guard?: StepGuard,
): Promise<string> {
  const planned = planOse(req, actors);
  const { journey, rolls } = await rollOse(planned);
  const now = game.time.worldTime;
  const seconds = oseSeconds(journey.days.length);
  const journal: TravelJournal = {
    actors: actors.map((a) => ({ actorId: a.id!, name: a.name, exhaustion: null, fasting: null, thirst: null })),
    time: seconds > 0 ? { before: now, after: now + seconds } : null,
    tokens: oseTokenJournal(planned, journey),
    // Walked a day at a time: each day the tokens move to where it ends, then world time moves a day.
    days: journey.days.length > 1 ? journey.days.length : null,
  };
  const flag: TravelCardFlag = {
    v: 2,
    status: "applying",
    journal,
    undoTime: null,
    timeAdded: null,
    lost: [],
    survival: [],
    next: oseNextRequest(req, planned, journey),
    problems: [],
    resumed: false,
    error: null,
    rolledBack: false,
    proposer,
    executor: executorStamp(),
  };
  guard?.check();
  const message = await postCard({
    template: template("travel/ose-card.hbs"),
    context: {
      ...oseView(planned, journey),
      time: seconds > 0 ? formatDuration(seconds, t) : t("AVENTURE.Travel.Proposal.timeUnchanged"),
      status: t("AVENTURE.Travel.Card.status.applying"),
    },
    rolls,
    gmOnly: true,
    card: { kind: TRAVEL_CARD, state: flag },
  });
  return applyPosted(message, flag);
}

/** The card's view of an OSE journey, in this GM's language. */
function oseView(planned: PlannedOse, journey: Awaited<ReturnType<typeof rollOse>>["journey"]) {
  const o = planned.ose;
  return oseCardView(
    {
      journey,
      legs: planned.legs,
      baseMetres: planned.baseMetres,
      slowest: planned.slowest,
      openTerrain: o.openTerrain,
      flags: {
        forcedMarch: o.forcedMarch,
        flying: o.flying,
        guide: o.guide,
        river: o.river,
        forage: o.forage,
        restWhenDue: o.restWhenDue,
      },
      rationsCounted: o.rations !== null,
    },
    t,
    game.i18n.lang,
  );
}

/** A journey card's operation read back from the world: its executor while it is applying or undoing. */
function readJourneyOp(messageId: string): ReadBack {
  return () => {
    const flag = readJourney(game.messages.get(messageId));
    return flag?.status === "applying" || flag?.status === "undoing" ? { executor: flag.executor ?? null } : undefined;
  };
}

/** Records `executor` as the executor of a journey card's operation (a GM taking an interrupted one over). */
const claimJourney = (message: ChatMessage) => (executor: Executor) =>
  message.update(cardUpdate(message, TRAVEL_CARD, { executor }));

/** Finishes a journey card found "applying" or "undoing", as it stands once this client executes it. */
function finishFound(message: ChatMessage, fallback: TravelCardFlag, guard: Guard): Promise<unknown> {
  const flag = readJourney(game.messages.get(message.id ?? "")) ?? fallback;
  return flag.status === "undoing" ? finishUndo(message, flag, true, guard) : finishApply(message, flag, true, guard);
}

/**
 * The world time at the end of each day of a journey walked a day at a time, but the last (a rollback starts there).
 */
function dayEnds(journal: TravelJournal): number[] {
  const t = journal.time;
  const days = journal.days ?? 1;
  if (!t || days <= 1) return [];
  return Array.from({ length: days - 1 }, (_, k) => t.before + Math.round(((k + 1) * (t.after - t.before)) / days));
}

/**
 * Brings the world to the card's journal and marks the card applied (first run, or recovery). A write the server
 * refuses: what was applied is put back (state-based) and the card is marked failed, saying whether all of it was.
 */
async function finishApply(message: ChatMessage, flag: TravelCardFlag, resumed: boolean, guard: Guard): Promise<void> {
  const adapter = adapterFor();
  const time = flag.journal.time ? { from: flag.journal.time.before, to: flag.journal.time.after } : null;
  let problems;
  let added: number;
  try {
    ({ problems, timeMoved: added } = await runJourneyReport(
      flag.journal,
      "forward",
      time,
      adapter,
      actorById,
      "apply",
      TOKENS,
      guard,
    ));
  } catch (e) {
    if (e instanceof OperationLost) throw e; // another GM executes it now: nothing to roll back here
    console.error("aventure | travel apply failed", e);
    let clean = true;
    try {
      await runJourneySteps(
        flag.journal,
        "back",
        time ? { from: time.to, to: time.from, via: dayEnds(flag.journal) } : null,
        adapter,
        actorById,
        "apply",
        TOKENS,
        guard,
      );
    } catch (e2) {
      clean = false;
      console.error("aventure | travel rollback failed", e2);
    }
    const key = clean ? "AVENTURE.Travel.Error.RolledBack" : "AVENTURE.Travel.Error.RollbackFailed";
    const data = { error: errorMessage(e) };
    try {
      guard.check();
      await writeJourney(message, {
        ...flag,
        status: "failed",
        error: { key, data },
        rolledBack: clean,
        resumed: flag.resumed || resumed,
      });
    } catch (e3) {
      console.error("aventure | could not mark the journey card failed", e3);
    }
    throw new UserError(key, data);
  }
  // What the journey really added to world time (`added`): nothing when its time step was left alone because the clock
  // moved meanwhile; for a journey walked a day at a time, the days walked before that.
  guard.check();
  await writeJourney(message, {
    ...flag,
    status: "applied",
    timeAdded: added,
    problems: [...flag.problems, ...problems],
    resumed: flag.resumed || resumed,
  });
  announce("aventure.travelApplied", {
    messageId: message.id ?? "",
    actorIds: flag.journal.actors.map((a) => a.actorId),
    secondsAdded: added,
  });
}

/**
 * Puts the world back as the card says it was before the journey and marks the card undone (first run, or
 * recovery). A write the server refuses: what Undo restored is applied again and the card goes back to applied (or,
 * if that fails too, stays "undoing" for the recovery to finish).
 */
async function finishUndo(
  message: ChatMessage,
  flag: TravelCardFlag,
  resumed: boolean,
  guard: Guard,
): Promise<TravelUndoAnswer> {
  const adapter = adapterFor();
  let problems;
  try {
    problems = await runJourneySteps(flag.journal, "back", flag.undoTime, adapter, actorById, "undo", TOKENS, guard);
  } catch (e) {
    if (e instanceof OperationLost) throw e; // another GM executes it now: nothing to re-apply here
    console.error("aventure | travel undo failed", e);
    const data = { error: errorMessage(e) };
    try {
      const u = flag.undoTime;
      await runJourneySteps(
        flag.journal,
        "forward",
        u ? { from: u.to, to: u.from } : null,
        adapter,
        actorById,
        "undo",
        TOKENS,
        guard,
      );
      guard.check();
      await writeJourney(message, { ...flag, status: "applied", undoTime: null });
    } catch (e2) {
      console.error("aventure | travel undo: could not re-apply", e2);
      throw new UserError("AVENTURE.Travel.Error.RollbackFailed", data);
    }
    throw new UserError("AVENTURE.Travel.Error.UndoRolledBack", data);
  }
  guard.check();
  await writeJourney(message, {
    ...flag,
    status: "undone",
    problems: [...flag.problems, ...problems],
    resumed: flag.resumed || resumed,
  });
  announce("aventure.travelUndone", {
    messageId: message.id ?? "",
    actorIds: flag.journal.actors.map((a) => a.actorId),
  });
  const names = (kind: "drifted" | "missing") => [
    ...new Set(problems.filter((p) => p.kind === kind && p.name).map((p) => p.name)),
  ];
  return {
    changedSince: names("drifted"),
    missing: names("missing"),
    timeLeft: flag.journal.time !== null && timeAdded(flag) === 0,
  };
}

// ------------------------------------------------------------------------------------------------ requests

/**
 * Request "travelApply" (active GM): the sender is the server's. Validates every field, resolves the actors, then
 * applies (a GM; a player's own characters when the world allows it) or proposes it to the GMs.
 */
export async function onTravelApplyRequest(raw: unknown, { sender }: { sender: User }): Promise<TravelApplyAnswer> {
  if (!isActiveGM()) throw new UserError("AVENTURE.Error.NoActiveGM");
  const req = parseRequest(raw);
  const actors = resolveActors(req, sender);
  if (!sender.isGM) {
    // A route on a scene the player cannot see is refused as a scene that does not exist: nothing about it (its name,
    // its size) goes back to them.
    if (req.route && !mayKnowScene(routeScene(req.route.sceneId), sender))
      throw new UserError("AVENTURE.Travel.Route.Error.scene");
    const foreign = actors.filter((a) => !a.testUserPermission(sender, "OWNER"));
    // The party's tokens a player names: tokens they cannot see are unknown to them; others' tokens make a proposal.
    const tokens = req.route ? routeTokens(routeScene(req.route.sceneId), req.route.tokenIds) : [];
    const unseen = tokens.find((tk) => !canSee(tk, sender));
    if (unseen) throw new UserError("AVENTURE.Travel.Route.Error.token", { id: unseen.id ?? "" });
    const foreignTokens = tokens.some((tk) => !ownsToken(tk, sender));
    if (foreign.length || foreignTokens || !getSetting("travelPlayersApply")) {
      if (req.ose)
        planOse(req, actors); // refused now (rules, base movement, route) rather than when a GM decides
      else planJourney(req, actors); // refused now (rules, roll cap) rather than when a GM decides
      await propose("travel", TravelProposalModel.make({ request: req, foreign: foreign.map((a) => a.id!) }), sender);
      return { messageId: null, proposed: true };
    }
  }
  return { messageId: await executeJourney(req, actors, sender.isGM ? null : sender.id!), proposed: false };
}

type PermissionToken = RouteToken & {
  hidden?: boolean;
  testUserPermission?(user: User, level: "LIMITED" | "OWNER"): boolean;
};

/** Whether a player sees a token (a hidden token is the GMs' alone). */
function canSee(token: PermissionToken, user: User): boolean {
  return !token.hidden || ownsToken(token, user);
}

function ownsToken(token: PermissionToken, user: User): boolean {
  return typeof token.testUserPermission === "function" && token.testUserPermission(user, "OWNER");
}

type PermissionScene = RouteScene & {
  active?: boolean;
  testUserPermission?(user: User, level: "LIMITED"): boolean;
  tokens: { contents?: readonly PermissionToken[] };
};

/**
 * Whether a player may know of a scene: the active one (every player is taken there), one they have at least Limited
 * ownership of (CONST.DOCUMENT_OWNERSHIP_LEVELS: NONE "may not be seen by this User"), or one where they own a token.
 */
function mayKnowScene(scene: PermissionScene, user: User): boolean {
  if (user.isGM || scene.active === true) return true;
  if (typeof scene.testUserPermission === "function" && scene.testUserPermission(user, "LIMITED")) return true;
  return (scene.tokens.contents ?? []).some((t) => ownsToken(t, user));
}

/**
 * Request "travelUndo" (GMs only, active GM): the Undo of a journey card a GM wrote, once, after any apply or undo
 * running on this client. Marks the card "undoing" with the world time to come back to (the time now minus what the
 * journey really added on Apply: nothing when its time step was left alone) BEFORE any write, then undoes.
 */
export function onTravelUndoRequest(raw: unknown): Promise<TravelUndoAnswer> {
  return serial(() => undoJourney(raw));
}

/** The payload of "travelUndo", declared once: the journey card. */
const undoSchema = (f: Fields) => ({
  messageId: docIdField(f),
});
const TravelUndoRequest = flagModel({ name: "AventureTravelUndoRequest", schema: undoSchema, exact: true });

async function undoJourney(raw: unknown): Promise<TravelUndoAnswer> {
  if (!isActiveGM()) throw new UserError("AVENTURE.Error.NoActiveGM");
  const id = TravelUndoRequest.read(raw)?.messageId;
  const message = id ? game.messages.get(id) : undefined;
  const flag = readJourney(message);
  if (!message || !flag || !id) throw new UserError("AVENTURE.Travel.Error.NoJourney");
  if (flag.status === "undone" || (running.has(id) && flag.status !== "applying"))
    throw new UserError("AVENTURE.Travel.Error.AlreadyUndone");
  if (flag.status === "applying" || running.has(id)) throw new UserError("AVENTURE.Travel.Error.InProgress");
  if (flag.status === "failed") throw new UserError("AVENTURE.Travel.Error.NotApplied");
  running.add(id);
  try {
    if (flag.status === "undoing") {
      // Left by a stop: finished here, unless another GM still executes it (then refused: "busy").
      const done = await finishFirst(`journey.${id}`, readJourneyOp(id), claimJourney(message), (guard) =>
        finishUndo(message, readJourney(game.messages.get(id)) ?? flag, true, guard),
      );
      if (done) return done;
      throw new UserError("AVENTURE.Travel.Error.AlreadyUndone");
    }
    const added = timeAdded(flag);
    const now = game.time.worldTime;
    // What Undo takes back is recorded too (a card from before `timeAdded` gets it now): a card read back while
    // undoing must say it (readJourney), for the executor's checks and for a recovery.
    const undoing: TravelCardFlag = {
      ...flag,
      status: "undoing",
      undoTime: added > 0 ? { from: now, to: now - added } : null,
      timeAdded: added,
      executor: executorStamp(),
    };
    await writeJourney(message, undoing);
    return await execute(`journey.${id}`, readJourneyOp(id), (guard) => finishUndo(message, undoing, false, guard));
  } finally {
    running.delete(id);
  }
}

/**
 * Recovery (every GM): journey cards left "applying" or "undoing" by a GM who is gone (or by this GM's own previous
 * page) are finished, and say so.
 */
export function recoverJourneys(): Promise<void> {
  return serial(recoverAll);
}

async function recoverAll(): Promise<void> {
  for (const message of [...game.messages.contents]) {
    const id = message.id;
    const flag = readJourney(message);
    if (!id || !flag || running.has(id) || (flag.status !== "applying" && flag.status !== "undoing")) continue;
    running.add(id);
    try {
      await resume(`journey.${id}`, readJourneyOp(id), claimJourney(message), (guard) =>
        finishFound(message, flag, guard),
      );
    } catch (e) {
      console.error("aventure | could not finish an interrupted journey", e);
    } finally {
      running.delete(id);
    }
  }
}

// ------------------------------------------------------------------------------------------------ proposals

function proposalData(raw: unknown): { req: TravelRequest; foreign: string[] } {
  const d = TravelProposalModel.read(raw);
  const req = parseRequest(d?.request);
  const ids = new Set(req.members.map((m) => m.actorId));
  const foreign: string[] = d ? d.foreign : [];
  return { req, foreign: foreign.filter((id) => ids.has(id)) };
}

/**
 * The proposal card's lines, what the GM needs to decide: party, route and legs, distance and duration, days, the
 * journey's conditions (hours a day, Survival DC, daily chance of getting lost, hot weather, stealth), each member's
 * place, activity and rations, where the tokens end up, the world time change and the rolls to make. A condition or a
 * ration the player changed from the dialog's default says so, with the default (a member's place and activity are
 * choices with no default worth flagging).
 */
export function describeJourney(raw: unknown): string[] {
  const { req, foreign } = proposalData(raw);
  const actors = resolveActors(req, null);
  if (req.ose) return describeOse(req, actors, foreign);
  const { plan, rollCount, route, trackFood } = planJourney(req, actors);
  const lang = game.i18n.lang;
  const fr = lang.startsWith("fr");
  const names = (list: readonly { name: string }[]) => list.map((a) => a.name).join(", ");
  const seconds = timeMoved(route ? route.journey.durationSeconds : plan.durationSeconds);
  const yesNo = (v: boolean) => t(v ? "AVENTURE.Travel.Proposal.yes" : "AVENTURE.Travel.Proposal.no");
  /** "label: value", and "(default: …)" when the value is not the dialog's default. */
  const item = (label: string, value: string, fallback: string) =>
    t("AVENTURE.Travel.Proposal.item", {
      label,
      value: value === fallback ? value : t("AVENTURE.Travel.Proposal.changed", { value, default: fallback }),
    });
  const number = (n: number) => formatNumber(n, lang);
  const conditions = [
    item(t("AVENTURE.Travel.Field.hoursPerDay"), number(req.hoursPerDay), number(getSetting("travelHoursPerDay"))),
    item(t("AVENTURE.Travel.Field.survivalDC"), String(req.survivalDC), String(TRAVEL_SURVIVAL_DC.default)),
    item(t("AVENTURE.Travel.Field.lostChance"), number(req.lostChance), number(0)),
    item(t("AVENTURE.Travel.Field.hot"), yesNo(req.hot), yesNo(false)),
    item(t("AVENTURE.Travel.Field.stealth"), yesNo(req.stealth), yesNo(false)),
  ];
  const members = req.members.map((m, i) => {
    const details = [
      t("AVENTURE.Travel.Proposal.item", {
        label: t("AVENTURE.Travel.Column.position"),
        value: t(`AVENTURE.Travel.Position.${m.position}`),
      }),
      t("AVENTURE.Travel.Proposal.item", {
        label: t("AVENTURE.Travel.Column.activity"),
        value: t(`AVENTURE.Travel.Activity.${m.activity}`),
      }),
      ...(trackFood
        ? [
            item(
              t("AVENTURE.Travel.Column.food"),
              t(`AVENTURE.Travel.Ration.${m.food}`),
              t("AVENTURE.Travel.Ration.full"),
            ),
            item(
              t("AVENTURE.Travel.Column.water"),
              t(`AVENTURE.Travel.Ration.${m.water}`),
              t("AVENTURE.Travel.Ration.full"),
            ),
          ]
        : []),
    ];
    return t("AVENTURE.Travel.Proposal.member", { name: actors[i]!.name, details: details.join(" · ") });
  });
  const tokens = route?.tokens.length ? tokenJournal(route, plan) : [];
  return [
    t("AVENTURE.Travel.Proposal.party", { names: names(actors) }),
    ...(foreign.length
      ? [t("AVENTURE.Travel.Proposal.foreign", { names: names(actors.filter((a) => foreign.includes(a.id!))) })]
      : []),
    routeText(plan, t, lang),
    ...(route
      ? [
          t("AVENTURE.Travel.Proposal.route", {
            legs: route.journey.legs.map((l) => legText(l, t, lang)).join(fr ? "\u202f; " : "; "),
          }),
        ]
      : []),
    t("AVENTURE.Travel.Proposal.journey", {
      distance: formatKm(plan.distance, lang),
      duration: formatDuration(route ? route.journey.durationSeconds : plan.durationSeconds, t),
      days: plural(t, lang, "AVENTURE.Travel.Summary.dayCount", plan.days.length),
    }),
    t("AVENTURE.Travel.Proposal.conditions", { list: conditions.join(" · ") }),
    ...members,
    ...(route && tokens.length
      ? [
          route.journey.stopped
            ? t("AVENTURE.Travel.Proposal.tokensStop", {
                distance: formatKm(route.journey.reached, lang),
                total: formatKm(route.journey.total, lang),
                names: names(tokens),
              })
            : t("AVENTURE.Travel.Proposal.tokensEnd", {
                distance: formatKm(route.journey.total, lang),
                names: names(tokens),
              }),
        ]
      : []),
    seconds > 0
      ? t("AVENTURE.Travel.Proposal.time", { duration: formatDuration(seconds, t) })
      : t("AVENTURE.Travel.Proposal.timeUnchanged"),
    t("AVENTURE.Travel.Proposal.rolls", { n: rollCount }),
  ];
}

/**
 * The proposal card's lines for an Old-School Essentials journey: party, base movement, legs by terrain, options, and
 * the days to roll (no roll is shown before a GM applies it).
 */
function describeOse(req: TravelRequest, actors: OwnedActor[], foreign: string[]): string[] {
  const planned = planOse(req, actors);
  const lang = game.i18n.lang;
  const names = (list: readonly { name: string }[]) => list.map((a) => a.name).join(", ");
  const o = planned.ose;
  const options = (["forcedMarch", "flying", "guide", "river", "forage", "restWhenDue"] as const)
    .filter((k) => o[k])
    .map((k) => t(`AVENTURE.Wilderness.Field.${k}`));
  return [
    t("AVENTURE.Travel.Proposal.party", { names: names(actors) }),
    ...(foreign.length
      ? [t("AVENTURE.Travel.Proposal.foreign", { names: names(actors.filter((a) => foreign.includes(a.id!))) })]
      : []),
    planned.slowest
      ? t("AVENTURE.Wilderness.Card.baseOf", { base: planned.baseMetres, name: planned.slowest })
      : t("AVENTURE.Wilderness.Card.base", { base: planned.baseMetres }),
    t("AVENTURE.Travel.Proposal.route", {
      legs: planned.legs.map((l) => oseLegText(l, t, lang)).join(lang.startsWith("fr") ? "\u202f; " : "; "),
    }),
    ...(options.length ? [options.join(" · ")] : []),
    t("AVENTURE.Wilderness.Proposal.rolls"),
  ];
}

/**
 * A GM applied a travel proposal: the stored request is checked again and the journey runs with a GM's authority, on
 * the proposal's executor (its guard checked before the journey's card, whose own operation then records it).
 */
export async function applyJourneyProposal(raw: unknown, { proposer, guard }: ProposalApplyContext): Promise<string> {
  const { req } = proposalData(raw);
  await executeJourney(req, resolveActors(req, null), proposer?.id ?? null, guard);
  return t("AVENTURE.Travel.Proposal.outcome");
}
