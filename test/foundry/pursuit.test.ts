/**
 * The Pursuit dialog and the chase glue, through the strict fake: groups prefilled from the selected tokens,
 * a seeded multi-day chase with queued dice, dungeon flights, the running exhaustion effect (v13 and v14
 * shapes), two GMs connected, players limited to their own tokens, bad input changing nothing, and a chase
 * resumed from the chat log.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { FakeActor, type FakeWorld } from "../fake/foundry.js";
import { enableEffects, FakeCardElement, installPursuitFake, type FakeDispositionToken, type FakeEffect, type PursuitFake } from "../fake/pursuit.js";
import { fixedDice, pursuitLogDice, replayPursuit, seededDice, recordingDice, startPursuit, type PursuitState } from "../../src/rules/index.js";
import type { ChaseRecord } from "../../src/apps/pursuit-context.js";
import { bootWithCombat, type CombatWorld } from "../fake/combat.js";

type DialogModule = typeof import("../../src/apps/PursuitDialog.js");
type ChaseModule = typeof import("../../src/foundry/pursuit/chase.js");

const USERS = [
  { id: "gm1", isGM: true },
  { id: "gm2", isGM: true },
  { id: "p1", isGM: false },
  { id: "p2", isGM: false },
];

interface Ctx {
  world: FakeWorld;
  cw: CombatWorld;
  fake: PursuitFake;
  D: DialogModule;
  C: ChaseModule;
  heroes: FakeDispositionToken[];
  goblins: FakeDispositionToken[];
  actors: Record<string, FakeActor>;
  effects: Record<string, FakeEffect[]>;
}

function dnd(walkFt: number) {
  return { attributes: { movement: { walk: walkFt, units: "ft" }, hp: { value: 10, max: 10 } } };
}

async function setup(opts: { ruleset?: string; generation?: number; lang?: "en" | "fr"; current?: string; systemId?: string } = {}): Promise<Ctx> {
  const cw = await bootWithCombat({ systemId: opts.systemId ?? "dnd5e", users: USERS, generation: opts.generation ?? 13, lang: opts.lang ?? "en", current: opts.current });
  const world = cw.world;
  await world.asUser("gm1", () => world.game.settings.set("aventure", "ruleset", opts.ruleset ?? "pmt"));
  const fake = installPursuitFake(world);
  const actors: Record<string, FakeActor> = {
    aldric: world.addActor({ _id: "aldric", name: "Aldric", system: dnd(30) }, { p1: 3 }),
    brune: world.addActor({ _id: "brune", name: "Brune", system: dnd(25) }, { p1: 3 }),
    cyril: world.addActor({ _id: "cyril", name: "Cyril", system: dnd(30) }, { p2: 3 }),
    gob: world.addActor({ _id: "gob", name: "Gobelin", type: "npc", system: dnd(40) }),
  };
  const effects: Record<string, FakeEffect[]> = {};
  for (const [k, a] of Object.entries(actors)) effects[k] = enableEffects(world, a);
  const heroes = [
    fake.addToken({ id: "tA", name: "Aldric", disposition: 1, actor: actors.aldric }),
    fake.addToken({ id: "tB", name: "Brune", disposition: 1, actor: actors.brune }),
    fake.addToken({ id: "tC", name: "Cyril", disposition: 1, actor: actors.cyril }),
  ];
  const goblins = [
    fake.addToken({ id: "g1", name: "Gobelin 1", disposition: -1, actor: actors.gob }),
    fake.addToken({ id: "g2", name: "Gobelin 2", disposition: -1, actor: actors.gob }),
  ];
  const D = await import("../../src/apps/PursuitDialog.js");
  const C = await import("../../src/foundry/pursuit/chase.js");
  return { world, cw, fake, D, C, heroes, goblins, actors, effects };
}

/** The HTML the fake ApplicationV2 rendered last. */
function html(app: object): string {
  return (app as { lastHTML: string }).lastHTML;
}

function cards(world: FakeWorld): ChaseRecord[] {
  return world.messages.map((m) => (m.flags as { aventure?: { pursuit?: ChaseRecord } } | undefined)?.aventure?.pursuit).filter((r): r is ChaseRecord => !!r);
}

function errors(world: FakeWorld): string[] {
  return world.notifications.filter((n) => n.type === "error").map((n) => n.message);
}

/** Snapshot of everything a chase step may change. */
function snapshot(c: Ctx) {
  return {
    messages: c.world.messages.length,
    rolls: c.world.rolls.made.length,
    queue: c.world.rolls.queue.length,
    time: c.world.worldTime,
    effects: Object.values(c.effects).reduce((n, e) => n + e.length, 0),
  };
}

