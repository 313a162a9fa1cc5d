/**
 * Pursuit: the query every step of a chase goes through (runs on the active GM), the token HUD button
 * (for the token's owners: a player may start a flight for the tokens they own) and the Continue button
 * of the chase cards. Called once from registerHooks() (in init).
 * Hooks: renderChatMessageHTML (Continue button on an unfinished chase card), updateWorldTime (v13, active
 * GM: the running exhaustion ends when its rest is over).
 */
import { openPursuit, type DialogToken } from "../../apps/PursuitDialog.js";
import type { ChaseRecord } from "../../apps/pursuit-context.js";
import { template } from "../../constants.js";
import { loadTemplatesCompat } from "../compat.js";
import { isActiveGM, registerQuery } from "../gm.js";
import { guarded } from "../i18n.js";
import { addHudButton } from "../token-hud.js";
import { handlePursuitRequest, PURSUIT_QUERY } from "./chase.js";
import { expireRunExhaustion } from "./effects.js";

interface MessageLike {
  flags?: Record<string, Record<string, unknown> | undefined>;
}

/** The chase stored on a card, if it is one. */
export function chaseOfMessage(message: MessageLike): ChaseRecord | null {
  const r = message.flags?.aventure?.pursuit as ChaseRecord | undefined;
  return r && r.version === 1 && typeof r.id === "string" ? r : null;
}

/** Shows Continue on an unfinished chase card to GMs and to the player who started it; wires it. */
export function onRenderPursuitCard(message: MessageLike, html: HTMLElement): void {
  const record = chaseOfMessage(message);
  if (!record) return;
  const button = html.querySelector<HTMLButtonElement>('[data-action="aventure-pursuit-continue"]');
  if (!button) return;
  if (record.over || !(game.user.isGM || record.startedBy === game.user.id)) {
    button.remove();
    return;
  }
  button.addEventListener("click", (event) => {
    event.preventDefault();
    void guarded(() => openPursuit({ chaseId: record.id }));
  });
}

export function registerPursuitHooks(): void {
  registerQuery(PURSUIT_QUERY, handlePursuitRequest);
  // The dialog and the card show their log lines with this partial (loadTemplates registers it by path).
  void loadTemplatesCompat([template("pursuit/log.hbs")]);
  addHudButton({
    id: "pursuit",
    icon: "fa-solid fa-person-running",
    title: "AVENTURE.Pursuit.hud",
    column: "right",
    onClick: (token) => {
      const selected = ((canvas?.tokens?.controlled ?? []) as unknown as { document: DialogToken }[]).map((x) => x.document);
      const tokens = selected.some((x) => x.id === token.id) ? selected : [token as unknown as DialogToken, ...selected];
      openPursuit({ tokens });
    },
  });
  Hooks.on("renderChatMessageHTML", onRenderPursuitCard as never);
  // Fires on every client: only the active GM deletes (once).
  Hooks.on("updateWorldTime", ((worldTime: number) => {
    if (isActiveGM()) void guarded(() => expireRunExhaustion(worldTime));
  }) as never);
}
