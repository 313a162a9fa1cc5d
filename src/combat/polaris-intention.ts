/**
 * Changing intention (docs/rules.md §9.2, Polaris phases): an Adaptation test for a combatant, from the combat
 * tracker's
 * context menu. Success: the player may change the declared action (with the GM's agreement); failure: the declared
 * action stands; a catastrophe (failure degree "catastrophique"): the combatant is confused and does nothing at all
 * this round — it is marked confused on the combat, skipped by the turn order for the rest of the round and shown in
 * the phases; the next round clears it.
 *
 * Who may do what (docs/security.md): the test runs on the active GM through the trusted request channel (request
 * "polarisIntention"; the active GM's own clicks run directly): the GM takes the sender from the server and checks
 * that the sender owns the combatant (GMs may test any), validates every field, rolls the d20 once. The Adaptation
 * level and mastery are the actor's, read on the GM's side, whenever they can be read (the sent ones only otherwise,
 * or a GM's); the card says which were used.
 *
 * Exactly once: one test per (combat, round, combatant). Under the combat's lock, the GM looks for a GM card of that
 * key (a second request, a double click, two GMs, a reload: refused); the card is posted FIRST, with the roll, marked
 * "applying" when the test was a catastrophe; the confusion follows (state read back from the combat's flag), then,
 * when the confused combatant had the turn, the turn passes to the next combatant who may act; the card is then
 * marked "done". The card records the GM that executes the catastrophe's writes; only that GM writes them (checked
 * before each one: operations.ts). If its client stops in between, a GM finishes it once that GM is gone (`ready`, a
 * GM leaving; only what is missing, and only while the round lasts).
 */
import { MODULE_ID, template } from "../core/constants.js";
import { polarisTest, type PolarisDifficulty, type PolarisTestResult } from "../rules/polaris.js";
import { polarisCardContext } from "../polaris/api.js";
import { cardUpdate } from "../core/card-model.js";
import { INTENTION_CARD, intentionCardFlag, type IntentionCardFlag } from "./intention-card.js";
import { postCard } from "../core/chat.js";
import { foundryDice } from "../core/dice.js";
import { canControl, isActiveGM } from "../core/gm.js";
import { UserError, t } from "../core/i18n.js";
import {
  execute,
  executorStamp,
  registerRecovery,
  resume,
  runSteps,
  type Executor,
  type Guard,
  type ReadBack,
  type Step,
} from "../core/operations.js";
import { registerRequest, sendRequest } from "../core/requests.js";
import { notOwned } from "../light/api.js";
import { withCombatLock } from "./side-ops.js";
import { combatOf } from "./round.js";
import { polarisPhasesActive } from "./side-initiative.js";
import type { CombatLike, CombatantLike } from "./types.js";
import { confusedIds } from "./polaris-confusion.js";
import { actorAdaptation } from "../polaris/api.js";
import { isRecord } from "../core/values.js";
import { flagModel, type Fields, docIdField } from "../core/flag-model.js";

/** What a client asks: the combatant, its Adaptation level and mastery, the difficulty (default Moyenne). */
export interface IntentionRequest {
  combatId: string;
  combatantId: string;
  chance: number | "X";
  mastery?: number;
  difficulty?: PolarisDifficulty | number;
}

export interface IntentionOutcome {
  die: number;
  success: boolean;
  degree: string;
  confused: boolean;
}

export { intentionCardFlag, type IntentionCardFlag } from "./intention-card.js";

interface CardMessage {
  id: string | null;
  type?: unknown;
  update(data: Record<string, unknown>): Promise<unknown>;
}

/** The GM card of (combat, round, combatant), if the test was made. */
function findCard(
  combatId: string,
  combatantId: string,
  round: number,
): { message: CardMessage; flag: IntentionCardFlag } | null {
  for (const m of game.messages.contents) {
    const flag = intentionCardFlag(m);
    if (flag && flag.combat === combatId && flag.combatant === combatantId && flag.round === round)
      return { message: m, flag };
  }
  return null;
}

/** Whether `c` made its Adaptation test this round (a GM card says so). */
export function testedThisRound(combat: CombatLike, c: CombatantLike): boolean {
  return !!combat.id && !!c.id && findCard(combat.id, c.id, combat.round) !== null;
}

