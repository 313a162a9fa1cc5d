/**
 * Old-School Essentials wilderness journeys applied on the map (docs/rules.md §12) through the test world: an OSE
 * world, a regional map (1 km a space, 1 px = 10 m) painted with a road (x 0–2800), a forest (2800–5200) and a swamp
 * (5200–7900), the party's tokens at the start of the road, the route along y = 500 from x = 100 to x = 7900 (78 km:
 * 27 km of road, 24 km of forest, 27 km of swamp). Apply rolls each day's checks with Foundry dice on a card whispered
 * to the GMs, walks the days one at a time (the tokens to where each day ends, then a day of world time), once; Undo puts
 * everything back; a journey stopped after a day continues from its card; a player's journey is a proposal.
 */
import { describe, expect, it, vi } from "vitest";
import {
  bootWorld,
  control,
  FakeDrawing,
  FakeRegion,
  FakeRegionBehavior,
  GM,
  GM2,
  PLAYER,
  viewScene,
  type FakeChatMessage,
  type FakeToken,
  type FakeWorld,
} from "../world/index.js";
import type { TravelApplyResult, TravelUndoResult } from "../../src/travel/apply.js";
import type { TravelRequest } from "../../src/travel/request.js";
import { measureOseOnScene, routeScene } from "../../src/travel/route/scene.js";
import { readJourney } from "../../src/travel/journey.js";
import { cardOf, cardsOf } from "./card-state.js";
import { expectJourneyCrashLogs } from "./crash-logs.js";
import { expectLogged } from "../setup/quiet.js";

vi.setConfig({ testTimeout: 60_000 });

interface Dialog {
  formState: {
    route: { legs: { metres: number; terrain: string }[] } | null;
    members: { actorId: string; baseMetres: number | null }[];
  };
  request: TravelRequest | null;
  lastContext: Record<string, unknown>;
  lastHTML: string;
  rendered: boolean;
  change(name: string, value: string | boolean): Promise<unknown>;
  apply(): Promise<TravelApplyResult | null>;
}
interface Api {
  applyTravel(r: unknown): Promise<TravelApplyResult>;
  openTravel(o?: { actorIds?: string[] }): Promise<Dialog>;
  planRoute(o?: { drawingId?: string; tokenIds?: string[] }): Promise<Dialog | null>;
}

const WORLD_TIME = 6 * 3600;

async function boot(opts: { users?: (typeof GM | typeof GM2 | typeof PLAYER)[]; dice?: number[] } = {}) {
  const world = await bootWorld({ system: "ose", users: opts.users ?? [GM, GM2, PLAYER] });
  world.addUserActor({
    _id: "aria",
    name: "Aria",
    ownership: { p1: 3 },
    system: { hp: { value: 7, max: 7 }, movement: { base: 120, encounter: 40 } },
  });
  world.addUserActor({
    _id: "bram",
    name: "Bram",
    ownership: { default: 1 },
    system: { hp: { value: 9, max: 9 }, movement: { base: 120, encounter: 40 } },
  });
  const scene = world.addScene({
    _id: "map",
    name: "Karameikos",
    grid: { size: 100, distance: 1, units: "km" },
    width: 9000,
    height: 2000,
  });
  const paint = (id: string, name: string, x: number, width: number, oseTerrain: string) => {
    const r = new FakeRegion(
      world,
      { _id: id, name, shapes: [{ type: "rectangle", x, y: 300, width, height: 400 }] },
      scene,
    );
    r.behaviors.set(
      new FakeRegionBehavior(
        world,
        { _id: `${id}T`, type: "aventure.travelTerrain", system: { terrain: "normal", label: "", oseTerrain } },
        r,
      ),
    );
    scene.regions.set(r);
  };
  paint("road", "Chemin royal", 0, 2800, "road");
  paint("forest", "Bois Noir", 2800, 2400, "forest");
  paint("swamp", "Marais", 5200, 2800, "swamp");
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
  for (const c of world.liveClients()) viewScene(world, c, scene);
  world.worldTime = WORLD_TIME;
  await world.as("gm1", () => game.settings.set("aventure" as never, "ruleset" as never, "ose" as never));
  await world.settle();
  return { world, scene, tAria, tBram };
}

