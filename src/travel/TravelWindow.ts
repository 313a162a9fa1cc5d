/**
 * What the two Travel windows share (TravelDialog, and OseTravelDialog under Old-School Essentials): the form, its
 * state and live summary (the form part re-rendered only when its shape changes, which keeps focus while typing),
 * the party's members added and removed, and Apply (request "travelApply" to the active GM: nothing sent while the
 * form is invalid or while a request of this window runs; closed on success, open on an error). Each window brings its
 * state, its context builder and what shapes its form part. Import only once Foundry's globals exist.
 */
import { notify, reportError, t } from "../core/i18n.js";
import type { TravelApplyResult } from "./apply.js";
import { requestTravel } from "./client.js";
import type { TravelRequest } from "./request.js";
import { AventureApplication } from "../core/application.js";
import { formText } from "../core/forms.js";

/** What the shared part reads of a window's context. */
export interface TravelWindowContext {
  request: TravelRequest | null;
  cannotApply: boolean;
}

export abstract class TravelWindow<S, C extends TravelWindowContext> extends AventureApplication {
  static override GUIDE = "travel" as const;

  /** The form's state (not `state`: ApplicationV2's render state has that name). */
  protected plan: S;
  /** A request of this window is running: Apply is disabled. */
  protected busy = false;
  /** What the form part was last rendered with. */
  #formKey = "";

  constructor(state: S) {
    super({});
    this.plan = state;
  }

  static override DEFAULT_OPTIONS: typeof AventureApplication.DEFAULT_OPTIONS = {
    classes: ["aventure-travel"],
    window: { title: "AVENTURE.Travel.title", icon: "fa-solid fa-route" },
    position: { width: 880 },
    form: { handler: TravelWindow.#onSubmit },
    actions: {
      apply: TravelWindow.#onApply,
      addMember: TravelWindow.#onAddMember,
      removeMember: TravelWindow.#onRemoveMember,
    },
  };

  /** The context of the window's templates, from its state. */
  protected abstract buildContext(): C;
  /** What the form part's shape depends on (the summary alone is re-rendered while it stays the same). */
  protected abstract formKeyOf(ctx: C): string;
  /** The state with one field changed as the form gives it. */
  protected abstract withChange(state: S, name: string, value: string | boolean): S;
  /** The state with this actor among the members (a UserError when no such actor exists). */
  protected abstract withMember(state: S, actorId: string): S;
  /** The state without this member. */
  protected abstract withoutMember(state: S, actorId: string): S;

  /** The current state (a copy), for macros and tests. */
  get formState(): S {
    return structuredClone(this.plan);
  }

  /** The request the window would send, or null while a field is invalid. */
  get request(): TravelRequest | null {
    return this.buildContext().request;
  }

  override async _prepareContext(): Promise<never> {
    const ctx = this.buildContext();
    this.#formKey = this.formKeyOf(ctx);
    return ctx as never; // cast: the template's context type; the pinned HandlebarsApplication render context is generic
  }

  /** A field changed: update the state and the live summary (the form part only when its shape changed). */
  override _onChangeForm(formConfig: foundry.applications.api.ApplicationV2.FormConfiguration, event: Event): void {
    super._onChangeForm(formConfig, event);
    const target = event.target as HTMLInputElement | HTMLSelectElement | null;
    if (!target?.name || target.name === "addActorId") return;
    const value = this.formValues()[target.name];
    void this.change(target.name, typeof value === "boolean" ? value : (formText({ value }, "value") ?? ""));
  }

  /** Changes one field (as the form does) and re-renders what depends on it. */
  change(name: string, value: string | boolean): Promise<unknown> {
    this.plan = this.withChange(this.plan, name, value);
    const parts = this.formKeyOf(this.buildContext()) === this.#formKey ? ["summary"] : ["form", "summary"];
    return this.render({ parts } as never); // cast: a partial re-render (parts only): the pinned render options want a whole configuration
  }

  addActor(actorId: string): Promise<unknown> {
    this.plan = this.withMember(this.plan, actorId);
    return this.render();
  }

  removeActor(actorId: string): Promise<unknown> {
    this.plan = this.withoutMember(this.plan, actorId);
    return this.render();
  }

  /** The Apply button (enabled when the request is valid and no request is running). */
  #setApplyDisabled(disabled: boolean): void {
    const button = this.element?.querySelector<HTMLButtonElement>('[data-action="apply"]');
    if (button) button.disabled = disabled;
  }

  /**
   * Sends the journey to the active GM (directly when this client is that GM). Nothing is sent while invalid or
   * while a request of this window runs (the Apply button is disabled meanwhile). Closes on success (applied, or
   * proposed to the GMs: the user is told); stays open on an error (shown in the user's language).
   */
  async apply(): Promise<TravelApplyResult | null> {
    const ctx = this.buildContext();
    if (!ctx.request) {
      await this.render();
      notify("warn", t("AVENTURE.Travel.Summary.invalid"));
      return null;
    }
    if (this.busy) return null;
    this.busy = true;
    this.#setApplyDisabled(true);
    try {
      const result = await requestTravel(ctx.request);
      if (result.ok) await this.close();
      return result;
    } finally {
      this.busy = false;
      if (this.rendered) this.#setApplyDisabled(this.buildContext().cannotApply);
    }
  }

  static async #onApply(this: TravelWindow<unknown, TravelWindowContext>): Promise<void> {
    await this.apply();
  }

  static async #onAddMember(this: TravelWindow<unknown, TravelWindowContext>): Promise<void> {
    const actorId = formText(this.formValues(), "addActorId");
    if (!actorId) return;
    try {
      await this.addActor(actorId);
    } catch (e) {
      reportError(e);
    }
  }

  static async #onRemoveMember(
    this: TravelWindow<unknown, TravelWindowContext>,
    _event: PointerEvent,
    target: HTMLElement,
  ): Promise<void> {
    const id = target.dataset.actorId;
    if (id) await this.removeActor(id);
  }

  /** Enter in a field submits the form: treat it as a change, never as Apply. */
  static async #onSubmit(this: TravelWindow<unknown, TravelWindowContext>): Promise<void> {
    await this.render();
  }
}
