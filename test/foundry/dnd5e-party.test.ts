/**
 * Travel with the dnd5e party (group actor): its creature members are the travellers, its pace is chosen, its
 * vehicles are offered (the primary one chosen), from the token HUD of its token, from a button on its sheet, or
 * api.openTravel({groupId}); the journey card lists the members. The group's data is dnd5e's (test/world/systems.ts
 * addDnd5eGroup, addDnd5eVehicle: dnd5e 5.3.3 module/data/actor/group.mjs, vehicle.mjs, fields/travel-field.mjs).
 * Distances from RULES.md §2.1 (fast: 45 km a day), §2.5 (a boat at its own speed; a land vehicle at normal pace).
 */
import { describe, expect, it, vi } from "vitest";
import {
  addDnd5eActor,
  addDnd5eGroup,
  addDnd5eVehicle,
  bootWorld,
  GM,
  PLAYER,
  viewScene,
  type FakeActor,
  type FakeWorld,
} from "../world/index.js";
import type { TravelRequest } from "../../src/travel/request.js";

vi.setConfig({ testTimeout: 30_000 });

interface Dialog {
  formState: {
    pace: string;
    mode: string;
    speed: string;
    members: { actorId: string; name: string }[];
    party?: {
      name: string;
      vehicle: string;
      vehicles: { actorId: string; mode: string; speedKmh: number | null }[];
    } | null;
  };
  request: TravelRequest | null;
  change(name: string, value: string | boolean): Promise<unknown>;
  apply(): Promise<{ ok: boolean } | null>;
}
type Api = { openTravel(o?: { actorIds?: string[]; groupId?: string }): Promise<Dialog> };

async function boot(users: { id: string; isGM: boolean }[] = [GM]) {
  const world = await bootWorld({ system: "dnd5e", users });
  const scene = world.addScene({ _id: "s1", grid: { size: 100, units: "m", distance: 1.5 } });
  for (const c of world.liveClients()) viewScene(world, c, scene);
  world.worldTime = 0;
  const hero = (id: string, name: string, type = "character") =>
    addDnd5eActor(world, { id, name, type, abilities: { con: 12 }, ownership: { p1: 3 } });
  const aria = hero("aria", "Aria");
  const bram = hero("bram", "Bram");
  const pony = hero("pony", "Pony", "npc");
  addDnd5eVehicle(world, { id: "heron", name: "Heron", type: "water", speed: 4, units: "mph" });
  addDnd5eVehicle(world, { id: "cart", name: "Cart", type: "land" });
  // A missing actor, a duplicate and another group are dropped by dnd5e's prepareBaseData, and by Aventure.
  addDnd5eGroup(world, { id: "other", name: "Others", members: [] });
  const party = addDnd5eGroup(world, {
    id: "party",
    name: "Fellowship",
    members: ["aria", "bram", "pony", "heron", "cart", "ghost", "aria", "other"],
    pace: "fast",
    primaryVehicle: null,
    ownership: { p1: 3 },
  });
  return { world, scene, party, aria, bram, pony };
}
const api = (world: FakeWorld, user = "gm1") => world.api<Api>(user);
const open = async (world: FakeWorld, o: { actorIds?: string[]; groupId?: string }, user = "gm1") =>
  await world.as(user, () => api(world, user).openTravel(o));
const windows = (world: FakeWorld) =>
  [...world.window.document.querySelectorAll(".aventure-travel")] as unknown as HTMLElement[];
const callAll = (name: string, ...args: unknown[]) =>
  (Hooks.callAll as unknown as (name: string, ...a: unknown[]) => boolean)(name, ...args);

