/**
 * Polaris in play (called once from registerHooks in init): the token HUD's "Polaris test" button (ruleset polaris,
 * the token's owners and GMs: the test dialog for the token's actor). The change of intention and the tracker's
 * context-menu entries (Hasten, Delay, Change intention) belong to the combat feature (combat/polaris-*.ts).
 */
import { addHudButton } from "../core/token-hud.js";
import { openPolarisTest } from "./api.js";
import { registerPolarisTestCard } from "./test-card.js";

export function registerPolarisHooks(): void {
  registerPolarisTestCard();
  addHudButton({
    id: "polaris-test",
    icon: "fa-solid fa-dice-d20",
    title: "AVENTURE.Polaris.hudTest",
    column: "right",
    feature: "polaris",
    onClick: (token) => openPolarisTest({ actor: token.actor }),
  });
}
