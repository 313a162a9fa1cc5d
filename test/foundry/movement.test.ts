/**
 * Movement glue against the fake world (test/world): the rules' costs in the movement actions, the ruler label,
 * refusing moves beyond the speed, falls (regions, elevation drops, the API, the Apply damage button) through the
 * trusted request channel, and exactly once under two GMs, forged requests and crashes at every write.
 * Expected values come from RULES.md §3–§4.1, not from the code.
 */
import { beforeEach, describe, expect, it } from "vitest";
import {
  addDnd5eActor,
  bootWorld,
  GM,
  GM2,
  PLAYER,
  PLAYER2,
  moveToken,
  rulerPath,
  viewScene,
  type FakeActor,
  type FakeChatMessage,
  type FakeScene,
  type FakeToken,
  type FakeWaypoint,
  type FakeWorld,
} from "../world/index.js";
import { forgeRequest, isRequestPlumbing } from "../world/attacks.js";
import { cardOf, cardsOf } from "./card-state.js";
import { expectCrashLog, expectRequestCrashLogs } from "./crash-logs.js";

type CostFn = (baseCost: number, from: unknown, to: unknown, distance: number, segment: unknown) => number;
type Api = {
  fall(t: unknown, m: number): Promise<{ dice: number; total: number; prone: boolean; applied: boolean } | undefined>;
  showJumps(): Promise<void>;
  fallDialog(): Promise<void>;
};

const USERS = [GM, GM2, PLAYER, PLAYER2];

async function boot(opts: { users?: typeof USERS; grid?: { units: string; distance: number } } = {}) {
  const world = await bootWorld({ system: "dnd5e", users: opts.users ?? USERS });
  const scene = world.addScene({ _id: "s1", grid: { size: 100, ...(opts.grid ?? { units: "m", distance: 1.5 }) } });
  for (const c of world.liveClients()) viewScene(world, c, scene);
  return { world, scene };
}

/** A dnd5e character: Strength 15 (+2), walk 30 ft (9 m), 20 hit points. */
function hero(
  world: FakeWorld,
  opts: {
    id?: string;
    owner?: string;
    swim?: number;
    climb?: number;
    temp?: number;
    immune?: boolean;
    noDamageApi?: boolean;
  } = {},
): FakeActor {
  const actor = addDnd5eActor(world, {
    id: opts.id ?? "hero",
    name: "Aldric",
    owner: opts.owner,
    abilities: { str: 15 },
    hp: { value: 20, max: 20, temp: opts.temp ?? null },
    swim: opts.swim,
    climb: opts.climb,
    immune: opts.immune ? ["bludgeoning"] : [],
  });
  if (opts.noDamageApi) delete (actor as unknown as Record<string, unknown>).applyDamage;
  return actor;
}

function place(
  world: FakeWorld,
  scene: FakeScene,
  actor: FakeActor | null,
  data: { id?: string; name?: string; linked?: boolean; elevation?: number; x?: number } = {},
): FakeToken {
  return world.addToken(scene, {
    _id: data.id ?? "t1",
    name: data.name ?? "Aldric",
    actorId: actor?.id ?? null,
    actorLink: data.linked ?? true,
    x: data.x ?? 0,
    y: 0,
    elevation: data.elevation ?? 0,
  });
}

const hp = (a: FakeActor) => (a.system.attributes as { hp: { value: number; temp: number | null } }).hp;
const damageCalls = (a: FakeActor) => (a as unknown as { damageCalls: unknown[] }).damageCalls;
const actions = (world: FakeWorld) =>
  world.as(
    "gm1",
    () =>
      (
        CONFIG.Token as unknown as {
          movement: { actions: Record<string, { getCostFunction(t: unknown, o?: unknown): CostFn }> };
        }
      ).movement.actions,
  );
const costOf = (path: FakeWaypoint[]) => path.at(-1)!.measurement.cost;
const api = (world: FakeWorld, user = "gm1") => world.api<Api>(user);
const asUser = <T>(world: FakeWorld, user: string, fn: (a: Api) => Promise<T>) =>
  world.as(user, () => fn(api(world, user)));
const set = (world: FakeWorld, key: string, value: unknown) =>
  world.as("gm1", () => game.settings.set("aventure" as never, key as never, value as never));
const cards = (world: FakeWorld) => cardsOf(world.messages.contents, "fall");
const fallFlag = (m: FakeChatMessage) => cardOf(m, "fall")!;
const requests = (world: FakeWorld) =>
  world.messages.filter((m) => (m.flags.aventure as { request?: unknown } | undefined)?.request !== undefined);
const errors = (world: FakeWorld, user: string) =>
  world.notifications.filter((n) => n.user === user && n.type === "error").map((n) => n.message);

