/**
 * The jump panel (token HUD button, `api.showJumps()`): the token's long jump and high jump with and
 * without run-up, its reach (for a height the user may change), the highest obstacle and the checks.
 */
import { worldBorrowings } from "../core/features.js";
import { template } from "../core/constants.js";
import { getSetting } from "../core/settings.js";
import { t } from "../core/i18n.js";
import { movementStats } from "./token-data.js";
import { jumpPanelContext, parseHeight } from "./movement-context.js";
import { AventureApplication } from "../core/application.js";
import { formText } from "../core/forms.js";

/** *Decision:* the reach assumes a 1.8 m tall creature until the user types its height. */
export const DEFAULT_HEIGHT = 1.8;

export interface JumpSubject {
  id: string | null;
  name: string;
  actor: unknown;
}

export class JumpPanel extends AventureApplication {
  static override GUIDE = "movement" as const;

  #subject: JumpSubject;
  #height = DEFAULT_HEIGHT;

  constructor(subject: JumpSubject, options: object = {}) {
    super({ ...options, id: `aventure-jumps-${subject.id ?? "actor"}` } as never); // cast: the pinned ApplicationV2 configuration makes every field required
    this.#subject = subject;
  }

  static override DEFAULT_OPTIONS = {
    // Nothing to save (the base's form): the height only changes what is shown (_onChangeForm).
    classes: ["aventure-jumps"],
    window: { title: "AVENTURE.Movement.Jump.title", icon: "fa-solid fa-person-arrow-up-from-line", resizable: false },
    position: { width: 420 },
  };

  static override PARTS = {
    form: { template: template("movement/jumps.hbs") },
  };

  /** "Jumps — Aldric": whose jumps (several panels may be open). */
  override get title(): string {
    return t("AVENTURE.Movement.Jump.titleFor", { name: this.#subject.name });
  }

  override async _prepareContext(): Promise<never> {
    const stats = movementStats(this.#subject.actor);
    const ruleset = getSetting("ruleset");
    return jumpPanelContext(
      {
        name: this.#subject.name,
        ruleset,
        rulesetLabel: t(`AVENTURE.Ruleset.${ruleset}`),
        strScore: stats.strScore,
        strMod: stats.strMod,
        height: this.#height,
        lang: game.i18n.lang,
        athleticsReminder: getSetting("athleticsReminder"),
        borrowed: worldBorrowings(),
      },
      (k, d) => t(k, d),
    ) as never; // cast: the template's context type; the pinned HandlebarsApplication render context is generic
  }

  override _onChangeForm(formConfig: foundry.applications.api.ApplicationV2.FormConfiguration, event: Event): void {
    super._onChangeForm(formConfig, event);
    const target = event.target as HTMLInputElement | null;
    if (target?.name !== "height") return;
    const h = parseHeight(formText(this.formValues(), "height") ?? ""); // "1,8" (as the panel shows it in French) or "1.8"
    if (h !== null) {
      this.#height = h;
      void this.render();
    }
  }
}