/** An OSE journey along the painted route. */
function request(
  extra: Partial<TravelRequest["ose"]> = {},
  days: number | null = null,
  members = ["aria", "bram"],
): TravelRequest {
  return {
    pace: "normal",
    terrain: "normal",
    mode: "foot",
    speedKmh: null,
    distance: null,
    duration: null,
    hoursPerDay: 8,
    hot: false,
    stealth: false,
    lostChance: 0,
    survivalDC: 10,
    route: {
      sceneId: "map",
      points: [
        { x: 100, y: 500 },
        { x: 7900, y: 500 },
      ],
      tokenIds: ["tAria", "tBram"],
      days,
    },
    members: members.map((actorId) => ({
      actorId,
      food: "full",
      water: "full",
      position: "front",
      activity: "none",
      conMod: null,
      passivePerception: null,
    })),
    ose: {
      openTerrain: "clear",
      baseMetres: null,
      forcedMarch: false,
      flying: false,
      guide: false,
      river: false,
      forage: false,
      restWhenDue: false,
      animals: 0,
      rations: 10,
      daysSinceRest: 0,
      restFirst: false,
      ...extra,
    },
  };
}

const api = (world: FakeWorld, user = "gm1") => world.api<Api>(user);
const cards = (world: FakeWorld) => cardsOf(world.messages.contents, "travel");
const flagOf = (m: FakeChatMessage) => cardOf(m, "travel")!;
const at = (t: FakeToken) => ({ x: t.x, y: t.y });

/** Foundry's dice in the fake world roll what the test queues (6s: never lost, no monster, no food). */
function sixes(world: FakeWorld, n = 5): void {
  world.queueRolls(...Array.from({ length: n }, () => 6));
}

