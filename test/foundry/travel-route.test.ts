/**
 * Journeys along a route (issue 14; RULES.md §11) through the test world: a regional map with a 1 km grid, a road
 * that enters the "Forêt de Brocéliande" (an Aventure Travel terrain region), the route drawn as a Drawing or dragged
 * with the party's token, the Travel dialog prefilled with the legs, Apply moving the party's tokens in marching order
 * by the active GM, Undo putting them back, a journey stopped after its first day and continued from its card, two
 * GMs, a player's proposal, a crash before any write, bad routes refused with nothing changed, forged routes.
 *
 * The map (100 px a space, 1 km a space: 1 px = 10 m): the route runs along y = 500 from x = 100 to x = 2800; the
 * forest covers x 1900..2800. So 18 km of road (1800 px), then 9 km of forest (900 px): RULES.md §11's example.
 */
import { describe, expect, it, vi } from "vitest";
import {
  addDnd5eActor,
  bootWorld,
  control,
  forgeRequest,
  FakeDrawing,
  FakeRegion,
  FakeRegionBehavior,
  GM,
  GM2,
  PLAYER,
  viewScene,
  type FakeActor,
  type FakeChatMessage,
  type FakeScene,
  type FakeToken,
  type FakeWorld,
} from "../world/index.js";
import type { TravelApplyResult } from "../../src/travel/apply.js";
import type { TravelRequest } from "../../src/travel/request.js";
import { cardOf, cardsOf } from "./card-state.js";
import { expectJourneyCrashLogs } from "./crash-logs.js";

vi.setConfig({ testTimeout: 60_000 });

interface Dialog {
  formState: {
    route: {
      legs: { metres: number; terrain: string; regions: string[] }[];
      points: { x: number; y: number }[];
      tokenIds: string[];
    } | null;
    members: { actorId: string; position: string }[];
  };
  request: TravelRequest | null;
  lastContext: Record<string, unknown>;
  lastHTML: string;
  rendered: boolean;
  change(name: string, value: string | boolean): Promise<unknown>;
  apply(): Promise<TravelApplyResult | null>;
  close(): Promise<unknown>;
}
interface Api {
  planRoute(o?: {
    points?: { x: number; y: number }[];
    drawingId?: string;
    tokenIds?: string[];
    actorIds?: string[];
  }): Promise<Dialog | null>;
}

const WORLD_TIME = 6 * 3600; // 06:00 on the world clock

/** A world with two GMs and a player; Aria (p1's) and Bram (the GM's) and their tokens on the regional map. */
async function boot(
  opts: {
    lang?: "en" | "fr";
    grid?: { size?: number; distance?: number; units?: string };
    users?: (typeof GM | typeof GM2 | typeof PLAYER)[];
  } = {},
) {
  const world = await bootWorld({ system: "dnd5e", users: opts.users ?? [GM, GM2, PLAYER], lang: opts.lang });
  const aria = addDnd5eActor(world, {
    id: "aria",
    name: "Aria",
    abilities: { con: 14, wis: 14 },
    passive: 14,
    ownership: { p1: 3 },
  });
  const bram = addDnd5eActor(world, {
    id: "bram",
    name: "Bram",
    abilities: { con: 10 },
    passive: 12,
    ownership: { default: 1 },
  });
  const scene = world.addScene({
    _id: "map",
    name: "Armorique",
    grid: { size: 100, distance: 1, units: "km", ...(opts.grid ?? {}) },
    width: 4000,
    height: 2000,
  });
  const forest = new FakeRegion(
    world,
    { _id: "foret", name: "Bois", shapes: [{ type: "rectangle", x: 1900, y: 300, width: 900, height: 400 }] },
    scene,
  );
  forest.behaviors.set(
    new FakeRegionBehavior(
      world,
      {
        _id: "forestTerrain",
        type: "aventure.travelTerrain",
        system: { terrain: "difficult", label: "Forêt de Brocéliande" },
      },
      forest,
    ),
  );
  scene.regions.set(forest);
  // Tokens at the start of the road (centre 100, 500): top-left 50, 450.
  const tAria = world.addToken(scene, {
    _id: "tAria",
    name: "Aria",
    actorId: "aria",
    actorLink: true,
    x: 50,
    y: 450,
    disposition: 1,
  });
  const tBram = world.addToken(scene, {
    _id: "tBram",
    name: "Bram",
    actorId: "bram",
    actorLink: true,
    x: 50,
    y: 450,
    disposition: 1,
  });
  const road = addDrawing(world, scene, "road", {
    x: 100,
    y: 500,
    shape: { type: "p", points: [0, 0, 1800, 0, 2700, 0] },
  });
  for (const c of world.liveClients()) viewScene(world, c, scene);
  world.worldTime = WORLD_TIME;
  return { world, scene, aria, bram, tAria, tBram, road, forest };
}

function addDrawing(
  world: FakeWorld,
  scene: FakeScene,
  id: string,
  data: { x: number; y: number; shape: { type: string; points: number[]; width?: number; height?: number } },
): FakeDrawing {
  return scene.drawings.set(new FakeDrawing(world, { _id: id, author: "gm1", ...data }, scene));
}

