/**
 * Side initiative rolled exactly once per (combat, round), on the active GM only (docs/security.md).
 *
 * A roll is an OPERATION (operations.ts): the active GM rolls the dice in memory, then records the whole operation on
 * the combat (flags.aventure.sides: the round, the values, `started`, and `op` with the initiatives before and after,
 * the dice for the card, status "applying") in ONE write, before anything else is written or shown. That write is
 * the (combat, round) key: a second request for a round already started changes nothing. The steps follow, each
 * read back from the world so that running them again writes only what is missing: the initiatives (one Combatant
 * update, turnEvents false), the card(s), then the round itself (the system's own startCombat / nextRound, so core's
 * options, hooks and "skip defeated" setting apply) or, for the tracker's buttons, the turn kept on whoever had it;
 * then status "done". If the active GM's client stops in between, the next active GM (or the same one after a
 * reload) finishes the operation on `ready` and says so to the GMs; before any new roll, a pending operation of
 * the same combat is finished first. The operation records the GM that executes it; only that GM writes its steps
 * (checked before each one), and it is taken over only once that GM is gone (operations.ts): while another GM still
 * finishes it, a new roll of the same combat is refused ("busy").
 *
 * On the active GM every operation of a combat runs under one lock (two GMs, a player and a reload cannot interleave
 * their rolls of the same combat).
 */
import { combatStartTime } from "./flags.js";
import { announce } from "../core/extension-hooks.js";
import { MODULE_ID, template } from "../core/constants.js";
import { rollSideInitiative, sideInitiativeValues, sideTiesFor } from "../rules/encounter.js";
import { foundryDice, type FoundryDice } from "../core/dice.js";
import { gmIds, postCard } from "../core/chat.js";
import {
  SIDE_ROUND_CARD,
  sideRoundCardFlag,
  type SideRoundAudience,
  type SideRoundCardFlag,
} from "./side-round-card.js";
import { getSetting, setSetting } from "../core/settings.js";
import { isActiveGM } from "../core/gm.js";
import { t, tHtml, UserError } from "../core/i18n.js";
import { notOwned } from "../light/api.js";
import {
  execute,
  executorStamp,
  finishFirst,
  resume,
  runSteps,
  type Executor,
  type Guard,
  type ReadBack,
  type Step,
  type StepGuard,
} from "../core/operations.js";
import { SIDE_IDS, type SideId } from "../core/sides.js";
import type { AventureCombatLike, CombatantLike, CombatLike, SideOp, SideRoundState } from "./types.js";
import {
  combatantSide,
  currentCombatantId,
  everyTurnStarted,
  encounterState,
  groupsOf,
  hiddenSides,
  isSkipped,
  nextActingIndex,
  onRoundStarted,
  presentSides,
  recordSides,
  sideInitiativeActive,
  sideRoundState,
  sideValue,
  skippedSides,
  startedTurns,
} from "./side-initiative.js";
import { sideRoundCardContext } from "./tracker-context.js";
import { setTurnTarget } from "./turn-target.js";

// ------------------------------------------------------------------------------------------------ the lock

const locks = new Map<string, Promise<unknown>>();

/** Runs `fn` after every operation of the same combat started earlier on this client (the active GM) has ended. */
export function withCombatLock<T>(combatId: string, fn: () => Promise<T>): Promise<T> {
  const previous = locks.get(combatId) ?? Promise.resolve();
  const run = previous.then(
    () => fn(),
    () => fn(),
  );
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  locks.set(combatId, tail);
  void tail.then(() => {
    if (locks.get(combatId) === tail) locks.delete(combatId);
  });
  return run;
}

/** A fresh id (12 letters and digits, Foundry's own generator). */
function newOpId(): string {
  return foundry.utils.randomID(12);
}

// ------------------------------------------------------------------------------------------------ dice

interface Rolled {
  rolls: [SideId, number][][];
  values: Record<string, number>;
  fellBack: boolean;
}

