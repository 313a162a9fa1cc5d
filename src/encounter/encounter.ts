/**
 * The encounter glue: tokens from the canvas, the rolls (Foundry dice) and the chat card, and "Start
 * combat": a combat with these tokens, the surprised side marked and skipped in round 1, then side
 * initiative takes over (src/combat/). Loaded on demand, with the dialog or by the GM who runs the request
 * (requests.ts registers it at init).
 */
import { MODULE_ID, template } from "../core/constants.js";
import type { CombatLike, EncounterCombatState } from "../combat/api.js";
import { encounterState, sideInitiativeActive, sideRoundState } from "../combat/api.js";
import { startSideRound } from "../combat/api.js";
import { sendRequest } from "../core/requests.js";
import { adapterFor, setOwnCondition, type ActorLike } from "../actors/api.js";
import { gmIds, postCard } from "../core/chat.js";
import {
  execute,
  executorStamp,
  readExecutor,
  resume,
  storedExecutorField,
  runSteps,
  type Executor,
  type Guard,
  type ReadBack,
  type Step,
  type StepReport,
} from "../core/operations.js";
import { foundryDice } from "../core/dice.js";
import { UserError, t, tHtml, notify } from "../core/i18n.js";
import { assertGM } from "../light/api.js";
import {
  encounterCardContext,
  fleeHandOver,
  type EncounterDialogState,
  type EncounterToken,
} from "./encounter-context.js";
import type { DialogToken, PursuitDialogOptions } from "../pursuit/api.js";
import { runEncounter, type EncounterResult } from "./run.js";
import { dialogSides } from "./encounter-context.js";
import { DISPOSITION, SIDE_IDS, sideOfToken, type SideId } from "../core/sides.js";
import { isRecord } from "../core/values.js";
import { flagModel, type DataOf, type Fields, docIdField, nullableDocIdField } from "../core/flag-model.js";
import { ENCOUNTER_CARD } from "./card.js";

interface CanvasToken {
  id: string | null;
  name: string;
  disposition: number;
  hidden?: boolean;
  actor: Actor | null;
}

/** The controlled tokens as encounter tokens (side by disposition, Charisma modifier from the adapter). */
export function tokensFromSelection(): EncounterToken[] {
  const adapter = adapterFor();
  const docs = (canvas?.tokens?.controlled ?? []).map((tk) => tk.document);
  return docs
    .filter((d) => d.id)
    .map((d) => ({
      id: d.id!,
      name: d.name,
      side: sideOfToken(d as { id: string; name: string; disposition: number }),
      chaMod: d.actor ? adapter.read(d.actor).chaMod : null,
    }));
}

/** Rolls the encounter with Foundry dice and posts the card (GM only, optionally whispered to the GMs). */
export async function rollEncounter(state: EncounterDialogState): Promise<EncounterResult> {
  assertGM();
  const sides = dialogSides(state.tokens).map((id) => ({ id, aware: state.aware[id] === true }));
  const speaker = state.tokens.find((tk) => tk.id === state.speakerId) ?? null;
  const dice = foundryDice();
  const result = await runEncounter(
    {
      ruleset: state.ruleset,
      where: state.where,
      sides,
      reaction: state.rollReaction ? { roll: true, chaMod: speaker?.chaMod ?? null } : null,
    },
    dice,
  );
  await postCard({
    template: template("encounter/card.hbs"),
    context: encounterCardContext(result, speaker?.name ?? null, t),
    rolls: dice.rolls,
    gmOnly: state.gmOnly,
    card: { kind: ENCOUNTER_CARD, state: { where: result.where, distance: result.distance.metres } },
  });
  return result;
}

/** At most this many tokens in one encounter. */
export const MAX_ENCOUNTER_TOKENS = 200;

/** Scenes whose encounter combat the active GM is creating right now (a second Start is refused meanwhile). */
const starting = new Set<string>();

const sideField = (f: Fields) =>
  new f.StringField({ required: true, blank: false, choices: [...SIDE_IDS], initial: undefined });
const sideList = (f: Fields) =>
  new f.ArrayField(sideField(f), { required: true, max: SIDE_IDS.length, initial: undefined });

/**
 * The payload of "encounterStart", declared once: the scene, its tokens (each once) with their sides, and the sides.
 */
const startRequestSchema = (f: Fields) => ({
  sceneId: docIdField(f),
  tokens: new f.ArrayField(new f.SchemaField({ id: docIdField(f), side: sideField(f) }), {
    required: true,
    max: MAX_ENCOUNTER_TOKENS,
    initial: undefined,
  }),
  surprised: sideList(f),
  firstRound: sideList(f),
});
const StartRequest = flagModel({
  name: "AventureEncounterStartRequest",
  schema: startRequestSchema,
  exact: true,
  joint: (d) => {
    if (new Set(d.tokens.map((tk) => tk.id)).size !== d.tokens.length) throw new Error("a token named twice");
  },
});
/** The request "encounterStart": the scene, the tokens with their sides, and the sides that lose round 1. */
export type EncounterStartData = DataOf<typeof StartRequest>;