/** Selects a Drawing on a user's canvas (canvas.drawings.controlled). */
function selectDrawing(world: FakeWorld, user: string, id: string): void {
  (world.clientOf(user) as unknown as { controlledDrawings: string[] }).controlledDrawings = [id];
}

const api = (world: FakeWorld, user = "gm1") => world.api<Api>(user);
const set = (world: FakeWorld, key: string, value: unknown) =>
  world.as("gm1", () => game.settings.set("aventure" as never, key as never, value as never));
const journeyCards = (world: FakeWorld) => cardsOf(world.messages.contents, "travel");
const journey = (m: FakeChatMessage) => cardOf(m, "travel")!;
const notes = (world: FakeWorld, user: string, type?: string) =>
  world.notifications.filter((n) => n.user === user && (!type || n.type === type)).map((n) => n.message);
const at = (t: FakeToken) => ({ x: t.x, y: t.y });
const tokenWrites = (world: FakeWorld, mark = 0) => world.writesSince(mark).filter((w) => w.documentName === "Token");
const proposalCards = (world: FakeWorld) => cardsOf(world.messages.contents, "proposal");
const footer = (world: FakeWorld, card: FakeChatMessage, user: string) => {
  const html = world.renderMessage(card, user);
  return {
    html,
    text: [...html.querySelectorAll(".aventure-travel-card-footer p")].map((p) => p.textContent),
    undo: html.querySelector<HTMLButtonElement>('[data-action="aventure-travel-undo"]'),
    continues: html.querySelector<HTMLButtonElement>('[data-action="aventure-travel-continue"]'),
  };
};
const exhaustion = (a: FakeActor) => (a.system.attributes as { exhaustion: number }).exhaustion;

/** The GM selects both tokens and the road, and plans along it. */
async function planRoad(world: FakeWorld, user = "gm1"): Promise<Dialog> {
  control(world.clientOf(user), "tAria", "tBram");
  selectDrawing(world, user, "road");
  const d = await world.as(user, () => api(world, user).planRoute());
  await world.settle();
  if (!d) throw new Error("no dialog");
  return d;
}

// The end of the road: Aria (front) at the point reached (centre 2800, 500), Bram (rear) one space behind.
const ARIA_END = { x: 2750, y: 450 };
const BRAM_END = { x: 2650, y: 450 };
const START = { x: 50, y: 450 };