/** Rolls the given sides with the rules engine (one side alone, with nobody to compare it to: ranked without dice). */
async function rollFor(sides: SideId[], dice: FoundryDice, rollAlone: boolean): Promise<Rolled> {
  if (sides.length === 0) return { rolls: [], values: {}, fellBack: false };
  if (sides.length === 1 && !rollAlone) return { rolls: [], values: sideInitiativeValues([sides]), fellBack: false };
  // pmt ties are always simultaneous (docs/rules.md §7.3): the reroll option applies to ose only.
  const r = await rollSideInitiative(sides, sideTiesFor(getSetting("ruleset"), getSetting("sideTies")), dice);
  return {
    rolls: r.rolls.map((pass) =>
      SIDE_IDS.filter((s) => s in pass.rolls).map((s) => [s, pass.rolls[s]!] as [SideId, number]),
    ),
    values: r.values,
    fellBack: r.fellBack,
  };
}

const initiativeOf = (c: CombatantLike): number | null => (typeof c.initiative === "number" ? c.initiative : null);

// ------------------------------------------------------------------------------------------------ the cards

type CardKind = SideRoundAudience;

export { sideRoundCardFlag } from "./side-round-card.js";

function findCard(combatId: string, opId: string, kind: CardKind): boolean {
  return game.messages.contents.some((m) => {
    const f = sideRoundCardFlag(m);
    return !!f && f.combat === combatId && f.op === opId && f.kind === kind;
  });
}

const cardKinds = (op: SideOp): CardKind[] => (!op.card ? [] : op.hide.length ? ["public", "gm"] : ["public"]);

async function postOpCard(combat: CombatLike, op: SideOp, kind: CardKind, dice: FoundryDice | null): Promise<void> {
  const input = {
    round: op.round,
    rolls: op.rolls.map((pass, i) => ({ pass: i, rolls: Object.fromEntries(pass) as Record<string, number> })),
    groups: op.groups,
    skipped: op.skipped,
    fellBack: op.fellBack,
    partial: op.kind === "sides",
    resumed: op.resumed,
    ...(kind === "public" && op.hide.length ? { hide: op.hide } : {}),
  };
  // The dice go with the card that shows every side (the public card shows them only when no side is hidden).
  const withDice = dice && dice.rolls.length && (kind === "gm" || !op.hide.length) ? dice.rolls : undefined;
  await postCard({
    template: template("encounter/side-round.hbs"),
    context: sideRoundCardContext(input, t),
    ...(withDice ? { rolls: withDice } : {}),
    gmOnly: kind === "gm",
    card: {
      kind: SIDE_ROUND_CARD,
      state: { v: 2, combat: combat.id ?? "", round: op.round, op: op.id, kind } satisfies SideRoundCardFlag,
    },
  });
}

// ------------------------------------------------------------------------------------------------ the steps

/**
 * Moves the combat to `round` with the system's own startCombat / nextRound (core's options, hooks and "skip
 * defeated" setting). Round 1 starts with the first combatant who may act (surprised sides wait).
 */
async function advance(combat: AventureCombatLike, round: number): Promise<void> {
  if (round !== 1) {
    await combat.aventureBaseNextRound();
    return;
  }
  setTurnTarget(combat, nextActingIndex(combat, -1, 1) ?? 0);
  try {
    await combat.aventureBaseStart();
  } finally {
    setTurnTarget(combat, null);
  }
}

/**
 * Whether a combat is of Aventure's Combat subclass (combat-class.ts), which keeps the system's start and nextRound.
 */
function isAventureCombat<C extends object>(combat: C): combat is C & AventureCombatLike {
  return "aventureBaseStart" in combat && typeof combat.aventureBaseStart === "function";
}

/** dnd5e: Combat5e#rollInitiative recovers the "initiative" uses of each combatant that rolled; so do we. */
export async function recoverInitiativeUses(combat: CombatLike, ids: readonly string[]): Promise<void> {
  const recover = (combat as AventureCombatLike)._recoverUses;
  if (typeof recover !== "function") return;
  for (const id of ids) {
    const c = combat.combatants.get(id);
    if (c) await recover.call(combat, { initiative: c });
  }
}

/**
 * The steps of an operation, state read back from the combat: the initiatives (only those still at their value
 * before), the card(s) (done once a GM card of this operation exists), then the round or the turn.
 */