describe("an Old-School Essentials journey along a painted route", () => {
  it("the route is split by the painted OSE terrains: 27 km of road, 24 km of forest, 27 km of swamp", async () => {
    const { world } = await boot();
    const legs = world.as(
      "gm1",
      () =>
        measureOseOnScene(
          routeScene("map"),
          [
            { x: 100, y: 500 },
            { x: 7900, y: 500 },
          ],
          "clear",
        ).legs,
    );
    expect(legs.map((l) => [l.terrain, l.metres, l.regions])).toEqual([
      ["road", 27000, ["Chemin royal"]],
      ["forest", 24000, ["Bois Noir"]],
      ["swamp", 27000, ["Marais"]],
    ]);
  });

  it("asked by the second GM, the active GM applies it once: one card, world time moved once", async () => {
    const { world } = await boot();
    sixes(world);
    const result = await world.as("gm2", () => api(world, "gm2").applyTravel(request()));
    await world.settle();
    expect(result).toMatchObject({ ok: true, proposed: false });
    expect(cards(world)).toHaveLength(1);
    expect(world.worldTime).toBe(WORLD_TIME + 3 * 86400);
  });

  it("Apply: three days (road, forest, swamp), the tokens at the end, world time + 3 days, a card for the GMs only, once", async () => {
    const { world, tAria, tBram } = await boot();
    sixes(world);
    const result = await world.as("gm1", () => api(world).applyTravel(request()));
    await world.settle();
    expect(result).toMatchObject({ ok: true, proposed: false });
    const [card] = cards(world);
    expect(card).toBeDefined();
    expect(card!.whisper).toEqual(["gm1", "gm2"]);
    expect(flagOf(card!).status).toBe("applied");
    // 27 km of road (½ day) + 12 km of forest; 12 km of forest + 9 km of swamp; 18 km of swamp: the end at 78 km.
    const text = card!.content;
    expect(text).toContain("Arrives on day 3 (78 km)");
    expect(text).toContain("walked 0 km → 39 km");
    expect(text).toContain("walked 39 km → 60 km");
    expect(text).toContain("walked 60 km → 78 km");
    expect(text).toContain("Base movement 36 m");
    expect(text).toContain("6 rations eaten, 4 left");
    expect(text).not.toMatch(/DC|Perception|exhaustion/i);
    expect(world.worldTime).toBe(WORLD_TIME + 3 * 86400);
    expect(at(tAria)).toEqual({ x: 7850, y: 450 });
    expect(at(tBram)).toEqual({ x: 7750, y: 450 });
    // Each day's checks rolled with Foundry dice on the card: wandering on days 1–3, lost on days 2–3.
    expect(card!.rolls.length).toBe(5);
    // The player sees nothing of it.
    expect(world.as("p1", () => (game.messages.get(card!.id) as unknown as { visible: boolean }).visible)).toBe(false);
  });

  it("Undo puts the tokens and world time back", async () => {
    const { world, tAria } = await boot();
    sixes(world);
    await world.as("gm1", () => api(world).applyTravel(request()));
    await world.settle();
    const [card] = cards(world);
    const undo = await world.as("gm1", () =>
      (world.api("gm1") as unknown as { undoTravel(id: string): Promise<TravelUndoResult> }).undoTravel(card!.id),
    );
    await world.settle();
    expect(undo).toMatchObject({ ok: true });
    expect(flagOf(cards(world)[0]!).status).toBe("undone");
    expect(world.worldTime).toBe(WORLD_TIME);
    expect(at(tAria)).toEqual({ x: 50, y: 450 });
  });

  it("stopped after one day: the card offers to continue with the rest of the route, the rations and the rest count", async () => {
    const { world, tAria } = await boot();
    sixes(world);
    await world.as("gm1", () => api(world).applyTravel(request({}, 1)));
    await world.settle();
    const flag = flagOf(cards(world)[0]!);
    expect(cards(world)[0]!.content).toContain("Stopped after day 1: 39 km of 78 km");
    expect(at(tAria)).toEqual({ x: 3950, y: 450 });
    const next = flag.next as TravelRequest;
    expect(next.route!.points[0]).toEqual({ x: 4000, y: 500 });
    expect(next.ose).toMatchObject({ rations: 8, daysSinceRest: 1, restFirst: false });
    expect(world.worldTime).toBe(WORLD_TIME + 86400);
  });

  it("a lost day: the party stays where it was (no progress along the route)", async () => {
    const { world, tAria } = await boot();
    // Day 1 on the road: wandering 1 (a monster); day 2 stops: the route's days = 1 → only day 1, no lost check.
    world.queueRolls(1);
    await world.as("gm1", () => api(world).applyTravel(request({}, 1)));
    await world.settle();
    expect(cards(world)[0]!.content).toContain("wandering monsters 1 (1 in 6): encounter");
    expect(cards(world)[0]!.content).toContain("1 wandering monster encounter");
    // The GM opens the Encounter dialog for the wilderness from the card; a player gets no button.
    const opened: string[] = [];
    world.as("gm1", () =>
      Hooks.on(
        "renderEncounterDialog" as never,
        ((app: { encounter: { where: string } }) => void opened.push(app.encounter.where)) as never,
      ),
    );
    const button = world.renderMessage(cards(world)[0]!, "gm1").querySelector('[data-action="aventure-ose-encounter"]');
    expect(button?.textContent).toContain("Open the Encounter dialog");
    world.click("gm1", button);
    await world.settle();
    expect(opened).toEqual(["wilderness"]);
    expect(
      world.renderMessage(cards(world)[0]!, "p1").querySelector('[data-action="aventure-ose-encounter"]'),
    ).toBeNull();
    // Continue from the forest start with a lost roll of 1 (lost on 1–2 in the forest), then wandering 6.
    const next = flagOf(cards(world)[0]!).next as TravelRequest;
    world.queueRolls(1, 6);
    await world.as("gm1", () => api(world).applyTravel({ ...next, route: { ...next.route!, days: 1 } }));
    await world.settle();
    const second = cards(world)[1]!;
    expect(second.content).toContain("lost in the forest");
    expect(at(tAria)).toEqual({ x: 3950, y: 450 });
  });

  it("a player's journey is a proposal; refused before anything when the base movement cannot be read", async () => {
    const { world } = await boot();
    const r = await world.as("p1", () => api(world, "p1").applyTravel(request({}, null, ["aria", "bram"])));
    await world.settle();
    expect(r).toMatchObject({ ok: true, proposed: true });
    expect(cards(world)).toHaveLength(0);
    world.addUserActor({ _id: "ghost", name: "Ghost", system: {} });
    const bad = await world.as("gm1", () => api(world).applyTravel(request({}, null, ["ghost"])));
    expect(bad).toMatchObject({ ok: false, key: "AVENTURE.Wilderness.Error.noBase" });
    expect(cards(world)).toHaveLength(0);
  });

  it("a player's forged journey card gets no Encounter button", async () => {
    const { world } = await boot();
    await world.as("p1", () =>
      ChatMessage.implementation.create({
        content: `<div class="aventure-travel-card"><button type="button" data-action="aventure-ose-encounter">x</button></div>`,
        flags: { aventure: { travel: { v: 2 } } },
      } as never),
    );
    await world.settle();
    const forged = world.messages.contents.at(-1)!;
    expect(world.renderMessage(forged, "gm1").querySelector('[data-action="aventure-ose-encounter"]')).toBeNull();
  });

  it("a forged OSE part is refused before any write", async () => {
    const { world } = await boot();
    const forged = { ...request(), ose: { ...request().ose, openTerrain: "lava", animals: -3 } };
    const r = await world.as("gm1", () => api(world).applyTravel(forged));
    expect(r).toMatchObject({ ok: false, key: "AVENTURE.Error.UnknownValue" });
    const days = await world.as("gm1", () => api(world).applyTravel(request({}, 200)));
    expect(days).toMatchObject({ ok: false, key: "AVENTURE.Wilderness.Error.tooManyDays" });
    expect(cards(world)).toHaveLength(0);
    expect(world.worldTime).toBe(WORLD_TIME);
  });
});

