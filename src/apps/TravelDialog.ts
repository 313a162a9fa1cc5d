/**
 * The Travel dialog: plan a journey (pace, terrain, mode, distance or duration, party with food, water,
 * marching order and activities) with a live summary, then Apply (request "travelApply" to the active GM, which
 * applies it or, for a player, posts it as a proposal for the GMs). Apply stays disabled while its request runs.
 * Import only once Foundry's globals exist.
 */
import { featureRuleset } from "../foundry/features.js";
import { template } from "../constants.js";
import { adapterFor } from "../foundry/adapters/adapter.js";
import { reportError, t, UserError, notify } from "../foundry/i18n.js";
import { getSetting } from "../foundry/settings.js";
import type { TravelApplyResult } from "../foundry/travel/apply.js";
import { requestTravel } from "../foundry/travel/api.js";
import {
  actorById,
  addableActors,
  defaultPartyIds,
  dnd5eParty,
  readSnapshot,
  type Dnd5eParty,
} from "../foundry/travel/party.js";
import type { MemberSnapshot, TravelRequest } from "../foundry/travel/request.js";
import {
  addMember,
  applyChange,
  defaultState,
  removeMember,
  stateFromRequest,
  travelContext,
  withParty,
  type TravelContext,
  type TravelFormState,
  type TravelRouteState,
} from "./travel-context.js";
import { AventureApplication } from "./base.js";
import { openOseTravel, type OseTravelDialog } from "./OseTravelDialog.js";

export interface TravelDialogOptions {
  /** The party to start with (actor ids); by default the selected tokens, else the scene's player characters. */
  actorIds?: string[];
  /** A journey along a route (measured on this client): its legs replace the distance or duration. */
  route?: TravelRouteState;
  /** A journey to start from ("Continue the journey"): its pace, mode, hours, rations, positions and activities. */
  from?: TravelRequest;
  /**
   * A dnd5e group (party) actor: its creature members are the travellers (unless `actorIds` says otherwise), its pace
   * and primary vehicle are chosen and its other vehicles offered (foundry/travel/party.ts).
   */
  groupId?: string;
}

/** The dnd5e party a dialog is opened from, or a clear error when the id names no group. */
function partyOf(groupId: string): Dnd5eParty {
  const party = dnd5eParty(actorById(groupId));
  if (!party) throw new UserError("AVENTURE.Travel.Error.NotAParty", { id: groupId });
  return party;
}

/** The actors' snapshots, each marked with whether this user owns it (the GMs decide for the others). */
function snapshotsOf(ids: readonly string[]): (MemberSnapshot & { owned: boolean })[] {
  const adapter = adapterFor();
  return ids.flatMap((id) => {
    const a = actorById(id);
    if (!a) return [];
    const owned = game.user.isGM || a.testUserPermission(game.user, "OWNER");
    return [{ ...readSnapshot(adapter, a), owned }];
  });
}

export class TravelDialog extends AventureApplication {
  static override GUIDE = "travel" as const;

  #state: TravelFormState;
  #context: TravelContext | null = null;
  /** What the form part was last rendered with (re-rendered only when it changes: keeps focus while typing). */
  #formKey = "";
  #busy = false;

  constructor(options: TravelDialogOptions = {}) {
    super({});
    const party = options.groupId ? partyOf(options.groupId) : null;
    const ids = options.actorIds?.length
      ? options.actorIds
      : party
        ? party.memberIds
        : options.from
          ? options.from.members.map((m) => m.actorId)
          : defaultPartyIds();
    let state = defaultState(snapshotsOf(ids), getSetting("travelHoursPerDay"), options.route ?? null);
    if (party) state = withParty(state, party);
    this.#state = options.from ? stateFromRequest(state, options.from) : state;
  }

  static override DEFAULT_OPTIONS = {
    id: "aventure-travel-{id}",
    tag: "form",
    classes: ["aventure", "aventure-travel"],
    window: { title: "AVENTURE.Travel.title", icon: "fa-solid fa-route", resizable: true },
    position: { width: 880, height: "auto" as const },
    form: { handler: TravelDialog.#onSubmit, submitOnChange: false, closeOnSubmit: false },
    actions: {
      apply: TravelDialog.#onApply,
      addMember: TravelDialog.#onAddMember,
      removeMember: TravelDialog.#onRemoveMember,
    },
  };

  static override PARTS = {
    form: { template: template("travel/form.hbs") },
    summary: { template: template("travel/summary.hbs") },
  };

  /** The current state (read-only copy), for macros and tests. */
  get formState(): TravelFormState {
    return structuredClone(this.#state);
  }

  #buildContext(): TravelContext {
    return travelContext(this.#state, {
      ruleset: getSetting("ruleset"),
      trackFood: getSetting("travelTrackFood"),
      isGM: game.user.isGM,
      playersApply: getSetting("travelPlayersApply"),
      busy: this.#busy,
      lang: game.i18n.lang,
      localize: t,
      addable: addableActors(),
      worldTime: game.time.worldTime,
    });
  }

