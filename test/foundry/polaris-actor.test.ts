/**
 * Aventure's own Polaris character type (docs/rules.md §9.3) against the
 * fake world: a character made from the shipped template (the "Aventure — Polaris" compendium), its values typed on its
 * sheet, read by the adapter with no data path typed; a Polaris test from the token HUD listing its skills and
 * attributes and rolling; the tracker's phases reading its Initiative and Réaction; bad input refused (the sheet with a
 * localized message, the schema for any other write), nothing changed. The values are typed here: the Mercenaire of
 * the rulebook's preview (seed 003: FOR 14, CON 14, COO 16, ADA 16, PER 12, INT 9, VOL 17, PRE 8; Chance 13, Réaction
 * 14), with an initiative score and skills of our own.
 */
import { describe, expect, it } from "vitest";
import { bootWorld, GM, PLAYER, viewScene, type FakeCombat, type FakeWorld } from "../world/index.js";
import { actorAttributes, actorSkills } from "../../src/polaris/actor.js";
import { polarisStats } from "../../src/combat/polaris-phases.js";
import { readStats } from "../../src/actors/read.js";
import { POLARIS_PATHS } from "../../src/actors/presets.js";
import { EMPTY_PATHS } from "../../src/core/core-settings.js";
import { POLARIS_IDS } from "../../packs-src/polaris.mjs";

const T = { timeout: 60_000 };
type Plain = Record<string, unknown>;
type Sheet = {
  element: HTMLElement;
  rendered: boolean;
  render(o?: Plain | boolean): Promise<unknown>;
  click(s: string): Promise<void>;
  setField(n: string, v: string): Promise<void>;
  isEditable: boolean;
};
type Actor = {
  id: string;
  name: string;
  type: string;
  system: Plain;
  sheet: Sheet | null;
  update(c: Plain): Promise<unknown>;
};

const set = (world: FakeWorld, key: string, value: unknown) =>
  world.as("gm1", () => game.settings.set("aventure" as never, key as never, value as never));
const errors = (world: FakeWorld, user = "gm1") =>
  world.notifications.filter((n) => n.user === user && n.type === "error").map((n) => n.message);
const text = (el: Element) => (el.textContent ?? "").replace(/\s+/g, " ").trim();

async function boot(opts: { system?: string; lang?: "en" | "fr"; generation?: number } = {}) {
  const world = await bootWorld({
    system: opts.system ?? "worldbuilding",
    users: [GM, PLAYER],
    lang: opts.lang,
    generation: opts.generation,
  });
  const scene = world.addScene({ _id: "s1" });
  for (const c of world.liveClients()) viewScene(world, c, scene);
  await set(world, "ruleset", "polaris");
  // No data path typed: the world's paths are empty.
  await set(world, "actorData", { ...EMPTY_PATHS });
  return { world, scene };
}

/** An actor made from a template of the compendium, as a GM imports it (the adventure's actor data, created). */
async function fromTemplate(
  world: FakeWorld,
  lang: "fr" | "en",
  kind: "character" | "creature",
  extra: Plain = {},
): Promise<Actor> {
  return world.as("gm1", async () => {
    const pack = game.packs.get("aventure.polaris") as unknown as {
      getDocument(id: string): Promise<{ actors: Set<{ _id: string; toObject(): Plain }> }>;
    };
    const adventure = await pack.getDocument(POLARIS_IDS[lang].adventure);
    const data = [...adventure.actors].find((a) => a._id === POLARIS_IDS[lang][kind])!.toObject();
    const Actor = globalThis.Actor as unknown as { create(d: Plain): Promise<Actor> };
    return Actor.create({ ...data, _id: undefined, folder: null, ...extra });
  });
}

/** The Mercenaire's values, typed on the sheet field by field. */
const MERCENAIRE: [string, string][] = [
  ["system.attributes.for.value", "14"],
  ["system.attributes.con.value", "14"],
  ["system.attributes.coo.value", "16"],
  ["system.attributes.ada.value", "16"],
  ["system.attributes.per.value", "12"],
  ["system.attributes.int.value", "9"],
  ["system.attributes.vol.value", "17"],
  ["system.attributes.pre.value", "8"],
  ["system.chance", "13"],
  ["system.reaction", "14"],
  ["system.initiative", "12"],
];