describe("Travel along a route: RULES.md §11 on the map", () => {
  it("plans along the selected Drawing: legs with length, terrain and region, the party from the tokens, arrival day and hour", async () => {
    const { world } = await boot();
    const d = await planRoad(world);
    expect(d.formState.members.map((m) => [m.actorId, m.position])).toEqual([
      ["aria", "front"],
      ["bram", "rear"],
    ]);
    expect(d.formState.route!.legs.map((l) => [l.metres, l.terrain, l.regions])).toEqual([
      [18000, "normal", []],
      [9000, "difficult", ["Forêt de Brocéliande"]],
    ]);
    const ctx = d.lastContext as {
      route: { legs: { length: string; terrain: string; regions: string }[]; equivalent: string; tokensText: string };
      summary: { distance: string; duration: string; dayCount: string; arrival: string };
    };
    expect(ctx.route.legs).toEqual([
      { index: 1, length: "18 km", terrain: "normal terrain", difficult: false, regions: "" },
      { index: 2, length: "9 km", terrain: "difficult terrain", difficult: true, regions: "Forêt de Brocéliande" },
    ]);
    // 18 km of road + 2 × 9 km of forest = 36 km equivalent = exactly one day at normal pace (8 h).
    expect(ctx.route.equivalent).toBe("36 km");
    expect(ctx.summary).toMatchObject({
      distance: "27 km",
      duration: "8 h",
      dayCount: "1 travel day",
      arrival: "Arrival: day 1, 14:00 (world time)",
    });
    expect(ctx.route.tokensText).toBe("2 tokens go to the point reached, in marching order.");
    expect(d.lastHTML).toContain("Forêt de Brocéliande");
    // Slow pace: 27 km a day, then 9 km at the hour column: 1 day + 3 h (RULES.md §11).
    await world.as("gm1", () => d.change("pace", "slow"));
    expect((d.lastContext as { summary: { duration: string; arrival: string } }).summary).toMatchObject({
      duration: "1 d 3 h",
      arrival: "Arrival: day 2, 9:00 (world time)",
    });
    expect(world.writes.filter((w) => w.id !== "aventure.searchingMarksMigrated")).toEqual([]); // the one-time mark of the active GM's ready
  });

  it("Apply: the journey's time, then the tokens in marching order at the point reached, moved once by the active GM; Undo puts them back", async () => {
    const { world, tAria, tBram } = await boot();
    const d = await planRoad(world, "gm2");
    const mark = world.writes.length;
    const movements: unknown[] = [];
    world
      .clientOf("gm2")
      .hooks.on(
        "moveToken",
        (doc: unknown, movement: unknown) =>
          void movements.push([
            (doc as FakeToken).id,
            (movement as { method: string; destination: { action: string } }).method,
            (movement as { destination: { action: string } }).destination.action,
          ]),
      );
    const result = await world.as("gm2", () => d.apply()); // the second GM asks; the active GM (gm1) applies
    await world.settle();
    expect(result).toMatchObject({ ok: true, proposed: false });
    expect(world.worldTime).toBe(WORLD_TIME + 28800);
    expect(at(tAria)).toEqual(ARIA_END);
    expect(at(tBram)).toEqual(BRAM_END);
    const moves = tokenWrites(world, mark);
    expect(moves.map((w) => [w.user, w.id])).toEqual([
      ["gm1", "tAria"],
      ["gm1", "tBram"],
    ]);
    // Each one movement straight to its place: core's displace (no path walked, no region crossed on the way).
    expect(movements).toEqual([
      ["tAria", "api", "displace"],
      ["tBram", "api", "displace"],
    ]);
    const [card] = journeyCards(world);
    expect(journey(card!)).toMatchObject({
      status: "applied",
      journal: {
        tokens: [
          { sceneId: "map", tokenId: "tAria", name: "Aria", before: START, after: ARIA_END },
          { sceneId: "map", tokenId: "tBram", name: "Bram", before: START, after: BRAM_END },
        ],
      },
      next: null,
    });
    expect(card!.content).toContain("<strong>27 km · 1 travel day</strong></p>");
    expect(card!.content).toContain("<p>Arrival: day 1, 14:00 (world time)</p>");
    expect(card!.content).toContain("18 km · normal terrain");
    expect(card!.content).toContain("9 km · difficult terrain · Forêt de Brocéliande");
    expect(footer(world, card!, "gm1").continues).toBeNull();
    // Undo (the other GM clicks; the active GM undoes): tokens back where they stood, world time back, once.
    const undoMark = world.writes.length;
    world.click("gm2", footer(world, card!, "gm2").undo);
    await world.settle();
    expect(at(tAria)).toEqual(START);
    expect(at(tBram)).toEqual(START);
    expect(world.worldTime).toBe(WORLD_TIME);
    expect(tokenWrites(world, undoMark).map((w) => [w.user, w.id])).toEqual([
      ["gm1", "tAria"],
      ["gm1", "tBram"],
    ]);
    expect(journey(card!)).toMatchObject({ status: "undone" });
    // A token moved by hand meanwhile would be left alone: Undo is refused now anyway.
    expect(footer(world, card!, "gm1").undo).toBeNull();
  });

  it("stops after one day of a longer route: the party stands where the day ends; 'Continue the journey' plans the rest", async () => {
    const { world, tAria, tBram } = await boot();
    const d = await planRoad(world);
    await world.as("gm1", () => d.change("pace", "slow"));
    await world.as("gm1", () => d.change("days", "1"));
    const ctx = d.lastContext as { summary: { distance: string; duration: string; stopped: string } };
    // Day 1 at slow pace: 27 km of equivalent distance: the 18 km of road, then 4.5 km into the forest (9 km equivalent).
    // The party camps there: the journey takes the whole day, the night included.
    expect(ctx.summary).toMatchObject({
      distance: "22.5 km",
      duration: "1 d",
      arrival: "",
      stopped:
        "Stops at the end of day 1: 22.5 km of 27 km. The party camps there until the next morning (the night counts in the world time); the rest can be continued from the journey’s message.",
    });
    await world.as("gm1", () => d.apply());
    await world.settle();
    expect(world.worldTime).toBe(WORLD_TIME + 24 * 3600);
    expect(at(tAria)).toEqual({ x: 2350 - 50, y: 450 }); // centre 100 + 2250 px
    expect(at(tBram)).toEqual({ x: 2250 - 50, y: 450 });
    const [first] = journeyCards(world);
    expect(first!.content).toContain(
      "Stopped at the end of day 1: 22.5 km of 27 km walked, 4.5 km left. The party camps there until the next morning.",
    );
    const next = journey(first!).next as TravelRequest;
    expect(next.route).toMatchObject({
      sceneId: "map",
      tokenIds: ["tAria", "tBram"],
      days: null,
      points: [
        { x: 2350, y: 500 },
        { x: 2800, y: 500 },
      ],
    });
    expect(next.pace).toBe("slow");
    // The card offers to continue (to anyone who sees it); the dialog opens with the rest of the route.
    const f = footer(world, first!, "gm1");
    expect(f.continues!.textContent).toContain("Continue the journey");
    const opened = watchDialogs(world, "gm1");
    world.click("gm1", f.continues);
    await world.settle();
    const open = opened();
    expect(open.formState.route!.legs.map((l) => [l.metres, l.terrain, l.regions])).toEqual([
      [4500, "difficult", ["Forêt de Brocéliande"]],
    ]);
    expect((open.lastContext as { state: { pace: string } }).state.pace).toBe("slow");
    expect((open.lastContext as { summary: { duration: string } }).summary.duration).toBe("3 h");
    await world.as("gm1", () => open.apply());
    await world.settle();
    expect(at(tAria)).toEqual(ARIA_END);
    expect(at(tBram)).toEqual(BRAM_END);
    // Both parts: 1 day + 3 h of world time, as the whole route at slow pace (RULES.md §11: 97 200 s).
    expect(world.worldTime - WORLD_TIME).toBe(24 * 3600 + 3 * 3600);
    expect(journeyCards(world)).toHaveLength(2);
  });

  it("a custom scene unit mapped to metres in the world setting; feet follow the world's feet factor", async () => {
    const { world } = await boot({ grid: { distance: 1, units: "lieue" } });
    control(world.clientOf("gm1"), "tAria");
    selectDrawing(world, "gm1", "road");
    // Refused like the other bad routes: the message, no dialog, nothing written.
    const mark = world.writes.length;
    const opened = watchDialogs(world, "gm1");
    expect(await world.as("gm1", () => api(world).planRoute())).toBeNull();
    await world.settle();
    expect(notes(world, "gm1", "error")).toEqual([
      "Aventure cannot turn the scene’s unit “lieue” into metres: use m, km, ft or mi, or name it in the setting “Travel: your own scene unit”.",
    ]);
    expect(world.writesSince(mark)).toEqual([]);
    expect(opened).toThrow("no Travel dialog rendered");
    await set(world, "travelCustomUnit", "Lieue");
    await set(world, "travelCustomUnitMetres", 4000);
    const d = (await world.as("gm1", () => api(world).planRoute()))!;
    await world.settle();
    expect(opened()).toBe(d); // the watch sees a dialog when one opens
    expect(d.formState.route!.legs.map((l) => l.metres)).toEqual([72000, 36000]);
  });
});