describe("an Old-School Essentials journey walked a day at a time", () => {
  // Where each day ends along the route (docs/rules.md §12, the route above): day 1 at 39 km (x = 100 + 3900 px),
  // day 2 at 60 km (x = 6100), day 3 at 78 km (x = 7900); Aria's token centred there, Bram's one space behind.
  const DAY_ENDS = [
    { aria: { x: 3950, y: 450 }, bram: { x: 3850, y: 450 } },
    { aria: { x: 6050, y: 450 }, bram: { x: 5950, y: 450 } },
    { aria: { x: 7850, y: 450 }, bram: { x: 7750, y: 450 } },
  ];
  const tokenMoves = (world: FakeWorld, mark: number, id: string) =>
    world.writesSince(mark).filter((w) => w.action === "update" && w.documentName === "Token" && w.id === id);
  // Where a move sent the token: the route runs along y = 450, so a move's write carries its new x alone.
  const moveTarget = (w: { data: unknown }) => (w.data as { x?: number }).x;

  it("each day the tokens move to where it ends, then world time moves one day: three days, three of each, in order", async () => {
    const { world, tAria, tBram } = await boot();
    const mark = world.writes.length;
    const clock: { time: number; delta: number }[] = [];
    world.as("gm1", () =>
      Hooks.on(
        "updateWorldTime" as never,
        ((time: number, delta: number) => void clock.push({ time, delta })) as never,
      ),
    );
    sixes(world);
    await world.as("gm1", () => api(world).applyTravel(request()));
    await world.settle();
    const steps = world
      .writesSince(mark)
      .filter((w) => (w.action === "update" && w.documentName === "Token") || w.action === "time")
      .map((w) => (w.action === "time" ? "time" : `${w.id} ${moveTarget(w)}`));
    expect(steps).toEqual([
      "tAria 3950",
      "tBram 3850",
      "time",
      "tAria 6050",
      "tBram 5950",
      "time",
      "tAria 7850",
      "tBram 7750",
      "time",
    ]);
    expect(clock).toEqual([
      { time: WORLD_TIME + 86400, delta: 86400 },
      { time: WORLD_TIME + 2 * 86400, delta: 86400 },
      { time: WORLD_TIME + 3 * 86400, delta: 86400 },
    ]);
    expect([at(tAria), at(tBram)]).toEqual([DAY_ENDS[2]!.aria, DAY_ENDS[2]!.bram]);
    expect(flagOf(cards(world)[0]!)).toMatchObject({ status: "applied", timeAdded: 3 * 86400, problems: [] });
  });

  it("a lost day ends where it started: the tokens do not move that day, world time still does", async () => {
    const { world, tAria } = await boot();
    const mark = world.writes.length;
    // Day 1 on the road: wandering 6 (no lost check on a road). Day 2 starts in the forest: lost 1 (lost), wandering 6.
    // Day 3 still in the forest: lost 6, wandering 6. Stop after 3 days.
    world.queueRolls(6, 1, 6, 6, 6);
    await world.as("gm1", () => api(world).applyTravel(request({}, 3)));
    await world.settle();
    expect(cards(world)[0]!.content).toContain("lost in the forest");
    expect(tokenMoves(world, mark, "tAria").map(moveTarget)).toEqual([3950, 6050]);
    expect(world.writesSince(mark).filter((w) => w.action === "time")).toHaveLength(3);
    expect(at(tAria)).toEqual(DAY_ENDS[1]!.aria);
    expect(world.worldTime).toBe(WORLD_TIME + 3 * 86400);
  });

  it("a write refused on day 2: the tokens and world time go back to where the journey started; the card says so", async () => {
    const { world, tAria, tBram } = await boot();
    sixes(world);
    // The second Token update of the walk is Bram's move on day 1; the third is Aria's on day 2.
    world.failWrite(3, (w) => w.documentName === "Token");
    expectLogged(
      /^aventure \| travel apply failed InjectedFailure: Fake server: the update of Token tAria was refused \(injected failure\)$/,
    );
    const r = await world.as("gm1", () => api(world).applyTravel(request()));
    await world.settle({ allowErrors: true });
    expect(r).toMatchObject({ ok: false, key: "AVENTURE.Travel.Error.RolledBack" });
    expect([at(tAria), at(tBram), world.worldTime]).toEqual([{ x: 50, y: 450 }, { x: 50, y: 450 }, WORLD_TIME]);
    expect(flagOf(cards(world)[0]!)).toMatchObject({ status: "failed", rolledBack: true });
  });

  it("a card's walk is read only when each token holds one stop per day but the last", async () => {
    const { world } = await boot();
    sixes(world);
    await world.as("gm1", () => api(world).applyTravel(request()));
    await world.settle();
    const card = cards(world)[0]!;
    const stored = flagOf(card) as { journal: { days: number; tokens: { stops: unknown[] }[] } };
    expect(stored.journal.days).toBe(3);
    expect(stored.journal.tokens.map((t) => t.stops)).toEqual([
      [DAY_ENDS[0]!.aria, DAY_ENDS[1]!.aria],
      [DAY_ENDS[0]!.bram, DAY_ENDS[1]!.bram],
    ]);
    const read = (journal: unknown) =>
      world.as("gm1", () =>
        readJourney({ author: card.author, flags: { aventure: { travel: { ...stored, journal } } } }),
      );
    expect(read(stored.journal)).not.toBeNull();
    const withStops = (stops: unknown[], days: unknown = 3) => ({
      ...stored.journal,
      days,
      tokens: stored.journal.tokens.map((t) => ({ ...t, stops })),
    });
    expect(read(withStops([DAY_ENDS[0]!.aria]))).toBeNull(); // one stop for three days
    expect(read(withStops([DAY_ENDS[0]!.aria, { x: Number.NaN, y: 0 }]))).toBeNull();
    expect(read(withStops([DAY_ENDS[0]!.aria, DAY_ENDS[1]!.aria], 0))).toBeNull();
    expect(read(withStops([DAY_ENDS[0]!.aria, DAY_ENDS[1]!.aria], 2.5))).toBeNull();
    expect(read({ ...stored.journal, days: undefined })).toBeNull(); // stops without days
  });

  /** gm2 asks; gm1 (the active GM) crashes just before its k-th write; gm2 takes over; gm1 reloads. */
  async function crash(k: number) {
    const b = await boot();
    const mark = b.world.writes.length;
    sixes(b.world, 10);
    b.world.crashAt(k, (w) => w.user === "gm1");
    await b.world.as("gm2", () => api(b.world, "gm2").applyTravel(request()));
    await b.world.settle({ allowErrors: true });
    if (!b.world.clients.get("gm1")?.alive) await b.world.reload("gm1");
    await b.world.settle();
    return { ...b, mark };
  }

  it("counts the active GM's writes (so the loop below crashes at every one)", async () => {
    const { world, mark } = await crash(99);
    expect(
      world
        .writesSince(mark)
        .filter((w) => w.user === "gm1")
        .map((w) => `${w.action} ${w.documentName}`),
    ).toEqual([
      "create ChatMessage", // receipt
      "create ChatMessage", // the card, applying
      ...["update Token", "update Token", "time Setting"], // day 1
      ...["update Token", "update Token", "time Setting"], // day 2
      ...["update Token", "update Token", "time Setting"], // day 3
      "update ChatMessage", // the card, applied
      "update ChatMessage", // receipt's reply
      "delete ChatMessage",
      "delete ChatMessage",
    ]);
  });

  for (let k = 1; k <= 15; k++) {
    it(`a crash before the active GM's write ${k}: each day walked once, the journey finished or never begun`, async () => {
      expectJourneyCrashLogs(k, { firstUndoable: 5, lastApplyWrite: 11 });
      const { world, tAria, tBram, mark } = await crash(k);
      const journeys = cards(world);
      expect(journeys.length).toBeLessThanOrEqual(1);
      const times = world.writesSince(mark).filter((w) => w.action === "time");
      if (!journeys.length) {
        expect([at(tAria), at(tBram), world.worldTime]).toEqual([{ x: 50, y: 450 }, { x: 50, y: 450 }, WORLD_TIME]);
        expect(times).toEqual([]);
        return;
      }
      expect(flagOf(journeys[0]!)).toMatchObject({ status: "applied", timeAdded: 3 * 86400, problems: [] });
      expect([at(tAria), at(tBram), world.worldTime]).toEqual([
        DAY_ENDS[2]!.aria,
        DAY_ENDS[2]!.bram,
        WORLD_TIME + 3 * 86400,
      ]);
      // Never a day twice: each day's end reached once by each token, one day of world time per day.
      expect(times.map((w) => w.data)).toEqual([86400, 86400, 86400].map(() => expect.anything()));
      for (const [id, key] of [
        ["tAria", "aria"],
        ["tBram", "bram"],
      ] as const) {
        expect(tokenMoves(world, mark, id).map(moveTarget)).toEqual(DAY_ENDS.map((d) => d[key].x));
      }
    });
  }
});

