/**
 * Travel: the requests (players' and GMs' Apply, the card's Undo for GMs), the proposal kind "travel" (a player's
 * journey for the GMs to apply or decline), the recovery of interrupted journeys, the GM's token HUD button, and the
 * journey card's footer (status, what was left alone, the Undo button). Called once from registerHooks() (in init).
 * Hooks: card parts (the card's footer: rebuilt from the state of a card a GM wrote; Undo for GMs only).
 */
import { featureActive, featureHandler } from "../core/features.js";
import { dnd5eParty } from "./party.js";
import { openTravel } from "./api.js";
import { continueJourney, onPreMoveTokenRoute, onRouteButton } from "./api.js";
import { registerTravelTerrainBehavior } from "./route/terrain-region.js";
import { openEncounter } from "../encounter/api.js";
import { guarded, t } from "../core/i18n.js";
import { registerRecovery } from "../core/operations.js";
import { registerProposalKind } from "../core/proposals.js";
import { registerRequest } from "../core/requests.js";
import { addHudButton } from "../core/token-hud.js";
import { requestUndo } from "./client.js";
import { onDemand } from "../core/on-demand.js";
import { TRAVEL_REQUEST_TIMEOUT } from "./request.js";
import { journeyFooter } from "./card.js";
import { readJourney, registerJourneyCard, TRAVEL_CARD } from "./journey.js";
import { onHook } from "../core/hooks-typed.js";
import { wireClick, registerCardPart, wireButtons, type CardPart } from "../core/cards.js";

const UNDO = "aventure-travel-undo";
const CONTINUE = "aventure-travel-continue";

/**
 * Card part (the renderChatMessageHTML listener of cards.ts): the journey card's footer, rebuilt on each client in its
 * own language from the card's
 * state, only for a card a GM wrote. Any Undo button in the content is removed first (a player's message may carry
 * one): the only Undo button is the one made here, for GMs, on an applied journey; it stays disabled while it runs.
 */
export function onRenderTravelCard(message: ChatMessage, html: HTMLElement): void {
  for (const b of [...html.querySelectorAll(`[data-action="${UNDO}"], [data-action="${CONTINUE}"]`)]) b.remove();
  const card = html.querySelector<HTMLElement>(".aventure-travel-card");
  const flag = readJourney(message);
  if (!card || !flag) return;
  const doc = html.ownerDocument;
  let footer = card.querySelector<HTMLElement>(".aventure-travel-card-footer");
  if (!footer) {
    footer = doc.createElement("footer");
    footer.className = "aventure-travel-card-footer";
    card.append(footer);
  }
  const view = journeyFooter(flag, t, game.user.isGM, (id) => game.users.get(id)?.name ?? id);
  const line = (text: string, cls: string) => {
    const p = doc.createElement("p");
    p.className = cls;
    p.textContent = text;
    return p;
  };
  const children: HTMLElement[] = [];
  if (view.status)
    children.push(line(view.status, `aventure-travel-status${flag.status === "failed" ? " aventure-warning" : ""}`));
  for (const n of view.notes) children.push(line(n, "aventure-note"));
  for (const w of view.warnings) children.push(line(w, "aventure-warning"));
  if (view.undo) {
    const button = doc.createElement("button");
    button.type = "button";
    button.dataset.action = UNDO;
    const icon = doc.createElement("i");
    icon.className = "fa-solid fa-rotate-left";
    button.append(icon, ` ${t("AVENTURE.Travel.Card.undo")}`);
    wireClick(button, () => (message.id ? requestUndo(message.id) : undefined));
    children.push(button);
  }
  const next = flag.next;
  if (view.continues && next) {
    const button = doc.createElement("button");
    button.type = "button";
    button.dataset.action = CONTINUE;
    const icon = doc.createElement("i");
    icon.className = "fa-solid fa-forward";
    button.append(icon, ` ${t("AVENTURE.Travel.Card.continue")}`);
    wireClick(button, () => continueJourney(next));
    children.push(button);
  }
  footer.replaceChildren(...children);
}

/**
 * The journey card's part: every message of the card's sub-type; any other message only when it holds Aventure's own
 * journey card (`.aventure-travel-card`, a card posted before the sub-type) or one of the journey card's buttons (Undo,
 * Continue: removed from a card that is not a GM's journey). Never on another module's message for its own
 * `data-action` buttons.
 */
export const TRAVEL_CARD_PART: CardPart = {
  kind: "travel",
  type: TRAVEL_CARD.kind,
  selector: `.aventure-travel-card, [data-action="${UNDO}"], [data-action="${CONTINUE}"]`,
  render: onRenderTravelCard,
};

/**
 * What the active GM runs to apply, undo or finish a journey (apply.ts, dist/aventure-travel-apply.js): loaded when a
 * GM first runs one, every handler awaiting it. The requests, the proposal kind and the recovery are registered here at
 * init, so that none is missed before it is loaded.
 */