describe("Pursuit dialog: groups and preview", () => {
  let c: Ctx;
  beforeEach(async () => {
    c = await setup();
  });

  it("prefills the two groups from the selected tokens by disposition, with speeds in metres from the adapter", async () => {
    c.fake.select(c.heroes[0]!, c.heroes[1]!, c.goblins[0]!, c.goblins[1]!);
    const dialog = new c.D.PursuitDialog();
    const s = dialog.setup;
    expect(s.sceneId).toBe("scene1");
    expect(s.groups.party).toEqual({ count: 2, speed: 7.5, tokenIds: ["tA", "tB"], names: ["Aldric", "Brune"] }); // 25 ft × 0.3 = 7.5 m (slowest)
    expect(s.groups.opponents).toEqual({ count: 2, speed: 12, tokenIds: ["g1", "g2"], names: ["Gobelin 1", "Gobelin 2"] }); // 40 ft = 12 m
    expect(s.fleeingSide).toBe("party");
    await dialog.render();
    expect(html(dialog)).toContain("Aldric, Brune");
    expect(html(dialog)).toContain('value="7.5"');
  });

  it("neutral and secret tokens join the opponents; an encounter can prefill place, surprise and reaction", async () => {
    const neutral = c.fake.addToken({ id: "n1", name: "Marchand", disposition: 0, actor: null });
    const secret = c.fake.addToken({ id: "s1", name: "Ombre", disposition: -2, actor: null });
    const dialog = new c.D.PursuitDialog({ tokens: [c.heroes[0]!, neutral, secret] as never, place: "outdoors", surprise: "pursuers", reactionTotal: 9 });
    const s = dialog.setup;
    expect(s.groups.party.names).toEqual(["Aldric"]);
    expect(s.groups.opponents.names).toEqual(["Marchand", "Ombre"]);
    expect(s.groups.opponents.speed).toBeNaN(); // no actor: no speed, to be typed in
    expect([s.place, s.surprise, s.reactionTotal]).toEqual(["outdoors", "pursuers", 9]);
    await dialog.render();
    expect(html(dialog)).toContain('name="groups.opponents.speed" value=""');
  });

  it("shows the chance with the band used (RULES.md §8.2 worked examples), updating as fields change", async () => {
    const dialog = new c.D.PursuitDialog({ tokens: [] });
    await dialog.change("place", "outdoors");
    await dialog.change("groups.party.count", "4");
    await dialog.change("groups.party.speed", "9");
    await dialog.change("groups.opponents.count", "1");
    await dialog.change("groups.opponents.speed", "12");
    expect(html(dialog)).toContain("Chance to escape: 50 %");
    expect(html(dialog)).toContain("Column 1 (pursuers up to 25 % of the fleeing group): +0.");
    await dialog.change("groups.opponents.count", "2");
    expect(html(dialog)).toContain("Chance to escape: 70 %");
    expect(html(dialog)).toContain("Column 2 (pursuers above 25 % and up to 75 % of the fleeing group): +20.");
    await dialog.change("woods", true);
    await dialog.change("woodsBonus", "25");
    expect(html(dialog)).toContain("Chance to escape: 95 %");
    await dialog.change("twiceFast", true);
    expect(html(dialog)).toContain("Chance to escape: 75 %"); // 70 + 25 − 20
    expect(html(dialog)).toContain("The pursuers are faster");
    await dialog.change("groups.party.count", "abc");
    expect(html(dialog)).toContain("Expected a number for fleeing group");
  });

  it("the token HUD offers Pursuit to the token's owners (players included)", async () => {
    const { hudButtons } = await import("../../src/foundry/token-hud.js");
    const b = hudButtons().find((x) => x.id === "pursuit");
    expect(b).toBeDefined();
    expect(b!.gmOnly).toBeFalsy();
    expect(b!.column).toBe("right");
  });

  it("api.openPursuit is exposed", async () => {
    const api = c.world.modules.get("aventure")!.api as { openPursuit: unknown };
    expect(typeof api.openPursuit).toBe("function");
  });
});