describe("the Travel dialog under Old-School Essentials", () => {
  it("opens with OSE words, the slowest member's base movement and the painted legs; Apply runs the days", async () => {
    const { world, scene } = await boot();
    scene.drawings.set(
      new FakeDrawing(
        world,
        { _id: "route", author: "gm1", x: 100, y: 500, shape: { type: "p", points: [0, 0, 7800, 0] } },
        scene,
      ),
    );
    (world.clientOf("gm1") as unknown as { controlledDrawings: string[] }).controlledDrawings = ["route"];
    control(world.clientOf("gm1"), "tAria", "tBram");
    const d = (await world.as("gm1", () => api(world).planRoute()))!;
    await world.settle();
    expect(d.formState.route!.legs.map((l) => [l.terrain, l.metres])).toEqual([
      ["road", 27000],
      ["forest", 24000],
      ["swamp", 27000],
    ]);
    expect(d.formState.members.map((m) => m.baseMetres)).toEqual([36, 36]);
    expect(d.lastHTML).toContain("Arrival on day 3 (78 km) if the party never gets lost");
    expect(d.lastHTML).not.toMatch(/\bDC\b|Perception|xhaustion/);
    await world.as("gm1", () => d.change("forage", true));
    await world.as("gm1", () => d.change("rations", "12"));
    expect(d.request?.ose).toMatchObject({ forage: true, rations: 12 });
    // Sixes: lost (days 2–3), wandering and forage each day.
    world.queueRolls(...Array.from({ length: 8 }, () => 6));
    const result = await world.as("gm1", () => d.apply());
    await world.settle();
    expect(result).toMatchObject({ ok: true });
    expect(cards(world)[0]!.content).toContain("foraging 6: nothing");
    expect(world.worldTime).toBe(WORLD_TIME + 3 * 86400);
  });

  it("api.openTravel under ose opens the OSE dialog: a distance on the chosen terrain", async () => {
    const { world } = await boot();
    const d = await world.as("gm1", () => api(world).openTravel({ actorIds: ["aria"] }));
    await world.settle();
    await world.as("gm1", () => d.change("distance", "48"));
    await world.as("gm1", () => d.change("openTerrain", "forest"));
    expect(d.lastHTML).toContain("Arrival on day 2 (48 km) if the party never gets lost");
    expect(d.request).toMatchObject({ distance: 48000, route: null, ose: { openTerrain: "forest" } });
  });

  it("pmt borrowing these journeys: the Travel window says so; with the setting, getting lost is pmt's own d100 roll", async () => {
    const { world } = await boot();
    const set = (k: string, v: unknown) =>
      world.as("gm1", () => game.settings.set("aventure" as never, k as never, v as never));
    await set("ruleset", "pmt");
    await set("borrowTravel", "ose");
    await world.settle();
    // Without the setting: the terrain's chance in 6, no percentage field.
    let d = await world.as("gm1", () => api(world).openTravel({ actorIds: ["aria"] }));
    await world.settle();
    expect(d.lastHTML).toContain("Old-School Essentials rule, borrowed for Portes, Monstres &amp; Trésors.");
    expect(d.lastHTML).not.toContain('name="lostChance"');
    await set("travelPmtLostRoll", true);
    d = await world.as("gm1", () => api(world).openTravel({ actorIds: ["aria"] }));
    await world.settle();
    await world.as("gm1", () => d.change("distance", "24"));
    await world.as("gm1", () => d.change("openTerrain", "forest"));
    await world.as("gm1", () => d.change("lostChance", "40"));
    expect(d.lastHTML).toContain('name="lostChance"');
    expect(d.request).toMatchObject({ lostChance: 40 });
    // Apply: day 1 the d100 shows 35 (lost on 40 or less), wandering 6; day 2 the d100 shows 90, wandering 6: 24 km.
    world.queueRolls(35, 6, 90, 6);
    await world.as("gm1", () => d.apply());
    await world.settle();
    const card = cards(world).at(-1)!;
    expect(card.content).toContain("lost check 35 on 1d100 (40% or less)");
    expect(card.content).toContain("lost check 90 on 1d100 (40% or less)");
    expect(card.rolls.map((r) => (r as { formula?: string }).formula)).toEqual(["1d100", "1d6", "1d100", "1d6"]);
    // A forged percentage is refused by the GM's check of the request, before anything is written.
    const mark = world.writes.length;
    await expect(
      world.as("gm1", () => api(world).applyTravel({ ...request({}), route: null, distance: 1000, lostChance: 150 })),
    ).resolves.toMatchObject({ ok: false });
    expect(world.writesSince(mark).filter((w) => w.documentName !== "ChatMessage" || w.action !== "create")).toEqual(
      [],
    );
  });
});