/** The Travel dialogs a user's client renders from now on (core's render hook, renderTravelDialog). */
function watchDialogs(world: FakeWorld, user: string): () => Dialog {
  const seen: Dialog[] = [];
  world.clientOf(user).hooks.on("renderTravelDialog", (app: unknown) => {
    if (!seen.includes(app as Dialog)) seen.push(app as Dialog);
  });
  return () => {
    const d = seen.at(-1);
    if (!d) throw new Error("no Travel dialog rendered");
    return d;
  };
}

describe("Travel along a route: bad routes change nothing", () => {
  async function refused(world: FakeWorld, expected: string) {
    const mark = world.writes.length;
    expect(await world.as("gm1", () => api(world).planRoute())).toBeNull();
    expect(notes(world, "gm1", "error").at(-1)).toBe(expected);
    expect(world.writesSince(mark)).toEqual([]);
  }

  it("a route of no length, a Drawing that is not a line, no Drawing at all", async () => {
    const { world, scene } = await boot();
    control(world.clientOf("gm1"), "tAria");
    addDrawing(world, scene, "dot", { x: 300, y: 300, shape: { type: "p", points: [0, 0, 0, 0] } });
    selectDrawing(world, "gm1", "dot");
    await refused(world, "The route has no length: draw it with at least two different points.");
    addDrawing(world, scene, "box", { x: 300, y: 300, shape: { type: "r", points: [], width: 200, height: 100 } });
    selectDrawing(world, "gm1", "box");
    await refused(world, "The selected drawing is not a line: draw the route with the polygon or freehand tool.");
    selectDrawing(world, "gm1", "nothing");
    (world.clientOf("gm1") as unknown as { controlledDrawings: string[] }).controlledDrawings = [];
    await refused(
      world,
      "Select a drawing of the route (polygon or freehand), or click “Plan along the route” on the party’s token and drag it along the route.",
    );
  });

  it("a scene without a grid distance", async () => {
    const { world } = await boot({ grid: { distance: 0 } });
    control(world.clientOf("gm1"), "tAria");
    selectDrawing(world, "gm1", "road");
    await refused(
      world,
      "This scene has no grid distance: set one in its grid settings (for example 1.5 m per space).",
    );
  });

  it("a route crossing a region of an unknown kind (a region beside the route does not matter); Modify Movement Cost counts", async () => {
    const { world, scene } = await boot();
    control(world.clientOf("gm1"), "tAria");
    selectDrawing(world, "gm1", "road");
    const swamp = new FakeRegion(
      world,
      { _id: "swamp", name: "Marais", shapes: [{ type: "polygon", points: [500, 400, 700, 400, 700, 600, 500, 600] }] },
      scene,
    );
    swamp.behaviors.set(
      new FakeRegionBehavior(
        world,
        { _id: "swampT", type: "aventure.travelTerrain", system: { terrain: "swampy" } },
        swamp,
      ),
    );
    scene.regions.set(swamp);
    await refused(
      world,
      "The route crosses “Marais”, a region whose terrain Aventure cannot read (swampy): fix its behaviour or draw the route around it.",
    );
    swamp.shapes = [{ type: "polygon", points: [500, 1000, 700, 1000, 700, 1200, 500, 1200] }]; // off the road
    expect(await world.as("gm1", () => api(world).planRoute())).not.toBeNull();
    // Core's Modify Movement Cost with walking ×2 is difficult ground too, under the region's name.
    swamp.shapes = [{ type: "polygon", points: [500, 400, 700, 400, 700, 600, 500, 600] }];
    swamp.behaviors.get("swampT")!.type = "modifyMovementCost";
    swamp.behaviors.get("swampT")!.system = { difficulties: { walk: 2, fly: 1 } };
    const d = (await world.as("gm1", () => api(world).planRoute()))!;
    expect(d.formState.route!.legs.map((l) => [l.metres, l.terrain, l.regions.join()])).toEqual([
      [4000, "normal", ""],
      [2000, "difficult", "Marais"],
      [12000, "normal", ""],
      [9000, "difficult", "Forêt de Brocéliande"],
    ]);
  });

  it("in French", async () => {
    const { world } = await boot({ lang: "fr", grid: { distance: 0 } });
    control(world.clientOf("gm1"), "tAria");
    selectDrawing(world, "gm1", "road");
    await refused(
      world,
      "Cette scène n’a pas de distance de grille\u00a0: indiquez-en une dans ses réglages de grille (par exemple 1,5\u00a0m par case).",
    );
  });
});