describe("outdoor chase through the glue", () => {
  it("a seeded multi-day chase with queued dice gives the expected log, one card per day with its rolls", async () => {
    const c = await setup();
    // Find a seed whose chase lasts at least four days (deterministic), and its dice.
    const initial: PursuitState = startPursuit({ fleeing: 4, pursuers: 2, pursuersFaster: true });
    let seed = 0;
    let expected: PursuitState;
    do {
      seed++;
      expected = await replayPursuit(initial, recordingDice(seededDice(seed)), 100);
    } while (expected.day < 4);
    const dice = pursuitLogDice(expected.log);
    c.world.rolls.push(...dice);

    c.fake.select(c.heroes[0]!, c.heroes[1]!, c.goblins[0]!, c.goblins[1]!);
    const dialog = new c.D.PursuitDialog();
    await dialog.change("place", "outdoors");
    await dialog.change("groups.party.count", "4");
    let record = await dialog.start();
    while (record && !record.over) record = await dialog.nextDay();
    expect(errors(c.world)).toEqual([]);
    expect(record!.outdoors!.log).toEqual(expected.log);
    expect(record!.outdoors!.day).toBe(expected.day);
    // Every day: 70 % (4 fleeing, 2 pursuers: column 2), pursuers faster (12 m > 7.5 m) so a catch roll follows each failure.
    for (const day of record!.outdoors!.log) {
      expect(day.chance).toBe(70);
      expect(day.band).toBe(2);
      expect(day.catchRoll === null).toBe(day.evasionRoll! <= 70);
    }
    // One card per day, each with its d100 rolls attached (Dice So Nice animates them), in order.
    const posted = cards(c.world);
    expect(posted.map((r) => r.step)).toEqual(Array.from({ length: expected.day }, (_, i) => i + 1));
    const rolled = c.world.messages.flatMap((m) => (m.rolls ?? []).map((r) => r.total));
    expect(rolled).toEqual(dice);
    expect(c.world.rolls.queue).toEqual([]);
    // World time: each day after the first advances one day (setting on by default).
    expect(c.world.worldTime).toBe((expected.day - 1) * 86400);
    // The chat log reads as the chase.
    const first = c.world.messages[0]!.content!;
    expect(first).toContain("Pursuit outdoors");
    expect(first).toContain("Chance to escape 70 % (pursuers above 25 % and up to 75 % of the fleeing group).");
    expect(first).toContain(`Escape roll: ${dice[0]} on 1d100 (needed 70 or less), failure`);
    const last = c.world.messages.at(-1)!.content!;
    expect(last).toContain(`Day ${expected.day}`);
    expect(last).toContain(expected.outcome === "caught" ? "Caught! The encounter takes place." : "They escape!");
    // Replaying the stored chase from its dice gives the same state (the log is the truth).
    const again = await replayPursuit(initial, fixedDice(pursuitLogDice(record!.outdoors!.log)), 100);
    expect({ ...again, fleeingBonus: 0 }).toEqual(record!.outdoors);
  });

  it("the adjustments can change between days; no world time when the setting is off", async () => {
    const c = await setup();
    await c.world.asUser("gm1", () => c.world.game.settings.set("aventure", "pursuitAdvanceTime", false));
    c.fake.select(c.heroes[0]!, c.goblins[0]!);
    const dialog = new c.D.PursuitDialog();
    await dialog.change("place", "outdoors");
    await dialog.change("groups.party.count", "4");
    await dialog.change("groups.opponents.count", "2");
    c.world.rolls.push(80, 90); // day 1: 80 > 70 failed; catch 90 > 50 not caught
    await dialog.start();
    await dialog.change("woods", true); // +20 from day 2
    c.world.rolls.push(85); // 85 ≤ 90: escaped
    const r = await dialog.nextDay();
    expect(r!.outdoors!.log.map((d) => [d.chance, d.outcome])).toEqual([
      [70, "continues"],
      [90, "escaped"],
    ]);
    expect(c.world.worldTime).toBe(0);
    expect(c.world.messages.at(-1)!.content).toContain("They escape!");
    // Each card says which adjustments its chance includes (RULES.md §8.2: 70 + 20 = 90).
    expect(c.world.messages[0]!.content).not.toContain("Dense woods");
    expect(c.world.messages.at(-1)!.content).toContain("Chance to escape 90 %");
    expect(c.world.messages.at(-1)!.content).toContain("Dense woods: +20.");
  });

  it("surprise: surprised pursuers → the fleeing side escapes (no dice); a surprised fleeing side rolls to escape like any side", async () => {
    const c = await setup();
    c.fake.select(c.heroes[0]!, c.goblins[0]!);
    const d1 = new c.D.PursuitDialog();
    await d1.change("place", "outdoors");
    await d1.change("surprise", "pursuers");
    const r1 = await d1.start();
    expect(r1!.outdoors!.outcome).toBe("escaped");
    expect(c.world.rolls.made.length).toBe(0);
    // RULES.md §8.2 decision: a surprised side that flees is not barred from fleeing (it used to get cannotFlee).
    const d2 = new c.D.PursuitDialog();
    await d2.change("place", "outdoors");
    await d2.change("surprise", "fleeing");
    c.world.rolls.push(1);
    const r2 = await d2.start();
    expect(r2!.outdoors!.log[0]).toMatchObject({ evasionRoll: 1, outcome: "escaped", reason: "evaded" });
    expect(c.world.rolls.made.length).toBe(1);
    expect(c.world.messages.at(-1)!.content).toContain("They escape!");
  });
});

