/**
 * A player's route refused as "outside the scene" must not name a scene the player cannot see (issue 20, item 10b;
 * docs/security.md). A player sees a scene when it is the active one (every player is taken there), when they own a
 * token on it, or with at least Limited ownership of it (CONST.DOCUMENT_OWNERSHIP_LEVELS: NONE "may not be seen by
 * this User", https://foundryvtt.com/api/v13/variables/CONST.DOCUMENT_OWNERSHIP_LEVELS.html). A route on any other scene
 * is refused exactly as one on a scene that does not exist: same key, no data.
 */
import { describe, expect, it, vi } from "vitest";
import {
  addDnd5eActor,
  bootWorld,
  control,
  forgeRequest,
  GM,
  PLAYER,
  viewScene,
  type FakeWorld,
} from "../world/index.js";
import type { TravelRequest } from "../../src/travel/request.js";

vi.setConfig({ testTimeout: 60_000 });

interface Dialog {
  request: TravelRequest | null;
  close(): Promise<unknown>;
}

async function boot() {
  const world = await bootWorld({ system: "dnd5e", users: [GM, PLAYER] });
  addDnd5eActor(world, {
    id: "aria",
    name: "Aria",
    abilities: { con: 14, wis: 14 },
    passive: 14,
    ownership: { p1: 3 },
  });
  const map = world.addScene({
    _id: "map",
    name: "Armorique",
    grid: { size: 100, distance: 1, units: "km" },
    width: 4000,
    height: 2000,
  });
  // The GM's scene: not active, no ownership for players, no token of theirs.
  const lair = world.addScene({
    _id: "lichLair000000001",
    name: "Antre du Liche",
    grid: { size: 100, distance: 1, units: "km" },
    width: 4000,
    height: 2000,
  });
  world.addToken(map, { _id: "tAria", name: "Aria", actorId: "aria", actorLink: true, x: 50, y: 450, disposition: 1 });
  for (const c of world.liveClients()) viewScene(world, c, map);
  return { world, map, lair };
}

/** The player's own journey along a road on the map, as their Travel dialog sends it. */
async function playerRequest(world: FakeWorld): Promise<TravelRequest> {
  control(world.clientOf("p1"), "tAria");
  const d = (await world.as("p1", () =>
    world.api<{ planRoute(o: object): Promise<Dialog | null> }>("p1").planRoute({
      points: [
        { x: 100, y: 500 },
        { x: 2800, y: 500 },
      ],
    }),
  ))!;
  const req = d.request!;
  await world.as("p1", () => d.close());
  return req;
}

describe("a route on a scene the player cannot see (issue 20, item 10b)", () => {
  it("attack: a route on the GM's hidden scene, its points outside it: refused as an unknown scene, its name and id never sent back", async () => {
    const { world, lair } = await boot();
    const req = await playerRequest(world);
    const far = [
      { x: 100, y: 500 },
      { x: 1e7, y: 500 },
    ];
    const onLair = await forgeRequest(world, "p1", "travelApply", {
      ...req,
      route: { ...req.route!, sceneId: lair.id, tokenIds: [], points: far },
    });
    const onNothing = await forgeRequest(world, "p1", "travelApply", {
      ...req,
      route: { ...req.route!, sceneId: "noSuchScene00001", tokenIds: [], points: far },
    });
    expect(onLair).toEqual({ status: "done", ok: false, key: "AVENTURE.Travel.Route.Error.scene", data: {} });
    expect(onLair).toEqual(onNothing);
    expect(JSON.stringify(onLair)).not.toContain("Antre");
    // Inside its bounds too: the same refusal (a player's journey never runs on a scene they cannot see).
    const inside = await forgeRequest(world, "p1", "travelApply", {
      ...req,
      route: {
        ...req.route!,
        sceneId: lair.id,
        tokenIds: [],
        points: [
          { x: 100, y: 500 },
          { x: 900, y: 500 },
        ],
      },
    });
    expect(inside).toEqual(onNothing);
  });

  it("a scene the player may see keeps the message naming it: the active scene, Limited ownership, or their own token on it", async () => {
    const { world, map, lair } = await boot();
    const req = await playerRequest(world);
    const far = [
      { x: 100, y: 500 },
      { x: 1e7, y: 500 },
    ];
    // Their token is on the map.
    expect(
      await forgeRequest(world, "p1", "travelApply", { ...req, route: { ...req.route!, points: far } }),
    ).toMatchObject({
      ok: false,
      key: "AVENTURE.Travel.Route.Error.outside",
      data: { scene: map.name },
    });
    const onLair = () =>
      forgeRequest(world, "p1", "travelApply", {
        ...req,
        route: { ...req.route!, sceneId: lair.id, tokenIds: [], points: far },
      });
    await world.as("gm1", () => lair.update({ ownership: { p1: 1 } }));
    expect(await onLair()).toMatchObject({
      ok: false,
      key: "AVENTURE.Travel.Route.Error.outside",
      data: { scene: "Antre du Liche" },
    });
    await world.as("gm1", () => lair.update({ ownership: { p1: 0 }, active: true }));
    expect(await onLair()).toMatchObject({
      ok: false,
      key: "AVENTURE.Travel.Route.Error.outside",
      data: { scene: "Antre du Liche" },
    });
    // A GM sees every scene.
    await world.as("gm1", () => lair.update({ active: false }));
    expect(
      await forgeRequest(world, "gm1", "travelApply", {
        ...req,
        route: { ...req.route!, sceneId: lair.id, tokenIds: [], points: far },
      }),
    ).toMatchObject({
      key: "AVENTURE.Travel.Route.Error.outside",
      data: { scene: "Antre du Liche" },
    });
  });
});