describe("movement costs in the movement actions (RULES.md §3.1)", () => {
  let world: FakeWorld;
  let scene: FakeScene;
  // dnd5e 5.1+ counts movement costs itself and owns them by default (docs/compat.md): Aventure's costs are chosen here.
  beforeEach(async () => {
    ({ world, scene } = await boot({ users: [GM] }));
    await set(world, "dnd5eOwnerMovementCosts", "aventure");
  });

  it("climbing through difficult terrain costs 3 m per metre (core would charge 4)", async () => {
    const token = place(world, scene, hero(world));
    const c = world.clientOf("gm1");
    expect(
      costOf(
        rulerPath(c, token, [
          ["climb", 1.5, 2],
          ["climb", 3, 2],
        ]),
      ),
    ).toBeCloseTo(4.5 * 3, 9);
    await set(world, "movementCosts", false);
    // The system's own cost is back: dnd5e 5.3.3 adds 1 per metre to the terrain's 2 (module/documents/token.mjs).
    expect(costOf(rulerPath(c, token, [["climb", 4.5, 2]]))).toBeCloseTo(4.5 * 3, 9);
  });

  it("swimming costs 2 m per metre without a swimming speed, 1 with one (dnd5e)", () => {
    const c = world.clientOf("gm1");
    const token = place(world, scene, hero(world));
    expect(costOf(rulerPath(c, token, [["swim", 6, 1]]))).toBe(12);
    const fish = place(world, scene, hero(world, { id: "nixe", swim: 30 }), { id: "t2", name: "Nixe" });
    expect(costOf(rulerPath(c, fish, [["swim", 6, 1]]))).toBe(6);
    expect(costOf(rulerPath(c, fish, [["swim", 6, 2]]))).toBe(12);
  });

  it("rnp: a climbing speed changes nothing; walking 1 and 2; crawling 2 and 3; jumping 1 even on difficult ground", async () => {
    await set(world, "ruleset", "rnp");
    const c = world.clientOf("gm1");
    const token = place(world, scene, hero(world, { climb: 30 }));
    expect(costOf(rulerPath(c, token, [["climb", 3, 1]]))).toBe(6);
    expect(costOf(rulerPath(c, token, [["walk", 3, 1]]))).toBe(3);
    expect(costOf(rulerPath(c, token, [["walk", 3, 2]]))).toBe(6);
    expect(costOf(rulerPath(c, token, [["crawl", 3, 1]]))).toBe(6);
    expect(costOf(rulerPath(c, token, [["crawl", 3, 2]]))).toBe(9);
    expect(costOf(rulerPath(c, token, [["jump", 3, 2]]))).toBe(3);
  });

  it("measures a 200-waypoint path over 100 difficult segments well under 1 ms (bench: npm run bench)", () => {
    const c = world.clientOf("gm1");
    const token = place(world, scene, hero(world));
    const segments: [string, number, number][] = Array.from({ length: 199 }, (_, i) => [
      "climb",
      1.5,
      i % 2 === 0 ? 2 : 1,
    ]);
    expect(costOf(rulerPath(c, token, segments))).toBeCloseTo(100 * 1.5 * 3 + 99 * 1.5 * 2, 6);
    const measure = () =>
      world.as("gm1", () => {
        const fn = actions(world).climb!.getCostFunction(token, {});
        let total = 0;
        for (const [, d, terrain] of segments) total += fn(d * terrain, null, null, d, null);
        return total;
      });
    const times: number[] = [];
    for (let i = 0; i < 21; i++) {
      const start = performance.now();
      measure();
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    expect(times[10]).toBeLessThan(1); // median, ms per path
  });

  it("never multiplies the terrain twice, keeps impassable terrain, leaves fly to core", () => {
    world.as("gm1", () => {
      const climb = actions(world).climb!.getCostFunction(null, {});
      expect(climb(3, {}, {}, 1.5, {})).toBe(4.5); // baseCost 3 over 1.5 m: difficult → 3 per metre
      expect(climb(Infinity, {}, {}, 1.5, {})).toBe(Infinity);
      expect(climb(0, {}, {}, 0, {})).toBe(0);
      expect(actions(world).fly!.getCostFunction(null, {})(3, {}, {}, 1.5, {})).toBe(3);
    });
  });
});

/** A started combat on scene s1 whose current combatant is the token `tokenId` (created by gm1). */
async function combatWith(world: FakeWorld, tokenId: string, others: string[] = []) {
  return world.as("gm1", async () => {
    const Combat = CONFIG.Combat.documentClass as unknown as {
      create(d: object): Promise<{
        createEmbeddedDocuments(t: string, d: object[]): Promise<unknown>;
        startCombat(): Promise<unknown>;
        update(d: object): Promise<unknown>;
        turns: { tokenId: string }[];
      }>;
    };
    const combat = await Combat.create({ scene: "s1", active: true });
    await combat.createEmbeddedDocuments(
      "Combatant",
      [tokenId, ...others].map((id) => ({ tokenId: id, sceneId: "s1" })),
    );
    await combat.startCombat();
    const idx = combat.turns.findIndex((t) => t.tokenId === tokenId);
    if (idx !== 0) await combat.update({ turn: idx });
    return combat;
  });
}

describe("token ruler label", () => {
  let world: FakeWorld;
  let scene: FakeScene;
  let token: FakeToken;
  const labels = (t: FakeToken, path: FakeWaypoint[]) =>
    world.as("gm1", () => {
      const Ruler = (
        CONFIG.Token as unknown as {
          rulerClass: new (t: unknown) => {
            _getWaypointLabelContext(w: unknown, s: object): Record<string, unknown> | undefined;
          };
        }
      ).rulerClass;
      const r = new Ruler({ document: t, actor: t.actor });
      const state = {};
      return path.map((w) => r._getWaypointLabelContext(w, state));
    });
  const path = (segments: ([string, number, number] | [string, number, number, number])[]) =>
    rulerPath(world.clientOf("gm1"), token, segments);
  beforeEach(async () => {
    ({ world, scene } = await boot({ users: [GM], grid: { units: "ft", distance: 5 } }));
    token = place(world, scene, hero(world));
  });

  it("shows the cost in metres (display setting) and, for the current combatant, the movement left", async () => {
    await combatWith(world, "t1");
    // 10 ft walk + 10 ft difficult = 30 ft of cost = 9 m: exactly the 9 m speed.
    const last = labels(
      token,
      path([
        ["walk", 10, 1],
        ["walk", 10, 2],
      ]),
    ).at(-1) as { cost: unknown; aventure: { left: unknown; exceeded: boolean } };
    expect(last.cost).toEqual({ total: "9", units: "m", delta: "+6" });
    expect(last.aventure.left).toEqual({ total: "0", units: "m" });
    expect(last.aventure.exceeded).toBe(false);
    const over = labels(
      token,
      path([
        ["walk", 10, 1],
        ["walk", 10, 2],
        ["walk", 5, 1],
      ]),
    ).at(-1) as { cssClass: string; aventure: { left: { total: string }; exceeded: boolean } };
    expect(over.aventure.exceeded).toBe(true);
    expect(over.aventure.left.total).toBe("1.5"); // "Beyond the speed: 1.5 m"
    expect(over.cssClass).toContain("aventure-exceeded");
  });

  it("shows the delta since the previous label in the unit of the total (metres on a feet scene)", async () => {
    const out = labels(
      token,
      path([
        ["walk", 10, 1],
        ["walk", 10, 2],
        ["walk", 5, 1],
      ]),
    ) as ({ cost: Record<string, string> } | undefined)[];
    expect(out[1]!.cost).toEqual({ total: "3", units: "m" }); // core gives no delta on the first label
    expect(out[2]!.cost).toEqual({ total: "9", units: "m", delta: "+6" });
    expect(out[3]!.cost).toEqual({ total: "10.5", units: "m", delta: "+1.5" });
    await set(world, "distanceDisplay", "grid");
    const grid = labels(
      token,
      path([
        ["walk", 10, 1],
        ["walk", 10, 2],
      ]),
    ) as ({ cost: Record<string, string> } | undefined)[];
    expect(grid[2]!.cost).toEqual({ total: "30", units: "ft", delta: "+20" });
  });

  it("shows grid units when asked, and no movement left outside the combatant's turn", async () => {
    await set(world, "distanceDisplay", "grid");
    const last = labels(token, path([["walk", 10, 2]])).at(-1) as { cost: unknown; aventure: { left: unknown } };
    expect(last.cost).toEqual({ total: "20", units: "ft" });
    expect(last.aventure.left).toBeNull();
  });

  it("leaves the label to core when the movement cost automation is off", async () => {
    await set(world, "movementCosts", false);
    const last = labels(token, path([["walk", 10, 2]])).at(-1) as Record<string, unknown>;
    expect(last.aventure).toBeUndefined();
    expect(last.cost).toEqual({ total: "20", units: "ft" });
  });

  it("shows the elevation in the unit of the cost: 10 ft up on a feet scene reads 3 m (never '10.5 m … 3 ft')", () => {
    const out = labels(
      token,
      path([
        ["walk", 10, 1],
        ["climb", 10, 1, 10],
      ]),
    ) as ({ units: string; elevation: Record<string, unknown>; cost: Record<string, string> } | undefined)[];
    expect(out[2]!.units).toBe("m");
    expect(out[2]!.elevation).toMatchObject({ total: "3", delta: "+3" });
    expect(out[2]!.cost).toMatchObject({ units: "m" });
  });

  it("warns when a single jump is longer than the long jump (dnd5e Str 15: 5 m with run-up, 2.5 m standing)", () => {
    const long = labels(
      token,
      path([
        ["walk", 10, 1],
        ["jump", 20, 1],
      ]),
    ).at(-1) as { aventure: { warning: string | null } };
    expect(long.aventure.warning).toBe("Jump of 6 m: longer than the long jump (5 m)");
    const ok = labels(
      token,
      path([
        ["walk", 10, 1],
        ["jump", 15, 1],
      ]),
    ).at(-1) as { aventure: { warning: string | null } };
    expect(ok.aventure.warning).toBeNull();
    const standing = labels(token, path([["jump", 10, 1]])).at(-1) as { aventure: { warning: string | null } };
    expect(standing.aventure.warning).toContain("2.5 m");
  });
});

describe("hard climbs and swims: Strength (Athletics) at the GM's call (RULES.md §3.1)", () => {
  let world: FakeWorld;
  let token: FakeToken;
  const REMINDER = "Strength (Athletics) at the GM's call (hard climb, icy water, currents)";
  const labels = (segments: [string, number, number][]) =>
    world.as("gm1", () => {
      const Ruler = (
        CONFIG.Token as unknown as {
          rulerClass: new (t: unknown) => {
            _getWaypointLabelContext(w: unknown, s: object): Record<string, unknown> | undefined;
          };
        }
      ).rulerClass;
      const r = new Ruler({ document: token, actor: token.actor });
      const state = {};
      return rulerPath(world.clientOf("gm1"), token, segments).map(
        (w) => r._getWaypointLabelContext(w, state)?.aventureAthletics,
      );
    });
  beforeEach(async () => {
    let scene: FakeScene;
    ({ world, scene } = await boot({ users: [GM] }));
    token = place(world, scene, hero(world));
  });

  it("the label that ends a climb or a swim reminds it, once; walking does not", () => {
    expect(
      labels([
        ["walk", 3, 1],
        ["climb", 3, 1],
        ["walk", 3, 1],
        ["swim", 3, 2],
      ]),
    ).toEqual([undefined, undefined, REMINDER, undefined, REMINDER]);
    expect(
      labels([
        ["walk", 3, 1],
        ["walk", 3, 2],
        ["jump", 3, 1],
      ]),
    ).toEqual([undefined, undefined, undefined, undefined]);
  });

  it("is added to the label (the system's fields kept), also when Aventure's costs are off; its setting turns it off", async () => {
    await set(world, "movementCosts", false);
    const label = world.as("gm1", () => {
      const Ruler = (
        CONFIG.Token as unknown as {
          rulerClass: new (t: unknown) => {
            _getWaypointLabelContext(w: unknown, s: object): Record<string, unknown> | undefined;
          };
        }
      ).rulerClass;
      return rulerPath(world.clientOf("gm1"), token, [["climb", 3, 1]])
        .map((w) => new Ruler({ document: token, actor: token.actor })._getWaypointLabelContext(w, {}))
        .at(-1)!;
    });
    expect(label).toMatchObject({
      action: { label: "climb" },
      cost: { total: "6", units: "m" },
      aventureAthletics: REMINDER,
    });
    expect(label.aventure).toBeUndefined();
    // Rendered as core would: the base label (core's stand-in here) first, then the reminder.
    const html = await world.as("gm1", () =>
      foundry.applications.handlebars.renderTemplate("modules/aventure/templates/movement/waypoint-label.hbs", {
        ...label,
        action: { label: "AVENTURE.Movement.Jump.long" },
      }),
    );
    expect(html).toContain(REMINDER.replace("'", "&#x27;"));
    await set(world, "movementCosts", true);
    await set(world, "athleticsReminder", false);
    expect(
      labels([
        ["climb", 3, 1],
        ["swim", 3, 1],
      ]),
    ).toEqual([undefined, undefined, undefined]);
  });

  it("in French", async () => {
    const { world: fr, scene } = await (async () => {
      const w = await bootWorld({ system: "dnd5e", users: [GM], lang: "fr" });
      const s = w.addScene({ _id: "s1", grid: { size: 100, units: "m", distance: 1.5 } });
      viewScene(w, w.clientOf("gm1"), s);
      return { world: w, scene: s };
    })();
    const t = place(fr, scene, hero(fr));
    const label = fr.as("gm1", () => {
      const Ruler = (
        CONFIG.Token as unknown as {
          rulerClass: new (t: unknown) => {
            _getWaypointLabelContext(w: unknown, s: object): Record<string, unknown> | undefined;
          };
        }
      ).rulerClass;
      return rulerPath(fr.clientOf("gm1"), t, [["swim", 3, 1]])
        .map((w) => new Ruler({ document: t, actor: t.actor })._getWaypointLabelContext(w, {}))
        .at(-1)!;
    });
    expect(label.aventureAthletics).toBe(
      "Force (Athlétisme) à la discrétion du MJ (escalade difficile, eau glacée, courants)",
    );
  });

  const panelText = async () => {
    world.clientOf("gm1").controlled.push(token.id);
    await world.as("gm1", () => api(world).showJumps());
    return world.window.document.querySelector(".aventure-jumps")!.textContent!.replace(/\s+/g, " ");
  };
  it("the jumps panel reminds it too", async () => {
    expect(await panelText()).toContain(
      "Climbing or swimming: Strength (Athletics) at the GM's call (hard climb, icy water, currents).",
    );
  });
  it("the jumps panel does not when the setting is off", async () => {
    await set(world, "athleticsReminder", false);
    expect(await panelText()).not.toContain("Climbing or swimming");
  });
});

describe("token ruler label on a system with its own ruler (pf2e, Draw Steel...)", () => {
  it("adds to the system's label context and renders the system's template inside Aventure's, instead of replacing it", async () => {
    // A system's TokenRuler subclass with its own template and its own label fields, set in CONFIG before setup.
    const { FakeTokenRuler } = await import("../world/index.js");
    class SystemRuler extends FakeTokenRuler {
      static override WAYPOINT_LABEL_TEMPLATE = "systems/drawsteel/templates/hud/waypoint-label.hbs";
      override _getWaypointLabelContext(waypoint: FakeWaypoint, state: object) {
        const context = super._getWaypointLabelContext(waypoint, state);
        return context ? { ...context, drawsteel: { dice: 2 } } : context;
      }
    }
    const world = await bootWorld({
      system: "dnd5e",
      users: [GM],
      extend: (c) => ((c.CONFIG.Token as { rulerClass: unknown }).rulerClass = SystemRuler),
    });
    const scene = world.addScene({ _id: "s1", grid: { size: 100, units: "m", distance: 1.5 } });
    viewScene(world, world.clientOf("gm1"), scene);
    const token = place(world, scene, hero(world));
    const label = world.as("gm1", () => {
      const Ruler = (
        CONFIG.Token as unknown as {
          rulerClass: (new (t: unknown) => {
            _getWaypointLabelContext(w: unknown, s: object): Record<string, unknown>;
          }) & { AVENTURE_BASE_TEMPLATE: string };
        }
      ).rulerClass;
      expect(Ruler.prototype).toBeInstanceOf(SystemRuler);
      expect(Ruler.AVENTURE_BASE_TEMPLATE).toBe("systems/drawsteel/templates/hud/waypoint-label.hbs");
      const r = new Ruler({ document: token, actor: token.actor });
      const state = {};
      return rulerPath(world.clientOf("gm1"), token, [["walk", 3, 2]])
        .map((w) => r._getWaypointLabelContext(w, state))
        .at(-1)!;
    });
    expect(label.drawsteel).toEqual({ dice: 2 }); // the system's own content is kept
    expect(label.aventureBase).toBe("systems/drawsteel/templates/hud/waypoint-label.hbs");
    expect(label.aventure).toBeDefined();
  });
});

describe("refusing moves beyond the speed (setting)", () => {
  it("refuses a player's move beyond the combatant's speed, never a GM's; only during that combatant's turn", async () => {
    const { world, scene } = await boot();
    const token = place(world, scene, hero(world, { owner: "p1" }));
    place(world, scene, hero(world, { id: "orc" }), { id: "t2", name: "Orc" });
    const combat = await combatWith(world, "t1", ["t2"]);
    // Squares of 1.5 m, 100 px: 7 squares = 10.5 m (beyond the 9 m speed), 6 squares = 9 m.
    expect(await world.as("p1", () => moveToken(world, token, { x: 700 }))).not.toBeNull(); // the setting is off by default
    await set(world, "movementRefuse", true);
    expect(await world.as("p1", () => moveToken(world, token, { x: 100 }))).not.toBeNull(); // 9 m: allowed
    expect(await world.as("p1", () => moveToken(world, token, { x: 800 }))).toBeNull(); // 10.5 m: refused
    expect(token.x).toBe(100);
    expect(world.notifications.at(-1)).toEqual({
      user: "p1",
      type: "warn",
      message: "Aldric cannot move that far this turn (speed 9 m).",
    });
    expect(await world.as("gm1", () => moveToken(world, token, { x: 800 }))).not.toBeNull(); // a GM is never refused
    await world.as("gm1", () => combat.update({ turn: 1 }));
    expect(await world.as("p1", () => moveToken(world, token, { x: 100 }))).not.toBeNull(); // not its turn: not counted
  });
});

/** A region on s1 covering x 500–800 with the Fall behaviour (height in metres), created by gm1. */
async function fallRegion(world: FakeWorld, scene: FakeScene, height: number, x = 500) {
  await world.as("gm1", () =>
    scene.createEmbeddedDocuments("Region", [
      {
        name: "Pit",
        shapes: [{ type: "rectangle", x, y: 0, width: 300, height: 300 }],
        behaviors: [{ type: "aventure.fall", system: { height } }],
      },
    ]),
  );
}

describe("falls (RULES.md §4.1)", () => {
  let world: FakeWorld;
  let scene: FakeScene;
  beforeEach(async () => ({ world, scene } = await boot()));

  it("registers the region behaviour type with its icon and label", () => {
    world.as("gm1", () => {
      const config = CONFIG.RegionBehavior as unknown as {
        dataModels: Record<string, new (d: object) => { height: number }>;
        typeIcons: Record<string, string>;
      };
      expect(new config.dataModels["aventure.fall"]!({ height: 4 }).height).toBe(4);
      expect(config.typeIcons["aventure.fall"]).toBe("fa-solid fa-person-falling");
      expect(game.i18n.localize("TYPES.RegionBehavior.aventure.fall")).toBe("Fall (Aventure)");
    });
  });

  it("what each game gets (docs/rules.md §0): Old-School Essentials falls by the OSE SRD (no prone), Portes, Monstres & Trésors has none unless borrowed", async () => {
    const setting = (key: string, value: unknown) =>
      world.as("gm1", () => game.settings.set("aventure" as never, key as never, value as never));
    const actor = hero(world, { owner: "p1" });
    const token = place(world, scene, actor);
    await setting("ruleset", "ose");
    world.queueRolls(3, 4, 4);
    expect(await api(world).fall(token, 9)).toMatchObject({ dice: 3, total: 11, prone: false });
    expect(actor.statuses.has("prone")).toBe(false);
    expect(world.renderMessage(cards(world)[0]!, "gm1").textContent).not.toMatch(/bludgeoning|prone/);
    await setting("ruleset", "pmt");
    expect(await api(world).fall(token, 9)).toBeUndefined();
    expect(cards(world)).toHaveLength(1);
    expect(world.notifications.at(-1)).toEqual({
      user: "gm1",
      type: "info",
      message: "The Portes, Monstres & Trésors book has no rule for falls.",
    });
    // An elevation drop is no fall either.
    await fallRegion(world, scene, 9);
    await world.as("p1", () => moveToken(world, token, { x: 600 }));
    await world.settle();
    expect(cards(world)).toHaveLength(1);
    // Borrowed from Rôle'n Play: its rule (prone), labelled on the card.
    await setting("borrowFalls", "rnp");
    world.queueRolls(3, 4, 4);
    expect(await api(world).fall(token, 9)).toMatchObject({ dice: 3, prone: true });
    expect(world.renderMessage(cards(world)[1]!, "gm1").textContent).toContain("Rôle'n Play's rule");
  });

  it("a player walks into a 9 m fall region: 3d6 once with two GMs, bludgeoning damage, prone, one card carrying the roll", async () => {
    const actor = hero(world, { owner: "p1" });
    const token = place(world, scene, actor);
    await fallRegion(world, scene, 9);
    world.queueRolls(3, 4, 4);
    await world.as("p1", () => moveToken(world, token, { x: 600 }));
    await world.settle();
    expect(world.rollsMade.map((r) => (r as { formula: string }).formula)).toEqual(["3d6"]);
    expect(damageCalls(actor)).toEqual([[{ value: 11, type: "bludgeoning" }]]);
    expect(hp(actor).value).toBe(9);
    expect(actor.statuses.has("prone")).toBe(true);
    expect(token.stopped).toBe(1); // stopped on the mover's client only
    const [card] = cards(world);
    expect(cards(world)).toHaveLength(1);
    expect(card!.author!.id).toBe("gm1");
    expect(card!.rolls).toHaveLength(1);
    expect(card!.content).toContain("Aldric falls 9 m.");
    expect(card!.content).toContain("11 bludgeoning damage");
    expect(card!.content).not.toContain("aventure-apply-fall");
    expect(fallFlag(card!)).toMatchObject({ status: "applied", applied: true, prone: true, damage: 11 });
  });

  it("a flying token crosses a fall region without falling", async () => {
    const actor = hero(world, { owner: "p1" });
    const token = place(world, scene, actor);
    await fallRegion(world, scene, 9);
    await world.as("p1", () =>
      moveToken(world, token, { x: 600, action: "fly", waypoints: [{ x: 600, y: 0, elevation: 0, action: "fly" }] }),
    );
    await world.settle();
    expect(world.rollsMade).toEqual([]);
    expect(token.stopped).toBe(0);
  });

  it("an automatic 9 m elevation drop falls once with two GMs; a 2 m drop does nothing", async () => {
    await set(world, "fallOnDrop", "automatic");
    const actor = hero(world, { owner: "p1" });
    const token = place(world, scene, actor, { elevation: 2 });
    await world.as("p1", () => moveToken(world, token, { elevation: 0 }));
    await world.settle();
    expect(world.rollsMade).toEqual([]);
    expect(cards(world)).toEqual([]);
    await world.as("gm1", () => token.update({ elevation: 9 }));
    world.queueRolls(6, 6, 6);
    await world.as("p1", () => moveToken(world, token, { elevation: 0 }));
    await world.settle();
    expect(world.rollsMade.map((r) => (r as { formula: string }).formula)).toEqual(["3d6"]);
    expect(damageCalls(actor)).toEqual([[{ value: 18, type: "bludgeoning" }]]);
    expect(actor.statuses.has("prone")).toBe(true);
  });

  it("asks the GM on a drop when set to ask (the name shown as text); a flying creature never falls; off does nothing", async () => {
    const actor = hero(world);
    const token = place(world, scene, actor, { name: "Aldric <b>", elevation: 6 });
    world.answerDialog("gm1", false);
    await world.as("gm1", () => moveToken(world, token, { elevation: 0 }));
    await world.settle();
    expect(world.dialogsShown.map((d) => [d.user, d.content])).toEqual([
      ["gm1", "<p>Aldric &#60;b&#62; dropped 6 m. Does the creature fall?</p>"],
    ]);
    expect(world.rollsMade).toEqual([]);
    await world.as("gm1", () => token.update({ elevation: 6 }));
    world.answerDialog("gm1", true);
    world.queueRolls(1, 2);
    await world.as("gm1", () => moveToken(world, token, { elevation: 0 }));
    await world.settle();
    expect(world.rollsMade.map((r) => (r as { formula: string }).formula)).toEqual(["2d6"]);
    await world.as("gm1", () => token.update({ elevation: 30 }));
    await world.as("gm1", () => actor.toggleStatusEffect("flying", { active: true }));
    await world.as("gm1", () => moveToken(world, token, { elevation: 0 }));
    await set(world, "fallOnDrop", "off");
    await world.as("gm1", () => actor.toggleStatusEffect("flying", { active: false }));
    await world.as("gm1", () => token.update({ elevation: 30 }));
    await world.as("gm1", () => moveToken(world, token, { elevation: 0 }));
    await world.settle();
    expect(world.dialogsShown).toHaveLength(2);
    expect(world.rollsMade).toHaveLength(1);
  });

  it("one fall per movement: a fall region and a drop in the same move, two fall regions, one moveToken per checkpoint", async () => {
    await set(world, "fallOnDrop", "automatic");
    const actor = hero(world, { owner: "p1" });
    const token = place(world, scene, actor, { elevation: 9 });
    await fallRegion(world, scene, 9);
    await fallRegion(world, scene, 6, 550);
    world.queueRolls(3, 4, 4, ...Array<number>(12).fill(1)); // dice for every fall a buggy module would roll
    const movement = await world.as("p1", () => moveToken(world, token, { x: 600, elevation: 0, id: "move1" }));
    // Core fires moveToken again at a later checkpoint of the same movement.
    world.as("p1", () => world.broadcast("moveToken", token, movement, {}, world.users.get("p1")));
    await world.settle();
    expect(world.rollsMade.map((r) => (r as { formula: string }).formula)).toHaveLength(1);
    expect(damageCalls(actor)).toHaveLength(1);
    expect(cards(world)).toHaveLength(1);
    expect(world.notifications).toEqual([]);
    await world.as("gm1", () => token.update({ elevation: 6, x: 0 }));
    await world.as("p1", () => moveToken(world, token, { elevation: 0, id: "move2" }));
    await world.settle();
    expect(damageCalls(actor)).toHaveLength(2); // the next movement is a new fall
  });

  it("an undone move and a teleport (blink, displace) to a lower elevation are no falls", async () => {
    await set(world, "fallOnDrop", "automatic");
    const token = place(world, scene, hero(world, { owner: "p1" }), { elevation: 9 });
    await world.as("p1", () => moveToken(world, token, { elevation: 0, method: "undo" }));
    for (const action of ["blink", "displace"]) {
      await world.as("gm1", () => token.update({ elevation: 9 }));
      await world.as("gm1", () =>
        moveToken(world, token, { elevation: 0, action, waypoints: [{ x: 0, y: 0, elevation: 0, action }] }),
      );
    }
    await fallRegion(world, scene, 9);
    await world.as("gm1", () =>
      moveToken(world, token, {
        x: 600,
        action: "blink",
        waypoints: [{ x: 600, y: 0, elevation: 0, action: "blink" }],
      }),
    );
    await world.settle();
    expect(world.rollsMade).toEqual([]);
    expect(cards(world)).toEqual([]);
    expect(token.stopped).toBe(0);
  });

  it("api.fall on an unlinked token's actor hurts that token's actor, not the base actor", async () => {
    const base = hero(world, { owner: "p1" });
    const token = place(world, scene, base, { id: "t9", name: "Aldric (copy)", linked: false });
    const synthetic = token.actor!;
    world.queueRolls(5, 5, 5);
    const result = await asUser(world, "p1", (a) => a.fall(synthetic, 9));
    await world.settle();
    expect(result).toMatchObject({ dice: 3, total: 15, applied: true, prone: true });
    expect(damageCalls(synthetic)).toEqual([[{ value: 15, type: "bludgeoning" }]]);
    expect(damageCalls(base)).toEqual([]);
    expect(hp(synthetic).value).toBe(5);
    expect(hp(base).value).toBe(20);
    expect(synthetic.statuses.has("prone")).toBe(true);
    expect(base.statuses.has("prone")).toBe(false);
    expect(cards(world)[0]!.content).toContain("Aldric (copy) falls 9 m.");
  });

  it("a token without an actor gets a clear message and nothing changes", async () => {
    const token = place(world, scene, null, { id: "t0", name: "Statue" });
    const mark = world.writes.length;
    expect(await asUser(world, "p1", (a) => a.fall(token, 9))).toBeUndefined();
    expect(errors(world, "p1")).toEqual(["Statue has no actor."]);
    expect(world.writesSince(mark)).toEqual([]);
  });

  it("a player's request runs on the active GM, once; the request message is hidden and removed", async () => {
    const actor = hero(world, { owner: "p1" });
    const token = place(world, scene, actor);
    world.queueRolls(2, 5);
    const result = await asUser(world, "p1", (a) => a.fall(token, 7.5));
    await world.settle();
    expect(result).toEqual({ metres: 7.5, dice: 2, total: 7, applied: true, prone: true });
    expect(damageCalls(actor)).toHaveLength(1);
    expect(cards(world).map((m) => m.author!.id)).toEqual(["gm1"]);
    expect(requests(world)).toEqual([]); // the GM deleted the request once answered
    // While it existed, nobody saw the request in the chat log.
    const reqs = world.writes.filter(
      (w) => w.action === "create" && w.documentName === "ChatMessage" && w.user === "p1",
    );
    expect(reqs).toHaveLength(1);
  });

  it("attack: a player who does not own the token is refused, whatever identity the payload claims; nothing is written", async () => {
    const actor = hero(world, { owner: "p1" });
    const token = place(world, scene, actor);
    const mark = world.writes.length;
    expect(await asUser(world, "p2", (a) => a.fall(token, 9))).toBeUndefined();
    expect(errors(world, "p2")).toEqual(["You do not own Aldric."]);
    // From the console: a request message claiming to come from a GM, for 60 m.
    const reply = await forgeRequest(world, "p2", "fall", {
      sceneId: "s1",
      tokenId: "t1",
      metres: 60,
      userId: "gm1",
      user: "gm1",
      sender: "gm1",
    });
    expect(reply).toEqual({ status: "done", ok: false, key: "AVENTURE.Error.NotOwner", data: { name: "Aldric" } });
    // The old query path does not exist any more: nothing answers it.
    await expect(
      world.as("p2", () =>
        (game.users.activeGM as unknown as { query(n: string, d: unknown): Promise<unknown> }).query("aventure.fall", {
          sceneId: "s1",
          tokenId: "t1",
          metres: 60,
          userId: "gm1",
        }),
      ),
    ).rejects.toThrow(/not registered/);
    expect(hp(actor).value).toBe(20);
    expect(world.rollsMade).toEqual([]);
    expect(world.writesSince(mark).filter((w) => !isRequestPlumbing(w))).toEqual([]);
  });

  it("attack: out-of-range and malformed values are refused with a localized error; nothing rolls", async () => {
    const actor = hero(world, { owner: "p1" });
    place(world, scene, actor);
    const bad: [unknown, string][] = [
      [{ sceneId: "s1", tokenId: "t1", metres: -3 }, "AVENTURE.Error.Negative"],
      [{ sceneId: "s1", tokenId: "t1", metres: "9" }, "AVENTURE.Error.NotANumber"],
      [{ sceneId: "s1", tokenId: "t1", metres: null }, "AVENTURE.Error.NotANumber"],
      [{ sceneId: "s1", tokenId: "t1" }, "AVENTURE.Error.NotANumber"],
      [{ sceneId: "s1", tokenId: "nope", metres: 9 }, "AVENTURE.Error.NoToken"],
      [{ sceneId: "s1", tokenId: { $ne: 1 }, metres: 9 }, "AVENTURE.Error.NoToken"],
      [{ actorId: "orc", metres: 9 }, "AVENTURE.Error.NoToken"],
      ["fall", "AVENTURE.Error.Missing"],
    ];
    for (const [data, key] of bad)
      expect(await forgeRequest(world, "p1", "fall", data)).toMatchObject({ ok: false, key });
    expect(world.rollsMade).toEqual([]);
    expect(hp(actor).value).toBe(20);
  });

  it("attack: a forged fall payload with a wrong-typed or oversized value is refused by its model; nothing is written", async () => {
    const actor = hero(world, { owner: "p1" });
    place(world, scene, actor);
    const mark = world.writes.length;
    const bad: [unknown, string][] = [
      // A source that is not one of the four was silently taken as "api": the fall then rolled.
      [{ sceneId: "s1", tokenId: "t1", metres: 9, source: 42 }, "AVENTURE.Error.UnknownValue"],
      [{ sceneId: "s1", tokenId: "t1", metres: 9, source: "x".repeat(5000) }, "AVENTURE.Error.UnknownValue"],
      [{ sceneId: "s1", tokenId: "t1", metres: 9, source: ["hud"] }, "AVENTURE.Error.UnknownValue"],
      [{ sceneId: "s1", tokenId: "t".repeat(65), metres: 9 }, "AVENTURE.Error.NoToken"],
    ];
    for (const [data, key] of bad)
      expect(await forgeRequest(world, "p1", "fall", data)).toMatchObject({ ok: false, key });
    expect(world.rollsMade).toEqual([]);
    expect(hp(actor).value).toBe(20);
    expect(world.writesSince(mark).filter((w) => !isRequestPlumbing(w))).toEqual([]);
  });

  it("attack: a replayed request id is refused; a flood gets a localized refusal, not a frozen GM", async () => {
    const actor = hero(world, { owner: "p1" });
    place(world, scene, actor);
    world.queueRolls(1);
    expect(
      await forgeRequest(world, "p1", "fall", { sceneId: "s1", tokenId: "t1", metres: 3 }, "replayedId123"),
    ).toMatchObject({ ok: true });
    expect(
      await forgeRequest(world, "p1", "fall", { sceneId: "s1", tokenId: "t1", metres: 3 }, "replayedId123"),
    ).toEqual({ status: "done", ok: false, key: "AVENTURE.Request.replayed", data: {} });
    expect(damageCalls(actor)).toHaveLength(1);
    // 30 requests at once (under 3 m: no dice): the GM handles at most 20 per 10 s from one user.
    const replies = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        forgeRequest(world, "p1", "fall", { sceneId: "s1", tokenId: "t1", metres: 1 }, `floodId${i}xxxxx`),
      ),
    );
    const refused = replies.filter(
      (r) =>
        (r as { key?: string }).key === "AVENTURE.Request.flood" ||
        (r as { key?: string }).key === "AVENTURE.Request.busy",
    );
    expect(refused.length).toBeGreaterThanOrEqual(10);
    expect(replies.filter((r) => (r as { ok?: boolean }).ok).length).toBeLessThanOrEqual(19);
  });

  it("where the system has no damage API: a pending card; Apply damage writes the hit points and prone once", async () => {
    const actor = hero(world, { noDamageApi: true });
    place(world, scene, actor);
    world.queueRolls(4, 3, 1);
    expect(await api(world).fall(actor, 10)).toMatchObject({ dice: 3, total: 8, applied: false, prone: false });
    const [card] = cards(world);
    expect(fallFlag(card!)).toMatchObject({ status: "pending", damage: 8, ref: { actorId: "hero" } });
    const html = world.renderMessage(card!, "gm2");
    world.click("gm2", html.querySelector("[data-action='aventure-apply-fall']"));
    await world.settle();
    expect(hp(actor).value).toBe(12);
    expect(actor.statuses.has("prone")).toBe(true);
    expect(fallFlag(card!)).toMatchObject({
      status: "applied",
      manual: { path: "system.attributes.hp.value", after: 12 },
    });
    expect(world.notifications).toEqual([
      { user: "gm2", type: "info", message: "Fall damage applied to Aldric: 8 hit points." },
    ]);
    expect(world.renderMessage(card!, "gm1").querySelector("[data-action='aventure-apply-fall']")).toBeNull();
  });

  it("the Apply damage button: GMs only, and only on a card a GM wrote (a player's forged card gets none and is refused)", async () => {
    const actor = hero(world, { noDamageApi: true });
    place(world, scene, actor);
    world.queueRolls(4, 3, 1);
    await api(world).fall(actor, 10);
    const [card] = cards(world);
    expect(world.renderMessage(card!, "p1").querySelector("[data-action='aventure-apply-fall']")).toBeNull();
    expect(world.renderMessage(card!, "gm2").querySelector("[data-action='aventure-apply-fall']")).not.toBeNull();
    // A player's message carrying a pending fall card's flags, for 50 damage to the GM's creature.
    const forged = (await world.as("p1", () =>
      ChatMessage.implementation.create({
        content: card!.content,
        flags: { aventure: { fall: { ...fallFlag(card!), damage: 50 } } },
      } as never),
    )) as unknown as FakeChatMessage;
    expect(world.renderMessage(forged, "gm1").querySelector("[data-action='aventure-apply-fall']")).toBeNull();
    expect(await forgeRequest(world, "gm2", "fallApply", { messageId: forged.id })).toMatchObject({
      ok: false,
      key: "AVENTURE.Movement.Fall.notPending",
    });
    expect(await forgeRequest(world, "p1", "fallApply", { messageId: card!.id })).toMatchObject({
      ok: false,
      key: "AVENTURE.Error.GMOnly",
    });
    for (const bad of [{ messageId: 42 }, { messageId: "nope" }, {}, null]) {
      expect(await forgeRequest(world, "gm2", "fallApply", bad)).toMatchObject({
        ok: false,
        key: "AVENTURE.Movement.Fall.notPending",
      });
    }
    expect(hp(actor).value).toBe(20);
    expect(actor.statuses.has("prone")).toBe(false);
    expect(fallFlag(card!)).toMatchObject({ status: "pending" });
  });

  it("the card is a ChatMessage of the sub-type aventure.fall: its state is the system, nothing in the flags", async () => {
    const actor = hero(world, { noDamageApi: true });
    place(world, scene, actor);
    world.queueRolls(4, 3, 1);
    await api(world).fall(actor, 10);
    const [card] = cards(world);
    expect(card!.type).toBe("aventure.fall");
    expect((card!.flags.aventure as { fall?: unknown } | undefined)?.fall).toBeUndefined();
    expect(card!.systemSource).toMatchObject({ v: 2, status: "pending", damage: 8, executor: null, problems: [] });
  });

  it("attack: a player's own aventure.fall message with valid-looking state gets no button, its Apply is refused, nothing changes", async () => {
    const actor = hero(world, { noDamageApi: true });
    place(world, scene, actor);
    world.queueRolls(4, 3, 1);
    await api(world).fall(actor, 10);
    const [card] = cards(world);
    const forged = (await world.as("p1", () =>
      ChatMessage.implementation.create({
        content: card!.content,
        type: "aventure.fall",
        system: { ...fallFlag(card!), damage: 50 },
      } as never),
    )) as unknown as FakeChatMessage;
    expect(forged.type).toBe("aventure.fall");
    expect(forged.systemSource.damage).toBe(50); // the schema takes it: only its author makes it untrusted
    for (const user of ["gm1", "gm2", "p1"])
      expect(world.renderMessage(forged, user).querySelector("[data-action='aventure-apply-fall']"), user).toBeNull();
    const writes = world.writes.length;
    expect(await forgeRequest(world, "gm2", "fallApply", { messageId: forged.id })).toMatchObject({
      ok: false,
      key: "AVENTURE.Movement.Fall.notPending",
    });
    expect(world.writes.slice(writes).filter((w) => w.documentName !== "ChatMessage")).toEqual([]);
    expect(hp(actor).value).toBe(20);
    expect(forged.systemSource.status).toBe("pending");
  });

  it("a fall card of an earlier version (a GM's base message, its state in flags.aventure.fall) still shows its button and applies once", async () => {
    const actor = hero(world, { noDamageApi: true });
    place(world, scene, actor);
    const state = {
      v: 2,
      status: "pending",
      ref: { actorId: "hero" },
      name: "Aldric",
      metres: 10,
      dice: 3,
      damage: 8,
      source: "api",
      hpBefore: { value: 20, temp: 0 },
      manual: null,
      applied: false,
      prone: false,
    };
    const content = `<div class="aventure"><button data-action="aventure-apply-fall">Apply</button></div>`;
    const old = world.addMessage({ author: "gm1", content, flags: { aventure: { fall: state } } });
    expect(old.type).toBe("base");
    // A version 1 card (before 0.2): read as pending through the model's migrateData.
    const v1 = world.addMessage({
      author: "gm1",
      content,
      flags: { aventure: { fall: { pending: true, damage: 6, name: "Aldric", actorId: "hero" } } },
    });
    expect(world.renderMessage(v1, "gm2").querySelector("[data-action='aventure-apply-fall']")).not.toBeNull();
    const html = world.renderMessage(old, "gm2");
    world.click("gm2", html.querySelector("[data-action='aventure-apply-fall']"));
    await world.settle();
    expect(hp(actor).value).toBe(12);
    expect(old.type).toBe("base");
    expect((old.flags.aventure as { fall: Record<string, unknown> }).fall).toMatchObject({
      status: "applied",
      manual: { path: "system.attributes.hp.value", after: 12 },
    });
    expect(world.renderMessage(old, "gm1").querySelector("[data-action='aventure-apply-fall']")).toBeNull();
    // The old card written by a player gets nothing, as before.
    const forgedOld = world.addMessage({ author: "p1", content, flags: { aventure: { fall: state } } });
    expect(world.renderMessage(forgedOld, "gm1").querySelector("[data-action='aventure-apply-fall']")).toBeNull();
  });

  it("Apply damage clicked by two GMs at once: the active GM applies it once, the other is told it was done", async () => {
    const actor = hero(world, { noDamageApi: true });
    place(world, scene, actor);
    world.queueRolls(4, 3, 1);
    await api(world).fall(actor, 10);
    const [card] = cards(world);
    const b2 = world.renderMessage(card!, "gm2").querySelector("[data-action='aventure-apply-fall']");
    const b1 = world.renderMessage(card!, "gm1").querySelector("[data-action='aventure-apply-fall']");
    world.click("gm2", b2);
    world.click("gm1", b1);
    expect((b1 as HTMLButtonElement).disabled && (b2 as HTMLButtonElement).disabled).toBe(true); // disabled while it runs
    await world.settle();
    expect((b1 as HTMLButtonElement).disabled || (b2 as HTMLButtonElement).disabled).toBe(false);
    const hpWrites = world.writes.filter((w) => w.documentName === "Actor" && JSON.stringify(w.data).includes('"hp"'));
    expect(hpWrites).toHaveLength(1);
    expect(hpWrites[0]!.user).toBe("gm1"); // the active GM wrote it
    expect(hp(actor).value).toBe(12);
    expect(world.notifications.map((n) => [n.user, n.type]).sort()).toEqual(
      [
        ["gm1", "info"],
        ["gm2", "error"],
      ].sort(),
    );
  });

  it("prone only when hit points went down: an immune creature takes the damage call but is not prone", async () => {
    const actor = hero(world, { immune: true });
    place(world, scene, actor);
    world.queueRolls(3, 4, 4);
    expect(await api(world).fall(actor, 9)).toMatchObject({ total: 11, applied: true, prone: false });
    expect(damageCalls(actor)).toEqual([[{ value: 11, type: "bludgeoning" }]]);
    expect(actor.statuses.has("prone")).toBe(false);
    expect(cards(world)[0]!.content).not.toContain("Aldric is prone.");
  });

  it("temporary hit points lost count as damage taken (dnd5e)", async () => {
    const actor = hero(world, { temp: 10 });
    world.queueRolls(1, 1, 1);
    expect(await api(world).fall(actor, 9)).toMatchObject({ total: 3, prone: true });
    expect(hp(actor)).toMatchObject({ value: 20, temp: 7 });
  });

  it("a fall under 3 m posts a card without dice", async () => {
    const actor = hero(world);
    await api(world).fall(actor, 2.5);
    expect(world.rollsMade).toEqual([]);
    expect(damageCalls(actor)).toEqual([]);
    expect(cards(world)[0]!.content).toContain("Under 3 m: no damage.");
  });
});