const executor = onDemand(() => import("./apply.js"));

/** A journey card left "applying" or "undoing" (what recoverJourneys finishes): only then is the executor loaded. */
function journeyLeftRunning(): boolean {
  return game.messages.contents.some((m) => {
    const status = readJourney(m)?.status;
    return status === "applying" || status === "undoing";
  });
}

export function registerTravelHooks(): void {
  registerRequest({
    name: "travelApply",
    timeout: TRAVEL_REQUEST_TIMEOUT,
    handle: featureHandler("travel", async (raw: unknown, context: { sender: User }) =>
      (await executor()).onTravelApplyRequest(raw, context),
    ),
  });
  registerRequest({
    name: "travelUndo",
    gmOnly: true,
    handle: async (raw) => (await executor()).onTravelUndoRequest(raw),
  });
  registerProposalKind({
    kind: "travel",
    title: "AVENTURE.Travel.Proposal.title",
    describe: async (raw) => (await executor()).describeJourney(raw),
    apply: async (raw, context) => (await executor()).applyJourneyProposal(raw, context),
  });
  registerRecovery("travel", async () => {
    if (journeyLeftRunning()) await (await executor()).recoverJourneys();
  });
  registerTravelTerrainBehavior();
  addHudButton({
    id: "travel",
    icon: "fa-solid fa-route",
    title: "AVENTURE.Travel.hud",
    column: "left",
    feature: "travel",
    gmOnly: true,
    onClick: (token) => {
      // A dnd5e party's token: the party travels (its members, pace and vehicles).
      const party = dnd5eParty(token.actor);
      if (party) return openTravel({ groupId: party.actorId });
      const actors = [token.actor, ...(canvas?.tokens?.controlled ?? []).map((t) => t.actor)];
      const ids = actors.flatMap((a) => dnd5eParty(a)?.memberIds ?? [a?.id]);
      return openTravel({ actorIds: [...new Set(ids.filter((x): x is string => !!x))] });
    },
  });
  addHudButton({
    id: "travelRoute",
    icon: "fa-solid fa-map-location-dot",
    title: "AVENTURE.Travel.Route.hud",
    column: "left",
    feature: "travel",
    onClick: (token) => onRouteButton(token),
  });
  onHook("preMoveToken", onPreMoveTokenRoute);
  onHook("renderGroupActorSheet", (app, element) => onRenderPartySheet(app, element));
  registerJourneyCard();
  registerCardPart(TRAVEL_CARD_PART);
  registerCardPart({ kind: "wilderness", selector: `[data-action="${OSE_ENCOUNTER}"]`, render: onRenderOseCard });
}

const PARTY_TRAVEL = "aventure-party-travel";

/**
 * renderGroupActorSheet (dnd5e 5.x's party sheet, an ApplicationV2: module/applications/actor/group-sheet.mjs): a
 * "Travel" button in the window's header opens the Travel dialog for this party, for a GM or an owner of the group
 * (a player's journey is a proposal for the GMs), while travel is on in this world. Added once per window (the
 * header stays when parts re-render).
 */
export function onRenderPartySheet(app: { actor?: unknown; document?: unknown }, element: HTMLElement): void {
  const actor = app.actor ?? app.document;
  const party = dnd5eParty(actor);
  if (!party || !featureActive("travel")) return;
  const owner = game.user.isGM || (actor as { isOwner?: unknown }).isOwner === true;
  const header = element.querySelector<HTMLElement>(".window-header") ?? element;
  if (!owner || header.querySelector(`[data-action="${PARTY_TRAVEL}"]`)) return;
  const doc = element.ownerDocument;
  const button = doc.createElement("button");
  button.type = "button";
  button.className = "header-control icon fa-solid fa-route aventure-party-travel";
  button.dataset.action = PARTY_TRAVEL;
  const label = t("AVENTURE.Travel.Party.open");
  button.dataset.tooltip = label;
  button.setAttribute("aria-label", label);
  button.addEventListener("click", (event) => {
    event.preventDefault();
    event.stopPropagation();
    void guarded(() => openTravel({ groupId: party.actorId }));
  });
  const close = header.querySelector('[data-action="close"]');
  if (close && close.parentElement === header) header.insertBefore(button, close);
  else header.append(button);
}

const OSE_ENCOUNTER = "aventure-ose-encounter";

/**
 * Card part (the renderChatMessageHTML listener of cards.ts): "Open the Encounter dialog" on an Old-School Essentials
 * journey card a GM wrote that met
 * wandering monsters, for GMs (the dialog prefilled for the wilderness distance, docs/rules.md §12). Removed from any
 * other message and for players.
 */
export function onRenderOseCard(message: ChatMessage, html: HTMLElement): void {
  const usable = game.user.isGM && readJourney(message) !== null;
  wireButtons(html, OSE_ENCOUNTER, { allowed: () => usable, run: () => openEncounter({ where: "wilderness" }) });
}
