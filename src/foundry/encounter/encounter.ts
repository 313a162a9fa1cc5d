/**
 * The encounter glue: tokens from the canvas, the rolls (Foundry dice) and the chat card, and "Start
 * combat": a combat with these tokens, the surprised side marked and skipped in round 1, then side
 * initiative takes over (src/foundry/combat).
 */
import { MODULE_ID, template } from "../../constants.js";
import type { EncounterCombatState } from "../combat/types.js";
import { adapterFor, setOwnCondition, type ActorLike } from "../adapters/adapter.js";
import { postCard } from "../chat.js";
import { foundryDice } from "../dice.js";
import { UserError, t } from "../i18n.js";
import { assertGM } from "../tokens.js";
import { encounterCardContext, fleeHandOver, type EncounterDialogState, type EncounterToken } from "../../apps/encounter-context.js";
import type { DialogToken, PursuitDialogOptions } from "../../apps/PursuitDialog.js";
import { runEncounter, type EncounterResult } from "./run.js";
import { dialogSides } from "../../apps/encounter-context.js";
import { DISPOSITION, sideOfToken, type SideId } from "./sides.js";

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
  const docs = (canvas?.tokens?.controlled ?? []).map((tk) => tk.document as unknown as CanvasToken);
  return docs
    .filter((d) => d.id)
    .map((d) => ({
      id: d.id!,
      name: d.name,
      side: sideOfToken(d as { id: string; name: string; disposition: number }),
      chaMod: d.actor ? adapter.read(d.actor as unknown as ActorLike).chaMod : null,
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

/**
 * Creates and starts a combat with the dialog's tokens: each combatant keeps the side it was given, the
 * surprised sides (from `result`) get the surprised marker and lose round 1, and the round-1 start hands
 * over to side initiative. Returns the combat.
 */
export async function startEncounterCombat(state: EncounterDialogState, result: EncounterResult | null): Promise<unknown> {
  assertGM();
  const scene = canvas?.scene;
  if (!scene) throw new UserError("AVENTURE.Encounter.noScene");
  const docs = state.tokens.map((tk) => {
    const d = scene.tokens.get(tk.id) as unknown as CanvasToken | undefined;
    if (!d) throw new UserError("AVENTURE.Encounter.tokenGone", { name: tk.name });
    return { doc: d, side: tk.side };
  });
  if (!docs.length) throw new UserError("AVENTURE.Error.NoToken");
  const surprised = (result?.surprise?.outcome.surprised ?? []) as SideId[];
  const firstRound = (result?.surprise?.outcome.firstRound ?? dialogSides(state.tokens)) as SideId[];
  const enc: EncounterCombatState = { surprised, firstRound, marked: false };
  const CombatClass = (CONFIG.Combat.documentClass as unknown as { create(data: object): Promise<CombatDoc | undefined> });
  const combat = await CombatClass.create({ scene: scene.id, active: true, flags: { [MODULE_ID]: { encounter: enc } } });
  if (!combat) throw new UserError("AVENTURE.Encounter.noCombat");
  await combat.createEmbeddedDocuments(
    "Combatant",
    docs.map(({ doc, side }) => ({
      tokenId: doc.id,
      sceneId: scene.id,
      actorId: doc.actor?.id ?? null,
      hidden: doc.hidden ?? false,
      flags: { [MODULE_ID]: { side } },
    })),
  );
  if (surprised.length) {
    const adapter = adapterFor();
    let marked = false;
    for (const { doc, side } of docs) {
      if (!doc.actor || !surprised.includes(side)) continue;
      await setOwnCondition(adapter, doc.actor as unknown as ActorLike, "surprised", true);
      marked = true;
    }
    if (marked) await combat.update({ [`flags.${MODULE_ID}.encounter`]: { ...enc, marked } });
  }
  await combat.startCombat();
  ui.notifications?.info(t("AVENTURE.Encounter.combatStarted"));
  return combat;
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
    const d = scene.tokens.get(tk.id) as unknown as CanvasToken | undefined;
    if (!d) throw new UserError("AVENTURE.Encounter.tokenGone", { name: tk.name });
    tokens.push({ id: tk.id, name: tk.name, disposition: DISPOSITION[tk.side], actor: d.actor, parent: { id: scene.id } });
  }
  if (!tokens.length) throw new UserError("AVENTURE.Error.NoToken");
  return { tokens, ...fleeHandOver(state.tokens, state.result, state.where) };
}

interface CombatDoc {
  createEmbeddedDocuments(type: "Combatant", data: object[]): Promise<unknown>;
  update(data: object): Promise<unknown>;
  startCombat(): Promise<unknown>;
}