function opSteps(
  combat: AventureCombatLike,
  op: SideOp,
  dice: FoundryDice | null,
  problems: SideOp["problems"],
): Step[] {
  const steps: Step[] = [];
  const before = new Map(op.before);
  const pending = () =>
    op.after.filter(([id, after]) => {
      const c = combat.combatants.get(id);
      return !!c && initiativeOf(c) !== after && initiativeOf(c) === (before.get(id) ?? null);
    });
  for (const [id, after] of op.after) {
    const c = combat.combatants.get(id);
    if (!c) problems.push({ key: "AVENTURE.SideInit.gone", data: { id } });
    else if (initiativeOf(c) !== after && initiativeOf(c) !== (before.get(id) ?? null))
      problems.push({ key: "AVENTURE.Operation.drifted", data: { what: c.name ?? "" } });
  }
  steps.push({
    label: t("AVENTURE.SideInit.stepInitiative", { round: op.round }),
    state: () => (pending().length ? "pending" : "done"),
    run: async () => {
      const updates = pending().map(([id, after]) => ({ _id: id, initiative: after }));
      await combat.updateEmbeddedDocuments("Combatant", updates, { turnEvents: false });
      if (dice) await recoverInitiativeUses(combat, op.first);
    },
  });
  for (const kind of cardKinds(op)) {
    steps.push({
      label: t("AVENTURE.SideInit.stepCard", { round: op.round }),
      state: () => (findCard(combat.id ?? "", op.id, kind) ? "done" : "pending"),
      run: () => postOpCard(combat, op, kind, dice),
    });
  }
  if (op.kind === "round") {
    steps.push({
      label: t("AVENTURE.SideInit.stepRound", { round: op.round }),
      state: () => {
        if (op.fromRound === 0) return combat.round >= 1 ? "done" : "pending";
        if (combat.round >= op.round) return "done";
        return combat.round === op.fromRound ? "pending" : "drifted";
      },
      run: () => advance(combat, op.round),
    });
  } else {
    steps.push({
      label: t("AVENTURE.SideInit.stepTurn"),
      state: () => {
        if (!combat.started || !op.currentId) return "done";
        const idx = combat.turns.findIndex((c) => c.id === op.currentId);
        return idx < 0 || idx === combat.turn ? "done" : "pending";
      },
      run: async () => {
        const idx = combat.turns.findIndex((c) => c.id === op.currentId);
        if (idx >= 0) await combat.update({ turn: idx }, { turnEvents: false });
      },
    });
  }
  return steps;
}

/** The combat's operation `opId` read back from the world: its executor while it is applying (operations.ts). */
function readSideOp(combat: CombatLike, opId: string): ReadBack {
  return () => {
    const op = sideRoundState(combat)?.op;
    return op && op.id === opId && op.status === "applying" ? { executor: op.executor ?? null } : undefined;
  };
}

/** Records `executor` as the executor of the combat's operation (a GM taking an interrupted one over). */
const claimSideOp = (combat: AventureCombatLike) => (executor: Executor) =>
  combat.update({ [`flags.${MODULE_ID}.sides.op.executor`]: executor });

const opKey = (combat: CombatLike, op: SideOp) => `sides.${combat.id ?? ""}.${op.id}`;

/**
 * Runs (or finishes) an operation's steps and marks it done, each write only while this client is still its executor
 * of record (`guard`). Returns what it reports.
 */
async function runOp(
  combat: AventureCombatLike,
  op: SideOp,
  dice: FoundryDice | null,
  guard: Guard,
): Promise<SideOp["problems"]> {
  const problems: SideOp["problems"] = [...op.problems];
  const report = await runSteps(opSteps(combat, op, dice, problems), guard);
  for (const what of report.drifted) problems.push({ key: "AVENTURE.Operation.drifted", data: { what } });
  for (const what of report.missing) problems.push({ key: "AVENTURE.SideInit.missing", data: { what } });
  guard.check();
  await combat.update({
    [`flags.${MODULE_ID}.sides.op.status`]: "done",
    [`flags.${MODULE_ID}.sides.op.problems`]: problems,
  });
  if (op.kind === "round") announce("aventure.sideRound", { combat, round: op.round });
  return problems;
}

/** Tells the GMs that an interrupted roll was finished (and what could not be done). */
async function reportResumed(op: SideOp, problems: SideOp["problems"]): Promise<void> {
  const lines = problems.map((p) => `<li>${tHtml(p.key, p.data)}</li>`).join("");
  await ChatMessage.implementation.create({
    content: `<div class="aventure aventure-card aventure-side-round"><p>${tHtml("AVENTURE.SideInit.resumed", { round: op.round })}</p>${lines ? `<ul>${lines}</ul>` : ""}</div>`,
    whisper: gmIds(),
    speaker: { alias: game.user.name },
  });
}