describe("Travel with the dnd5e party", () => {
  it("api.openTravel({groupId}): the creature members travel (vehicles, missing actors, duplicates and groups left out), at the party's pace", async () => {
    const { world } = await boot();
    const d = await open(world, { groupId: "party" });
    await world.settle();
    expect(d.formState.members.map((m) => m.actorId)).toEqual(["aria", "bram", "pony"]);
    expect(d.formState.pace).toBe("fast");
    expect(d.formState.mode).toBe("foot"); // no primary vehicle: on foot
    expect(d.formState.party).toMatchObject({
      name: "Fellowship",
      vehicle: "",
      vehicles: [
        { actorId: "heron", mode: "boat", speedKmh: 6 },
        { actorId: "cart", mode: "vehicle", speedKmh: null },
      ],
    });
    const el = windows(world)[0]!;
    expect(el.querySelector(".aventure-travel-group")!.textContent!.replace(/\s+/g, " ").trim()).toBe(
      "Party: Fellowship · pace set on the party: Fast",
    );
    expect(
      [...el.querySelectorAll<HTMLOptionElement>("select[name='partyVehicle'] option")].map((o) => o.textContent),
    ).toEqual(["On foot", "Heron (boat)", "Cart (land vehicle)"]);
    // A day at fast pace: 45 km (RULES.md §2.1), not dnd5e's 30 miles.
    await d.change("amount", "1");
    expect(d.request).toMatchObject({
      pace: "fast",
      mode: "foot",
      duration: 86400,
      members: [{ actorId: "aria" }, { actorId: "bram" }, { actorId: "pony" }],
    });
  });

  it("the primary vehicle is chosen: a boat sails at its own speed (4 mph → 6 km/h at the module's 1.5 km a mile); another vehicle can be picked, or none", async () => {
    const { world } = await boot();
    const withBoat = addDnd5eGroup(world, {
      id: "crew",
      name: "Crew",
      members: ["aria", "heron"],
      primaryVehicle: "heron",
    });
    const d = await open(world, { groupId: withBoat.id });
    expect(d.formState).toMatchObject({ mode: "boat", speed: "6", party: { vehicle: "heron" } });
    expect(d.request).toMatchObject({ mode: "boat", speedKmh: 6, members: [{ actorId: "aria" }] });
    await d.change("partyVehicle", "");
    expect(d.formState).toMatchObject({ mode: "foot", party: { vehicle: "" } });
    const p = await open(world, { groupId: "party" });
    await p.change("partyVehicle", "cart");
    expect(p.request).toMatchObject({ mode: "vehicle", pace: "fast" });
    await p.change("partyVehicle", "nope"); // not a vehicle of the party: nothing changes
    expect(p.formState.party!.vehicle).toBe("cart");
  });

  it("dnd5e slows the party when a member is slowed (getTravelPace): Aventure takes that pace; a 4.x–5.1 group's pace is read from attributes.movement", async () => {
    const { world, bram } = await boot();
    (bram.system.attributes as { movement: Record<string, unknown> }).movement.slowed = true;
    expect((await open(world, { groupId: "party" })).formState.pace).toBe("slow");
    addDnd5eGroup(world, { id: "old", name: "Old band", members: ["aria"], pace: "slow", legacy: true });
    expect((await open(world, { groupId: "old" })).formState).toMatchObject({
      pace: "slow",
      members: [{ actorId: "aria" }],
    });
  });

  it("the token HUD of the party's token opens it for the party (its members, its pace)", async () => {
    const { world, scene } = await boot();
    const token = world.addToken(scene, {
      _id: "tp",
      name: "Fellowship",
      actorId: "party",
      actorLink: true,
      x: 0,
      y: 0,
    });
    const hud = world.renderTokenHUD(token, "gm1");
    world.click("gm1", hud.querySelector(".aventure-hud-toggle"));
    world.click("gm1", hud.querySelector("[data-action='aventure-travel']"));
    await world.settle();
    const el = windows(world)[0]!;
    expect([...el.querySelectorAll(".aventure-travel-group")]).toHaveLength(1);
    expect(el.textContent).toContain("Aria");
    expect(el.textContent).toContain("Pony");
    expect(el.querySelector<HTMLSelectElement>("select[name='pace']")!.value).toBe("fast");
  });

  it("a Travel button on the party's sheet (renderGroupActorSheet), once, for a GM or an owner; none on another sheet or for a player who does not own it", async () => {
    const { world } = await boot([GM, PLAYER, { id: "p2", isGM: false }]);
    const sheet = (user: string, actorId: string) => {
      const el = world.window.document.createElement("div");
      el.innerHTML = `<header class="window-header"><h1 class="window-title">Sheet</h1><button type="button" data-action="close"></button></header><section class="window-content"></section>`;
      const app = { actor: world.actors.get(actorId) };
      world.as(user, () => callAll("renderGroupActorSheet", app, el, {}, {}));
      world.as(user, () => callAll("renderGroupActorSheet", app, el, {}, {})); // a re-render: still one button
      return el as unknown as HTMLElement;
    };
    const gm = sheet("gm1", "party");
    const buttons = gm.querySelectorAll<HTMLButtonElement>("[data-action='aventure-party-travel']");
    expect(buttons).toHaveLength(1);
    expect(buttons[0]!.nextElementSibling?.getAttribute("data-action")).toBe("close");
    expect(buttons[0]!.getAttribute("aria-label")).toBe("Travel with this party");
    world.click("gm1", buttons[0]!);
    await world.settle();
    expect(windows(world)).toHaveLength(1);
    expect(sheet("p1", "party").querySelectorAll("[data-action='aventure-party-travel']")).toHaveLength(1);
    expect(sheet("p2", "party").querySelectorAll("[data-action='aventure-party-travel']")).toHaveLength(0);
    expect(sheet("gm1", "aria").querySelectorAll("[data-action='aventure-party-travel']")).toHaveLength(0);
  });

  it("the journey card lists the party's members, and each member's journey is applied once", async () => {
    const { world, aria, bram, pony } = await boot();
    const d = await open(world, { groupId: "party" });
    await d.change("hoursPerDay", "8");
    expect(await world.as("gm1", () => d.apply())).toMatchObject({ ok: true });
    await world.settle();
    const card = world.messages.contents.at(-1)!;
    for (const name of ["Aria", "Bram", "Pony"]) expect(card.content).toContain(name);
    expect(card.content).not.toContain("Heron");
    expect(world.worldTime).toBe(86400);
    const levels = (a: FakeActor) => (a.system.attributes as { exhaustion: number }).exhaustion;
    expect([aria, bram, pony].map(levels)).toEqual([0, 0, 0]);
  });

  it("an id that names no party: a clear message, no window", async () => {
    const { world } = await boot();
    await expect(open(world, { groupId: "aria" })).rejects.toThrow(/NotAParty/);
    await world.settle();
    expect(windows(world)).toHaveLength(0);
  });
});
