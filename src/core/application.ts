/**
 * The base of every Aventure window: HandlebarsApplicationMixin(ApplicationV2) with the module's defaults and the title
 * bar's "?" button that opens the window's page of the GM guide (`static GUIDE`). Its `aventure` class scopes the
 * module's CSS and marks the window as the module's in Foundry's registry of rendered applications
 * (`foundry.applications.instances`), where the module finds its open windows (src/core/windows.ts; a window of fixed
 * id is opened with `openSingle`, never kept in a variable).
 *
 * Defaults: ApplicationV2 merges the DEFAULT_OPTIONS of every class of the chain, from this base down to the window
 * (objects key by key, `classes` added together). So a window declares only its own values (id, its class, title,
 * icon, width, actions, its form handler, a default it changes), never a spread of its parent's DEFAULT_OPTIONS. The
 * base's: a `<form>` (read through `formValues()`, Foundry's FormDataExtended, never field by field), height fitted
 * to the content, resizable, and a form that neither submits on change nor closes on submit, whose submission does
 * nothing unless the window gives its own handler (Enter in a field closes nothing).
 *
 * Theme: Foundry's own, with no code here. v13 themes the interface (`theme-dark` / `theme-light` on <body>) and may
 * theme a window on its own (core adds `themed theme-dark` / `themed theme-light` to its element, from the user's
 * colour-scheme settings). The base adds no theme class and keeps no theme of its own; styles/aventure.css gives the
 * Aventure palette for each of Foundry's themes under `.aventure` (the nearest theme wins); every other colour of the
 * styles comes from that palette or core's variables, or carries its own background (window-base.test.ts checks).
 */
import { withGuideButton, type GuidePageKey } from "./guide.js";
import { formValues } from "./forms.js";

const { HandlebarsApplicationMixin, ApplicationV2 } = foundry.applications.api;

export class AventureApplication extends HandlebarsApplicationMixin(ApplicationV2) {
  /** The guide page the "?" button opens. */
  static GUIDE: GuidePageKey = "overview";

  /** Typed as ApplicationV2's (a partial configuration), so that a window declares only what it changes. */
  static override DEFAULT_OPTIONS: typeof ApplicationV2.DEFAULT_OPTIONS = {
    classes: ["aventure"],
    tag: "form",
    window: { resizable: true },
    position: { height: "auto" as const },
    form: { handler: async () => undefined, submitOnChange: false, closeOnSubmit: false },
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
