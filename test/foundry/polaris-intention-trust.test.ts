/**
 * A change of intention's Adaptation comes from the character sheet, not from the requester (issue 20, item 10a;
 * docs/security.md): a player with the console open sends request "polarisIntention" with a made-up level and mastery
 * for their own combatant; the active GM reads the actor's Adaptation through the Actor data paths when it can, uses
 * the sent values only when it cannot, and says on the card which it used. RULES.md §9.1 for the expected outcomes.
 */
import { describe, expect, it } from "vitest";
import { bootWorld, forgeRequest, GM, PLAYER, viewScene, type FakeCombat, type FakeWorld } from "../world/index.js";
import { EMPTY_PATHS } from "../../src/core/core-settings.js";
import { cardsOf } from "./card-state.js";

const T = { timeout: 60_000 };

const set = (world: FakeWorld, key: string, value: unknown) =>
  world.as("gm1", () => game.settings.set("aventure" as never, key as never, value as never));

/** Mercenaire (12), Plongeuse (p1's, 9; Adaptation `diver` when given, mastery 0), round 1 started. */
async function intentionCombat(diver: { level: number; mastery?: number } | null) {
  const world = await bootWorld({ system: "worldbuilding", users: [GM, PLAYER] });
  const scene = world.addScene({ _id: "s1" });
  for (const c of world.liveClients()) viewScene(world, c, scene);
  await set(world, "ruleset", "polaris");
  await set(world, "actorData", {
    ...EMPTY_PATHS,
    polarisInitiative: "system.init",
    polarisReaction: "system.reaction",
    polarisSkillLevel: "system.skills.*.value",
    polarisSkillMastery: "system.skills.*.mastery",
  });
  const skills = diver
    ? {
        skills: {
          adaptation: { value: diver.level, ...(diver.mastery !== undefined ? { mastery: diver.mastery } : {}) },
        },
      }
    : {};
  world.addUserActor({ _id: "merc", name: "Mercenaire", ownership: {}, system: { init: 12, reaction: 14 } });
  world.addUserActor({
    _id: "diver",
    name: "Plongeuse",
    ownership: { p1: 3 },
    system: { init: 9, reaction: 12, ...skills },
  });
  for (const id of ["merc", "diver"]) world.addToken(scene, { _id: `t${id}`, name: id, actorId: id, actorLink: true });
  const id = await world.as("gm1", async () => {
    const Combat = CONFIG.Combat.documentClass as unknown as { create(d: object): Promise<FakeCombat> };
    const c = await Combat.create({ scene: "s1", active: true });
    await c.createEmbeddedDocuments(
      "Combatant",
      ["merc", "diver"].map((a) => ({ tokenId: `t${a}`, sceneId: "s1" })),
    );
    return c.id;
  });
  await world.as("gm1", () => (game.combats.get(id) as unknown as FakeCombat).rollAll());
  await world.as("gm1", () => (game.combats.get(id) as unknown as FakeCombat).startCombat());
  await world.settle();
  const c = world.as("gm1", () => game.combats.get(id) as unknown as FakeCombat);
  const diverId = c.combatants.contents.find((x) => x.tokenId === "tdiver")!.id;
  return { world, c, diverId };
}

/** The last intention card as the GM's chat log shows it, tags replaced by spaces (as polaris.test.ts reads cards). */
const cardText = (world: FakeWorld) => {
  const m = cardsOf(world.messages.contents, "polarisIntention").at(-1)!;
  const html = world.renderMessage(m, "gm1").innerHTML;
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/[ \t\r\n]+/g, " ")
    .trim();
};

describe("changing intention: the Adaptation is the sheet's (issue 20, item 10a)", () => {
  it(
    "attack: a player sends Adaptation 20 and mastery 10 for their diver whose sheet says 3 and 0: the sheet's are used, and the card says so",
    T,
    async () => {
      const { world, c, diverId } = await intentionCombat({ level: 3, mastery: 0 });
      world.queueRolls(5);
      const reply = await forgeRequest(world, "p1", "polarisIntention", {
        combatId: c.id,
        combatantId: diverId,
        chance: 20,
        mastery: 10,
      });
      // Chance 3 (Moyenne, ±0) against a 5: a failure (with 20 it was a success).
      expect(reply).toMatchObject({ ok: true, result: { die: 5, success: false } });
      const t = cardText(world);
      expect(t).toContain("Adaptation level 3");
      expect(t).not.toContain("Adaptation level 20");
      expect(t).toContain("Read from diver's character sheet: Adaptation level and mastery.");
    },
  );

  it(
    "the sheet gives the level but no mastery: the level is the sheet's, the mastery the sender's (said on the card)",
    T,
    async () => {
      const { world, c, diverId } = await intentionCombat({ level: 12 });
      world.queueRolls(12);
      const reply = await forgeRequest(world, "p1", "polarisIntention", {
        combatId: c.id,
        combatantId: diverId,
        chance: 19,
        mastery: 3,
      });
      // Die 12 = chance 12: a critical success; margin (mastery 3: RULES.md §9.1) shown on the card.
      expect(reply).toMatchObject({ ok: true, result: { die: 12, success: true } });
      const t = cardText(world);
      expect(t).toContain("Adaptation level 12");
      expect(t).toContain("Read from diver's character sheet: Adaptation level.");
      expect(t).toContain("Typed by p1, not readable on the character sheet: mastery.");
    },
  );

  it("no Adaptation on the sheet: the sent level is used, and the card says who typed it", T, async () => {
    const { world, c, diverId } = await intentionCombat(null);
    world.queueRolls(5);
    expect(
      await forgeRequest(world, "p1", "polarisIntention", { combatId: c.id, combatantId: diverId, chance: 11 }),
    ).toMatchObject({ ok: true, result: { success: true } });
    const t = cardText(world);
    expect(t).toContain("Adaptation level 11");
    expect(t).toContain("Typed by p1, not readable on the character sheet: Adaptation level.");
  });

  it(
    "a GM may give another level (api.changeIntention's chance): used, and the card says a GM typed it",
    T,
    async () => {
      const { world, c, diverId } = await intentionCombat({ level: 3, mastery: 0 });
      world.queueRolls(5);
      expect(
        await forgeRequest(world, "gm1", "polarisIntention", { combatId: c.id, combatantId: diverId, chance: 8 }),
      ).toMatchObject({ ok: true, result: { success: true } });
      const t = cardText(world);
      expect(t).toContain("Adaptation level 8");
      expect(t).toContain("Typed by gm1 (GM): Adaptation level.");
      expect(t).toContain("Read from diver's character sheet: mastery.");
    },
  );
});
