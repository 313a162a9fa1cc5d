/**
 * The base of every Aventure window: HandlebarsApplicationMixin(ApplicationV2) with the module's defaults and the title
 * bar's "?" button that opens the window's page of the GM guide (`static GUIDE`). Its `aventure` class scopes the
 * module's CSS and marks the window as the module's in Foundry's registry of rendered applications
 * (`foundry.applications.instances`), where the module finds its open windows (src/core/windows.ts).
 * Subclasses declare their own DEFAULT_OPTIONS (ApplicationV2 merges them down the class chain) and read their form
 * through `formValues()` (Foundry's FormDataExtended), never field by field.
 */
import { withGuideButton, type GuidePageKey } from "./guide.js";
import { formValues } from "./forms.js";

const { HandlebarsApplicationMixin, ApplicationV2 } = foundry.applications.api;

export class AventureApplication extends HandlebarsApplicationMixin(ApplicationV2) {
  /** The guide page the "?" button opens. */
  static GUIDE: GuidePageKey = "overview";

  static override DEFAULT_OPTIONS = {
    classes: ["aventure"],
  };

  /** The window's form values, read through Foundry's FormDataExtended (see formValues). */
  protected formValues(): Record<string, unknown> {
    const el = this.element;
    return formValues(el?.tagName === "FORM" ? (el as HTMLFormElement) : null);
  }

  /** The "?" button of the title bar opens this window's page of the GM guide. */
  protected override async _renderFrame(options: never): Promise<HTMLElement> {
    return withGuideButton(await super._renderFrame(options), (this.constructor as typeof AventureApplication).GUIDE);
  }
}
