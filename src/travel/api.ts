/**
 * What the travel feature offers the other features and the composition root: the Travel window (opened directly, or
 * along a route) and the journey requests. Below, "Plan along the route".
 *
 * "Plan along the route": where a route comes from and how the Travel dialog opens with it.
 * - A Drawing selected on the canvas (polygon or freehand: a line; anything else is refused).
 * - A ruler drag of the party's token: the token HUD's button arms this client for that token; the next drag of it
 *   (with its waypoints, as the ruler shows them) is taken as the route in `preMoveToken` (v13, fires on the moving
 *   user's client with the movement's origin and its waypoints, final at that point) and refused: the token does not
 *   move, the dialog opens with the route. Clicking the button again disarms it.
 * - The API: `api.planRoute({ points | drawingId, tokenIds, actorIds })`.
 * The route is measured on this client for the dialog; the GM who applies it measures it again on the scene.
 */
import type { TravelDialog, TravelDialogOptions } from "./TravelDialog.js";
import type { OseTravelDialog } from "./OseTravelDialog.js";
import { onDemand } from "../core/on-demand.js";
import { notify, reportError, t, UserError } from "../core/i18n.js";
import { drawingRoute, type DrawingLike, type Point } from "./route/geometry.js";
import { measureOnScene, routeScene, routeTokens, tokenCentre, type RouteToken } from "./route/scene.js";
import type { TravelRequest } from "./request.js";
import { tokenLevel } from "../core/compat.js";

export { requestTravel, requestUndo } from "./client.js";

/**
 * The Travel windows' file (dist/aventure-TravelDialog.js, with Old-School Essentials' dialog), loaded when first
 * opened.
 */
const dialogFile = onDemand(() => import("./TravelDialog.js"));

/**
 * api.openTravel(options?): the Travel dialog (Old-School Essentials' own under ose), once its file is loaded
 * (docs/api/travel.md).
 */
export async function openTravel(options: TravelDialogOptions = {}): Promise<TravelDialog | OseTravelDialog> {
  return (await dialogFile()).openTravel(options);
}

export interface PlanRouteOptions {
  /** The route's points in scene pixels (or a Drawing's id, or the controlled Drawing when neither is given). */
  points?: { x: number; y: number }[];
  drawingId?: string;
  /** The scene (default: the viewed one). */
  sceneId?: string;
  /** The party's tokens on that scene (default: the controlled tokens). */
  tokenIds?: string[];
  /** The party (default: the tokens' actors). */
  actorIds?: string[];
}

/** Tokens this client armed for a route drag, by token id. */
const armed = new Set<string>();

interface DrawingDocLike extends DrawingLike {
  id: string | null;
}

function controlledTokenIds(): string[] {
  return (canvas?.tokens?.controlled ?? []).flatMap((tk) => (tk.document.id ? [tk.document.id] : []));
}

function controlledDrawing(): DrawingDocLike | null {
  const list = canvas?.drawings?.controlled ?? [];
  return list.length ? list[0]!.document : null;
}

/** The route a Drawing traces; a UserError when it is not a line. */
function drawingPoints(drawing: DrawingLike): Point[] {
  const points = drawingRoute(drawing);
  if (!points) throw new UserError("AVENTURE.Travel.Route.Error.notALine");
  return points;
}

/**
 * Opens the Travel dialog for a journey along a route (api.planRoute). Refuses, with a message and nothing opened, a
 * route of no length, a scene without a grid distance, a unit Aventure cannot convert, a Drawing that is not a line,
 * a route through a region of an unknown kind. Resolves to the dialog, or null when refused.
 */
export async function planRoute(options: PlanRouteOptions = {}): Promise<TravelDialog | OseTravelDialog | null> {
  try {
    const scene = routeScene(options.sceneId ?? null);
    let points: Point[];
    if (options.points) points = options.points.map((p) => ({ x: Number(p.x), y: Number(p.y) }));
    else {
      const drawing = options.drawingId ? (scene.drawings.get(options.drawingId) ?? null) : controlledDrawing();
      if (!drawing) throw new UserError("AVENTURE.Travel.Route.Error.noRoute");
      points = drawingPoints(drawing);
    }
    const tokenIds = options.tokenIds ?? controlledTokenIds();
    const tokens = routeTokens(scene, tokenIds);
    const measured = measureOnScene(scene, points, tokens[0]?.elevation ?? 0, tokenLevel(tokens[0]));
    const actorIds = options.actorIds ?? [...new Set(tokens.flatMap((tk) => (tk.actor?.id ? [tk.actor.id] : [])))];
    return await openTravel({
      actorIds,
      route: { sceneId: scene.id ?? "", points: measured.points, tokenIds, legs: measured.legs },
    });
  } catch (e) {
    reportError(e);
    return null;
  }
}

/**
 * The token HUD's "Plan along the route": with a line Drawing selected, plans along it at once; otherwise arms this
 * token: its next drag is the route (clicking again disarms it).
 */
export function onRouteButton(token: { id: string | null }): void {
  if (controlledDrawing()) {
    const ids = controlledTokenIds();
    void planRoute({ tokenIds: ids.length ? ids : token.id ? [token.id] : [] });
    return;
  }
  if (!token.id) return;
  if (armed.delete(token.id)) {
    notify("info", t("AVENTURE.Travel.Route.disarmed"));
    return;
  }
  armed.add(token.id);
  notify("info", t("AVENTURE.Travel.Route.armed"));
}

/** preMoveToken: the drag of an armed token is its route; the token stays where it is and the dialog opens. */
export function onPreMoveTokenRoute(
  token: RouteToken & { parent: { id: string | null; grid: { size: number } } | null },
  movement: AventureMovementWaypoints,
): boolean | void {
  if (!token.id || !armed.has(token.id)) return;
  armed.delete(token.id);
  const size = token.parent?.grid.size ?? 100;
  const centre = (w: { x: number; y: number; width?: number; height?: number }) =>
    tokenCentre({ ...token, x: w.x, y: w.y, width: w.width ?? token.width, height: w.height ?? token.height }, size);
  const points = [
    centre(movement.origin),
    ...(movement.passed?.waypoints ?? []).map(centre),
    ...movement.pending.waypoints.map(centre),
  ];
  const ids = controlledTokenIds();
  void planRoute({
    sceneId: token.parent?.id ?? undefined,
    points,
    tokenIds: ids.includes(token.id) ? ids : [token.id],
  });
  return false;
}

/**
 * "Continue the journey" on a card: the Travel dialog with the rest of the route (measured again on this client), the
 * same party, tokens, pace, mode, rations, positions and activities.
 */
export async function continueJourney(next: TravelRequest): Promise<TravelDialog | OseTravelDialog | null> {
  const route = next.route;
  if (!route) return null;
  try {
    const scene = routeScene(route.sceneId);
    const tokens = routeTokens(scene, route.tokenIds);
    const measured = measureOnScene(scene, route.points, tokens[0]?.elevation ?? 0, tokenLevel(tokens[0]));
    return await openTravel({
      actorIds: next.members.map((m) => m.actorId),
      route: { sceneId: route.sceneId, points: measured.points, tokenIds: route.tokenIds, legs: measured.legs },
      from: next,
    });
  } catch (e) {
    reportError(e);
    return null;
  }
}

/** Whether a token is armed on this client (for tests and the HUD button's state). */
export function isArmed(tokenId: string): boolean {
  return armed.has(tokenId);
}

/** The feature's settings (registered by the composition root, src/settings.ts). */
export { travelSettings } from "./settings.js";