describe("falls: exactly once across a crash at any write (recovery on ready)", () => {
  /**
   * A player's 9 m fall (3 + 4 + 4 = 11 damage); the active GM's client crashes just before its k-th write. gm2 takes
   * over as active GM (userConnected), then gm1 reloads. Whatever k, afterwards: either nothing happened and the player
   * was told, or the damage and prone are applied exactly once and the card says applied.
   */
  async function crashRun(k: number) {
    const { world, scene } = await boot();
    const actor = hero(world, { owner: "p1" });
    const token = place(world, scene, actor);
    world.queueRolls(3, 4, 4, 3, 4, 4);
    world.crashAt(k, (w) => w.user === "gm1");
    expectRequestCrashLogs(k, 5); // the fall's run: its writes 2 to 5
    const result = await asUser(world, "p1", (a) => a.fall(token, 9));
    await world.settle({ allowErrors: true });
    if (!world.clientOf("gm2")) throw new Error("gm2 should be connected");
    if (!world.clients.get("gm1")?.alive) await world.reload("gm1");
    await world.settle();
    return { world, actor, result };
  }

  it("counts the active GM's writes of one fall (so the loop below covers every crash point)", async () => {
    const { world, scene } = await boot();
    const token = place(world, scene, hero(world, { owner: "p1" }));
    world.queueRolls(3, 4, 4);
    const mark = world.writes.length;
    await asUser(world, "p1", (a) => a.fall(token, 9));
    await world.settle();
    // receipt (working), card (applying), hit points, prone effect, card (applied), receipt (reply), delete the
    // request, delete the receipt
    expect(
      world
        .writesSince(mark)
        .filter((w) => w.user === "gm1")
        .map((w) => `${w.action} ${w.documentName}`),
    ).toEqual([
      "create ChatMessage",
      "create ChatMessage",
      "update Actor",
      "create ActiveEffect",
      "update ChatMessage",
      "update ChatMessage",
      "delete ChatMessage",
      "delete ChatMessage",
    ]);
  });

  for (let k = 1; k <= 8; k++) {
    it(`crash before the active GM's write ${k}: applied once or reported, never twice`, async () => {
      const { world, actor, result } = await crashRun(k);
      const fallCards = cards(world);
      const proneEffects = actor.effects.filter((e) => e.statuses.has("prone"));
      expect(fallCards.length).toBeLessThanOrEqual(1);
      if (fallCards.length === 0) {
        // Nothing was done: the damage is not applied and the player was told the request was interrupted.
        expect(hp(actor).value).toBe(20);
        expect(proneEffects).toEqual([]);
        expect(result).toBeUndefined();
        expect(errors(world, "p1")).toEqual([world.as("p1", () => game.i18n.localize("AVENTURE.Request.interrupted"))]);
      } else {
        expect(hp(actor).value).toBe(9); // 20 − 11, once
        // One write of the hit points reached the server (a call made just before a crash never did).
        expect(
          world.writes.filter((w) => w.documentName === "Actor" && JSON.stringify(w.data).includes('"hp"')),
        ).toHaveLength(1);
        expect(proneEffects).toHaveLength(1);
        expect(proneEffects[0]!.getFlag("aventure", "applied")).toBe(true); // Aventure's own, flagged in the same write
        expect(fallFlag(fallCards[0]!)).toMatchObject({ status: "applied", prone: true });
      }
      expect(requests(world)).toEqual([]); // no request left behind
      expect(
        world.messages.filter((m) => (m.flags.aventure as { receipt?: unknown } | undefined)?.receipt !== undefined),
      ).toEqual([]);
    });
  }

  it("Apply damage by hand: a crash before any of its writes still ends with the hit points written once", async () => {
    expectCrashLog("request failed"); // the GM's own Apply, stopped
    for (let k = 1; k <= 4; k++) {
      const { world, scene } = await boot();
      const actor = hero(world, { noDamageApi: true });
      place(world, scene, actor);
      world.queueRolls(4, 3, 1);
      await api(world).fall(actor, 10);
      const [card] = cards(world);
      world.crashAt(
        k,
        (w) => (w.user === "gm1" && w.documentName !== "ChatMessage") || (w.user === "gm1" && w.id === card!.id),
      );
      await world.as("gm1", () =>
        (world.renderMessage(card!, "gm1").querySelector("[data-action='aventure-apply-fall']") as HTMLElement).click(),
      );
      await world.settle({ allowErrors: true });
      if (!world.clients.get("gm1")?.alive) await world.reload("gm1");
      await world.settle();
      const status = fallFlag(card!).status;
      if (status === "pending")
        expect(hp(actor).value).toBe(20); // crashed before marking it: nothing done, still offered
      else {
        expect(status, `k=${k}`).toBe("applied");
        expect(hp(actor).value, `k=${k}`).toBe(12);
        expect(actor.effects.filter((e) => e.statuses.has("prone"))).toHaveLength(1);
      }
    }
  });
});