describe("dungeon flight through the glue", () => {
  it("pmt: the reaction decides the pursuit, rounds count against 30, then exhausted with no penalty (no effect)", async () => {
    const c = await setup({ ruleset: "pmt" });
    c.fake.select(c.heroes[0]!, c.goblins[0]!);
    const dialog = new c.D.PursuitDialog();
    c.world.rolls.push(3, 4); // reaction 7: they pursue
    let r = await dialog.start();
    expect(r!.dungeon).toMatchObject({ outcome: "continues", pursues: true, pursuersCanCatch: true });
    expect(c.world.messages[0]!.content).toContain("Reaction 7: the monsters pursue.");
    expect(c.world.messages[0]!.rolls!.map((x) => x.total)).toEqual([7]);
    for (let i = 0; i < 30; i++) r = await dialog.dungeon("round");
    expect(r!.dungeon).toMatchObject({ rounds: 30, exhausted: true });
    expect(c.world.messages.at(-1)!.content).toContain("Round 30 of running (0 of 30 left)");
    expect(c.world.messages.at(-1)!.content).toContain("exhausted and must rest");
    expect(Object.values(c.effects).flat()).toEqual([]);
    await dialog.render(); // the dialog's log merges the plain rounds
    expect(html(dialog)).toContain("Rounds 1–29 of running (1 of 30 left)");
    expect(html(dialog)).toContain("Round 30 of running (0 of 30 left)");
    expect(html(dialog)).not.toContain('data-action="nextRound"');
    // A 31st round is refused (the runners are exhausted); the referee ends the chase.
    const before = c.world.messages.length;
    await dialog.dungeon("round");
    expect(c.world.messages.length).toBe(before);
    expect(errors(c.world).length).toBe(1);
    r = await dialog.end("caught");
    expect(r!.over).toBe(true);
    expect(c.world.messages.at(-1)!.content).toContain("Caught! The encounter takes place.");
  });

  it("pmt: reaction 2–6, the monsters do not pursue", async () => {
    const c = await setup({ ruleset: "pmt" });
    c.fake.select(c.heroes[0]!, c.goblins[0]!);
    c.world.rolls.push(1, 5);
    const r = await new c.D.PursuitDialog().start();
    expect(r!.dungeon!.outcome).toBe("escaped");
    expect(c.world.messages[0]!.content).toContain("Reaction 6: the monsters do not pursue.");
  });

  it("ose: 30 rounds, then −2 to attacks, damage and AC as an Active Effect on every runner (v13 changes)", async () => {
    const c = await setup({ ruleset: "ose" });
    c.fake.select(c.heroes[0]!, c.heroes[1]!, c.goblins[0]!, c.goblins[1]!);
    const dialog = new c.D.PursuitDialog();
    let r = await dialog.start(); // ose: no roll, the referee decides
    expect(c.world.rolls.made.length).toBe(0);
    expect(c.world.messages[0]!.content).toContain("The referee decides whether the monsters pursue.");
    for (let i = 0; i < 30; i++) r = await dialog.dungeon("round");
    expect(r!.exhaustedActors).toEqual(["Aldric", "Brune", "Gobelin"]); // the two goblin tokens share one actor
    const e = c.effects.aldric![0]!;
    expect(e.name).toBe("Exhausted from running");
    expect(e.flags.aventure).toEqual({ runExhaustion: true });
    const changes = e.data.changes as { key: string; mode: number; value: string }[];
    expect(changes.map((x) => x.key)).toEqual([
      "system.bonuses.mwak.attack",
      "system.bonuses.mwak.damage",
      "system.bonuses.rwak.attack",
      "system.bonuses.rwak.damage",
      "system.bonuses.msak.attack",
      "system.bonuses.msak.damage",
      "system.bonuses.rsak.attack",
      "system.bonuses.rsak.damage",
      "system.attributes.ac.bonus",
    ]);
    expect(changes.every((x) => x.value === "-2" && x.mode === 2)).toBe(true);
    expect(e.data.duration).toEqual({ seconds: 1800, startTime: 0 }); // three turns of rest
    expect(c.effects.cyril).toEqual([]); // not in the chase
    expect(c.world.messages.at(-1)!.content).toContain("\u22122 to attacks, damage and AC until 3 turns of rest."); // typographic minus in the text, "-2" in the data
    expect(e.data.description).toBe("Ran too long: \u22122 to attacks, damage and AC until 3 turns of rest.");
    expect(c.world.messages.at(-1)!.content).toContain("Effect applied to: Aldric, Brune, Gobelin.");
  });

  it("v14: the effect is written with system.changes and a typed change", async () => {
    const c = await setup({ ruleset: "ose", generation: 14 });
    c.fake.select(c.heroes[0]!, c.goblins[0]!);
    const dialog = new c.D.PursuitDialog();
    await dialog.start();
    for (let i = 0; i < 30; i++) await dialog.dungeon("round");
    const data = c.effects.aldric![0]!.data;
    expect(data.changes).toBeUndefined();
    expect((data.system as { changes: { type: string; value: string }[] }).changes[0]).toEqual({ key: "system.bonuses.mwak.attack", type: "add", value: "-2", phase: "initial", priority: 20 });
    expect(data.duration).toEqual({ value: 30, units: "minutes", expiry: null });
  });

  it("OSE system: a character's attack and AC modifiers get −2 (both AC schemes), damage is left to the rolls; a monster gets a descriptive effect", async () => {
    const c = await setup({ ruleset: "ose", systemId: "ose" });
    const hero = c.world.addActor({ _id: "hero", name: "Héloïse", type: "character", system: { movement: { base: 120, encounter: 40 } } });
    const orc = c.world.addActor({ _id: "orc", name: "Orque", type: "monster", system: { movement: { base: 120, encounter: 40 } } });
    const heroEffects = enableEffects(c.world, hero);
    const orcEffects = enableEffects(c.world, orc);
    c.fake.select(c.fake.addToken({ id: "th", name: "Héloïse", disposition: 1, actor: hero }), c.fake.addToken({ id: "to", name: "Orque", disposition: -1, actor: orc }));
    const d = new c.D.PursuitDialog();
    await d.change("groups.opponents.speed", "15"); // the orcs are faster
    await d.start();
    for (let i = 0; i < 30; i++) await d.dungeon("round");
    expect(errors(c.world)).toEqual([]);
    const he = heroEffects[0]!.data;
    expect(he.changes).toEqual(
      ["system.thac0.mod.melee", "system.thac0.mod.missile", "system.ac.mod", "system.aac.mod"].map((key) => ({ key, mode: 2, value: "-2", priority: 20 })),
    );
    expect(he.description).toBe("Ran too long: \u22122 to attacks, damage and AC until 3 turns of rest (attacks and AC are applied; apply the damage penalty to the rolls).");
    const oe = orcEffects[0]!.data;
    expect(oe.changes).toEqual([]);
    expect(oe.description).toContain("apply it on the sheet");
  });

  it.each([13, 14])("v%i: the exhaustion ends when its three turns of rest are over (v13: the active GM deletes it, once; v14: core)", async (generation) => {
    const c = await setup({ ruleset: "ose", generation });
    // A monster on an unlinked token carries its own (synthetic) actor, not a world actor.
    const wolfActor = new FakeActor(c.world, { _id: "wolf", name: "Loup", type: "npc", system: dnd(40) });
    const wolfEffects = enableEffects(c.world, wolfActor);
    const wolf = c.fake.addToken({ id: "w1", name: "Loup", disposition: -1, actor: wolfActor, actorLink: false });
    c.fake.select(c.heroes[0]!, wolf);
    const d = new c.D.PursuitDialog();
    await d.start();
    for (let i = 0; i < 30; i++) await d.dungeon("round");
    expect([c.effects.aldric!.length, wolfEffects.length]).toEqual([1, 1]);
    const deletions = () => c.world.log.filter((x) => /^effects \S+ -/.test(x));
    c.world.worldTime = 1799; // one second short of three turns (RULES.md §1: 1 turn = 10 min)
    await c.world.callAllClients("updateWorldTime", 1799, 1799);
    expect([c.effects.aldric!.length, wolfEffects.length]).toEqual([1, 1]);
    c.world.worldTime = 1800;
    // Only the active GM acts: the hook on another GM's or a player's client deletes nothing.
    for (const user of ["gm2", "p1"]) await c.world.asUser(user, () => c.world.hooks.callAll("updateWorldTime", 1800, 1));
    expect([c.effects.aldric!.length, wolfEffects.length]).toEqual([1, 1]);
    await c.world.callAllClients("updateWorldTime", 1800, 1);
    if (generation === 13) {
      expect([c.effects.aldric!.length, wolfEffects.length]).toEqual([0, 0]);
      expect(deletions()).toEqual(["effects aldric -1", "effects wolf -1"]); // two GMs connected: deleted once
    } else {
      expect([c.effects.aldric!.length, wolfEffects.length]).toEqual([1, 1]); // v14 core expires it (ActiveEffect.registry)
      expect(deletions()).toEqual([]);
    }
    expect(errors(c.world)).toEqual([]);
  });

  it("faster fleeing side escapes; combat started → impossible; surprise; dropped treasure", async () => {
    const c = await setup({ ruleset: "pmt" });
    c.fake.select(c.heroes[0]!, c.goblins[0]!);
    const fast = new c.D.PursuitDialog();
    await fast.change("groups.party.speed", "15");
    expect((await fast.start())!.dungeon!.log[0]).toMatchObject({ outcome: "escaped", reason: "faster" });
    const fight = new c.D.PursuitDialog();
    await fight.change("combatStarted", true);
    expect((await fight.start())!.dungeon!.outcome).toBe("impossible");
    // A surprised fleeing side is not barred from fleeing (RULES.md §8.2 decision, also in the dungeon): faster, it escapes.
    const surprised = new c.D.PursuitDialog();
    await surprised.change("surprise", "fleeing");
    await surprised.change("groups.party.speed", "15");
    expect((await surprised.start())!.dungeon!.log[0]).toMatchObject({ outcome: "escaped", reason: "faster" });
    expect(c.world.rolls.made.length).toBe(0);
    const drop = new c.D.PursuitDialog();
    await drop.change("dropped", true);
    await drop.change("reactionTotal", "9");
    c.world.rolls.push(4);
    const r = await drop.start();
    expect(r!.dungeon!.log[0]).toMatchObject({ outcome: "escaped", reason: "distracted", dropRoll: 4, reactionTotal: 9 });
    expect(c.world.messages.at(-1)!.content).toContain("Dropped treasure or food: 4 on 1d6, the pursuers stop to pick it up.");
  });

  it("same speed: the pursuers cannot catch them (Caught refused), the chase ends out of sight", async () => {
    const c = await setup({ ruleset: "pmt" });
    c.fake.select(c.heroes[0]!, c.goblins[0]!);
    const dialog = new c.D.PursuitDialog();
    await dialog.change("groups.opponents.speed", "9");
    await dialog.change("reactionTotal", "10");
    let r = await dialog.start();
    expect(r!.dungeon!.pursuersCanCatch).toBe(false);
    await dialog.render();
    expect(html(dialog)).not.toContain('data-action="caught"');
    const before = snapshot(c);
    await dialog.end("caught");
    expect(snapshot(c)).toEqual(before);
    r = await dialog.end("outOfSight");
    expect(r!.dungeon!.outcome).toBe("escaped");
  });
});

