/**
 * The Travel dialog under Old-School Essentials (docs/rules.md §12): the party and its base movement (the slowest
 * member's, read from the OSE actors), the terrain legs of the route with their modifier and chances, forced march,
 * flying, guide, river, foraging, the day of rest, rations, and the days as they go if the party never gets lost; Apply
 * sends the journey to the active GM (request "travelApply", as every journey: a player's is a proposal). The route is
 * measured on this client by OSE terrain for the preview; the GM measures it again on Apply.
 * Import only once Foundry's globals exist.
 */
import { pmtLostRoll } from "../foundry/travel/ose.js";
import { tokenLevel } from "../foundry/compat.js";
import { template } from "../constants.js";
import { adapterFor } from "../foundry/adapters/adapter.js";
import { reportError, t, UserError, notify } from "../foundry/i18n.js";
import { getSetting } from "../foundry/settings.js";
import type { TravelApplyResult } from "../foundry/travel/apply.js";
import { requestTravel } from "../foundry/travel/api.js";
import { actorById, addableActors, defaultPartyIds } from "../foundry/travel/party.js";
import { oseBaseMetres } from "../foundry/travel/ose.js";
import { measureOseOnScene, routeScene, routeTokens } from "../foundry/route/scene.js";
import { AventureApplication } from "./base.js";
import {
  oseAddMember,
  oseApplyChange,
  oseDefaultState,
  oseRemoveMember,
  oseStateFromRequest,
  oseTravelContext,
  type OseMemberState,
  type OseRouteState,
  type OseTravelContext,
  type OseTravelState,
} from "./ose-travel-context.js";
import type { TravelDialogOptions } from "./TravelDialog.js";

function membersOf(ids: readonly string[]): OseMemberState[] {
  const adapter = adapterFor();
  return ids.flatMap((id) => {
    const a = actorById(id);
    return a ? [{ actorId: a.id!, name: a.name, baseMetres: oseBaseMetres(adapter, a) }] : [];
  });
}

/** The route's legs by OSE terrain, measured on this client (a route Aventure cannot read: reported, no legs). */
function measured(
  route: { sceneId: string; points: { x: number; y: number }[]; tokenIds: string[] },
  openTerrain: OseTravelState["openTerrain"],
): OseRouteState {
  try {
    const scene = routeScene(route.sceneId);
    const tokens = routeTokens(scene, route.tokenIds);
    const m = measureOseOnScene(scene, route.points, openTerrain, tokens[0]?.elevation ?? 0, tokenLevel(tokens[0]));
    return { sceneId: route.sceneId, points: m.points, tokenIds: route.tokenIds, legs: m.legs };
  } catch (e) {
    reportError(e);
    return { sceneId: route.sceneId, points: route.points, tokenIds: route.tokenIds, legs: [] };
  }
}

export class OseTravelDialog extends AventureApplication {
  static override GUIDE = "travel" as const;

  #state: OseTravelState;
  #busy = false;
  #formKey = "";

  constructor(options: TravelDialogOptions = {}) {
    super({});
    const ids = options.actorIds?.length
      ? options.actorIds
      : options.from
        ? options.from.members.map((m) => m.actorId)
        : defaultPartyIds();
    let state = oseDefaultState(membersOf(ids), null);
    if (options.from) state = oseStateFromRequest(state, options.from);
    if (options.route) state = { ...state, route: measured(options.route, state.openTerrain) };
    this.#state = state;
  }

  static override DEFAULT_OPTIONS = {
    id: "aventure-ose-travel-{id}",
    tag: "form",
    classes: ["aventure", "aventure-travel", "aventure-ose-travel"],
    window: { title: "AVENTURE.Travel.title", icon: "fa-solid fa-route", resizable: true },
    position: { width: 880, height: "auto" as const },
    form: { handler: OseTravelDialog.#onSubmit, submitOnChange: false, closeOnSubmit: false },
    actions: {
      apply: OseTravelDialog.#onApply,
      addMember: OseTravelDialog.#onAddMember,
      removeMember: OseTravelDialog.#onRemoveMember,
    },
  };

  static override PARTS = {
    form: { template: template("travel/ose-form.hbs") },
    summary: { template: template("travel/ose-summary.hbs") },
  };

  /** The current state (a copy), for macros and tests. */
  get formState(): OseTravelState {
    return structuredClone(this.#state);
  }

  #buildContext(): OseTravelContext {
    return oseTravelContext(this.#state, {
      localize: t,
      lang: game.i18n.lang,
      isGM: game.user.isGM,
      playersApply: getSetting("travelPlayersApply"),
      busy: this.#busy,
      addable: addableActors(),
      borrowed: getSetting("ruleset") === "pmt",
      pmtLost: pmtLostRoll(),
    });
  }