const currentId = (combat: CombatLike): string | null =>
  combat.turn === null ? null : (combat.turns[combat.turn]?.id ?? null);

/** The writes of a catastrophe, each read back from the combat: the confusion, then the turn when it was this one's. */
function confusionSteps(combat: CombatLike, flag: IntentionCardFlag, name: string): Step[] {
  const sameRound = () => combat.round === flag.round;
  const steps: Step[] = [
    {
      label: t("AVENTURE.Polaris.intention.stepConfused", { name }),
      state: () =>
        !sameRound() ? "missing" : confusedIds(combat, flag.round).includes(flag.combatant) ? "done" : "pending",
      run: () =>
        combat.update({
          [`flags.${MODULE_ID}.polarisConfused`]: {
            round: flag.round,
            ids: [...confusedIds(combat, flag.round), flag.combatant],
          },
        }),
    },
    {
      label: t("AVENTURE.Polaris.intention.stepTurn", { name }),
      state: () => (sameRound() && combat.started && currentId(combat) === flag.combatant ? "pending" : "done"),
      run: () => (combat as CombatLike & { nextTurn(): Promise<unknown> }).nextTurn(),
    },
  ];
  return steps;
}

/** An intention card's catastrophe read back from the world: its executor while it is applying (operations.ts). */
function readIntentionOp(messageId: string): ReadBack {
  return () => {
    const flag = intentionCardFlag(game.messages.get(messageId));
    return flag?.status === "applying" ? { executor: flag.executor ?? null } : undefined;
  };
}

/** The catastrophe's writes and the card's "done" mark, each only while this client is still its executor of record. */
async function applyConfusion(
  combat: CombatLike,
  message: CardMessage,
  flag: IntentionCardFlag,
  name: string,
  guard: Guard,
): Promise<void> {
  await runSteps(confusionSteps(combat, flag, name), guard);
  guard.check();
  await message.update(cardUpdate(message, INTENTION_CARD, { status: "done" }));
}

function cardNotes(result: PolarisTestResult, confused: boolean, name: string): string[] {
  if (confused) return [t("AVENTURE.Polaris.intention.confused", { name })];
  return [t(result.success ? "AVENTURE.Polaris.intention.success" : "AVENTURE.Polaris.intention.failure", { name })];
}

/**
 * The payload of "polarisIntention", declared once: the combatant and the test's chance ("X": cannot be tested),
 * mastery and difficulty (an id or a modifier). Their bounds and ids are the rules' (checked on top, polarisTest).
 */
const intentionSchema = (f: Fields) => ({
  combatId: docIdField(f),
  combatantId: docIdField(f),
  chance: new f.AnyField({
    required: true,
    nullable: false,
    validate: (v: unknown) => v === "X" || Number.isInteger(v),
  }),
  mastery: new f.NumberField({ required: false, nullable: false, integer: true, initial: undefined }),
  difficulty: new f.AnyField({
    required: true,
    nullable: false,
    initial: "average",
    validate: (v: unknown) => (typeof v === "number" ? Number.isInteger(v) : typeof v === "string" && v.length <= 32),
  }),
});
const IntentionRequestModel = flagModel({ name: "AventureIntentionRequest", schema: intentionSchema, exact: true });

/** The test a request asks for, checked by the rules (types, integers, bounds, known ids): throws their refusal. */
function checkTest(test: { chance: unknown; mastery?: unknown; difficulty: unknown }): void {
  polarisTest({
    chance: test.chance as IntentionRequest["chance"],
    difficulty: test.difficulty as PolarisDifficulty,
    roll: 1,
    ...(test.mastery !== undefined ? { mastery: test.mastery as number } : {}),
  });
}