describe("runs once, on the active GM", () => {
  it("with two GMs connected, a step runs once; a stale second click is refused and changes nothing", async () => {
    const c = await setup({ current: "gm2" });
    c.fake.select(c.heroes[0]!, c.goblins[0]!);
    // gm2 is not the active GM (gm1 is): its Start runs on gm1 through the query.
    const d2 = new c.D.PursuitDialog();
    await d2.change("place", "outdoors");
    c.world.rolls.push(99, 99); // failed, not caught
    const r1 = await d2.start();
    expect(r1!.step).toBe(1);
    expect(c.world.messages.map((m) => m.author)).toEqual(["gm1"]);
    // Both GMs have the chase open; gm1 clicks Next day first, then gm2 with the same step.
    const d1 = await c.world.asUser("gm1", () => new c.D.PursuitDialog({ chaseId: r1!.id }));
    c.world.rolls.push(99, 99);
    const r2 = await c.world.asUser("gm1", () => d1.nextDay());
    expect(r2!.step).toBe(2);
    const before = snapshot(c);
    const stale = await d2.nextDay();
    expect(stale).toBeNull();
    expect(snapshot(c)).toEqual(before);
    expect(errors(c.world)).toEqual(["The chase has already moved on: reopen it from its last card."]);
    expect(c.world.worldTime).toBe(86400); // one day advanced, once
    // The cards' render hook fires on every client: it rolls, posts and changes nothing.
    const rolls = c.world.rolls.made.length;
    const n = c.world.messages.length;
    for (const m of c.world.messages) await c.world.callAllClients("renderChatMessageHTML", m, new FakeCardElement(true));
    expect(c.world.rolls.made.length).toBe(rolls);
    expect(c.world.messages.length).toBe(n);
    expect(c.world.worldTime).toBe(86400);
  });

  it("the Continue button is kept for GMs and the player who started the chase, removed for others and once over", async () => {
    const c = await setup();
    const { onRenderPursuitCard } = await import("../../src/foundry/pursuit/hooks.js");
    c.fake.select(c.heroes[0]!, c.goblins[0]!);
    c.world.rolls.push(99, 99);
    await c.world.asUser("p1", async () => {
      const d = new c.D.PursuitDialog();
      await d.change("place", "outdoors");
      await d.start();
    });
    const msg = c.world.messages[0]!;
    for (const [user, kept] of [["gm2", true], ["p1", true], ["p2", false]] as const) {
      const el = new FakeCardElement(true);
      await c.world.asUser(user, () => onRenderPursuitCard(msg as never, el as never));
      expect(el.button.removed, user).toBe(!kept);
    }
  });
});

