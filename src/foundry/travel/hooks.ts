/**
 * Travel: the queries (players' Apply, and the card's Undo run on the active GM), the GM's token HUD button
 * and the Undo button of the journey card. Called once from registerHooks() (in init).
 * Hooks: renderChatMessageHTML (the card's Undo button: GM only, hidden once undone).
 */
import { openTravel } from "../../apps/TravelDialog.js";
import { registerQuery } from "../gm.js";
import { addHudButton } from "../token-hud.js";
import { requestUndo } from "./api.js";
import { applyTravel, travelFlag, undoTravelQuery, type TravelMessageLike } from "./apply.js";

/** Shows the Undo button to GMs on a journey card that is not undone yet, and wires it. */
export function onRenderTravelCard(message: TravelMessageLike, html: HTMLElement): void {
  const flag = travelFlag(message);
  if (!flag) return;
  const button = html.querySelector<HTMLButtonElement>('[data-action="aventure-travel-undo"]');
  const undone = html.querySelector<HTMLElement>(".aventure-travel-undone");
  if (undone) undone.hidden = !flag.undone;
  if (!button) return;
  if (!game.user.isGM || flag.undone) {
    button.remove();
    return;
  }
  button.addEventListener("click", (event) => {
    event.preventDefault();
    if (!message.id) return;
    button.disabled = true;
    void requestUndo(message.id).finally(() => {
      button.disabled = false;
    });
  });
}

export function registerTravelHooks(): void {
  registerQuery("travelApply", applyTravel);
  registerQuery("travelUndo", undoTravelQuery);
  addHudButton({
    id: "travel",
    icon: "fa-solid fa-route",
    title: "AVENTURE.Travel.hud",
    column: "left",
    gmOnly: true,
    onClick: (token) => {
      const ids = [token.actor?.id, ...(canvas?.tokens?.controlled ?? []).map((t) => t.actor?.id)];
      openTravel({ actorIds: [...new Set(ids.filter((x): x is string => !!x))] });
    },
  });
  Hooks.on("renderChatMessageHTML", onRenderTravelCard as never);
}