function checkRequest(data: unknown): IntentionRequest {
  if (!isRecord(data)) throw new UserError("AVENTURE.Combat.badRequest");
  const d = IntentionRequestModel.read(data);
  if (!d) {
    const failed = IntentionRequestModel.failures(data);
    if (failed.includes("combatId") || failed.includes("combatantId"))
      throw new UserError("AVENTURE.Combat.badRequest");
    // The rules' own refusal of the value sent (not a number, out of range, an unknown difficulty).
    checkTest({
      chance: data.chance,
      mastery: data.mastery,
      difficulty: data.difficulty === undefined ? "average" : data.difficulty,
    });
    throw new UserError("AVENTURE.Combat.badRequest");
  }
  checkTest(d);
  return {
    combatId: d.combatId,
    combatantId: d.combatantId,
    chance: d.chance as IntentionRequest["chance"],
    difficulty: d.difficulty as NonNullable<IntentionRequest["difficulty"]>,
    ...(d.mastery !== undefined && d.mastery !== null ? { mastery: d.mastery } : {}),
  };
}

/** Where a value of the test came from: the actor's sheet, typed by the sender (not readable there), or by a GM. */
type Source = "sheet" | "typed" | "gm";

/**
 * The Adaptation level and mastery the active GM tests with (docs/security.md): the actor's, read through the Actor
 * data paths (polaris/actor.ts), whenever they can be read; the sent ones only where they cannot. A GM may give other
 * values (api.changeIntention's `chance`, `mastery`): a GM's authority. Each value says where it came from.
 */
function adaptationOf(
  req: IntentionRequest,
  combatant: CombatantLike,
  sender: User,
): { chance: number | "X"; mastery?: number; level: Source; masterySource: Source | null } {
  const known = actorAdaptation(combatant.actor);
  const sheetLevel = known.level === null ? null : Math.trunc(known.level);
  const sheetMastery = known.mastery === null ? null : Math.trunc(known.mastery);
  const pick = <T>(sent: T | undefined, sheet: T | null): { value: T | undefined; source: Source | null } => {
    if (sheet === null) return { value: sent, source: sent === undefined ? null : "typed" };
    if (!sender.isGM || sent === undefined || sent === sheet) return { value: sheet, source: "sheet" };
    return { value: sent, source: "gm" };
  };
  const level = pick<number | "X">(req.chance, sheetLevel);
  const mastery = pick<number>(req.mastery, sheetMastery);
  return {
    chance: level.value ?? req.chance,
    ...(mastery.value !== undefined ? { mastery: mastery.value } : {}),
    level: level.source ?? "typed",
    masterySource: mastery.value === undefined ? null : mastery.source,
  };
}

/** The card's lines saying where the level and the mastery came from (one line per source). */
function sourceNotes(used: ReturnType<typeof adaptationOf>, name: string, sender: User): string[] {
  const parts: [Source, "level" | "mastery"][] = [[used.level, "level"]];
  if (used.masterySource) parts.push([used.masterySource, "mastery"]);
  const order: Source[] = ["sheet", "typed", "gm"];
  return order.flatMap((source) => {
    const what = parts.filter(([s]) => s === source).map(([, w]) => w);
    if (!what.length) return [];
    const key = what.length === 2 ? "both" : what[0]!;
    return [
      t(`AVENTURE.Polaris.intention.source.${source}`, {
        name,
        user: sender.name ?? "",
        what: t(`AVENTURE.Polaris.intention.source.what.${key}`),
      }),
    ];
  });
}