describe("players and their own tokens", () => {
  it("a player starts a flight for tokens they own; the GM rolls and posts it", async () => {
    const c = await setup({ current: "p1" });
    c.fake.select(c.heroes[0]!, c.heroes[1]!, c.goblins[0]!);
    c.world.rolls.push(2, 2); // reaction 4: no pursuit
    const r = await new c.D.PursuitDialog().start();
    expect(errors(c.world)).toEqual([]);
    expect(r!.startedBy).toBe("p1");
    expect(c.world.messages.map((m) => m.author)).toEqual(["gm1"]);
  });

  it("a player cannot flee with a token they do not own, nor with no token, nor as the monsters", async () => {
    const c = await setup({ current: "p1" });
    const before = snapshot(c);
    c.fake.select(c.heroes[0]!, c.heroes[2]!, c.goblins[0]!); // Cyril belongs to p2
    await new c.D.PursuitDialog().start();
    c.fake.select(c.goblins[0]!);
    const none = new c.D.PursuitDialog();
    await none.change("groups.party.speed", "9");
    await none.start(); // no token in the fleeing group
    c.fake.select(c.heroes[0]!, c.goblins[0]!);
    const monsters = new c.D.PursuitDialog();
    await monsters.change("fleeingSide", "opponents");
    await monsters.start();
    expect(snapshot(c)).toEqual(before);
    expect(errors(c.world)).toEqual([
      "You do not own Cyril.",
      "Players can only flee with tokens they own: select your tokens.",
      "You do not own Gobelin 1.",
    ]);
  });

  it("a forged query naming someone else's tokens, or continuing someone else's chase, is refused", async () => {
    const c = await setup();
    const gm = c.world.users.getStrict("gm1");
    const p1 = c.world.users.getStrict("p1");
    const base = new c.D.PursuitDialog({ tokens: [] }).setup;
    const forged = { ...base, sceneId: "scene1", groups: { party: { count: 1, speed: 9, tokenIds: ["tC"], names: [] }, opponents: { count: 1, speed: 12, tokenIds: ["g1"], names: [] } } };
    const before = snapshot(c);
    await expect(c.C.handlePursuitRequest({ op: "start", setup: forged }, p1 as never)).rejects.toMatchObject({ key: "AVENTURE.Error.NotOwner" });
    expect(snapshot(c)).toEqual(before);
    // A chase the GM started with Cyril fleeing: p1 cannot play its next day.
    c.world.rolls.push(99, 99);
    const r = await c.C.handlePursuitRequest({ op: "start", setup: { ...forged, place: "outdoors" } }, gm as never);
    const mid = snapshot(c);
    await expect(
      c.C.handlePursuitRequest({ op: "day", chaseId: r.id, step: 1, woods: false, woodsBonus: 20, twiceFast: false, fastBonus: 20 }, p1 as never),
    ).rejects.toMatchObject({ key: "AVENTURE.Error.NotOwner" });
    expect(snapshot(c)).toEqual(mid);
  });
});

