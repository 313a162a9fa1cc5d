/**
 * The fall dialog (token HUD button, `api.fallDialog()`): how many metres the selected tokens fall, with the
 * dice it means; confirming calls `api.fall` for each token (the fall itself runs on the active GM).
 */
import { featureRuleset, worldFeatureNote } from "../core/features.js";
import { template } from "../core/constants.js";
import { t } from "../core/i18n.js";
import { fall } from "./fall.js";
import { fallDialogContext } from "./movement-context.js";
import { AventureApplication } from "../core/application.js";

export class FallDialog extends AventureApplication {
  static override GUIDE = "falls" as const;

  #tokens: { name: string }[];
  #source: "hud" | "api";
  #metres = 3;

  constructor(
    tokens: { name: string }[],
    source: "hud" | "api" = "api",
    options: Partial<foundry.applications.api.ApplicationV2.Configuration> = {},
  ) {
    super(options);
    this.#tokens = tokens;
    this.#source = source;
  }

  static override DEFAULT_OPTIONS = {
    id: "aventure-fall",
    classes: ["aventure-fall"],
    window: { title: "AVENTURE.Movement.Fall.title", icon: "fa-solid fa-person-falling", resizable: false },
    position: { width: 360 },
    form: { handler: FallDialog.#onSubmit, closeOnSubmit: true },
  };

  static override PARTS = {
    form: { template: template("movement/fall-dialog.hbs") },
  };

  override async _prepareContext(): Promise<never> {
    const note = worldFeatureNote("falls");
    return fallDialogContext(
      {
        names: this.#tokens.map((x) => x.name),
        metres: this.#metres,
        lang: game.i18n.lang,
        ruleset: featureRuleset("falls"),
        borrowed: note.borrowedLabel,
      },
      (k, d) => t(k, d),
    ) as never; // cast: the template's context type; the pinned HandlebarsApplication render context is generic
  }

  override _onChangeForm(formConfig: foundry.applications.api.ApplicationV2.FormConfiguration, event: Event): void {
    super._onChangeForm(formConfig, event);
    const target = event.target as HTMLInputElement | null;
    if (target?.name !== "metres") return;
    this.#metres = Number(this.formValues().metres);
    void this.render();
  }

  static async #onSubmit(
    this: FallDialog,
    _event: Event,
    _form: HTMLFormElement,
    formData: { object: Record<string, unknown> },
  ): Promise<void> {
    const metres = Number(formData.object.metres);
    for (const token of this.#tokens) await fall(token, metres, this.#source);
  }
}
