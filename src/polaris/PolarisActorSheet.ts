/**
 * The sheet of Aventure's Polaris character type (`aventure.polaris`; docs/rules.md §9.3): the eight attributes,
 * Chance, Réaction and the initiative score, and the skills with their level and
 * mastery (added and removed with the sheet's buttons). Every change is written at once (the form submits on change),
 * after the whole form is checked (polaris-sheet-context.ts): a bad value is refused with a clear message and nothing
 * is
 * written. Registered for that type only, as its default sheet (polaris/model.ts).
 */
import { template } from "../core/constants.js";
import { deletion } from "../core/compat.js";
import { guarded, t, UserError } from "../core/i18n.js";
import { withGuideButton } from "../core/guide.js";
import { POLARIS_MAX_SKILLS, type PolarisActorSystem } from "./actor-type.js";
import { newSkillKey, parsePolarisSheet, polarisSheetContext } from "./polaris-sheet-context.js";

const { HandlebarsApplicationMixin } = foundry.applications.api;
const { ActorSheetV2 } = foundry.applications.sheets;

/** The actor as the sheet uses it. */
interface SheetActor {
  name: string;
  img: string | null;
  system: unknown;
  update(changes: Record<string, unknown>): Promise<unknown>;
}

/**
 * What the sheet uses of HandlebarsApplicationMixin(ActorSheetV2) (DocumentSheetV2#document, #isEditable,
 * ApplicationV2#_renderFrame).
 */
interface SheetBase {
  /** The sheet's document: an Actor of the module's own type. */
  readonly document: SheetActor;
  readonly isEditable: boolean;
  _renderFrame(options: never): Promise<HTMLElement>;
  render(options?: object | boolean): Promise<unknown>;
  close(options?: object): Promise<unknown>;
}
// The pinned HandlebarsApplicationMixin(ActorSheetV2) type is too deep for the compiler to compare a subclass with it.
// cast: see above
const Base: new (options?: object) => SheetBase = HandlebarsApplicationMixin(ActorSheetV2) as never;

export class PolarisActorSheet extends Base {
  static DEFAULT_OPTIONS = {
    classes: ["aventure", "aventure-polaris-sheet"],
    position: { width: 560, height: "auto" as const },
    window: { resizable: true, icon: "fa-solid fa-dice-d20" },
    form: { handler: PolarisActorSheet.#onSubmit, submitOnChange: true, closeOnSubmit: false },
    actions: { addSkill: PolarisActorSheet.#onAddSkill, deleteSkill: PolarisActorSheet.#onDeleteSkill },
  };

  static PARTS = {
    body: { template: template("polaris/actor-sheet.hbs") },
  };

  /** The "?" button of the title bar opens the guide's Polaris First steps page. */
  override async _renderFrame(options: never): Promise<HTMLElement> {
    return withGuideButton(await super._renderFrame(options), "start-polaris");
  }

  get #actor(): SheetActor {
    return this.document;
  }

  get #system(): Partial<PolarisActorSystem> {
    return (this.#actor.system ?? {}) as Partial<PolarisActorSystem>;
  }

  async _prepareContext(): Promise<never> {
    const a = this.#actor;
    return polarisSheetContext(
      { name: a.name, img: a.img ?? "", system: this.#system, editable: this.isEditable },
      (k, d) => t(k, d),
    ) as never; // cast: the template's context; the pinned sheet context type is generic
  }

  static async #onSubmit(
    this: PolarisActorSheet,
    _event: Event,
    _form: HTMLFormElement,
    formData: { object: Record<string, unknown> },
  ): Promise<void> {
    const done = await guarded(async () => {
      const changes = parsePolarisSheet(formData.object, this.#system, (k, d) => t(k, d));
      await this.#actor.update(changes);
      return true;
    });
    // Refused: the form shows the stored values again (the message said which field was wrong).
    if (!done) await this.render();
  }

  static async #onAddSkill(this: PolarisActorSheet): Promise<void> {
    await guarded(async () => {
      const skills = this.#system.skills ?? {};
      if (Object.keys(skills).length >= POLARIS_MAX_SKILLS)
        throw new UserError("AVENTURE.PolarisActor.tooManySkills", { max: POLARIS_MAX_SKILLS });
      const key = newSkillKey(skills);
      await this.#actor.update({
        [`system.skills.${key}`]: {
          label: t("AVENTURE.PolarisActor.newSkill"),
          attribute: null,
          level: null,
          mastery: null,
        },
      });
    });
  }

  static async #onDeleteSkill(this: PolarisActorSheet, _event: Event, target: HTMLElement): Promise<void> {
    const key = target.closest<HTMLElement>("[data-skill]")?.dataset.skill ?? "";
    if (!Object.prototype.hasOwnProperty.call(this.#system.skills ?? {}, key)) return;
    await guarded(() => this.#actor.update(deletion(`system.skills.${key}`)));
  }
}
