/**
 * The first-run window, "Which game do you play here?": the five games and another game, each in two lines (what
 * Aventure does for it, the Foundry system it expects), the running system's matches marked. Choosing sets the world up
 * for that game (welcome/welcome.ts) and opens its First steps page of the guide. It opens by itself at the `ready` of
 * the active GM while no game was chosen in the world (never for a player, nor for a second GM), and again from the
 * module settings' "Your game" button or `api.openWelcome()`.
 */
import { template } from "../core/constants.js";
import { t, guarded, notify } from "../core/i18n.js";
import { AventureApplication } from "../core/application.js";
import { openSingle } from "../core/windows.js";
import { getSetting } from "../core/settings.js";
import { isActiveGM } from "../core/gm.js";
import { chooseGame } from "./welcome.js";
import { welcomeContext } from "./welcome-context.js";

/** The window's id: one per client, found in Foundry's registry of rendered windows (core/windows.ts). */
const WELCOME = "aventure-welcome";

export class WelcomeDialog extends AventureApplication {
  /** The "?" button of the title bar opens the guide's overview. */
  static override GUIDE = "overview" as const;

  static override DEFAULT_OPTIONS = {
    id: WELCOME,
    // Not a form: the choices are buttons (actions).
    tag: "div",
    classes: ["aventure-welcome"],
    window: { title: "AVENTURE.Welcome.title", icon: "fa-solid fa-dice-d20", resizable: false },
    position: { width: 560 },
    actions: { choose: WelcomeDialog.#onChoose },
  };

  static override PARTS = {
    body: { template: template("welcome.hbs") },
  };

  override async _prepareContext(): Promise<never> {
    const chosen = getSetting("welcomeDone");
    return welcomeContext(
      {
        systemId: game.system.id,
        systemTitle: String(game.system.title ?? ""),
        ruleset: chosen ? getSetting("ruleset") : null,
      },
      (k, d) => t(k, d),
    ) as never; // cast: the template's context type; the pinned HandlebarsApplication render context is generic
  }

  static async #onChoose(this: WelcomeDialog, _event: PointerEvent, target: HTMLElement): Promise<void> {
    const choice = target.dataset.game;
    await this.close();
    await guarded(() => chooseGame(choice));
  }
}

/**
 * Opens the window (GMs; a player is told that only a GM chooses the game), or brings the open one to the front.
 * `api.openWelcome()`.
 */
export async function openWelcome(): Promise<WelcomeDialog | null> {
  if (!game.user?.isGM) {
    notify("warn", t("AVENTURE.Welcome.gmOnly"));
    return null;
  }
  return openSingle(WelcomeDialog, WELCOME);
}

/** At `ready`: opens the window on the active GM's client while no game was chosen in the world. */
export function openWelcomeOnFirstRun(): void {
  if (!isActiveGM() || getSetting("welcomeDone")) return;
  void guarded(() => openWelcome());
}