describe("Travel along a route: the token's ruler drag", () => {
  it("'Plan along the route' on the HUD arms the token: its next drag is the route, the token stays, the dialog opens", async () => {
    const { world, tAria } = await boot();
    const opened = watchDialogs(world, "p1");
    const hud = world.renderTokenHUD(tAria, "p1");
    const button = hud.querySelector<HTMLButtonElement>('[data-action="aventure-travelRoute"]');
    expect(button).not.toBeNull(); // players get it on their own tokens
    world.click("p1", button);
    expect(notes(world, "p1", "info").at(-1)).toContain("Drag this token along the route");
    const mark = world.writes.length;
    // The drag: through a waypoint at the forest's edge, to its end (top-left corners).
    const moved = await world.as("p1", () =>
      world.moveToken(tAria, {
        x: 2750,
        y: 450,
        waypoints: [
          { x: 1850, y: 450, elevation: 0, action: "walk" },
          { x: 2750, y: 450, elevation: 0, action: "walk" },
        ],
      }),
    );
    await world.settle();
    expect(moved).toBeNull(); // refused: the token did not move
    expect(at(tAria)).toEqual(START);
    expect(world.writesSince(mark)).toEqual([]);
    const d = opened();
    expect(d.formState.route!.points).toEqual([
      { x: 100, y: 500 },
      { x: 1900, y: 500 },
      { x: 2800, y: 500 },
    ]);
    expect(d.formState.route!.tokenIds).toEqual(["tAria"]);
    expect(d.formState.members.map((m) => m.actorId)).toEqual(["aria"]);
    // Disarmed after one drag: the next drag moves the token as usual.
    await world.as("p1", () => world.moveToken(tAria, { x: 150, y: 450 }));
    expect(at(tAria)).toEqual({ x: 150, y: 450 });
  });
});