/** Opens the actor's sheet for `user` and types the Mercenaire, then two more skills (Pilotage 14/4, Plongée 12/3). */
async function typeMercenaire(world: FakeWorld, actor: Actor, user = "gm1"): Promise<Sheet> {
  const sheet = world.as(user, () => actor.sheet)!;
  await world.as(user, () => sheet.render(true));
  for (const [name, value] of MERCENAIRE) await world.as(user, () => sheet.setField(name, value));
  // The template's one skill (Escalade, Climbing in English): level 11, mastery 2.
  const first = sheet.element.querySelector<HTMLElement>("tr[data-skill]")!.dataset.skill!;
  await world.as(user, () => sheet.setField(`system.skills.${first}.level`, "11"));
  await world.as(user, () => sheet.setField(`system.skills.${first}.mastery`, "2"));
  for (const [label, level, mastery] of [
    ["Pilotage", "14", "4"],
    ["Plongée", "12", "3"],
  ] as const) {
    await world.as(user, () => sheet.click("[data-action='addSkill']"));
    await world.settle();
    await world.as(user, () => sheet.render());
    const row = [...sheet.element.querySelectorAll<HTMLElement>("tr[data-skill]")].at(-1)!;
    const key = row.dataset.skill!;
    await world.as(user, () => sheet.setField(`system.skills.${key}.label`, label));
    await world.as(user, () => sheet.setField(`system.skills.${key}.level`, level));
    await world.as(user, () => sheet.setField(`system.skills.${key}.mastery`, mastery));
  }
  await world.settle();
  return sheet;
}

describe("a Polaris character from the shipped template, typed on its sheet, read with no data path typed", () => {
  it(
    "the template is of Aventure's type, its sheet is the type's default; every skill, attribute, Réaction and Initiative is read",
    T,
    async () => {
      const { world } = await boot({ lang: "fr" });
      const actor = await fromTemplate(world, "fr", "character");
      expect(actor.type).toBe("aventure.polaris");
      expect(actor.name).toBe("Personnage Polaris");
      // The data model filled every value empty.
      expect(actor.system).toEqual({
        attributes: {
          for: { value: null },
          con: { value: null },
          coo: { value: null },
          ada: { value: null },
          per: { value: null },
          int: { value: null },
          vol: { value: null },
          pre: { value: null },
        },
        chance: null,
        reaction: null,
        initiative: null,
        skills: { escalade: { label: "Escalade", attribute: null, level: null, mastery: null } },
      });
      const sheet = await typeMercenaire(world, actor);
      expect(sheet.constructor.name).toBe("PolarisActorSheet");
      expect(errors(world)).toEqual([]);
      await world.as("gm1", async () => {
        expect(actorSkills(actor)).toEqual([
          { key: "escalade", label: "Escalade", level: 11, mastery: 2 },
          { key: "skill2", label: "Pilotage", level: 14, mastery: 4 },
          { key: "skill3", label: "Plongée", level: 12, mastery: 3 },
        ]);
        expect(actorAttributes(actor)).toEqual([
          { key: "for", label: "Force", level: 14 },
          { key: "con", label: "Constitution", level: 14 },
          { key: "coo", label: "Coordination", level: 16 },
          { key: "ada", label: "Adaptation", level: 16 },
          { key: "per", label: "Perception", level: 12 },
          { key: "int", label: "Intelligence", level: 9 },
          { key: "vol", label: "Volonté", level: 17 },
          { key: "pre", label: "Présence", level: 8 },
        ]);
      });
      const stats = readStats(actor, POLARIS_PATHS);
      expect([stats.polarisInitiative, stats.polarisReaction]).toEqual([12, 14]);
      expect(actor.system.chance).toBe(13);
      // The sheet shows what was typed.
      await world.as("gm1", () => sheet.render());
      expect((sheet.element.querySelector("[name='system.reaction']") as HTMLInputElement).value).toBe("14");
      expect(text(sheet.element)).toContain("Compétences");
    },
  );

  it("is read the same under the dnd5e system, whatever the world's preset (the D&D 5e paths)", T, async () => {
    const { world } = await boot({ system: "dnd5e" });
    const actor = await fromTemplate(world, "en", "character");
    await typeMercenaire(world, actor);
    await world.as("gm1", () => {
      expect(actorSkills(actor).map((s) => [s.label, s.level, s.mastery])).toEqual([
        ["Climbing", 11, 2],
        ["Pilotage", 14, 4],
        ["Plongée", 12, 3],
      ]);
      expect(actorAttributes(actor).map((a) => `${a.label} ${a.level}`)).toEqual([
        "Strength 14",
        "Constitution 14",
        "Coordination 16",
        "Adaptation 16",
        "Perception 12",
        "Intelligence 9",
        "Willpower 17",
        "Presence 8",
      ]);
    });
  });

  it("its owner (a player) types on the sheet; another player's sheet is read-only", T, async () => {
    const { world } = await boot();
    const mine = await fromTemplate(world, "en", "character", { ownership: { p1: 3 } });
    await typeMercenaire(world, mine, "p1");
    expect(mine.system.reaction).toBe(14);
    const theirs = await fromTemplate(world, "en", "creature");
    const sheet = world.as("p1", () => theirs.sheet)!;
    expect(world.as("p1", () => sheet.isEditable)).toBe(false);
  });
});