describe("jump panel and HUD buttons", () => {
  it("adds the Jumps and Fall buttons to the token HUD of the token's owner", async () => {
    const { world, scene } = await boot();
    const token = place(world, scene, hero(world, { owner: "p1" }));
    const actionsOf = (user: string) =>
      [...world.renderTokenHUD(token, user).querySelectorAll("[data-action]")].map(
        (b) => (b as HTMLElement).dataset.action,
      );
    expect(actionsOf("p1")).toEqual(expect.arrayContaining(["aventure-jumps", "aventure-fall"]));
    expect(actionsOf("p2")).toEqual([]); // not the owner
  });

  it("shows dnd5e jumps for Strength 15 (+2): long 5 m / 2.5 m, high 1.67 m / 0.83 m", async () => {
    const { world, scene } = await boot({ users: [GM] });
    const token = place(world, scene, hero(world));
    await world.as("gm1", async () => {
      world.clientOf("gm1").controlled.push(token.id);
      await api(world).showJumps();
    });
    const html = world.window.document.querySelector(".aventure-jumps")!.innerHTML.replace(/\s+/g, " ");
    expect(html).toContain('<th scope="row">Long jump</th> <td>5 m</td> <td>2.5 m</td>');
    // 1 m + 2/3 m = 1.667 m, shown to the tenth as the table reads.
    expect(html).toContain('<th scope="row">High jump</th> <td>1.7 m</td> <td>0.8 m</td>');
    expect(html).toContain("Landing in difficult terrain: Dexterity (Acrobatics) DC 10");
    // The height typed with a comma (as French writes it) is read: reach 1.667 + 1.5 × 1.5 = 3.9 m.
    const input = world.window.document.querySelector('.aventure-jumps [name="height"]') as unknown as HTMLInputElement;
    input.value = "1,5";
    input.dispatchEvent(new (world.window.Event as unknown as typeof Event)("change", { bubbles: true }) as never);
    await world.settle();
    const after = world.window.document.querySelector(".aventure-jumps")!.innerHTML.replace(/\s+/g, " ");
    expect(after).toContain('<th scope="row">Reach (arms raised)</th> <td>3.9 m</td>');
    expect(
      (world.window.document.querySelector('.aventure-jumps [name="height"]') as unknown as HTMLInputElement).value,
    ).toBe("1.5");
  });

  it("the fall dialog makes each token fall; its card says whether it came from the HUD or a macro", async () => {
    const { world, scene } = await boot();
    const token = place(world, scene, hero(world, { owner: "p1" }));
    world.queueRolls(2, 2);
    await world.as("p1", async () => {
      world.clientOf("p1").controlled.push(token.id);
      await api(world, "p1").fallDialog();
    });
    const form = world.window.document.querySelector("form.aventure-fall") as unknown as HTMLFormElement;
    (form.querySelector("[name=metres]") as HTMLInputElement).value = "3";
    form.dispatchEvent(new (world.window.Event as unknown as typeof Event)("submit", { cancelable: true }));
    await world.settle();
    expect(cards(world).at(-1)!.content).toContain(
      world.as("gm1", () => game.i18n.localize("AVENTURE.Movement.Fall.source.api")),
    );
  });

  it("api.showJumps and api.fallDialog ask for a token when none is selected", async () => {
    const { world } = await boot({ users: [GM] });
    await api(world).showJumps();
    await api(world).fallDialog();
    expect(world.notifications).toEqual([
      { user: "gm1", type: "error", message: "Select a token first." },
      { user: "gm1", type: "error", message: "Select a token first." },
    ]);
  });
});