  static #formKeyOf(ctx: TravelContext): string {
    return JSON.stringify([
      ctx.needsSpeed,
      ctx.state.party?.vehicle,
      ctx.state.party ? ctx.state.mode : null,
      ctx.state.unit,
      ctx.state.members.map((m) => m.actorId),
      ctx.errors,
      ctx.members.map((m) => [m.conModError, m.ppError, m.error]),
      ctx.route?.equivalent,
      ctx.route?.fullDays,
    ]);
  }

  // fvtt-types types the context as RenderContext; ours is a plain object for the templates.
  override async _prepareContext(): Promise<never> {
    this.#context = this.#buildContext();
    this.#formKey = TravelDialog.#formKeyOf(this.#context);
    return this.#context as never; // cast: the template's context type; the pinned HandlebarsApplication render context is generic
  }

  /** A field changed: update the state and the live summary (the form part only when its shape changed). */
  override _onChangeForm(formConfig: foundry.applications.api.ApplicationV2.FormConfiguration, event: Event): void {
    super._onChangeForm(formConfig, event);
    const target = event.target as HTMLInputElement | HTMLSelectElement | null;
    if (!target?.name || target.name === "addActorId") return;
    const value =
      target instanceof Object && "type" in target && target.type === "checkbox"
        ? (target as HTMLInputElement).checked
        : target.value;
    this.change(target.name, value);
  }

  /** Changes one field (as the form does) and re-renders what depends on it. */
  change(name: string, value: string | boolean): Promise<unknown> {
    this.#state = applyChange(this.#state, name, value);
    const next = this.#buildContext();
    const parts = TravelDialog.#formKeyOf(next) === this.#formKey ? ["summary"] : ["form", "summary"];
    return this.render({ parts } as never); // cast: a partial re-render (parts only): the pinned render options want a whole configuration
  }

  /** The request the dialog would send, or null while a field is invalid. */
  get request() {
    return this.#buildContext().request;
  }

  addActor(actorId: string): Promise<unknown> {
    const [s] = snapshotsOf([actorId]);
    if (!s) throw new UserError("AVENTURE.Travel.Error.UnknownActor", { id: actorId });
    this.#state = addMember(this.#state, s);
    return this.render();
  }

  removeActor(actorId: string): Promise<unknown> {
    this.#state = removeMember(this.#state, actorId);
    return this.render();
  }

  /** The Apply button (enabled when the request is valid and no request is running). */
  #setApplyDisabled(disabled: boolean): void {
    const button = this.element?.querySelector<HTMLButtonElement>('[data-action="apply"]');
    if (button) button.disabled = disabled;
  }

  /**
   * Sends the journey to the active GM (directly when this client is that GM). Nothing is sent while invalid or
   * while a request of this dialog runs (the Apply button is disabled meanwhile). Closes on success (applied, or
   * proposed to the GMs: the user is told); stays open on an error (shown in the user's language).
   */
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

  static async #onApply(this: TravelDialog): Promise<void> {
    await this.apply();
  }

  static async #onAddMember(this: TravelDialog): Promise<void> {
    const select = (this.element as HTMLFormElement).elements.namedItem("addActorId") as HTMLSelectElement | null;
    if (!select?.value) return;
    try {
      await this.addActor(select.value);
    } catch (e) {
      reportError(e);
    }
  }

  static async #onRemoveMember(this: TravelDialog, _event: PointerEvent, target: HTMLElement): Promise<void> {
    const id = target.dataset.actorId;
    if (id) await this.removeActor(id);
  }

  /** Enter in a field submits the form: treat it as a change, never as Apply. */
  static async #onSubmit(this: TravelDialog): Promise<void> {
    await this.render();
  }
}

/** api.openTravel(): opens the Travel dialog (Old-School Essentials' own under ose, or where pmt borrows it: docs/rules.md §12). */
export function openTravel(options: TravelDialogOptions = {}): TravelDialog | OseTravelDialog {
  if (featureRuleset("travel") === "ose") {
    // Old-School Essentials' dialog takes the party's members as its travellers.
    const { groupId, ...rest } = options;
    return openOseTravel(groupId && !rest.actorIds?.length ? { ...rest, actorIds: partyOf(groupId).memberIds } : rest);
  }
  const app = new TravelDialog(options);
  void app.render({ force: true });
  return app;
}