/**
 * Finishes the combat's interrupted operation, if any, when this client may take it over (lock held). Before a new
 * roll (`busy`): refused while another GM still executes it. Returns whether this client finished one.
 */
async function finishPending(combat: AventureCombatLike, busy: boolean): Promise<boolean> {
  const op = sideRoundState(combat)?.op;
  if (!op || op.status !== "applying") return false;
  const body = async (guard: Guard) => {
    const resumed: SideOp = { ...(sideRoundState(combat)?.op ?? op), resumed: true };
    const problems = await runOp(combat, resumed, null, guard);
    await reportResumed(resumed, problems);
    if (resumed.kind === "round" && resumed.nobodyActs && combat.round === resumed.round)
      await startRoundLocked(combat, resumed.round + 1);
    return true;
  };
  if (busy)
    return (await finishFirst(opKey(combat, op), readSideOp(combat, op.id), claimSideOp(combat), body)) ?? false;
  const r = await resume(opKey(combat, op), readSideOp(combat, op.id), claimSideOp(combat), body);
  return r.ran;
}

// ------------------------------------------------------------------------------------------------ the operations

export interface RoundResult {
  /** False when the round had already been rolled (nothing was done). */
  rolled: boolean;
  round: number;
  nobodyActs: boolean;
}

/**
 * Starts round `round` of a combat (lock held, active GM): a no-op if that round already started or was claimed;
 * otherwise the operation "round" (see the file's comment). Sides rolled with the tracker's buttons before round 1
 * keep their value. pmt, every side surprised: round 1 passes with nobody acting and round 2 is rolled at once.
 */
async function startRoundLocked(combat: AventureCombatLike, round: number): Promise<RoundResult> {
  const previous = sideRoundState(combat);
  if (combat.round >= round) return { rolled: false, round: combat.round, nobodyActs: previous?.nobodyActs ?? false };
  if (previous?.started && previous.round >= round) {
    // Claimed and finished, but the combat is still in the round before (its advance did not happen): advance only.
    if (previous.round === round && combat.round === round - 1 && previous.op?.status !== "applying")
      await advance(combat, round);
    return { rolled: false, round: combat.round, nobodyActs: previous.nobodyActs };
  }
  if (round !== combat.round + 1) throw new UserError("AVENTURE.Combat.badRequest");
  // Every combatant's side is the GMs' before anything is rolled (one write, only for combatants not yet recorded).
  await recordSides(combat);
  const skipped = skippedSides(combat, round);
  const present = presentSides(combat);
  const acting = present.filter((s) => !skipped.includes(s));
  const nobodyActs = present.length > 0 && acting.length === 0;
  // Round 1: what the tracker's buttons rolled before the start counts.
  const kept =
    round === 1 && previous?.round === 1 && !previous.started
      ? previous.values.filter(([s]) => acting.includes(s))
      : [];
  const toRoll = acting.filter((s) => !kept.some(([k]) => k === s));
  const dice = foundryDice();
  const rolled = await rollFor(toRoll, dice, kept.length > 0);
  const values: [SideId, number][] = [...kept, ...toRoll.map((s) => [s, rolled.values[s]!] as [SideId, number])].sort(
    (a, b) => SIDE_IDS.indexOf(a[0]) - SIDE_IDS.indexOf(b[0]),
  );
  const combatants = combat.combatants.contents;
  const valueOf = (c: CombatantLike) => values.find(([s]) => s === combatantSide(c, combat))?.[1] ?? null;
  const op: SideOp = {
    id: newOpId(),
    kind: "round",
    status: "applying",
    round,
    fromRound: combat.round,
    currentId: currentCombatantId(combat),
    before: combatants.map((c) => [c.id!, initiativeOf(c)]),
    after: combatants.map((c) => [c.id!, valueOf(c)]),
    first: combatants.filter((c) => initiativeOf(c) === null && valueOf(c) !== null).map((c) => c.id!),
    rolls: rolled.rolls,
    groups: groupsOf(values),
    skipped: present.filter((s) => skipped.includes(s)),
    fellBack: rolled.fellBack,
    nobodyActs,
    // Round 1 whose every side was rolled with the tracker's buttons: their cards already said it all.
    card: toRoll.length > 0 || kept.length === 0,
    hide: hiddenSides(combat),
    resumed: false,
    problems: [],
    executor: executorStamp(),
  };
  const state: SideRoundState = { v: 2, round, values, groups: op.groups, started: true, nobodyActs, op };
  // The key of (combat, round) and the record of the operation, before any die is shown or initiative written.
  await combat.update({ [`flags.${MODULE_ID}.sides`]: state });
  await execute(opKey(combat, op), readSideOp(combat, op.id), (guard) => runOp(combat, op, dice, guard));
  if (nobodyActs && combat.round === round) await startRoundLocked(combat, round + 1);
  return { rolled: true, round, nobodyActs };
}