describe("removing a skill on the sheet", () => {
  for (const generation of [13, 14]) {
    it(
      `v${generation}: the skill's button removes it (v13: the "-=key" form; v14: the _del operator), the others stay`,
      T,
      async () => {
        const { world } = await boot({ generation });
        const actor = await fromTemplate(world, "en", "character");
        const sheet = await typeMercenaire(world, actor);
        await world.as("gm1", () => sheet.render());
        await world.as("gm1", () => sheet.click("tr[data-skill='skill2'] [data-action='deleteSkill']"));
        await world.settle();
        expect(Object.keys(actor.system.skills as Plain)).toEqual(["climbing", "skill3"]);
        expect(world.deprecations).toEqual([]);
        await world.as("gm1", () => sheet.render());
        expect([...sheet.element.querySelectorAll<HTMLElement>("tr[data-skill]")].map((r) => r.dataset.skill)).toEqual([
          "climbing",
          "skill3",
        ]);
        // A new skill never takes a key still in use.
        await world.as("gm1", () => sheet.click("[data-action='addSkill']"));
        await world.settle();
        expect(Object.keys(actor.system.skills as Plain)).toEqual(["climbing", "skill3", "skill4"]);
      },
    );
  }
});

describe("a Polaris test from the token HUD of that character", () => {
  it(
    "lists its skills and attributes and rolls: Pilotage 14, Moyenne, die 9 → success, margin 5, Fairly good (+2)",
    T,
    async () => {
      const { world, scene } = await boot();
      const actor = await fromTemplate(world, "en", "character", { ownership: { p1: 3 } });
      await typeMercenaire(world, actor);
      const token = world.addToken(scene, { _id: "tMerc", name: "Mercenaire", actorId: actor.id, actorLink: true });
      type Dialog = {
        element: HTMLElement;
        click(s: string): Promise<void>;
        setField(n: string, v: string): Promise<void>;
      };
      const opened: Dialog[] = [];
      world.as("p1", () =>
        Hooks.on("renderPolarisTestDialog" as never, ((app: Dialog) => void opened.push(app)) as never),
      );
      world.click("p1", world.renderTokenHUD(token, "p1").querySelector("[data-action='aventure-polaris-test']"));
      await world.settle();
      expect(opened).toHaveLength(1);
      const app = opened[0]!;
      const field = (n: string) => app.element.querySelector(`[name="${n}"]`) as HTMLInputElement | HTMLSelectElement;
      expect([...(field("skill") as HTMLSelectElement).options].map((o) => o.textContent)).toEqual([
        "— typed by hand —",
        "Climbing (11)",
        "Pilotage (14)",
        "Plongée (12)",
      ]);
      await world.as("p1", () => app.setField("skill", "skill2"));
      expect([field("chance").value, field("mastery").value]).toEqual(["14", "4"]);
      world.queueRolls(9);
      await world.as("p1", () => app.click("[data-action='roll']"));
      await world.settle();
      const card = text(world.renderMessage(world.messages.contents.at(-1)!, "gm1"));
      expect(card).toContain("Success — Fairly good (+2)");
      expect(card).toContain("Margin 5");
      // The attributes, by their names.
      await world.as("p1", () => app.setField("kind", "attribute"));
      expect([...(field("attribute") as HTMLSelectElement).options].map((o) => o.textContent)).toEqual([
        "— typed by hand —",
        "Strength (14)",
        "Constitution (14)",
        "Coordination (16)",
        "Adaptation (16)",
        "Perception (12)",
        "Intelligence (9)",
        "Willpower (17)",
        "Presence (8)",
      ]);
    },
  );
});

