/**
 * The Travel dialog: plan a journey (pace, terrain, mode, distance or duration, party with food, water,
 * marching order and activities) with a live summary, then Apply (request "travelApply" to the active GM, which
 * applies it or, for a player, posts it as a proposal for the GMs). Apply stays disabled while its request runs.
 * Import only once Foundry's globals exist.
 */
import { featureRuleset } from "../core/features.js";
import { template } from "../core/constants.js";
import { adapterFor } from "../actors/api.js";
import { t, UserError } from "../core/i18n.js";
import { getSetting } from "../core/settings.js";
import { actorById, addableActors, defaultPartyIds, dnd5eParty, readSnapshot, type Dnd5eParty } from "./party.js";
import type { MemberSnapshot } from "./request.js";
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
  type TravelDialogOptions,
} from "./travel-context.js";
import { TravelWindow } from "./TravelWindow.js";
import { openOseTravel, type OseTravelDialog } from "./OseTravelDialog.js";

export type { TravelDialogOptions };

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

export class TravelDialog extends TravelWindow<TravelFormState, TravelContext> {
  constructor(options: TravelDialogOptions = {}) {
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
    super(options.from ? stateFromRequest(state, options.from) : state);
  }

  static override DEFAULT_OPTIONS = {
    id: "aventure-travel-{id}",
  };

  static override PARTS = {
    form: { template: template("travel/form.hbs") },
    summary: { template: template("travel/summary.hbs") },
  };

  protected override buildContext(): TravelContext {
    return travelContext(this.plan, {
      ruleset: getSetting("ruleset"),
      trackFood: getSetting("travelTrackFood"),
      isGM: game.user.isGM,
      playersApply: getSetting("travelPlayersApply"),
      busy: this.busy,
      lang: game.i18n.lang,
      localize: t,
      addable: addableActors(),
      worldTime: game.time.worldTime,
    });
  }

  protected override formKeyOf(ctx: TravelContext): string {
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

  protected override withChange(state: TravelFormState, name: string, value: string | boolean): TravelFormState {
    return applyChange(state, name, value);
  }

  protected override withMember(state: TravelFormState, actorId: string): TravelFormState {
    const [s] = snapshotsOf([actorId]);
    if (!s) throw new UserError("AVENTURE.Travel.Error.UnknownActor", { id: actorId });
    return addMember(state, s);
  }

  protected override withoutMember(state: TravelFormState, actorId: string): TravelFormState {
    return removeMember(state, actorId);
  }
}

/**
 * api.openTravel(): opens the Travel dialog (Old-School Essentials' own under ose, or where pmt borrows it:
 * docs/rules.md §12).
 */
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
