/**
 * Suffocation in play (docs/rules.md §4.2), everything it registers (called once from registerHooks() in init): request
 * "breath" and the recovery of interrupted drops (breath.ts); HUD buttons "hold-breath", "breathe-again" and the HUD
 * panel (display.ts); updateWorldTime (the active GM drops the creatures whose time ran out; every client redraws),
 * updateScene (a breath started, dropped or ended: every client redraws), updateToken (a token hidden or revealed:
 * every client redraws), deleteToken (the active GM forgets a deleted token's held breath), renderCombatTracker (the
 * badges).
 */
import { registerSuffocationCard } from "./suffocation-card.js";
import { MODULE_ID } from "../core/constants.js";
import { deletes } from "../core/compat.js";
import { guarded } from "../core/i18n.js";
import { isActiveGM } from "../core/gm.js";
import { checkBreaths, registerBreathRequests } from "./breath.js";
import { breathFlagOf, isBreathToken, sceneIdOf, writeBreath } from "./state.js";
import { drawBreathBadges, refreshBreathDisplays, registerBreathDisplay } from "./display.js";
import { onHook } from "../core/hooks-typed.js";

/** updateWorldTime (every client): the active GM applies due drops, then every client redraws what it shows. */
export async function onBreathWorldTime(worldTime: number): Promise<void> {
  await guarded(() => checkBreaths(worldTime));
  await guarded(refreshBreathDisplays);
}

/**
 * updateScene (every client): a change of the scene's flags.aventure.breath (a held breath set, dropped or deleted)
 * redraws the HUD panel and the tracker badges; other changes do not.
 */
export function onBreathSceneUpdate(_scene: unknown, changed: unknown): Promise<void> | void {
  if (typeof changed !== "object" || changed === null || !("flags" in changed)) return;
  const flags = changed.flags;
  if (typeof flags !== "object" || flags === null || !(MODULE_ID in flags)) return;
  const mine = flags[MODULE_ID];
  if (
    typeof mine !== "object" ||
    mine === null ||
    !("breath" in mine || deletes(mine as Record<string, unknown>, "breath"))
  )
    return;
  return guarded(refreshBreathDisplays).then(() => undefined);
}

/** updateToken (every client): a token hidden or revealed shows or hides its breath to the players. */
export function onBreathTokenUpdate(_token: unknown, changed: unknown): Promise<void> | void {
  if (typeof changed !== "object" || changed === null || !("hidden" in changed)) return;
  return guarded(refreshBreathDisplays).then(() => undefined);
}

/** deleteToken (active GM): the scene's entry for a deleted token that held its breath is removed. */
export function onBreathTokenDelete(token: unknown): Promise<void> | void {
  if (!isActiveGM() || !isBreathToken(token) || !token.id || !breathFlagOf(token)) return;
  const sceneId = sceneIdOf(token);
  if (!sceneId || !game.scenes?.get(sceneId)) return;
  const tokenId = token.id;
  return guarded(() => writeBreath(sceneId, tokenId, null)).then(() => undefined);
}

export function registerBreathHooks(): void {
  registerSuffocationCard();
  registerBreathRequests();
  registerBreathDisplay();
  onHook("updateWorldTime", (worldTime: number) => onBreathWorldTime(worldTime));
  onHook("updateScene", (scene: unknown, changed: unknown) => onBreathSceneUpdate(scene, changed));
  onHook("updateToken", (token: unknown, changed: unknown) => onBreathTokenUpdate(token, changed));
  onHook("deleteToken", (token: unknown) => onBreathTokenDelete(token));
  onHook("renderCombatTracker", (_app: unknown, html: HTMLElement) => guarded(() => drawBreathBadges(html)));
}