describe("the tracker's phases read Initiative and Réaction from the type", () => {
  it(
    "Mercenaire (Initiative 12, Réaction 14) and a creature (12, Réaction 10): phase 12, the higher Réaction first; no dice",
    T,
    async () => {
      const { world, scene } = await boot();
      const merc = await fromTemplate(world, "en", "character");
      await typeMercenaire(world, merc);
      const shark = await fromTemplate(world, "en", "creature", { name: "Requin" });
      const sheet = world.as("gm1", () => shark.sheet)!;
      await world.as("gm1", () => sheet.render(true));
      await world.as("gm1", () => sheet.setField("system.initiative", "12"));
      await world.as("gm1", () => sheet.setField("system.reaction", "10"));
      await world.settle();
      world.addToken(scene, { _id: "tShark", name: "Requin", actorId: shark.id, actorLink: false, disposition: -1 });
      world.addToken(scene, { _id: "tMerc", name: "Mercenaire", actorId: merc.id, actorLink: true });
      const id = await world.as("gm1", async () => {
        const Combat = CONFIG.Combat.documentClass as unknown as { create(d: object): Promise<FakeCombat> };
        const c = await Combat.create({ scene: "s1", active: true });
        await c.createEmbeddedDocuments("Combatant", [
          { tokenId: "tShark", sceneId: "s1" },
          { tokenId: "tMerc", sceneId: "s1" },
        ]);
        return c.id;
      });
      await world.as("gm1", () => (game.combats.get(id) as unknown as FakeCombat).rollAll());
      await world.settle();
      const c = world.as("gm1", () => game.combats.get(id) as unknown as FakeCombat);
      expect(world.rollsMade).toEqual([]);
      expect(c.turns.map((x) => [x.name, x.initiative])).toEqual([
        ["Mercenaire", 12],
        ["Requin", 12],
      ]);
      expect(world.as("gm1", () => c.turns.map((x) => polarisStats(x as never)))).toEqual([
        { initiative: 12, reaction: 14 },
        { initiative: 12, reaction: 10 },
      ]);
    },
  );
});

describe("a skill's name is text wherever it shows", () => {
  it("an HTML name typed by its owner stays text on the sheet and in the test window", T, async () => {
    const { world, scene } = await boot();
    const actor = await fromTemplate(world, "en", "character", { ownership: { p1: 3 } });
    const sheet = world.as("p1", () => actor.sheet)!;
    await world.as("p1", () => sheet.render(true));
    const evil = `"><img src=x onerror="alert(1)">`;
    await world.as("p1", () => sheet.setField("system.skills.climbing.label", evil));
    await world.as("p1", () => sheet.setField("system.skills.climbing.level", "10"));
    await world.settle();
    await world.as("p1", () => sheet.render());
    expect((actor.system.skills as Record<string, { label: string }>).climbing!.label).toBe(evil);
    expect(sheet.element.querySelector("img[src='x']")).toBeNull();
    expect((sheet.element.querySelector("[name='system.skills.climbing.label']") as HTMLInputElement).value).toBe(evil);
    const token = world.addToken(scene, { _id: "tP", name: "P", actorId: actor.id, actorLink: true });
    type Dialog = { element: HTMLElement };
    const opened: Dialog[] = [];
    world.as("p1", () =>
      Hooks.on("renderPolarisTestDialog" as never, ((app: Dialog) => void opened.push(app)) as never),
    );
    world.click("p1", world.renderTokenHUD(token, "p1").querySelector("[data-action='aventure-polaris-test']"));
    await world.settle();
    expect(opened[0]!.element.querySelector("img[src='x']")).toBeNull();
    expect([...opened[0]!.element.querySelectorAll("[name='skill'] option")].map((o) => o.textContent)).toContain(
      `${evil} (10)`,
    );
  });
});