/**
 * Reads a start request through its model, then checks it against the world (the scene and every token must exist).
 * Refusals as before the model: a malformed scene id, or anything else malformed, is a bad request; a missing scene
 * is said first, then no tokens at all.
 */
function readStartRequest(data: unknown): {
  scene: Scene;
  docs: { doc: CanvasToken; side: SideId }[];
  surprised: SideId[];
  firstRound: SideId[];
} {
  if (!isRecord(data)) throw new UserError("AVENTURE.Encounter.badRequest");
  const d = StartRequest.read(data);
  if (!d) {
    if (StartRequest.failures(data).includes("sceneId")) throw new UserError("AVENTURE.Encounter.badRequest");
    if (!game.scenes.get(String(data.sceneId))) throw new UserError("AVENTURE.Encounter.noScene");
    if (!Array.isArray(data.tokens)) throw new UserError("AVENTURE.Error.NoToken");
    throw new UserError("AVENTURE.Encounter.badRequest");
  }
  const scene = game.scenes.get(d.sceneId);
  if (!scene) throw new UserError("AVENTURE.Encounter.noScene");
  if (d.tokens.length === 0) throw new UserError("AVENTURE.Error.NoToken");
  const docs = d.tokens.map(({ id, side }) => {
    const doc = scene.tokens.get(id);
    if (!doc) throw new UserError("AVENTURE.Encounter.tokenGone", { name: id });
    return { doc, side };
  });
  const sides = (list: SideId[]) => [...new Set(list)];
  return { scene, docs, surprised: sides(d.surprised), firstRound: sides(d.firstRound) };
}

/** A member of an encounter's combat, chosen when the combat is created (its combatant's id, token and side). */
/**
 * The start of an encounter's combat as an OPERATION (operations.ts; flags.aventure.encounterStart on the combat),
 * recorded in the combat's creation itself — the first write — with the GM that executes it: the combatants (ids
 * chosen in advance), the surprised markers and round 1 follow as steps read back from the world (a combatant is
 * created only while missing, a marker only while its actor lacks it, round 1 only while the combat has not started
 * and no side round was recorded), then status "done". Interrupted (a reload, the executing GM gone), it is finished
 * once by recovery — by the GM's next page, or by the active GM once its executor is gone.
 */
const encounterStartSchema = (f: Fields) => ({
  v: new f.NumberField({ required: true, nullable: false, integer: true, min: 1, max: 1, initial: undefined }),
  status: new f.StringField({ required: true, blank: false, choices: ["applying", "done"], initial: undefined }),
  /** The combatants to create (ids chosen in advance), each with its token, actor, visibility and side. */
  members: new f.ArrayField(
    new f.SchemaField({
      id: docIdField(f),
      tokenId: docIdField(f),
      actorId: nullableDocIdField(f),
      hidden: new f.BooleanField({ required: true, initial: false }),
      side: new f.StringField({ required: true, blank: false, choices: [...SIDE_IDS], initial: undefined }),
    }),
    { max: MAX_ENCOUNTER_TOKENS },
  ),
  marked: new f.BooleanField({ required: true, initial: false }),
  /** The GM (user and page load) that executes it (operations.ts, read there: a malformed one is none). */
  executor: storedExecutorField(f),
});
const EncounterStartModel = flagModel({ name: "AventureEncounterStart", schema: encounterStartSchema });
type EncounterStartOp = Omit<DataOf<typeof EncounterStartModel>, "executor"> & { executor?: Executor | null };
type StartMember = EncounterStartOp["members"][number];

function readStartOp(combat: CombatLike): EncounterStartOp | null {
  const op = EncounterStartModel.read(combat.getFlag(MODULE_ID, "encounterStart"));
  return op ? { ...op, executor: readExecutor(op.executor) } : null;
}

/** The start operation of a combat read back from the world: its executor while it is applying (operations.ts). */
function readStart(combat: CombatLike): ReadBack {
  return () => {
    const op = readStartOp(combat);
    return op?.status === "applying" ? { executor: op.executor ?? null } : undefined;
  };
}

type StartCombat = CombatLike & {
  scene?: { id: string | null; tokens: { get(id: string): CanvasToken | undefined } } | null;
  createEmbeddedDocuments(type: "Combatant", data: object[], options?: object): Promise<unknown>;
  startCombat(): Promise<unknown>;
};

