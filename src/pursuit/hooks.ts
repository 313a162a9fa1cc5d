/**
 * Pursuit: the request every step of a chase goes through (runs on the active GM, chase.ts), the token HUD button
 * (for the token's owners: a player may start a flight for the tokens they own) and the Continue button of the chase
 * cards. Called once from registerHooks() (in init).
 * Hooks: a card part (Continue button on an unfinished chase card a GM wrote), updateWorldTime (v13, active
 * GM: the running exhaustion ends when its rest is over; also checked on ready and when a GM takes over),
 * updateActiveEffect (v14, active GM: core marked Aventure's running exhaustion expired, it is deleted).
 */
import { openPursuit } from "./api.js";
import { MODULE_ID, template } from "../core/constants.js";
import { isExpired, loadTemplatesCompat } from "../core/compat.js";
import { isActiveGM } from "../core/gm.js";
import { guarded } from "../core/i18n.js";
import { registerRecovery } from "../core/operations.js";
import { addHudButton } from "../core/token-hud.js";
import { chaseOfMessage, registerPursuitRequests } from "./chase.js";
import { CHASE_CARD, registerChaseCard } from "./chase-card.js";
import { queueExpiry } from "./effects.js";
import { onHook } from "../core/hooks-typed.js";
import { wireButtons, registerCardPart } from "../core/cards.js";

export { chaseOfMessage };

/**
 * Shows Continue on an unfinished chase card to GMs and to the player who started it; wires it. Only a card a GM
 * wrote, whose state reads back valid, counts: a player's message carrying chase flags gets no button.
 */
export function onRenderPursuitCard(message: ChatMessage, html: HTMLElement): void {
  const record = chaseOfMessage(message);
  const usable = !!record && !record.over && (game.user.isGM || record.startedBy === game.user.id);
  wireButtons(html, "aventure-pursuit-continue", {
    allowed: () => usable,
    run: () => (record ? openPursuit({ chaseId: record.id }) : undefined),
  });
}

export function registerPursuitHooks(): void {
  registerChaseCard();
  registerPursuitRequests();
  // The dialog and the card show their log lines with this partial (loadTemplates registers it by path).
  void loadTemplatesCompat([template("pursuit/log.hbs")]);
  addHudButton({
    id: "pursuit",
    icon: "fa-solid fa-person-running",
    title: "AVENTURE.Pursuit.hud",
    column: "right",
    feature: "pursuit",
    onClick: (token) => {
      const selected = (canvas?.tokens?.controlled ?? []).map((x) => x.document);
      const tokens = selected.some((x) => x.id === token.id) ? selected : [token, ...selected];
      openPursuit({ tokens });
    },
  });
  registerCardPart({
    kind: "pursuit",
    type: CHASE_CARD.kind,
    selector: '[data-action="aventure-pursuit-continue"]',
    render: onRenderPursuitCard,
  });
  // Fires on every client: only the active GM deletes, one expiry at a time.
  onHook("updateWorldTime", (worldTime: number) => {
    if (isActiveGM()) void guarded(() => queueExpiry(worldTime));
  });
  // v14: core marks an effect expired (an update of the effect): the active GM deletes Aventure's own, once.
  onHook("updateActiveEffect", (effect) => {
    const mine = (effect.flags as Record<string, { runExhaustion?: unknown } | undefined>)[MODULE_ID]; // cast: the pinned flags type lists core's scope only
    if (isActiveGM() && isExpired(effect) && mine?.runExhaustion) void guarded(() => queueExpiry(game.time.worldTime));
  });
  // World time may have passed while the previous active GM was away (or before a reload).
  registerRecovery("pursuitExpiry", async () => {
    if (isActiveGM()) await queueExpiry(game.time.worldTime); // every GM runs the recoveries: the active GM deletes
  });
}
