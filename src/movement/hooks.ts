/**
 * Movement costs, jumps and falls: everything the feature registers, called once from
 * registerHooks() in init. Hooks: setup (cost functions, ruler class), preMoveToken (refuse moves beyond
 * the speed), moveToken (elevation drops), a card part (the fall card button). Also: the
 * "aventure.fall" and "aventure.fallApply" queries, the fall region behaviour, the jump and fall token HUD
 * buttons.
 */
import { jumpsPanelUseful } from "../core/features.js";
import { movementLeft } from "../rules/movement.js";
import { metresText } from "./movement-context.js";
import { getSetting } from "../core/settings.js";
import { t, notify } from "../core/i18n.js";
import { addHudButton } from "../core/token-hud.js";
import { installMovementCosts } from "./costs.js";
import { installRuler, budgetFor } from "./ruler.js";
import { onElevationDrop, onRenderFallCard, registerFallRequests, type FallToken } from "./fall.js";
import { registerFallBehavior } from "./fall-region.js";
import { isCurrentCombatant, movementStats, sceneToMetres, type SceneLike } from "./token-data.js";
import { openFallDialog, showJumps } from "./api.js";
import { onHook, onceHook } from "../core/hooks-typed.js";
import { registerCardPart } from "../core/cards.js";
import { FALL_CARD, registerFallCard } from "./fall-card.js";

interface PreMovement {
  history?: { cost?: number };
  passed?: { cost?: number; waypoints?: readonly { action?: string }[] };
  pending?: { cost?: number; waypoints?: readonly { action?: string }[] };
}

/**
 * preMoveToken (the moving user's client): with the "movementRefuse" setting, a player's move that spends
 * more than the speed of the combatant whose turn it is is refused. GMs are never refused.
 */
export function onPreMoveToken(token: FallToken, movement: PreMovement): boolean | void {
  if (game.user.isGM || !getSetting("movementRefuse") || !isCurrentCombatant(token) || !token.actor) return;
  const speeds = movementStats(token.actor).speeds;
  if (!speeds) return;
  const action = movement.pending?.waypoints?.at(-1)?.action ?? token.movementAction ?? "walk";
  const spent = (movement.history?.cost ?? 0) + (movement.passed?.cost ?? 0) + (movement.pending?.cost ?? 0);
  const spentMetres = sceneToMetres(spent, token.parent as SceneLike);
  if (spentMetres === null) return;
  const budget = budgetFor(speeds, action);
  if (!Number.isFinite(spentMetres) || movementLeft(budget, spentMetres).exceeded) {
    notify(
      "warn",
      t("AVENTURE.Movement.Ruler.refused", { name: token.name, speed: metresText(budget, game.i18n.lang) }),
    );
    return false;
  }
}

export function registerMovementHooks(): void {
  registerFallRequests();
  registerFallBehavior();
  onceHook("setup", () => {
    installMovementCosts();
    installRuler();
  });
  onHook("preMoveToken", onPreMoveToken);
  // Returns the promise (Hooks ignore it) so that tests can wait for each client's handler.
  onHook("moveToken", (token: FallToken, movement: Parameters<typeof onElevationDrop>[1]) =>
    onElevationDrop(token, movement),
  );
  registerFallCard();
  registerCardPart({
    kind: "fall",
    type: FALL_CARD.kind,
    selector: "[data-action='aventure-apply-fall']",
    render: onRenderFallCard,
  });
  addHudButton({
    id: "jumps",
    icon: "fa-solid fa-person-arrow-up-from-line",
    title: "AVENTURE.Movement.Jump.hud",
    column: "right",
    labelFeature: "jumps",
    visible: () => jumpsPanelUseful(),
    onClick: (token) => showJumps([token]),
  });
  addHudButton({
    id: "fall",
    icon: "fa-solid fa-person-falling",
    title: "AVENTURE.Movement.Fall.hud",
    column: "right",
    feature: "falls",
    owner: "falls",
    onClick: (token) => openFallDialog([token], "hud"),
  });
}
