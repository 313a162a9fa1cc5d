/**
 * The encounter glue: tokens from the canvas, the rolls (Foundry dice) and the chat card, and "Start
 * combat": a combat with these tokens, the surprised side marked and skipped in round 1, then side
 * initiative takes over (src/foundry/combat).
 */
import { featureHandler } from "../features.js";
import { MODULE_ID, template } from "../../constants.js";
import type { CombatLike, EncounterCombatState } from "../combat/types.js";
import { encounterState, sideInitiativeActive } from "../combat/side-initiative.js";
import { startSideRound } from "../combat/side-ops.js";
import { registerRequest, sendRequest } from "../requests.js";
import { adapterFor, setOwnCondition, type ActorLike } from "../adapters/adapter.js";
import { postCard } from "../chat.js";
import { foundryDice } from "../dice.js";
import { UserError, t, notify } from "../i18n.js";
import { assertGM } from "../tokens.js";
import { encounterCardContext, fleeHandOver, type EncounterDialogState, type EncounterToken } from "../../apps/encounter-context.js";
import type { DialogToken, PursuitDialogOptions } from "../../apps/PursuitDialog.js";
import { runEncounter, type EncounterResult } from "./run.js";
import { dialogSides } from "../../apps/encounter-context.js";
import { DISPOSITION, isSideId, SIDE_IDS, sideOfToken, type SideId } from "./sides.js";

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
    flags: { encounter: { where: result.where, distance: result.distance.metres } },
  });
  return result;
}

/** The request "encounterStart": the scene, the tokens with their sides, and the sides that lose round 1. */
export interface EncounterStartData {
  sceneId: string;
  tokens: { id: string; side: SideId }[];
  surprised: SideId[];
  firstRound: SideId[];
}

/** At most this many tokens in one encounter. */
export const MAX_ENCOUNTER_TOKENS = 200;
const ID = /^[A-Za-z0-9]{1,64}$/;

/** Scenes whose encounter combat the active GM is creating right now (a second Start is refused meanwhile). */
const starting = new Set<string>();

function sidesOf(v: unknown): SideId[] {
  if (!Array.isArray(v) || v.length > SIDE_IDS.length || !v.every(isSideId)) throw new UserError("AVENTURE.Encounter.badRequest");
  return [...new Set(v as SideId[])];
}

/** Checks a start request field by field against the world (the scene and every token must exist). */
function readStart(data: unknown): { scene: Scene; docs: { doc: CanvasToken; side: SideId }[]; surprised: SideId[]; firstRound: SideId[] } {
  if (!data || typeof data !== "object" || Array.isArray(data)) throw new UserError("AVENTURE.Encounter.badRequest");
  const d = data as Record<string, unknown>;
  if (typeof d.sceneId !== "string" || !ID.test(d.sceneId)) throw new UserError("AVENTURE.Encounter.badRequest");
  const scene = game.scenes.get(d.sceneId);
  if (!scene) throw new UserError("AVENTURE.Encounter.noScene");
  const tokens = d.tokens;
  if (!Array.isArray(tokens) || tokens.length === 0) throw new UserError("AVENTURE.Error.NoToken");
  if (tokens.length > MAX_ENCOUNTER_TOKENS) throw new UserError("AVENTURE.Encounter.badRequest");
  const seen = new Set<string>();
  const docs = tokens.map((tk: unknown) => {
    const t = tk as { id?: unknown; side?: unknown } | null;
    if (!t || typeof t.id !== "string" || !ID.test(t.id) || !isSideId(t.side) || seen.has(t.id)) throw new UserError("AVENTURE.Encounter.badRequest");
    seen.add(t.id);
    const doc = scene.tokens.get(t.id);
    if (!doc) throw new UserError("AVENTURE.Encounter.tokenGone", { name: t.id });
    return { doc, side: t.side };
  });
  return { scene, docs, surprised: sidesOf(d.surprised), firstRound: sidesOf(d.firstRound) };
}

/**
 * Request "encounterStart" (GMs only, active GM): creates and starts a combat with the tokens. Each combatant keeps
 * the side it was given (recorded on the combat: GM state); the encounter's state (surprised sides, who acts in round 1, markers) is written with the
 * combat itself; the surprised sides' actors get the surprised marker (flagged as Aventure's in the same write);
 * the round-1 start hands over to side initiative. One combat per scene and tokens: a second Start (a double click,
 * two GMs at once) while one is being created, or while these tokens fight in an encounter's combat on this scene,
 * is refused.
 */
export async function onEncounterStartRequest(data: unknown): Promise<{ combatId: string }> {
  const { scene, docs, surprised, firstRound } = readStart(data);
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
    // their sides go with the combat's creation, with the encounter's state: a reload after any later write, or the
    // createCombatant hook recording sides, still finds the sides picked in the window.
    const members = docs.map(({ doc, side }) => ({ id: foundry.utils.randomID(), doc, side }));
    const sideOf = Object.fromEntries(members.map((m) => [m.id, m.side]));
    const combat = await CONFIG.Combat.documentClass.create({ scene: sceneId, active: true, flags: { [MODULE_ID]: { encounter: enc, sideOf } } });
    if (!combat) throw new UserError("AVENTURE.Encounter.noCombat");
    await combat.createEmbeddedDocuments(
      "Combatant",
      members.map(({ id, doc }) => ({
        _id: id,
        tokenId: doc.id,
        sceneId,
        actorId: doc.actor?.id ?? null,
        hidden: doc.hidden ?? false,
      })),
      { keepId: true },
    );
    if (marked) {
      const adapter = adapterFor();
      for (const { doc, side } of docs) {
        if (doc.actor && surprised.includes(side)) await setOwnCondition(adapter, doc.actor, "surprised", true);
      }
    }
    if (sideInitiativeActive()) await startSideRound(combat, 1);
    else await combat.startCombat();
    return { combatId: combat.id };
  } finally {
    starting.delete(sceneId);
  }
}

/**
 * "Start combat": asks the active GM to create and start a combat with the dialog's tokens on the viewed scene (the
 * surprised sides from `result`). Returns the combat. GM only.
 */
export async function startEncounterCombat(state: EncounterDialogState, result: EncounterResult | null): Promise<unknown> {
  assertGM();
  const scene = canvas?.scene;
  if (!scene?.id) throw new UserError("AVENTURE.Encounter.noScene");
  if (!state.tokens.length) throw new UserError("AVENTURE.Error.NoToken");
  for (const tk of state.tokens) if (!scene.tokens.get(tk.id)) throw new UserError("AVENTURE.Encounter.tokenGone", { name: tk.name });
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

export function registerEncounterRequests(): void {
  registerRequest({ name: "encounterStart", gmOnly: true, handle: featureHandler("encounter", onEncounterStartRequest) });
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
    tokens.push({ id: tk.id, name: tk.name, disposition: DISPOSITION[tk.side], actor: d.actor, parent: { id: scene.id } });
  }
  if (!tokens.length) throw new UserError("AVENTURE.Error.NoToken");
  return { tokens, ...fleeHandOver(state.tokens, state.result, state.where) };
}

interface CombatDoc {
  id: string;
  createEmbeddedDocuments(type: "Combatant", data: object[]): Promise<unknown>;
  update(data: object): Promise<unknown>;
  startCombat(): Promise<unknown>;
}