describe("bad input is refused, nothing changed", () => {
  it(
    "on the sheet: a word, a negative level, a fraction, a level above 100 → a clear message naming the field; nothing written",
    T,
    async () => {
      const { world } = await boot({ lang: "fr" });
      const actor = await fromTemplate(world, "fr", "character");
      const sheet = await typeMercenaire(world, actor);
      const before = JSON.stringify(actor.system);
      const writes = world.writes.length;
      for (const [name, value] of [
        ["system.reaction", "abc"],
        ["system.skills.escalade.level", "-3"],
        ["system.attributes.for.value", "12.5"],
        ["system.initiative", "101"],
      ] as const) {
        await world.as("gm1", () => sheet.setField(name, value));
        await world.settle();
      }
      expect(errors(world)).toEqual([
        "Réaction\u202f: saisissez un nombre entier de 0 à 100, ou laissez vide. Rien n’a été modifié.",
        "Escalade (Niveau)\u202f: saisissez un nombre entier de 0 à 100, ou laissez vide. Rien n’a été modifié.",
        "Force\u202f: saisissez un nombre entier de 0 à 100, ou laissez vide. Rien n’a été modifié.",
        "Initiative\u202f: saisissez un nombre entier de 0 à 100, ou laissez vide. Rien n’a été modifié.",
      ]);
      expect(world.writes.length).toBe(writes);
      expect(JSON.stringify(actor.system)).toBe(before);
      // The sheet shows the stored values again after a refusal.
      expect((sheet.element.querySelector("[name='system.initiative']") as HTMLInputElement).value).toBe("12");
    },
  );

  it(
    "through the API: the schema refuses NaN, a negative level, an unknown attribute, a bad skill key; the type must be declared",
    T,
    async () => {
      const { world } = await boot();
      const actor = await fromTemplate(world, "en", "character");
      const before = JSON.stringify(actor.system);
      const writes = world.writes.length;
      for (const [change, message] of [
        [{ "system.reaction": Number.NaN }, /system\.reaction: must be a finite number/],
        [{ "system.skills.climbing.level": -1 }, /system\.skills\.climbing\.level: must be at least 0/],
        [{ "system.initiative": 7.5 }, /system\.initiative: must be an integer/],
        [
          { "system.skills.climbing.attribute": "luck" },
          /system\.skills\.climbing\.attribute: luck is not a valid choice/,
        ],
        [
          { "system.skills.a b": { label: "X", attribute: null, level: 1, mastery: 0 } },
          /system\.skills\.a b: is not a valid key/,
        ],
      ] as const) {
        await expect(world.as("gm1", () => actor.update(change as Plain))).rejects.toThrow(message);
      }
      expect(world.writes.length).toBe(writes);
      expect(JSON.stringify(actor.system)).toBe(before);
      // A numeric string is cast by the schema, as Foundry's NumberField does.
      await world.as("gm1", () => actor.update({ "system.reaction": "9" }));
      expect(actor.system.reaction).toBe(9);
      const Actor = globalThis.Actor as unknown as { create(d: Plain): Promise<unknown> };
      await expect(world.as("gm1", () => Actor.create({ name: "X", type: "aventure.nope" }))).rejects.toThrow(
        '"aventure.nope" is not a valid type for the Actor Document class',
      );
      await expect(
        world.as("gm1", () => Actor.create({ name: "Y", type: "aventure.polaris", system: { reaction: -2 } })),
      ).rejects.toThrow(/system\.reaction: must be at least 0/);
    },
  );
});