/**
 * Whether a created combat has what the start's steps use (the pinned Combat type does not follow the system's class).
 */
function isStartCombat(c: unknown): c is StartCombat {
  const x = c as Partial<StartCombat> | null | undefined;
  return (
    !!x &&
    typeof x.createEmbeddedDocuments === "function" &&
    typeof x.startCombat === "function" &&
    typeof x.update === "function"
  );
}

/** The steps of an encounter's start, read back from the combat and the actors (see EncounterStartOp). */
function startSteps(combat: StartCombat, op: EncounterStartOp, guard: Guard): Step[] {
  const sceneId = combat.scene?.id ?? "";
  const missing = () => op.members.filter((m) => !combat.combatants.get(m.id));
  const enc = encounterState(combat);
  const adapter = adapterFor();
  const surprisedActors = () => {
    if (!op.marked || !enc) return [];
    const out: ActorLike[] = [];
    for (const m of op.members) {
      const actor = combat.scene?.tokens.get(m.tokenId)?.actor as ActorLike | null | undefined;
      if (actor && enc.surprised.includes(m.side) && !out.includes(actor)) out.push(actor);
    }
    return out;
  };
  const unmarked = () =>
    surprisedActors().filter((a) => {
      const id = adapter.statusId("surprised");
      return !!id && !a.statuses.has(id);
    });
  return [
    {
      label: t("AVENTURE.Encounter.stepCombatants"),
      state: () => (missing().length ? "pending" : "done"),
      run: () =>
        combat.createEmbeddedDocuments(
          "Combatant",
          missing()
            .filter((m) => combat.scene?.tokens.get(m.tokenId))
            .map((m) => ({ _id: m.id, tokenId: m.tokenId, sceneId, actorId: m.actorId, hidden: m.hidden })),
          { keepId: true },
        ),
    },
    {
      label: t("AVENTURE.Encounter.stepSurprised"),
      state: () => (unmarked().length ? "pending" : "done"),
      run: async () => {
        for (const actor of unmarked()) {
          guard.check();
          await setOwnCondition(adapter, actor, "surprised", true);
        }
      },
    },
    {
      label: t("AVENTURE.Encounter.stepRound"),
      state: () => (combat.round >= 1 || sideRoundState(combat)?.started ? "done" : "pending"),
      run: () => (sideInitiativeActive() ? startSideRound(combat, 1, null, guard) : combat.startCombat()),
    },
  ];
}

/** Runs (or finishes) an encounter's start and marks it done, each write only while this client executes it. */
async function runStart(combat: StartCombat, guard: Guard): Promise<StepReport> {
  const op = readStartOp(combat);
  if (!op) throw new UserError("AVENTURE.Encounter.noCombat");
  const report = await runSteps(startSteps(combat, op, guard), guard);
  guard.check();
  await combat.update({ [`flags.${MODULE_ID}.encounterStart.status`]: "done" });
  return report;
}

const startKey = (combat: CombatLike) => `encounterStart.${combat.id ?? ""}`;

/**
 * Recovery (every GM: ready, a GM leaving): an encounter's start left "applying" is finished once by the GM that may
 * take it over (operations.ts resume), and the GMs are told what was finished.
 */
export async function recoverEncounterStarts(): Promise<void> {
  for (const combat of [...(game.combats?.contents ?? [])] as StartCombat[]) {
    if (!combat.id || readStartOp(combat)?.status !== "applying") continue;
    try {
      const claim = (executor: Executor) => combat.update({ [`flags.${MODULE_ID}.encounterStart.executor`]: executor });
      const r = await resume(startKey(combat), readStart(combat), claim, (guard) => runStart(combat, guard));
      if (r.ran) {
        const lines = [...r.value.drifted, ...r.value.missing]
          .map((what) => `<li>${tHtml("AVENTURE.Operation.drifted", { what })}</li>`)
          .join("");
        await ChatMessage.implementation.create({
          content: `<div class="aventure aventure-card aventure-encounter-resumed"><p>${tHtml("AVENTURE.Encounter.resumed")}</p>${lines ? `<ul>${lines}</ul>` : ""}</div>`,
          whisper: gmIds(),
          speaker: { alias: game.user.name },
        });
      }
    } catch (e) {
      console.error("aventure | could not finish an interrupted encounter start", e);
    }
  }
}

/**
 * Request "encounterStart" (GMs only, active GM): creates and starts a combat with the tokens, as an operation
 * (EncounterStartOp: recorded in the combat's creation, then its steps). Each combatant keeps the side it was given
 * (recorded on the combat: GM state); the encounter's state (surprised sides, who acts in round 1, markers) is written
 * with the combat itself; the surprised sides' actors get the surprised marker (flagged as Aventure's in the same
 * write); the round-1 start hands over to side initiative. One combat per scene and tokens: a second Start (a double
 * click, two GMs at once) while one is being created, or while these tokens fight in an encounter's combat on this
 * scene, is refused.
 */