describe("Travel along a route: players propose, GMs dispose, exactly once", () => {
  it("a player's route journey is a proposal; the GM applies it; the token moves once, by the active GM", async () => {
    const { world, tAria } = await boot();
    control(world.clientOf("p1"), "tAria");
    const d = (await world.as("p1", () =>
      api(world, "p1").planRoute({
        points: [
          { x: 100, y: 500 },
          { x: 2800, y: 500 },
        ],
      }),
    ))!;
    await world.settle();
    const mark = world.writes.length;
    expect(await world.as("p1", () => d.apply())).toMatchObject({ ok: true, proposed: true });
    await world.settle();
    expect(at(tAria)).toEqual(START);
    const [proposal] = proposalCards(world);
    const lines = [...world.renderMessage(proposal!, "gm2").querySelectorAll(".aventure-proposal-lines li")].map(
      (li) => li.textContent,
    );
    expect(lines).toContain("Route: 18 km · normal terrain; 9 km · difficult terrain · Forêt de Brocéliande.");
    expect(lines).toContain("Tokens moved to the end of the route (27 km), in marching order: Aria.");
    world.click(
      "gm2",
      world.renderMessage(proposal!, "gm2").querySelector('[data-action="aventure-proposal"][data-accept="true"]'),
    );
    await world.settle();
    expect(at(tAria)).toEqual(ARIA_END);
    expect(tokenWrites(world, mark).map((w) => [w.user, w.id])).toEqual([["gm1", "tAria"]]);
    expect(world.worldTime).toBe(WORLD_TIME + 28800);
  });

  it("a forged route from a player's console: the GM measures the legs itself; a hidden token is unknown; bad points are refused", async () => {
    const { world, tBram } = await boot();
    await set(world, "travelPlayersApply", true);
    control(world.clientOf("p1"), "tAria");
    const d = (await world.as("p1", () =>
      api(world, "p1").planRoute({
        points: [
          { x: 100, y: 500 },
          { x: 2800, y: 500 },
        ],
      }),
    ))!;
    const req = d.request!;
    await world.as("p1", () => d.close());
    // Extra "legs" claiming the forest is a road are ignored: the GM's own measure puts 9 km of forest there.
    const reply = (await forgeRequest(world, "p1", "travelApply", {
      ...req,
      legs: [{ metres: 27000, terrain: "normal" }],
    })) as { ok: boolean; result: { messageId: string } };
    expect(reply.ok).toBe(true);
    const [card] = journeyCards(world);
    expect(card!.content).toContain("9 km · difficult terrain · Forêt de Brocéliande");
    expect(world.worldTime).toBe(WORLD_TIME + 28800);
    tBram.hidden = true;
    const mark = world.writes.length;
    expect(
      await forgeRequest(world, "p1", "travelApply", { ...req, route: { ...req.route, tokenIds: ["tBram"] } }),
    ).toMatchObject({ ok: false, key: "AVENTURE.Travel.Route.Error.token" });
    expect(
      await forgeRequest(world, "p1", "travelApply", {
        ...req,
        route: { ...req.route, points: [{ x: 0, y: Number.NaN }] },
      }),
    ).toMatchObject({ ok: false, key: "AVENTURE.Error.NotANumber" });
    expect(await forgeRequest(world, "p1", "travelApply", { ...req, distance: 5000 })).toMatchObject({
      ok: false,
      key: "AVENTURE.Error.UnknownValue",
    });
    expect(
      await forgeRequest(world, "p1", "travelApply", {
        ...req,
        route: {
          ...req.route,
          points: [
            { x: 100, y: 500 },
            { x: 100, y: 500 },
          ],
        },
      }),
    ).toMatchObject({ ok: false, key: "AVENTURE.Travel.Route.Error.zeroLength" });
    expect(world.writesSince(mark).filter((w) => w.documentName !== "ChatMessage")).toEqual([]);
  });

  it("route points outside the scene (its padding included) are refused with a localized message; nothing is written", async () => {
    const { world, tAria } = await boot({ users: [GM, PLAYER] });
    control(world.clientOf("p1"), "tAria");
    const d = (await world.as("p1", () =>
      api(world, "p1").planRoute({
        points: [
          { x: 100, y: 500 },
          { x: 2800, y: 500 },
        ],
      }),
    ))!;
    const req = d.request!;
    await world.as("p1", () => d.close());
    const mark = world.writes.length;
    // The map: 4000 × 2000 px, 100 px a space, padding 0.25: the canvas reaches 6000 × 3000 px (one space of tolerance).
    const far: [number, number][] = [
      [1e7, 500],
      [-1e7, 500],
      [100, 1e7],
      [100, -1e7],
      [6101, 500],
      [-101, 500],
      [100, 3101],
    ];
    for (const [x, y] of far) {
      const route = {
        ...req.route,
        points: [
          { x: 100, y: 500 },
          { x, y },
        ],
      };
      expect(await forgeRequest(world, "p1", "travelApply", { ...req, route }), `${x}, ${y}`).toMatchObject({
        ok: false,
        key: "AVENTURE.Travel.Route.Error.outside",
      });
      expect(await forgeRequest(world, "gm1", "travelApply", { ...req, route }), `${x}, ${y}`).toMatchObject({
        ok: false,
        key: "AVENTURE.Travel.Route.Error.outside",
      });
    }
    expect(world.writesSince(mark).filter((w) => w.documentName !== "ChatMessage")).toEqual([]);
    expect(journeyCards(world)).toEqual([]);
    expect(world.rollsMade).toEqual([]);
    expect(world.worldTime).toBe(WORLD_TIME);
    expect(at(tAria)).toEqual(START);
    // A point in the padding is on the canvas and is accepted; the message, in both languages.
    const en = world.as("gm1", () =>
      game.i18n.format("AVENTURE.Travel.Route.Error.outside", { scene: "Armorique", x: "10000000", y: "500" }),
    );
    expect(en).toBe(
      "A point of the route lies outside the scene “Armorique” (10000000, 500): draw the route on the scene.",
    );
    world.queueRolls(20, 20, 20, 20);
    const inPadding = {
      ...req.route,
      points: [
        { x: 100, y: 500 },
        { x: 5900, y: 500 },
      ],
      days: 1,
    };
    expect(await forgeRequest(world, "gm1", "travelApply", { ...req, route: inPadding })).toMatchObject({ ok: true });
    expect(journeyCards(world)).toHaveLength(1);
    const fr = await boot({ lang: "fr", users: [GM] });
    const text = fr.world.as("gm1", () =>
      game.i18n.format("AVENTURE.Travel.Route.Error.outside", { scene: "Armorique", x: "1", y: "2" }),
    );
    expect(text).toBe(
      "Un point de l’itinéraire est hors de la scène «\u00a0Armorique\u00a0» (1, 2)\u00a0: tracez l’itinéraire sur la scène.",
    );
    const dFr = await fr.world.as("gm1", () =>
      api(fr.world, "gm1").planRoute({
        points: [
          { x: 100, y: 500 },
          { x: 9e6, y: 500 },
        ],
        tokenIds: ["tAria"],
      }),
    );
    await fr.world.settle();
    expect(dFr).toBeNull();
    expect(fr.world.notifications.map((n) => n.message)).toContain(
      "Un point de l’itinéraire est hors de la scène «\u00a0Armorique\u00a0» (9000000, 500)\u00a0: tracez l’itinéraire sur la scène.",
    );
  });

  /** gm1 (active) crashes before its k-th write of a route journey asked by gm2; gm2 takes over; gm1 reloads. */
  async function crash(k: number) {
    const { world, tAria, tBram, aria } = await boot();
    const d = await planRoad(world, "gm2");
    const mark = world.writes.length;
    world.crashAt(k, (w) => w.user === "gm1");
    const result = await world.as("gm2", () => d.apply());
    await world.settle({ allowErrors: true });
    if (!world.clients.get("gm1")?.alive) await world.reload("gm1");
    await world.settle();
    return { world, tAria, tBram, aria, result, mark };
  }

  it("counts the active GM's writes of a route journey (the tokens' moves are steps of it)", async () => {
    const { world, mark } = await crash(99);
    expect(
      world
        .writesSince(mark)
        .filter((w) => w.user === "gm1")
        .map((w) => `${w.action} ${w.documentName}`),
    ).toEqual([
      "create ChatMessage", // receipt
      "create ChatMessage", // the card, applying
      "update Actor", // Aria's fasting and thirst counters (0 after a day with food and water)
      "update Actor",
      "update Actor", // Bram's
      "update Actor",
      "update Token",
      "update Token",
      "time Setting",
      "update ChatMessage", // the card, applied
      "update ChatMessage", // receipt's reply
      "delete ChatMessage",
      "delete ChatMessage",
    ]);
  });

  for (let k = 1; k <= 13; k++) {
    it(`a crash before the active GM's write ${k}: the tokens move once (or not at all, and the GM is told)`, async () => {
      expectJourneyCrashLogs(k, { firstUndoable: 4, lastApplyWrite: 9 });
      const { world, tAria, tBram, mark } = await crash(k);
      const cards = journeyCards(world);
      expect(cards.length).toBeLessThanOrEqual(1);
      const moves = tokenWrites(world, mark);
      if (!cards.length) {
        expect([at(tAria), at(tBram), world.worldTime]).toEqual([START, START, WORLD_TIME]);
        expect(moves).toEqual([]);
      } else {
        expect(journey(cards[0]!)).toMatchObject({ status: "applied" });
        expect([at(tAria), at(tBram), world.worldTime]).toEqual([ARIA_END, BRAM_END, WORLD_TIME + 8 * 3600]);
        expect(moves.filter((w) => w.id === "tAria")).toHaveLength(1);
        expect(moves.filter((w) => w.id === "tBram")).toHaveLength(1);
        expect(world.writesSince(mark).filter((w) => w.action === "time")).toHaveLength(1);
      }
    });
  }

  it("a token moved by hand since the journey is left alone by Undo, and the card says so", async () => {
    const { world, tAria, tBram } = await boot();
    const d = await planRoad(world);
    await world.as("gm1", () => d.apply());
    await world.settle();
    await world.as("gm1", () => tBram.update({ x: 1000, y: 1000 }));
    const [card] = journeyCards(world);
    world.click("gm1", footer(world, card!, "gm1").undo);
    await world.settle();
    expect(at(tAria)).toEqual(START);
    expect(at(tBram)).toEqual({ x: 1000, y: 1000 });
    expect(footer(world, card!, "gm1").text).toContain(
      "Not applied (someone else had already changed it): position of the token Bram.",
    );
  });
});