  static #formKeyOf(ctx: OseTravelContext): string {
    return JSON.stringify([ctx.route, ctx.state.members.map((m) => m.actorId), ctx.errors, ctx.legs, ctx.baseText]);
  }

  override async _prepareContext(): Promise<never> {
    const ctx = this.#buildContext();
    this.#formKey = OseTravelDialog.#formKeyOf(ctx);
    return ctx as never; // cast: the template's context type; the pinned HandlebarsApplication render context is generic
  }

  override _onChangeForm(formConfig: foundry.applications.api.ApplicationV2.FormConfiguration, event: Event): void {
    super._onChangeForm(formConfig, event);
    const target = event.target as HTMLInputElement | HTMLSelectElement | null;
    if (!target?.name || target.name === "addActorId") return;
    const value = "type" in target && target.type === "checkbox" ? (target as HTMLInputElement).checked : target.value;
    void this.change(target.name, value);
  }

  /** Changes one field (as the form does); a new open terrain measures the route again. */
  async change(name: string, value: string | boolean): Promise<unknown> {
    const before = this.#state.openTerrain;
    this.#state = oseApplyChange(this.#state, name, value);
    if (this.#state.route && this.#state.openTerrain !== before)
      this.#state = { ...this.#state, route: measured(this.#state.route, this.#state.openTerrain) };
    const next = this.#buildContext();
    const parts = OseTravelDialog.#formKeyOf(next) === this.#formKey ? ["summary"] : ["form", "summary"];
    return this.render({ parts } as never); // cast: a partial re-render (parts only)
  }

  /** The request the dialog would send, or null while a field is invalid. */
  get request() {
    return this.#buildContext().request;
  }

  addActor(actorId: string): Promise<unknown> {
    const [m] = membersOf([actorId]);
    if (!m) throw new UserError("AVENTURE.Travel.Error.UnknownActor", { id: actorId });
    this.#state = oseAddMember(this.#state, m);
    return this.render();
  }

  removeActor(actorId: string): Promise<unknown> {
    this.#state = oseRemoveMember(this.#state, actorId);
    return this.render();
  }

  #setApplyDisabled(disabled: boolean): void {
    const button = this.element?.querySelector<HTMLButtonElement>('[data-action="apply"]');
    if (button) button.disabled = disabled;
  }

  /** Sends the journey to the active GM; closes on success, stays open on an error. Nothing twice at once. */
  async apply(): Promise<TravelApplyResult | null> {
    const ctx = this.#buildContext();
    if (!ctx.request) {
      await this.render();
      notify("warn", t("AVENTURE.Travel.Summary.invalid"));
      return null;
    }
    if (this.#busy) return null;
    this.#busy = true;
    this.#setApplyDisabled(true);
    try {
      const result = await requestTravel(ctx.request);
      if (result.ok) await this.close();
      return result;
    } finally {
      this.#busy = false;
      if (this.rendered) this.#setApplyDisabled(this.#buildContext().cannotApply);
    }
  }

  static async #onApply(this: OseTravelDialog): Promise<void> {
    await this.apply();
  }

  static async #onAddMember(this: OseTravelDialog): Promise<void> {
    const select = (this.element as HTMLFormElement).elements.namedItem("addActorId") as HTMLSelectElement | null;
    if (!select?.value) return;
    try {
      await this.addActor(select.value);
    } catch (e) {
      reportError(e);
    }
  }

  static async #onRemoveMember(this: OseTravelDialog, _event: PointerEvent, target: HTMLElement): Promise<void> {
    const id = target.dataset.actorId;
    if (id) await this.removeActor(id);
  }

  static async #onSubmit(this: OseTravelDialog): Promise<void> {
    await this.render();
  }
}

/** Opens the OSE Travel dialog. */
export function openOseTravel(options: TravelDialogOptions = {}): OseTravelDialog {
  const app = new OseTravelDialog(options);
  void app.render({ force: true });
  return app;
}
