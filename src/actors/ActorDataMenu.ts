/**
 * The "Actor data" settings menu (GM only): the data paths the generic adapter reads, with dnd5e and OSE
 * presets, and a check of each path against a chosen actor (a path that resolves to nothing is flagged). Only the
 * fields the world's game reads show (docs/rules.md §0); the form keeps the others' paths as they are.
 */
import { template } from "../core/constants.js";
import { ACTOR_DATA_FIELDS, type ActorDataPaths } from "../core/core-settings.js";
import { PRESETS, type PresetId } from "./presets.js";
import { actorDataContext } from "./actor-data-context.js";
import { getSetting, setSetting } from "../core/settings.js";
import { t, notify } from "../core/i18n.js";
import { AventureApplication } from "../core/application.js";
import { worldFeatures } from "../core/features.js";
import { formText } from "../core/forms.js";

export class ActorDataMenu extends AventureApplication {
  static override GUIDE = "settings" as const;

  #paths: ActorDataPaths | null = null;
  #actorId = "";

  static override DEFAULT_OPTIONS = {
    id: "aventure-actor-data",
    classes: ["aventure-actor-data"],
    window: { title: "AVENTURE.ActorData.title", icon: "fa-solid fa-database" },
    position: { width: 620 },
    form: { handler: ActorDataMenu.#onSubmit, closeOnSubmit: true },
    actions: { preset: ActorDataMenu.#onPreset },
  };

  static override PARTS = {
    form: { template: template("actor-data.hbs"), scrollable: [".aventure-fields"] },
  };

  // fvtt-types types the context as RenderContext; ours is a plain object for the template.
  override async _prepareContext(): Promise<never> {
    this.#paths ??= { ...getSetting("actorData") };
    const actors = game.actors.contents.map((a) => ({ id: a.id!, name: a.name }));
    this.#actorId ||= canvas?.tokens?.controlled[0]?.actor?.id ?? actors[0]?.id ?? "";
    const actor = this.#actorId ? (game.actors.get(this.#actorId) ?? null) : null;
    // docs/rules.md §0: only the fields the world's game reads (its own rules and borrowed ones).
    return actorDataContext(
      this.#paths,
      actors,
      actor ? { id: actor.id!, name: actor.name } : null,
      (k) => t(k),
      worldFeatures(),
    ) as never; // cast: the template's context type; the pinned HandlebarsApplication render context is generic
  }

  override async _onRender(context: never, options: never): Promise<void> {
    await super._onRender(context, options);
    // A path is one line: Enter in its field adds no line break.
    for (const area of this.element.querySelectorAll("textarea")) {
      area.addEventListener("keydown", (event) => {
        if (event.key === "Enter") event.preventDefault();
      });
    }
  }

  override _onChangeForm(formConfig: foundry.applications.api.ApplicationV2.FormConfiguration, event: Event): void {
    super._onChangeForm(formConfig, event);
    const target = event.target as HTMLInputElement | HTMLSelectElement | null;
    if (!target) return;
    if (target.name === "actorId") {
      this.#actorId = target.value;
      this.#readForm();
      void this.render();
    }
  }

  #readForm(): void {
    const values = this.formValues();
    const paths = { ...(this.#paths ?? getSetting("actorData")) };
    for (const key of ACTOR_DATA_FIELDS) {
      const value = formText(values, `paths.${key}`);
      // A path is one line: the field only wraps it (a line break typed or pasted in is dropped).
      if (value !== undefined)
        paths[key] = value
          .replace(/[\r\n]+/g, "")
          .replace(/\s*\|\s*/g, "|")
          .trim();
    }
    this.#paths = paths;
  }

  static async #onPreset(this: ActorDataMenu, _event: PointerEvent, target: HTMLElement): Promise<void> {
    const id = target.dataset.preset as PresetId | undefined;
    if (!id || !(id in PRESETS)) return;
    this.#paths = { ...PRESETS[id] };
    await this.render();
  }

  static async #onSubmit(this: ActorDataMenu): Promise<void> {
    if (!game.user.isGM) return;
    this.#readForm();
    await setSetting("actorData", this.#paths!);
    notify("info", t("AVENTURE.ActorData.saved"));
  }
}