/** Request "polarisIntention" (active GM): checks who asks, then tests once per (combat, round, combatant). */
export async function onIntentionRequest(data: unknown, { sender }: { sender: User }): Promise<IntentionOutcome> {
  const req = checkRequest(data);
  if (!polarisPhasesActive()) throw new UserError("AVENTURE.Polaris.intention.off");
  const combat = combatOf(req.combatId);
  const combatant = combat.combatants.get(req.combatantId);
  if (!combatant) throw new UserError("AVENTURE.Combat.badRequest");
  if (!canControl(sender, combatant)) throw notOwned(sender, combatant);
  if (!combat.started) throw new UserError("AVENTURE.Polaris.intention.notStarted");
  if (!isActiveGM()) throw new UserError("AVENTURE.Error.NoActiveGM");
  const used = adaptationOf(req, combatant, sender);
  // The sheet's values are checked by the rules too (a level out of range on a sheet is refused, nothing rolled).
  polarisTest({
    chance: used.chance,
    difficulty: req.difficulty!,
    roll: 1,
    ...(used.mastery !== undefined ? { mastery: used.mastery } : {}),
  });
  return withCombatLock(req.combatId, async () => {
    const round = combat.round;
    if (findCard(req.combatId, req.combatantId, round))
      throw new UserError("AVENTURE.Polaris.intention.already", { name: combatant.name ?? "" });
    const dice = foundryDice();
    const [die] = await dice.roll(1, 20, "polarisIntention");
    const result = polarisTest({
      chance: used.chance,
      difficulty: req.difficulty!,
      roll: die!,
      ...(used.mastery !== undefined ? { mastery: used.mastery } : {}),
    });
    const confused = !result.success && result.degree === "catastrophique";
    const flag: IntentionCardFlag = {
      v: 1,
      combat: req.combatId,
      combatant: req.combatantId,
      round,
      success: result.success,
      confused,
      status: confused ? "applying" : "done",
      executor: confused ? executorStamp() : null,
    };
    const context = polarisCardContext(
      {
        label: "",
        title: t("AVENTURE.Polaris.intention.title", { name: combatant.name ?? "" }),
        chanceLabel: t("AVENTURE.Polaris.intention.chance"),
        chance: used.chance,
        difficulty: req.difficulty!,
        retryPenalty: 0,
        die: die!,
        result,
        hideDifficulty: false,
        kind: "skill",
        notes: [
          ...sourceNotes(used, combatant.name ?? "", sender),
          ...cardNotes(result, confused, combatant.name ?? ""),
        ],
      },
      t,
    );
    const message: CardMessage | undefined = await postCard({
      template: template("polaris/test-card.hbs"),
      context,
      rolls: dice.rolls,
      // A combatant the GM hid from the players (Combatant#hidden, or its token's TokenDocument#hidden): the GMs' card.
      gmOnly: combatant.hidden === true || (combatant.token as { hidden?: boolean } | null)?.hidden === true,
      speaker: ChatMessage.getSpeaker({
        alias: combatant.name,
        ...(combatant.actor ? { actor: combatant.actor } : {}),
      }),
      card: { kind: INTENTION_CARD, state: flag },
    });
    if (confused && message?.id) {
      const id = message.id;
      await execute(`intention.${id}`, readIntentionOp(id), (guard) =>
        applyConfusion(combat, message, flag, combatant.name ?? "", guard),
      );
    }
    return { die: die!, success: result.success, degree: result.degree, confused };
  });
}

/** Asks the active GM to test a combatant's change of intention (the active GM's own click runs directly). */
export function requestIntention(req: IntentionRequest): Promise<IntentionOutcome> {
  return sendRequest<IntentionOutcome>("polarisIntention", req);
}

/**
 * Recovery (every GM: ready, a GM leaving): every intention card left "applying" by a GM who is gone (or by this GM's
 * own previous page) is finished while its round lasts (only what is missing), and marked done.
 */
export async function recoverIntentions(): Promise<void> {
  for (const m of [...game.messages.contents]) {
    const flag = intentionCardFlag(m);
    const id = m.id;
    if (!flag || flag.status !== "applying" || !id) continue;
    const message: CardMessage = m;
    const claim = (executor: Executor) => message.update(cardUpdate(message, INTENTION_CARD, { executor }));
    try {
      if (!game.combats?.get(flag.combat)) {
        await resume(`intention.${id}`, readIntentionOp(id), claim, async (guard) => {
          guard.check();
          await message.update(cardUpdate(message, INTENTION_CARD, { status: "done" }));
        });
        continue;
      }
      const combat = combatOf(flag.combat);
      const name = combat.combatants.get(flag.combatant)?.name ?? flag.combatant;
      await withCombatLock(flag.combat, async () => {
        await resume(`intention.${id}`, readIntentionOp(id), claim, async (guard) => {
          const fresh = intentionCardFlag(game.messages.get(id));
          if (fresh?.status === "applying") await applyConfusion(combat, message, fresh, name, guard);
        });
      });
    } catch (e) {
      console.error("aventure | could not finish an interrupted change of intention", e);
    }
  }
}

export function registerIntention(): void {
  registerRequest({ name: "polarisIntention", handle: onIntentionRequest });
  registerRecovery("polarisIntention", recoverIntentions);
}
