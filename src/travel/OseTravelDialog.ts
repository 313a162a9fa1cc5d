/**
 * The Travel dialog under Old-School Essentials (docs/rules.md §12): the party and its base movement (the slowest
 * member's, read from the OSE actors), the terrain legs of the route with their modifier and chances, forced march,
 * flying, guide, river, foraging, the day of rest, rations, and the days as they go if the party never gets lost; Apply
 * sends the journey to the active GM (request "travelApply", as every journey: a player's is a proposal). The route is
 * measured on this client by OSE terrain for the preview; the GM measures it again on Apply.
 * Import only once Foundry's globals exist.
 */
import { pmtLostRoll } from "./ose.js";
import { tokenLevel } from "../core/compat.js";
import { template } from "../core/constants.js";
import { adapterFor } from "../actors/api.js";
import { reportError, t, UserError } from "../core/i18n.js";
import { getSetting } from "../core/settings.js";
import { actorById, addableActors, defaultPartyIds } from "./party.js";
import { oseBaseMetres } from "./ose.js";
import { measureOseOnScene, routeScene, routeTokens } from "./route/scene.js";
import { TravelWindow } from "./TravelWindow.js";
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
import type { TravelDialogOptions } from "./travel-context.js";

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

export class OseTravelDialog extends TravelWindow<OseTravelState, OseTravelContext> {
  constructor(options: TravelDialogOptions = {}) {
    const ids = options.actorIds?.length
      ? options.actorIds
      : options.from
        ? options.from.members.map((m) => m.actorId)
        : defaultPartyIds();
    let state = oseDefaultState(membersOf(ids), null);
    if (options.from) state = oseStateFromRequest(state, options.from);
    if (options.route) state = { ...state, route: measured(options.route, state.openTerrain) };
    super(state);
  }

  static override DEFAULT_OPTIONS = {
    id: "aventure-ose-travel-{id}",
    classes: ["aventure-ose-travel"],
  };

  static override PARTS = {
    form: { template: template("travel/ose-form.hbs") },
    summary: { template: template("travel/ose-summary.hbs") },
  };

  protected override buildContext(): OseTravelContext {
    return oseTravelContext(this.plan, {
      localize: t,
      lang: game.i18n.lang,
      isGM: game.user.isGM,
      playersApply: getSetting("travelPlayersApply"),
      busy: this.busy,
      addable: addableActors(),
      borrowed: getSetting("ruleset") === "pmt",
      pmtLost: pmtLostRoll(),
    });
  }

  protected override formKeyOf(ctx: OseTravelContext): string {
    return JSON.stringify([ctx.route, ctx.state.members.map((m) => m.actorId), ctx.errors, ctx.legs, ctx.baseText]);
  }

  /** One field changed; a new open terrain measures the route again. */
  protected override withChange(state: OseTravelState, name: string, value: string | boolean): OseTravelState {
    const next = oseApplyChange(state, name, value);
    return next.route && next.openTerrain !== state.openTerrain
      ? { ...next, route: measured(next.route, next.openTerrain) }
      : next;
  }

  protected override withMember(state: OseTravelState, actorId: string): OseTravelState {
    const [m] = membersOf([actorId]);
    if (!m) throw new UserError("AVENTURE.Travel.Error.UnknownActor", { id: actorId });
    return oseAddMember(state, m);
  }

  protected override withoutMember(state: OseTravelState, actorId: string): OseTravelState {
    return oseRemoveMember(state, actorId);
  }
}

/** Opens the OSE Travel dialog. */
export function openOseTravel(options: TravelDialogOptions = {}): OseTravelDialog {
  const app = new OseTravelDialog(options);
  void app.render({ force: true });
  return app;
}
