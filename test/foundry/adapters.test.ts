import { beforeEach, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { bootWorld, type FakeActor, type FakeWorld } from "../world/index.js";
import { ROOT } from "../fake/handlebars.js";
import {
  Dnd5eAdapter,
  GenericAdapter,
  OseAdapter,
  adapterFor,
  onPreCreateOwnStatus,
  setOwnCondition,
  type ActorLike,
} from "../../src/actors/adapter.js";
import { DND5E_PATHS } from "../../src/actors/presets.js";
import { EMPTY_PATHS } from "../../src/core/core-settings.js";

const fixture = (name: string) =>
  JSON.parse(readFileSync(join(ROOT, "test/fixtures", `${name}.json`), "utf8")) as {
    _id: string;
    name: string;
    type: string;
    system: Record<string, unknown>;
  };
const asActor = (a: FakeActor) => a as unknown as ActorLike;

describe("dnd5e adapter against dnd5e-shaped actors", () => {
  let world: FakeWorld;
  beforeEach(async () => {
    world = await bootWorld({ system: "dnd5e" });
  });

  it("reads a 5.x hero in feet, converted at 0.3 m per foot", () => {
    const hero = world.addUserActor(fixture("dnd5e-character-ft"));
    const s = new Dnd5eAdapter().read(asActor(hero));
    expect(s.strScore).toBe(15);
    expect(s.strMod).toBe(2);
    expect(s.dexMod).toBe(2);
    expect(s.conMod).toBe(1);
    expect(s.chaMod).toBe(-1);
    expect(s.passivePerception).toBe(13);
    expect(s.senses).toEqual({ darkvision: 18, blindsight: 0, truesight: 0 });
    expect(s.speeds).toEqual({ walk: 9, climb: 0, swim: 0, fly: 0 });
    expect(s.hp).toEqual({ value: 12, max: 12 });
    expect(s.exhaustion).toBe(0);
  });

  it("reads an NPC whose units are metres without converting", () => {
    const npc = world.addUserActor(fixture("dnd5e-npc-m"));
    const s = new Dnd5eAdapter().read(asActor(npc));
    expect(s.strScore).toBe(16);
    expect(s.senses.darkvision).toBe(18);
    expect(s.senses.blindsight).toBe(3);
    expect(s.speeds?.walk).toBe(9);
    expect(s.speeds?.climb).toBe(9);
    expect(s.speeds?.swim).toBe(0);
  });

  it("reads the 4.x / 5.0-5.2 flat senses shape too", () => {
    const old = world.addUserActor(fixture("dnd5e-4x-character"));
    expect(new Dnd5eAdapter().read(asActor(old)).senses.darkvision).toBe(18);
  });

  it("reads a fly-only summon (walk null, no units) as flying, not as having no speed", () => {
    // dnd5e 5.3.3 SRD Arcane Eye: walk/climb/swim null, fly 30, units null (feet).
    const eye = world.addUserActor(fixture("dnd5e-summon-fly-only"));
    expect(new Dnd5eAdapter().read(asActor(eye)).speeds).toEqual({ walk: 0, climb: 0, swim: 0, fly: 9 });
  });

  it("reads a fly-only creature stored with walk 0 as not walking", () => {
    const air = world.addUserActor(fixture("dnd5e-npc-fly-only"));
    expect(new Dnd5eAdapter().read(asActor(air)).speeds).toEqual({ walk: 0, climb: 0, swim: 0, fly: 27 });
  });

  it("still reads no speed at all when no speed is stored", () => {
    const none = world.addUserActor({
      _id: "nomove",
      name: "Shapeless",
      system: { attributes: { movement: { walk: null, fly: null, units: "ft" } } },
    });
    expect(new Dnd5eAdapter().read(asActor(none)).speeds).toBeNull();
  });

  it("follows the feet-to-metres setting", async () => {
    await world.as("gm1", () => game.settings.set("aventure", "feetFactor", 0.3048));
    const hero = world.addUserActor(fixture("dnd5e-character-ft"));
    expect(new Dnd5eAdapter().read(asActor(hero)).senses.darkvision).toBeCloseTo(18.288, 9);
  });

  it("maps conditions to dnd5e's status ids", () => {
    const a = new Dnd5eAdapter();
    expect(a.statusId("blinded")).toBe("blinded");
    expect(a.statusId("prone")).toBe("prone");
    expect(a.statusId("hidden")).toBe("hiding");
    // dnd5e's Surprised gives disadvantage on initiative (2024 rules): Aventure's surprise has its own marker.
    expect(a.statusId("surprised")).toBe("aventure-surprised");
    expect(a.statusId("dimLight")).toBe("aventure-dim");
  });

  it("applies damage with dnd5e's applyDamage and a damage type", async () => {
    const hero = world.addUserActor(fixture("dnd5e-character-ft"));
    const calls: unknown[] = [];
    (hero as unknown as Record<string, unknown>).applyDamage = async (...args: unknown[]) => calls.push(args);
    expect(await new Dnd5eAdapter().applyDamage(asActor(hero), 7, "bludgeoning")).toBe(true);
    expect(calls).toEqual([[[{ value: 7, type: "bludgeoning" }], {}]]);
  });

  it("rolls a save through rollSavingThrow(config, dialog, message) without a dialog", async () => {
    const hero = world.addUserActor(fixture("dnd5e-character-ft")) as FakeActor & Record<string, unknown>;
    const seen: unknown[] = [];
    hero.rollSavingThrow = async (config: unknown, dialog: unknown, _message: unknown) => {
      seen.push(config, dialog);
      world.queueRolls(9);
      const roll = new Roll("1d20 + 1");
      await roll.evaluate();
      return [roll];
    };
    const out = await new Dnd5eAdapter().rollSave(asActor(hero), "con", { dc: 11 });
    expect(seen).toEqual([{ ability: "con", target: 11 }, { configure: false }]);
    expect(out).toMatchObject({ total: 10, success: false, natural: 9 });
  });

  it("uses the (id, options) signature of dnd5e 4.0 and earlier", async () => {
    world.as("gm1", () => ((game.system as { version?: string }).version = "4.0.4"));
    const hero = world.addUserActor(fixture("dnd5e-character-ft")) as FakeActor & Record<string, unknown>;
    const seen: unknown[] = [];
    hero.rollSavingThrow = async () => {
      throw new Error("the 4.1+ signature must not be used on 4.0");
    };
    hero.rollAbilitySave = async (id: unknown, options: unknown) => {
      seen.push(id, options);
      world.queueRolls(15);
      return new Roll("1d20 + 1").evaluate();
    };
    const out = await new Dnd5eAdapter().rollSave(asActor(hero), "con", { dc: 12, flavor: "CON" });
    expect(seen[0]).toBe("con");
    expect(seen[1]).toMatchObject({ targetValue: 12, flavor: "CON" });
    expect(out).toMatchObject({ total: 16, success: true, natural: 15 });
  });

  it("reports a cancelled roll instead of returning NaN", async () => {
    const hero = world.addUserActor(fixture("dnd5e-character-ft")) as FakeActor & Record<string, unknown>;
    hero.rollSavingThrow = async () => null;
    await expect(new Dnd5eAdapter().rollSave(asActor(hero), "con", { dc: 12 })).rejects.toMatchObject({
      key: "AVENTURE.Error.RollCancelled",
    });
  });

  it("sets exhaustion within 0..6", async () => {
    const hero = world.addUserActor(fixture("dnd5e-character-ft"));
    const a = new Dnd5eAdapter();
    expect(await a.addExhaustion(asActor(hero), 2)).toEqual({ before: 0, after: 2 });
    expect(await a.addExhaustion(asActor(hero), 9)).toEqual({ before: 2, after: 6 });
    expect(hero.system).toMatchObject({ attributes: { exhaustion: 6 } });
  });
});

describe("OSE adapter against OSE-shaped actors", () => {
  let world: FakeWorld;
  beforeEach(async () => {
    world = await bootWorld({ system: "ose" });
  });

  it("reads a character: scores, reaction adjustment, encounter movement per round", () => {
    const pc = world.addUserActor(fixture("ose-character"));
    const s = new OseAdapter().read(asActor(pc));
    expect(s.strScore).toBe(13);
    expect(s.strMod).toBe(1);
    expect(s.conMod).toBe(2);
    expect(s.chaMod).toBe(-1);
    expect(s.speeds?.walk).toBe(12); // 40 ft per round
    expect(s.hp).toEqual({ value: 7, max: 7 });
    expect(s.passivePerception).toBeNull();
    expect(s.exhaustion).toBeNull();
  });

  it("reads a monster with no scores, and falls back to base / 3 when encounter movement is absent", () => {
    const gob = world.addUserActor(fixture("ose-monster"));
    const s = new OseAdapter().read(asActor(gob));
    expect(s.strScore).toBeNull();
    expect(s.speeds?.walk).toBe(6);
    const old = world.addUserActor({
      _id: "old",
      name: "Old goblin",
      system: { hp: { value: 3, max: 3 }, movement: { base: 60 } },
    });
    expect(new OseAdapter().read(asActor(old)).speeds?.walk).toBe(6);
  });

  describe("flying and swimming from the movement details (OSE SRD monster shapes)", () => {
    const monsters = JSON.parse(
      readFileSync(join(ROOT, "test/fixtures", "ose-monsters-moves.json"), "utf8"),
    ) as ReturnType<typeof fixture>[];
    const speedsOf = (name: string) => {
      const m = monsters.find((x) => x.name === name)!;
      return new OseAdapter().read(asActor(world.addUserActor(m))).speeds;
    };
    // Metres per round: feet per turn / 3 (encounter movement), × 0.3 m per foot.
    it('a monster that only flies ("Flying") does not walk: it flies at its base rate', () => {
      expect(speedsOf("Hawk")).toEqual({ walk: 0, climb: 0, swim: 0, fly: 48 }); // 480' (160') flying
    });
    it("a flying rate written out is added to the walking rate", () => {
      expect(speedsOf("Red dragon")).toEqual({ walk: 9, climb: 0, swim: 0, fly: 24 }); // 90' (30'), 240' (80') flying
    });
    it("a swimming rate written out is added, even when equal to the walking rate", () => {
      expect(speedsOf("Crocodile")).toEqual({ walk: 9, climb: 0, swim: 9, fly: 0 }); // 90' (30'), 90' (30') swimming
    });
    it('a monster that only swims ("Swimming") does not walk', () => {
      expect(speedsOf("Killer whale")).toEqual({ walk: 0, climb: 0, swim: 24, fly: 0 }); // 240' (80') swimming
    });
    it("reads lines typed as the rulebook prints them, with round rates in parentheses and prime signs", () => {
      expect(speedsOf("Stirge")).toEqual({ walk: 3, climb: 0, swim: 0, fly: 18 }); // 30' (10') / 180' (60') flying
      expect(speedsOf("Pixie")).toEqual({ walk: 9, climb: 0, swim: 0, fly: 18 }); // 90' (30'), fly 180' (60')
    });
    it("ignores notes that are no speed (webs, gliding, forms)", () => {
      expect(speedsOf("Black widow spider")).toEqual({ walk: 6, climb: 0, swim: 0, fly: 0 });
    });
    it("reads data made before the system moved the text to details.movement (movement.value)", () => {
      expect(speedsOf("Harpy")).toEqual({ walk: 6, climb: 0, swim: 0, fly: 15 }); // 60' (20'), 150' (50') flying
    });
    it("the Pursuit dialog prefills a group of fliers with their flying speed, not 0", async () => {
      const { setupFromTokens } = await import("../../src/pursuit/PursuitDialog.js"); // after boot: the window class needs Foundry
      const hawk = world.addUserActor(monsters.find((x) => x.name === "Hawk")!);
      const dragon = world.addUserActor(monsters.find((x) => x.name === "Red dragon")!);
      const tk = (id: string, actor: unknown) => ({ id, name: id, disposition: -1, actor });
      expect(setupFromTokens([tk("h", hawk)]).groups.opponents.speed).toBe(48);
      // With a walker in the group, the slowest usual speed: the dragon's walking 9 m.
      expect(setupFromTokens([tk("h", hawk), tk("d", dragon)]).groups.opponents.speed).toBe(9);
    });
    it("keeps the goblin (no movement details) walking only", () => {
      const gob = world.addUserActor(fixture("ose-monster"));
      expect(new OseAdapter().read(asActor(gob)).speeds).toEqual({ walk: 6, climb: 0, swim: 0, fly: 0 });
    });
  });

  it("uses core status ids (no system list)", () => {
    const a = new OseAdapter();
    expect(a.statusId("blinded")).toBe("blind");
    expect(a.statusId("hidden")).toBe("aventure-hidden");
    expect(a.statusId("surprised")).toBe("aventure-surprised");
  });

  it("applies damage with OSE's applyDamage(amount, multiplier)", async () => {
    const pc = world.addUserActor(fixture("ose-character"));
    const calls: unknown[] = [];
    (pc as unknown as Record<string, unknown>).applyDamage = async (...args: unknown[]) => calls.push(args);
    expect(await new OseAdapter().applyDamage(asActor(pc), 4, "bludgeoning")).toBe(true);
    expect(calls).toEqual([[4, 1]]);
  });

  it("is the adapter for ose and ose-dev", () => {
    expect(adapterFor("ose").id).toBe("ose");
    expect(adapterFor("ose-dev").id).toBe("ose");
  });
});

describe("generic adapter", () => {
  it("reads the paths configured in the Actor data setting, with a literal unit", async () => {
    const world = await bootWorld({ system: "worldbuilding" });
    await world.as("gm1", () =>
      game.settings.set("aventure", "actorData", {
        ...EMPTY_PATHS,
        strScore: "system.carac.force",
        conMod: "system.carac.conMod",
        darkvision: "system.vision.nuit",
        sensesUnit: "m",
        walk: "system.vitesse",
        speedUnit: "m",
        hp: "system.pv",
      }),
    );
    const a = world.addUserActor({
      _id: "x",
      name: "Xa",
      system: { carac: { force: "14", conMod: -1 }, vision: { nuit: 12 }, vitesse: 9, pv: 5 },
    });
    const adapter = adapterFor();
    expect(adapter.id).toBe("generic");
    const s = adapter.read(asActor(a));
    expect(s.strScore).toBe(14);
    expect(s.conMod).toBe(-1);
    expect(s.senses.darkvision).toBe(12);
    expect(s.speeds?.walk).toBe(9);
    expect(s.hp).toEqual({ value: 5, max: null });
    expect(s.passivePerception).toBeNull();
  });

  it("has no damage API (the glue posts a card) and rolls saves as 1d20 + modifier in chat", async () => {
    const world = await bootWorld({ system: "worldbuilding" });
    const a = world.addUserActor({ _id: "x", name: "Xa", system: { con: 2 } });
    const adapter = new GenericAdapter({ ...EMPTY_PATHS, conMod: "system.con" });
    expect(await adapter.applyDamage(asActor(a), 3, "bludgeoning")).toBe(false);
    world.queueRolls(13);
    expect(await adapter.rollSave(asActor(a), "con", { dc: 15, flavor: "CON" })).toMatchObject({
      total: 15,
      success: true,
      natural: 13,
    });
    expect(world.messages.size).toBe(1);
  });

  it("reads nothing from a path that does not exist (never NaN)", async () => {
    await bootWorld({ system: "worldbuilding" });
    const adapter = new GenericAdapter({ ...DND5E_PATHS });
    const s = adapter.read({ id: "e", name: "Empty", system: {} } as unknown as ActorLike);
    expect(s.strScore).toBeNull();
    expect(s.speeds).toBeNull();
    expect(s.senses).toEqual({ darkvision: 0, blindsight: 0, truesight: 0 });
  });
});

describe("conditions Aventure sets", () => {
  it("adds its own condition once (flagged as Aventure's in the same write) and removes only what it added", async () => {
    const world = await bootWorld({ system: "dnd5e" });
    const hero = world.addUserActor(fixture("dnd5e-character-ft"));
    const a = new Dnd5eAdapter();
    // This test calls its own copy of the adapter module: wire that copy's pre-create hook on gm1's client (the
    // module's own copy does the same in init).
    world.as("gm1", () => Hooks.on("preCreateActiveEffect", onPreCreateOwnStatus as never));
    const mark = world.writes.length;
    await world.as("gm1", async () => {
      await setOwnCondition(a, asActor(hero), "blinded", true);
      await setOwnCondition(a, asActor(hero), "blinded", true);
    });
    const writes = world.writesSince(mark);
    expect(writes.map((w) => `${w.action} ${w.documentName}`)).toEqual(["create ActiveEffect"]); // one write, flag included
    expect((writes[0]!.data as { flags: unknown }).flags).toEqual({ aventure: { applied: true } });
    await world.as("gm1", () => setOwnCondition(a, asActor(hero), "blinded", false));
    expect(hero.statuses.has("blinded")).toBe(false);
    // Set by hand by the GM: Aventure leaves it alone.
    await world.as("gm1", () => hero.toggleStatusEffect("prone", { active: true }));
    await world.as("gm1", () => setOwnCondition(a, asActor(hero), "prone", false));
    expect(hero.statuses.has("prone")).toBe(true);
  });

  it("refuses an unknown status id (the fake is as strict as Foundry)", async () => {
    const world = await bootWorld({ system: "dnd5e" });
    const hero = world.addUserActor(fixture("dnd5e-character-ft"));
    await expect(world.as("gm1", () => hero.toggleStatusEffect("blind"))).rejects.toThrow(/Invalid status ID/);
  });
});