describe("what only the referee decides", () => {
  it("a player's flight: a typed reaction is refused (the GM rolls it); only the GM ends the chase", async () => {
    const c = await setup({ ruleset: "pmt", current: "p1" });
    c.fake.select(c.heroes[0]!, c.goblins[0]!);
    const d = new c.D.PursuitDialog();
    await d.render();
    expect(html(d)).not.toContain('name="reactionTotal"');
    expect(new c.D.PursuitDialog({ reactionTotal: 9 }).setup.reactionTotal).toBeNull(); // an encounter's prefill is the GM's
    await d.change("reactionTotal", "2"); // 2: "the monsters do not pursue" (pmt) — a free escape
    const before = snapshot(c);
    expect(await d.start()).toBeNull();
    expect(snapshot(c)).toEqual(before);
    expect(errors(c.world)).toEqual(["Only the GM enters a monster reaction already rolled: leave it empty, the GM rolls it when the flight starts."]);
    await d.change("reactionTotal", "");
    c.world.rolls.push(4, 4); // reaction 8: they pursue (rolled on the GM's side)
    const r = await d.start();
    expect(r!.dungeon).toMatchObject({ outcome: "continues", pursues: true });
    expect(c.world.messages.at(-1)!.author).toBe("gm1");
    // The player runs, but cannot declare that the monsters give up or lose sight of them.
    await d.render();
    for (const a of ["nextRound", "drop"]) expect(html(d)).toContain(`data-action="${a}"`);
    for (const a of ["outOfSight", "gaveUp", "caught"]) expect(html(d)).not.toContain(`data-action="${a}"`);
    const mid = snapshot(c);
    expect(await d.end("gaveUp")).toBeNull();
    await expect(c.C.handlePursuitRequest({ op: "end", chaseId: r!.id, step: 1, how: "outOfSight" }, c.world.users.getStrict("p1") as never)).rejects.toMatchObject({ key: "AVENTURE.Pursuit.error.gmEnds" });
    expect(snapshot(c)).toEqual(mid);
    expect(errors(c.world).at(-1)).toBe("Only the GM ends the chase (out of sight, they give up, caught).");
    // The GM ends it from the card.
    const gmDialog = await c.world.asUser("gm1", () => new c.D.PursuitDialog({ chaseId: r!.id }));
    const end = await c.world.asUser("gm1", () => gmDialog.end("outOfSight"));
    expect(end!.dungeon!.outcome).toBe("escaped");
  });

  it("a combat already started with these tokens: the dialog says so and the GM makes the flight impossible", async () => {
    const c = await setup({ ruleset: "pmt" });
    c.cw.addToken({ id: "tA", name: "Aldric", disposition: 1, actor: c.actors.aldric! });
    c.cw.addToken({ id: "g1", name: "Gobelin 1", disposition: -1, actor: c.actors.gob! });
    const combat = await c.world.asUser("gm1", () => c.cw.combatClass().create({ scene: "scene1", active: true }));
    await c.world.asUser("gm1", () => combat.createEmbeddedDocuments("Combatant", [{ tokenId: "tA", sceneId: "scene1" }, { tokenId: "g1", sceneId: "scene1" }]));
    c.fake.select(c.heroes[0]!, c.goblins[0]!);
    expect(new c.D.PursuitDialog().setup.combatStarted).toBe(false); // not started yet: flight is possible
    c.world.rolls.push(5, 2); // side initiative at the start of round 1
    await c.world.asUser("gm1", () => combat.startCombat());
    const d = new c.D.PursuitDialog();
    expect(d.setup.combatStarted).toBe(true);
    await d.change("combatStarted", false); // unticked by hand (or sent so by a client): the GM sees the fight
    const r = await d.start();
    expect(r!.dungeon!.outcome).toBe("impossible");
    expect(c.world.messages.at(-1)!.content).toContain("Combat has started: flight is impossible.");
  });

  it("a token removed mid-chase: the GM goes on, the exhaustion goes to the actors still on the scene", async () => {
    const c = await setup({ ruleset: "ose" });
    c.fake.select(c.heroes[0]!, c.heroes[1]!, c.goblins[0]!);
    const d = new c.D.PursuitDialog();
    await d.start();
    for (let i = 0; i < 29; i++) await d.dungeon("round");
    c.fake.scene.tokens.delete("tB"); // Brune's token is gone
    const r = await d.dungeon("round");
    expect(errors(c.world)).toEqual([]);
    expect(r!.dungeon!.exhausted).toBe(true);
    expect(r!.exhaustedActors).toEqual(["Aldric", "Gobelin"]);
    expect(c.effects.brune).toEqual([]);
  });
});