describe("Travel: Survival while travelling (RULES.md §2.6)", () => {
  it("members who navigate, track or forage roll Wisdom (Survival) once a day against the dialog's DC, before any write", async () => {
    const { world, aria } = await boot();
    const d = await planRoad(world);
    await world.as("gm1", () => d.change("pace", "slow")); // 2 travel days
    await world.as("gm1", () => d.change("members.0.activity", "navigate"));
    await world.as("gm1", () => d.change("members.1.activity", "forage"));
    await world.as("gm1", () => d.change("survivalDC", "13"));
    expect((d.lastContext as { summary: { survival: string } }).summary.survival).toBe(
      "Wisdom (Survival) checks, DC 13: Aria (Navigate ×2), Bram (Forage ×2).",
    );
    // Day 1: Aria 9 + 2 = 11 (fails), Bram 15; day 2: Aria 18 + 2 = 20, Bram 12.
    world.queueRolls(9, 15, 18, 12);
    const mark = world.writes.length;
    await world.as("gm1", () => d.apply());
    await world.settle();
    const calls = (
      aria as unknown as {
        rollCalls: { kind: string; config: { skill: string; target: number }; message: { create: boolean } }[];
      }
    ).rollCalls;
    expect(calls.map((c) => [c.kind, c.config.skill, c.config.target, c.message.create])).toEqual([
      ["skill", "sur", 13, false],
      ["skill", "sur", 13, false],
    ]);
    // Rolled before the first write: the card (the first write) already carries them.
    const [card] = journeyCards(world);
    expect(world.writesSince(mark)[0]).toMatchObject({ action: "create", documentName: "ChatMessage", id: card!.id });
    expect(journey(card!).survival).toEqual([
      { memberId: "aria", day: 1, activity: "navigate", total: 11, dc: 13, success: false, natural: 9 },
      { memberId: "bram", day: 1, activity: "forage", total: 15, dc: 13, success: true, natural: 15 },
      { memberId: "aria", day: 2, activity: "navigate", total: 20, dc: 13, success: true, natural: 18 },
      { memberId: "bram", day: 2, activity: "forage", total: 12, dc: 13, success: false, natural: 12 },
    ]);
    expect(card!.content).toContain(
      "Aria does not find the way (11 vs DC 13): the group may be lost, at the GM’s call",
    );
    expect(card!.content).toContain("Forage: Wisdom (Survival) DC 13: 15");
    expect(card!.content).toContain("Forage: 1/2 checks succeeded");
    expect(exhaustion(aria)).toBe(0);
  });
});