/**
 * The tracker's roll buttons (lock held, active GM): rolls `sides` (ties settled among them), every combatant of
 * those sides gets the value in one update, the other sides keep theirs, whoever has the turn keeps it.
 */
async function rollSidesLocked(combat: AventureCombatLike, sides: SideId[]): Promise<void> {
  await recordSides(combat);
  const round = Math.max(combat.round, 1);
  const previous = sideRoundState(combat);
  const sameRound = previous?.round === round;
  const dice = foundryDice();
  const rolled = await rollFor(sides, dice, true);
  const kept = sameRound ? previous!.values.filter(([s]) => !sides.includes(s)) : [];
  const values: [SideId, number][] = [...kept, ...sides.map((s) => [s, rolled.values[s]!] as [SideId, number])].sort(
    (a, b) => SIDE_IDS.indexOf(a[0]) - SIDE_IDS.indexOf(b[0]),
  );
  const members = combat.combatants.contents.filter((c) => sides.includes(combatantSide(c, combat)));
  const op: SideOp = {
    id: newOpId(),
    kind: "sides",
    status: "applying",
    round,
    fromRound: combat.round,
    currentId: currentCombatantId(combat),
    before: members.map((c) => [c.id!, initiativeOf(c)]),
    after: members.map((c) => [c.id!, rolled.values[combatantSide(c, combat)]!]),
    first: members.filter((c) => initiativeOf(c) === null).map((c) => c.id!),
    rolls: rolled.rolls,
    groups: groupsOf(values),
    skipped: [],
    fellBack: rolled.fellBack,
    nobodyActs: false,
    card: true,
    hide: hiddenSides(combat).filter((s) => sides.includes(s)),
    resumed: false,
    problems: [],
    executor: executorStamp(),
  };
  const state: SideRoundState = {
    v: 2,
    round,
    values,
    groups: op.groups,
    started: sameRound ? previous!.started : false,
    nobodyActs: sameRound ? previous!.nobodyActs : false,
    op,
  };
  await combat.update({ [`flags.${MODULE_ID}.sides`]: state });
  await execute(opKey(combat, op), readSideOp(combat, op.id), (guard) => runOp(combat, op, dice, guard));
}

const asAventure = (combat: CombatLike): AventureCombatLike => {
  const c = combat as AventureCombatLike;
  if (typeof c.aventureBaseStart !== "function") throw new UserError("AVENTURE.Combat.noCombat");
  return c;
};

/**
 * A player may make the active GM start the next round only by ending the round's last turn: they own the combatant
 * who has the turn, and every combatant that may act this round has had its turn started (the GMs' record,
 * recordTurnStart; core lets them end their turn, not the round). Where a combatant sits in the turn order — which
 * follows initiatives its owner may write, and a turn index the current combatant's owner may set — plays no part.
 * Checked under the combat's lock, against the combat as it is then.
 */
function assertPlayerEndsRound(combat: CombatLike, player: User): void {
  const current = combat.turn === null ? undefined : combat.turns[combat.turn];
  if (!combat.started || !current) throw new UserError("AVENTURE.Error.GMOnly");
  if (!current.testUserPermission(player, "OWNER")) throw notOwned(player, current);
  if (!everyTurnStarted(combat)) throw new UserError("AVENTURE.SideInit.roundNotOver");
}