describe("bad input changes nothing", () => {
  it.each([
    ["a group of 0", { "groups.party.count": "0" }, "Expected a value between 1 and 100000 for group size (got 0)."],
    ["a speed that is not a number", { "groups.opponents.speed": "vite" }, "Expected a number for group speed (got NaN)."],
    ["a woods adjustment of 30", { place: "outdoors", woods: true, woodsBonus: "30" }, "Expected a value between 20 and 25 for woods adjustment (got 30)."],
    ["a pmt reaction of 13", { reactionTotal: "13" }, "Expected a value between 2 and 12 for reaction total (got 13)."],
  ] as [string, Record<string, string | boolean>, string][])("%s", async (_label, fields, message) => {
    const c = await setup({ ruleset: "pmt" });
    c.fake.select(c.heroes[0]!, c.goblins[0]!);
    const dialog = new c.D.PursuitDialog();
    for (const [k, v] of Object.entries(fields)) await dialog.change(k, v);
    c.world.rolls.push(3, 4);
    const before = snapshot(c);
    expect(await dialog.start()).toBeNull();
    expect(snapshot(c)).toEqual(before);
    expect(errors(c.world)).toEqual([message]);
    expect(dialog.chase).toBeNull();
  });

  it("malformed requests, unknown tokens, a token in both groups, a finished chase", async () => {
    const c = await setup();
    const gm = c.world.users.getStrict("gm1") as never;
    const base = { ...new c.D.PursuitDialog({ tokens: [] }).setup, groups: { party: { count: 1, speed: 9, tokenIds: [], names: [] }, opponents: { count: 1, speed: 12, tokenIds: [], names: [] } } };
    const before = snapshot(c);
    const bad: [unknown, string][] = [
      [{ op: "fly" }, "AVENTURE.Error.UnknownValue"],
      [null, "AVENTURE.Error.Missing"],
      [{ op: "start", setup: { ...base, place: "sea" } }, "AVENTURE.Error.UnknownValue"],
      [{ op: "start", setup: { ...base, woods: "yes" } }, "AVENTURE.Error.UnknownValue"],
      [{ op: "start", setup: { ...base, sceneId: "scene1", groups: { ...base.groups, party: { count: 1, speed: 9, tokenIds: ["nope"], names: [] } } } }, "AVENTURE.Pursuit.error.noToken"],
      [{ op: "start", setup: { ...base, sceneId: "scene1", groups: { party: { count: 1, speed: 9, tokenIds: ["g1"], names: [] }, opponents: { count: 1, speed: 9, tokenIds: ["g1"], names: [] } } } }, "AVENTURE.Pursuit.error.twice"],
      [{ op: "day", chaseId: "missing", step: 1 }, "AVENTURE.Pursuit.error.noChase"],
    ];
    for (const [req, key] of bad) await expect(c.C.handlePursuitRequest(req, gm), JSON.stringify(req)).rejects.toMatchObject({ key });
    expect(snapshot(c)).toEqual(before);
    const over = await c.C.handlePursuitRequest({ op: "start", setup: { ...base, surprise: "pursuers" } }, gm);
    expect(over.over).toBe(true);
    await expect(c.C.handlePursuitRequest({ op: "round", chaseId: over.id, step: 1 }, gm)).rejects.toMatchObject({ key: "AVENTURE.Pursuit.error.over" });
  });
});

describe("the chase survives a reload (state on the chat cards)", () => {
  it("a new dialog resumes the newest unfinished chase from the chat log and goes on", async () => {
    const c = await setup();
    c.fake.select(c.heroes[0]!, c.goblins[0]!);
    const d = new c.D.PursuitDialog();
    await d.change("place", "outdoors");
    c.world.rolls.push(99, 99, 98, 97);
    await d.start();
    const r2 = await d.nextDay();
    // "Reload": a fresh dialog, nothing in memory but the chat log.
    const again = new c.D.PursuitDialog({ tokens: [] });
    await again.render();
    expect(html(again)).toContain('data-action="resume"');
    await again.resume();
    expect(again.chase).toEqual(r2);
    expect(again.setup.place).toBe("outdoors");
    c.world.rolls.push(1);
    const r3 = await again.nextDay();
    expect(r3!.outdoors!.day).toBe(3);
    expect(r3!.over).toBe(true);
    const fresh = new c.D.PursuitDialog({ tokens: [] });
    await fresh.render();
    expect(html(fresh)).not.toContain('data-action="resume"');
  });

  it("renders in French", async () => {
    const c = await setup({ lang: "fr" });
    c.fake.select(c.heroes[0]!, c.goblins[0]!);
    const d = new c.D.PursuitDialog();
    await d.change("place", "outdoors");
    await d.change("groups.party.count", "4");
    await d.change("groups.opponents.count", "2");
    expect(html(d).replaceAll("&#x27;", "'")).toContain("Chance de s'échapper : 70 %");
    c.world.rolls.push(10);
    await d.start();
    expect(c.world.messages[0]!.content!.replaceAll("&#x27;", "'")).toContain("Ils s'échappent !");
  });
});