export async function onEncounterStartRequest(data: unknown): Promise<{ combatId: string }> {
  const { scene, docs, surprised, firstRound } = readStartRequest(data);
  const sceneId = scene.id!;
  if (starting.has(sceneId)) throw new UserError("AVENTURE.Encounter.starting");
  starting.add(sceneId);
  try {
    const ids = new Set(docs.map(({ doc }) => doc.id));
    for (const other of game.combats?.contents ?? []) {
      if (other.scene?.id !== sceneId || !encounterState(other)) continue;
      const fighting = other.combatants.contents.find((c) => ids.has(c.tokenId ?? ""));
      if (fighting) throw new UserError("AVENTURE.Encounter.alreadyFighting", { name: fighting.name ?? "" });
    }
    const marked = surprised.length > 0 && docs.some(({ doc, side }) => !!doc.actor && surprised.includes(side));
    const enc: EncounterCombatState = { surprised, firstRound, marked };
    // Each combatant's side is GM state on the combat (combatantSide): the combatants' ids are chosen here so that
    // their sides go with the combat's creation, with the encounter's state and the operation's record.
    const members: StartMember[] = docs.map(({ doc, side }) => ({
      id: foundry.utils.randomID(),
      tokenId: doc.id!,
      actorId: doc.actor?.id ?? null,
      hidden: doc.hidden ?? false,
      side,
    }));
    const sideOf = Object.fromEntries(members.map((m) => [m.id, m.side]));
    const op: EncounterStartOp = { v: 1, status: "applying", members, marked, executor: executorStamp() };
    const made = await CONFIG.Combat.documentClass.create({
      scene: sceneId,
      active: true,
      flags: { [MODULE_ID]: { encounter: enc, sideOf, encounterStart: op } },
    });
    const combat: unknown = made;
    if (!isStartCombat(combat) || !combat.id) throw new UserError("AVENTURE.Encounter.noCombat");
    await execute(startKey(combat), readStart(combat), (guard) => runStart(combat, guard));
    return { combatId: combat.id };
  } finally {
    starting.delete(sceneId);
  }
}

/**
 * "Start combat": asks the active GM to create and start a combat with the dialog's tokens on the viewed scene (the
 * surprised sides from `result`). Returns the combat. GM only.
 */
export async function startEncounterCombat(
  state: EncounterDialogState,
  result: EncounterResult | null,
): Promise<unknown> {
  assertGM();
  const scene = canvas?.scene;
  if (!scene?.id) throw new UserError("AVENTURE.Encounter.noScene");
  if (!state.tokens.length) throw new UserError("AVENTURE.Error.NoToken");
  for (const tk of state.tokens)
    if (!scene.tokens.get(tk.id)) throw new UserError("AVENTURE.Encounter.tokenGone", { name: tk.name });
  const data: EncounterStartData = {
    sceneId: scene.id,
    tokens: state.tokens.map((tk) => ({ id: tk.id, side: tk.side })),
    surprised: (result?.surprise?.outcome.surprised ?? []) as SideId[],
    firstRound: (result?.surprise?.outcome.firstRound ?? dialogSides(state.tokens)) as SideId[],
  };
  const { combatId } = await sendRequest<{ combatId: string }>("encounterStart", data);
  notify("info", t("AVENTURE.Encounter.combatStarted"));
  return game.combats?.get(combatId) ?? null;
}

/**
 * "Flee": the Pursuit dialog's options from the encounter (api.openPursuit). The dialog's tokens still on
 * the scene, each with the disposition of the side it was given in the encounter (a token moved to
 * another side stays there), and the place, surprise and reaction (fleeHandOver). GM only.
 */
export function fleeOptions(state: EncounterDialogState): PursuitDialogOptions {
  assertGM();
  const scene = canvas?.scene;
  if (!scene) throw new UserError("AVENTURE.Encounter.noScene");
  const tokens: DialogToken[] = [];
  for (const tk of state.tokens) {
    const d = scene.tokens.get(tk.id);
    if (!d) throw new UserError("AVENTURE.Encounter.tokenGone", { name: tk.name });
    tokens.push({
      id: tk.id,
      name: tk.name,
      disposition: DISPOSITION[tk.side],
      actor: d.actor,
      parent: { id: scene.id },
    });
  }
  if (!tokens.length) throw new UserError("AVENTURE.Error.NoToken");
  return { tokens, ...fleeHandOver(state.tokens, state.result, state.where) };
}