/** A combat's round and turn as core's hook combatTurnChange gives them (before and after a change). */
export interface TurnPoint {
  round?: unknown;
  turn?: unknown;
  combatantId?: unknown;
}

/**
 * The GMs' record of the turns that started this round (flags.aventure.turns, see startedTurns), kept by the active GM
 * on core's combatTurnChange (lock held): a new round starts it again with the combatant who has its first turn; within
 * a round, a combatant is added only when the turn reached it as core's nextTurn passes it on — from the combatant who
 * had the turn, to the next one that may act in the turn order as it stands. A jump (a turn index a player set, a GM's
 * previous turn) or a turn kept on the same combatant adds nobody. At most one combat update per change.
 */
async function recordTurnStart(
  combat: CombatLike,
  prior: TurnPoint | null | undefined,
  current: TurnPoint | null | undefined,
): Promise<void> {
  const round = current?.round;
  const id = current?.combatantId;
  if (typeof round !== "number" || round < 1 || typeof id !== "string" || !id) return;
  // A change of a round the combat has since left is not recorded (the later round's own change starts it again).
  if (combat.round !== round) return;
  const state = startedTurns(combat);
  let ids: string[];
  if (prior?.round !== round) {
    if (state?.round === round && state.ids.length === 1 && state.ids[0] === id) return;
    ids = [id];
  } else {
    if (prior.combatantId === id || !state || state.round !== round || state.ids.includes(id)) return;
    const from = combat.turns.findIndex((c) => c.id === prior.combatantId);
    const to = combat.turns.findIndex((c) => c.id === id);
    if (from < 0 || to < 0 || nextActingIndex(combat, from, round) !== to) return;
    ids = [...state.ids, id];
  }
  await combat.update({ [`flags.${MODULE_ID}.turns`]: { round, ids } });
}

/**
 * combatTurnChange (every client): the active GM records whose turn started, with side initiative (recordTurnStart).
 */
export function onTurnChange(
  combat: CombatLike | null | undefined,
  prior: TurnPoint | null | undefined,
  current: TurnPoint | null | undefined,
): Promise<void> | void {
  if (!combat?.id || !game.user.isGM || !isActiveGM() || !sideInitiativeActive()) return;
  return withCombatLock(combat.id, () => recordTurnStart(combat, prior, current));
}

/**
 * Starts round `round` of `combat` once (active GM). `player`: the non-GM who asks (request "sideRound"), allowed only
 * when ending the current turn ends the round (assertPlayerEndsRound); a round already started changes nothing.
 * `guard`: the executor check of the operation that asks (an encounter's start), made instead of the active-GM check.
 */
export function startSideRound(
  combat: CombatLike,
  round: number,
  player: User | null = null,
  guard?: StepGuard,
): Promise<RoundResult> {
  // An encounter's start (its own operation) passes its executor check instead: its executor finishes it.
  if (guard) guard.check();
  else if (!isActiveGM()) throw new UserError("AVENTURE.Error.NoActiveGM");
  const c = asAventure(combat);
  return withCombatLock(combat.id ?? "", async () => {
    await finishPending(c, true);
    if (player && c.round < round) assertPlayerEndsRound(c, player);
    return startRoundLocked(c, round);
  });
}

/** Who asks to roll sides, for the checks made under the lock. */
export interface RollSidesAsk {
  ids: readonly string[];
  /** A player: only sides without initiative this round. */
  player: boolean;
}

/**
 * Rolls the sides of the named combatants (active GM). A player may roll only a side that has no initiative this
 * round; surprised sides cannot roll in round 1.
 */
export function rollSides(combat: CombatLike, ask: RollSidesAsk): Promise<void> {
  if (!isActiveGM()) throw new UserError("AVENTURE.Error.NoActiveGM");
  const c = asAventure(combat);
  return withCombatLock(combat.id ?? "", async () => {
    await finishPending(c, true);
    const round = Math.max(c.round, 1);
    const state = sideRoundState(c);
    const named = ask.ids.map((id) => c.combatants.get(id)).filter((x): x is CombatantLike => !!x);
    if (ask.player) {
      for (const x of named) {
        const side = combatantSide(x, c);
        if (x.initiative !== null || (state?.round === round && sideValue(state, side) !== undefined))
          throw new UserError("AVENTURE.Combat.alreadyRolled");
      }
    }
    const sides = SIDE_IDS.filter((s) => named.some((x) => combatantSide(x, c) === s && !isSkipped(c, x, round)));
    if (!sides.length) throw new UserError("AVENTURE.SideInit.cannotRoll");
    await rollSidesLocked(c, sides);
  });
}

