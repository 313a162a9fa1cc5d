/**
 * Where the remaining time shows (docs/rules.md §4.2): a token HUD panel (holding: time left; out of air: rounds left;
 * down) for the GM and the token's owners, the "Hold breath" / "Breathe again" HUD buttons, and a badge next to the
 * combatant in the combat tracker (for the GM and the users who may observe the token). While the token is hidden,
 * neither shows to any player. Each client refreshes what it shows when world time moves (updateWorldTime) or a
 * held breath changes (updateScene, its flags.aventure.breath): the panel and the badges are redrawn in place, the
 * tracker is not re-rendered.
 */
import { template } from "../core/constants.js";
import { breathHudContext, breathTrackerContext } from "./breath-context.js";
import { renderTemplateCompat } from "../core/compat.js";
import { t } from "../core/i18n.js";
import { addHudButton, addHudPanel } from "../core/token-hud.js";
import { breatheAgainFor, holdBreathFor } from "./breath.js";
import {
  breathFlagOf,
  breathNow,
  isBreathToken,
  playersMaySee,
  sceneIdOf,
  sceneToken,
  type BreathToken,
} from "./state.js";

const HUD_SLOT = "aventure-breath-hud-slot";
const TRACKER_ADDED = "aventure-breath-added";

/** May this user see the held breath of this token (the GM; its owners while it is not hidden)? */
function mayShowPanel(token: BreathToken): boolean {
  return game.user.isGM || (token.isOwner === true && playersMaySee(token));
}

/** Fills a HUD slot with the panel of its token (emptied when the token no longer holds its breath). */
async function fillHudSlot(slot: HTMLElement): Promise<void> {
  const token = sceneToken(slot.dataset.sceneId ?? "", slot.dataset.tokenId ?? "");
  const flag = token && mayShowPanel(token) ? breathFlagOf(token) : null;
  if (!flag) {
    slot.replaceChildren();
    return;
  }
  const state = breathNow(flag, game.time.worldTime);
  slot.innerHTML = await renderTemplateCompat(template("breath/hud.hbs"), breathHudContext(state, t));
}

/** The HUD panel of a token that holds its breath (its owners and GMs), or null. */
function hudPanel(token: TokenDocument): HTMLElement | null {
  const doc: unknown = token;
  if (!isBreathToken(doc) || !breathFlagOf(doc) || !doc.id) return null;
  if (!mayShowPanel(doc)) return null;
  const sceneId = sceneIdOf(doc);
  if (!sceneId) return null;
  const slot = document.createElement("div");
  slot.className = `aventure ${HUD_SLOT}`;
  slot.dataset.sceneId = sceneId;
  slot.dataset.tokenId = doc.id;
  void fillHudSlot(slot).catch((e: unknown) => console.error("aventure | breath HUD", e));
  return slot;
}

/** The combat tracker's root element on this client (ui.combat), when it is rendered. */
function trackerElement(): HTMLElement | null {
  const combat: unknown = ui.combat;
  if (typeof combat !== "object" || combat === null || !("element" in combat)) return null;
  const el: unknown = combat.element;
  // Duck-typed: the element may come from another window (v14 pop-outs) or a test DOM.
  return typeof el === "object" && el !== null && "querySelectorAll" in el && "ownerDocument" in el
    ? (el as HTMLElement)
    : null;
}

interface CombatantLike {
  id: string | null;
  tokenId?: string | null;
  sceneId?: string | null;
  hidden?: boolean;
}

/** The viewed combat's combatants that cannot breathe, with their state now. */
function breathRows(): {
  id: string;
  phase: "holding" | "outOfAir" | "down";
  secondsLeft: number;
  roundsLeft: number;
}[] {
  const combat: unknown = game.combat;
  if (typeof combat !== "object" || combat === null || !("combatants" in combat)) return [];
  const list: unknown = combat.combatants;
  if (typeof list !== "object" || list === null || !(Symbol.iterator in list)) return [];
  const out: { id: string; phase: "holding" | "outOfAir" | "down"; secondsLeft: number; roundsLeft: number }[] = [];
  for (const c of list as Iterable<CombatantLike>) {
    if (!c.id || !c.tokenId || !c.sceneId) continue;
    const token = sceneToken(c.sceneId, c.tokenId);
    const flag = token ? breathFlagOf(token) : null;
    // Who may see the token's sheet may see it cannot breathe: a monster's breath is not shown to the players, nor a
    // hidden token's.
    if (
      !token ||
      !flag ||
      (!game.user.isGM && (!playersMaySee(token) || !token.testUserPermission(game.user, "OBSERVER")))
    )
      continue;
    const s = breathNow(flag, game.time.worldTime);
    out.push({ id: c.id, phase: s.phase, secondsLeft: s.secondsLeft, roundsLeft: s.roundsLeft });
  }
  return out;
}

/**
 * Draws the breath badges into the tracker rows (span[data-for] next to the name; a collapsed dnd5e group's header
 * gets a copy). The previous badges are removed first, so it can run again whenever time moves.
 */
export async function drawBreathBadges(html: HTMLElement): Promise<void> {
  const rows = breathRows();
  const markup = rows.length
    ? await renderTemplateCompat(template("breath/tracker.hbs"), breathTrackerContext(rows, t))
    : "";
  for (const el of [...html.querySelectorAll(`.${TRACKER_ADDED}`)]) el.remove();
  if (!markup) return;
  const holder = html.ownerDocument.createElement("template");
  holder.innerHTML = markup;
  for (const badge of [...holder.content.querySelectorAll<HTMLElement>("[data-for]")]) {
    const row = [...html.querySelectorAll<HTMLElement>("li.combatant[data-combatant-id]")].find(
      (r) => r.dataset.combatantId === badge.dataset.for,
    );
    if (!row) continue;
    badge.classList.add(TRACKER_ADDED);
    (row.querySelector(".token-name") ?? row).appendChild(badge);
    const header = row.parentElement
      ?.closest("li.combatant-group")
      ?.querySelector<HTMLElement>(".group-header .token-name, .group-header");
    if (header) {
      const copy = badge.cloneNode(true);
      if ("removeAttribute" in copy && typeof copy.removeAttribute === "function") copy.removeAttribute("data-for");
      header.appendChild(copy);
    }
  }
}

/** Redraws what this client shows of held breaths: the open HUD panels and the tracker's badges. */
export async function refreshBreathDisplays(): Promise<void> {
  for (const slot of [...document.querySelectorAll<HTMLElement>(`.${HUD_SLOT}`)]) await fillHudSlot(slot);
  const tracker = trackerElement();
  if (tracker) await drawBreathBadges(tracker);
}

export function registerBreathDisplay(): void {
  addHudPanel(hudPanel);
  addHudButton({
    id: "hold-breath",
    icon: "fa-solid fa-lungs",
    title: "AVENTURE.Breath.hold",
    column: "left",
    feature: "suffocation",
    owner: "suffocation",
    visible: (token) => !breathFlagOf(token),
    onClick: (token) => holdBreathFor(token),
  });
  addHudButton({
    id: "breathe-again",
    icon: "fa-solid fa-wind",
    title: "AVENTURE.Breath.release",
    column: "left",
    feature: "suffocation",
    visible: (token) => !!breathFlagOf(token),
    onClick: (token) => breatheAgainFor(token),
  });
}
