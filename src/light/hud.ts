/**
 * Token HUD: the light badge (level and darkness on one line, opening on the senses used, resulting effect, hiding DC,
 * searching) for the GM and the token's owners; the actions "Hide" for the owners, and for the GM "End hiding" and
 * "Searching" / "No longer searching", in the HUD's Aventure palette.
 */
import { worldFeatureNote } from "../core/features.js";
import { lightHudContext } from "./light-hud-context.js";
import { template } from "../core/constants.js";
import { renderTemplateCompat } from "../core/compat.js";
import { getSetting } from "../core/settings.js";
import { addHudButton, addHudPanel } from "../core/token-hud.js";
import { endHide, hide, hideFlagOf, isSearching, setSearching } from "./hide.js";
import type { TokenDocLike } from "./scene.js";
import { UNLIMITED_RANGE } from "./senses.js";
import { lightAtOf, lightTracker } from "./tracker.js";

/** The panel's context for a token, or null when the token is not on the viewed scene. */
export function lightHudContextFor(doc: TokenDocLike) {
  if (!doc.id) return null;
  const s = lightTracker.stateOf(doc.id);
  if (!s) return null;
  const flag = hideFlagOf(doc);
  const note = worldFeatureNote("lightEffects");
  return lightHudContext({
    ...lightAtOf(s),
    effectsOn: getSetting("lightEffects"),
    // A player reads the DC of their own hide, not how many creatures it hides from (some they may not see).
    hidden: flag ? { dc: flag.dc, from: game.user.isGM ? flag.from.length : null } : null,
    searching: isSearching(doc),
    unlimited: UNLIMITED_RANGE,
    rulesOn: note.on,
    noRule: note.noRule,
    borrowed: note.borrowedLabel,
  });
}

/**
 * The badge is one line (level, darkness) that opens on the details; whether it is open is remembered on this client
 * while the HUD re-renders (a token update, another token).
 */
let detailsOpen = false;

function panel(token: TokenDocument): HTMLElement | null {
  const doc = token;
  if (!game.user.isGM && !doc.isOwner) return null;
  const ctx = lightHudContextFor(doc);
  if (!ctx) return null;
  const slot = document.createElement("div");
  slot.className = "aventure aventure-light-hud-slot";
  void renderTemplateCompat(template("light/hud.hbs"), { ...ctx, open: detailsOpen }).then((html) => {
    slot.innerHTML = html;
    const details = slot.querySelector("details");
    details?.addEventListener("toggle", () => {
      detailsOpen = details.open;
    });
  });
  return slot;
}

export function registerLightHud(): void {
  addHudPanel(panel);
  addHudButton({
    id: "hide",
    icon: "fa-solid fa-user-secret",
    title: "AVENTURE.Light.Hide.button",
    column: "right",
    feature: "hiding",
    visible: (token) => !hideFlagOf(token),
    onClick: (token) => hide(token),
  });
  addHudButton({
    id: "end-hide",
    icon: "fa-solid fa-eye",
    title: "AVENTURE.Light.Hide.endButton",
    column: "right",
    feature: "hiding",
    gmOnly: true,
    visible: (token) => !!hideFlagOf(token),
    onClick: (token) => endHide(token, "revealed"),
  });
  addHudButton({
    id: "search",
    icon: "fa-solid fa-magnifying-glass",
    title: "AVENTURE.Light.Hide.searchButton",
    column: "right",
    feature: "hiding",
    gmOnly: true,
    visible: (token) => !isSearching(token),
    onClick: (token) => setSearching(token, true),
  });
  addHudButton({
    id: "stop-search",
    icon: "fa-solid fa-magnifying-glass-minus",
    title: "AVENTURE.Light.Hide.stopSearchButton",
    column: "right",
    feature: "hiding",
    gmOnly: true,
    visible: (token) => isSearching(token),
    onClick: (token) => setSearching(token, false),
  });
}