describe("falls of a token hidden by the GM (issue 20 item 7)", () => {
  it("the fall card (and its roll) goes to the GMs only while the token is hidden; a visible token's fall stays public", async () => {
    const { world, scene } = await boot();
    const actor = hero(world, { owner: "p1" });
    const token = world.addToken(scene, {
      _id: "t1",
      name: "Aldric",
      actorId: actor.id,
      actorLink: true,
      x: 0,
      y: 0,
      elevation: 0,
      hidden: true,
    });
    world.queueRolls(3, 4, 4);
    expect(await asUser(world, "gm1", (a) => a.fall(token, 9))).toMatchObject({ dice: 3, total: 11 });
    const [card] = cards(world);
    expect(card!.whisper.sort()).toEqual(["gm1", "gm2"]);
    expect(card!.rolls).toHaveLength(1);
    for (const p of ["p1", "p2"])
      expect(world.visibleMessages(p).filter((m) => cardOf(m, "fall") !== undefined)).toEqual([]);
    // Shown again: its next fall is public, as before.
    await world.as("gm1", () => token.update({ hidden: false }));
    world.queueRolls(2, 2, 2);
    await asUser(world, "p1", (a) => a.fall(token, 9));
    await world.settle();
    expect(cards(world).at(-1)!.whisper).toEqual([]);
  });
});
