/**
 * Suffocation in play (RULES.md §4.2), everything it registers (called once from registerHooks() in init): request
 * "breath" and the recovery of interrupted drops (breath.ts); HUD buttons "hold-breath", "breathe-again" and the HUD
 * panel (display.ts); updateWorldTime (the active GM drops the creatures whose time ran out; every client redraws),
 * updateToken (a breath started or ended: every client redraws), renderCombatTracker (the badges).
 */
import { MODULE_ID } from "../../constants.js";
import { guarded } from "../i18n.js";
import { checkBreaths, registerBreathRequests } from "./breath.js";
import { drawBreathBadges, refreshBreathDisplays, registerBreathDisplay } from "./display.js";
import { onHook } from "../hooks-typed.js";

/** updateWorldTime (every client): the active GM applies due drops, then every client redraws what it shows. */
export async function onBreathWorldTime(worldTime: number): Promise<void> {
  await guarded(() => checkBreaths(worldTime));
  await guarded(refreshBreathDisplays);
}

/**
 * updateToken (every client): a change of flags.aventure.breath (set, or deleted: "-=breath") redraws the HUD panel
 * and the tracker badges; other changes do not.
 */
export function onBreathTokenUpdate(_token: unknown, changed: unknown): Promise<void> | void {
  if (typeof changed !== "object" || changed === null || !("flags" in changed)) return;
  const flags = changed.flags;
  if (typeof flags !== "object" || flags === null || !(MODULE_ID in flags)) return;
  const mine = flags[MODULE_ID];
  if (typeof mine !== "object" || mine === null || !("breath" in mine || "-=breath" in mine)) return;
  return guarded(refreshBreathDisplays).then(() => undefined);
}

export function registerBreathHooks(): void {
  registerBreathRequests();
  registerBreathDisplay();
  onHook("updateWorldTime", (worldTime: number) => onBreathWorldTime(worldTime));
  onHook("updateToken", (token: unknown, changed: unknown) => onBreathTokenUpdate(token, changed));
  onHook("renderCombatTracker", (_app: unknown, html: HTMLElement) => guarded(() => drawBreathBadges(html)));
}