/**
 * createCombatant (active GM): the newcomer's side is recorded (its token's disposition now: combat state only GMs
 * write, docs/security.md), with side initiative or in an encounter's combat; in a started side-initiative combat it
 * then takes its side's value of the current round, and whoever has the turn keeps it.
 */
export async function onCreateCombatant(combatant: CombatantLike & { parent?: CombatLike | null }): Promise<void> {
  if (!isActiveGM()) return;
  const combat = combatant.parent;
  if (!combat?.id || (!sideInitiativeActive() && !encounterState(combat))) return;
  await withCombatLock(combat.id, async () => {
    await recordSides(combat);
    if (!sideInitiativeActive() || !combat.started) return;
    const state = sideRoundState(combat);
    const fresh = combat.combatants.get(combatant.id ?? "");
    if (!fresh || fresh.initiative !== null || state?.round !== combat.round || isSkipped(combat, fresh)) return;
    const value = sideValue(state, combatantSide(fresh, combat));
    if (value === undefined) return;
    const current = currentCombatantId(combat);
    await combat.updateEmbeddedDocuments("Combatant", [{ _id: fresh.id, initiative: value }], { turnEvents: false });
    const idx = combat.turns.findIndex((c) => c.id === current);
    if (current && idx >= 0 && idx !== combat.turn) await combat.update({ turn: idx }, { turnEvents: false });
  });
}

/**
 * Once per world (the hidden world setting `combatSidesMigrated`), on the active GM: Aventure 0.1.x kept a combatant's
 * side on the combatant (`flags.aventure.side`), which the combatant's owner may write too — and nothing on the
 * combatant proves who wrote that flag (`_stats.lastModifiedBy` names whoever wrote the combatant last, e.g. a GM
 * rolling its initiative after a player planted the flag). Such flags are dropped, as the 0.1.0 hide flags are: each
 * combatant without a recorded side gets its token's disposition (GM state on the combat, docs/security.md), then
 * every old flag is removed. A side already recorded is never changed. Safe to run again after a crash (the setting
 * is written last). A world without combats writes nothing (not even the setting): the first ready with a combat does
 * it.
 */
export async function migrateCombatSides(): Promise<void> {
  if (!isActiveGM() || getSetting("combatSidesMigrated")) return;
  const combats = [...(game.combats?.contents ?? [])];
  // No combat, no 0.1.x side: nothing to do, nothing written (the next ready with a combat migrates).
  if (!combats.length) return;
  for (const combat of combats) {
    if (!combat.id) continue;
    const old = combat.combatants.contents.filter((c) => !!c.id && c.getFlag(MODULE_ID, "side") !== undefined);
    if (!old.length) continue;
    await withCombatLock(combat.id, async () => {
      await recordSides(combat);
      for (const c of old) await c.unsetFlag?.(MODULE_ID, "side");
    });
  }
  await setSetting("combatSidesMigrated", true);
}

/**
 * Recovery (active GM, on ready and when the active GM left): every combat's interrupted side-initiative operation
 * is finished and reported; the surprised markers due to come off (round 2 on) come off; a started combat without
 * a start time gets one.
 */
export async function recoverSideInitiative(): Promise<void> {
  try {
    await migrateCombatSides();
  } catch (e) {
    console.error("aventure | could not migrate the 0.1.x combatant sides", e);
  }
  for (const combat of [...(game.combats?.contents ?? [])]) {
    if (!combat.id || !isAventureCombat(combat)) continue;
    try {
      await withCombatLock(combat.id, () => finishPending(combat, false));
      const enc = encounterState(combat);
      // The rest is the active GM's alone (every GM runs the recoveries: operations.ts).
      if (!isActiveGM()) continue;
      if (combat.started && ((enc?.marked && combat.round >= 2) || combatStartTime(combat) === null))
        await onRoundStarted(combat, combat.round);
    } catch (e) {
      console.error("aventure | could not finish an interrupted side initiative", e);
    }
  }
}