describe("Travel along a route: the HUD button with a Drawing selected", () => {
  it("plans along the selected Drawing at once for the selected tokens; without one it arms, and a second click disarms", async () => {
    const { world, tAria, tBram } = await boot();
    const opened = watchDialogs(world, "gm1");
    control(world.clientOf("gm1"), "tAria", "tBram");
    selectDrawing(world, "gm1", "road");
    world.click("gm1", world.renderTokenHUD(tAria, "gm1").querySelector('[data-action="aventure-travelRoute"]'));
    await world.settle();
    expect(opened().formState.route!.tokenIds).toEqual(["tAria", "tBram"]);
    (world.clientOf("gm1") as unknown as { controlledDrawings: string[] }).controlledDrawings = [];
    const button = () => world.renderTokenHUD(tBram, "gm1").querySelector('[data-action="aventure-travelRoute"]');
    world.click("gm1", button());
    world.click("gm1", button());
    expect(notes(world, "gm1", "info").slice(-1)).toEqual(["Route planning cancelled."]);
    await world.as("gm1", () => world.moveToken(tBram, { x: 250, y: 450 }));
    expect(at(tBram)).toEqual({ x: 250, y: 450 }); // disarmed: an ordinary move
  });
});

describe("Travel along a route: cards and tokens that are not what they seem", () => {
  it("attack: a player's own aventure.travel message with a valid-looking stopped journey gets no Undo nor Continue, and its Undo is refused", async () => {
    const { world } = await boot();
    const d = await planRoad(world);
    await world.as("gm1", () => d.change("pace", "slow"));
    await world.as("gm1", () => d.change("days", "1"));
    await world.as("gm1", () => d.apply());
    await world.settle();
    const [card] = journeyCards(world);
    expect(card!.type).toBe("aventure.travel");
    const forged = (await world.as("p1", () =>
      ChatMessage.implementation.create({
        content: card!.content,
        type: "aventure.travel",
        system: journey(card!),
      } as never),
    )) as unknown as FakeChatMessage;
    expect(forged.systemSource).toMatchObject({ status: "applied" }); // the schema takes it: only its author makes it untrusted
    for (const user of ["gm1", "p1"]) {
      expect(footer(world, forged, user).continues, user).toBeNull();
      expect(footer(world, forged, user).undo, user).toBeNull();
    }
    const time = world.worldTime;
    const writes = world.writes.length;
    expect(await forgeRequest(world, "gm1", "travelUndo", { messageId: forged.id })).toMatchObject({ ok: false });
    expect(world.writes.slice(writes).filter((w) => w.documentName !== "ChatMessage")).toEqual([]);
    expect(world.worldTime).toBe(time);
    expect(forged.systemSource.status).toBe("applied");
  });

  it("a player's forged card carrying a stopped journey gets no Continue button; a deleted token is skipped by Undo and named", async () => {
    const { world, tAria, scene } = await boot();
    const d = await planRoad(world);
    await world.as("gm1", () => d.change("pace", "slow"));
    await world.as("gm1", () => d.change("days", "1"));
    await world.as("gm1", () => d.apply());
    await world.settle();
    const [card] = journeyCards(world);
    const forged = (await world.as("p1", () =>
      ChatMessage.implementation.create({
        content: card!.content,
        flags: { aventure: { travel: journey(card!) } },
      } as never),
    )) as unknown as FakeChatMessage;
    expect(footer(world, forged, "p1").continues).toBeNull();
    expect(footer(world, forged, "gm1").undo).toBeNull();
    expect(footer(world, card!, "p1").continues).not.toBeNull(); // the GM's card offers it to whoever sees it
    await world.as("gm1", () => scene.deleteEmbeddedDocuments("Token", ["tBram"]));
    world.click("gm1", footer(world, card!, "gm1").undo);
    await world.settle();
    expect(at(tAria)).toEqual(START);
    expect(footer(world, card!, "gm1").text).toContain("The token Bram no longer exists: it was not moved.");
  });
});
