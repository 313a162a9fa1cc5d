/**
 * In-world tests of movement and falls (Quench batch "aventure.movement"): a real scene, a dnd5e-shaped creature, a
 * Fall region, a drop, the API, the ruler's cost functions. Dice are real: expectations are derived from the card's
 * own roll, never from a fixed die.
 */
import { MODULE_ID } from "../../constants.js";
import { Sandbox, waitFor } from "./sandbox.js";
import type { Batch, BatchContext } from "./types.js";

interface TokenDoc {
  id: string | null;
  x: number;
  elevation: number;
  actor: { id: string | null; statuses: Set<string>; system: { attributes?: { hp?: { value: number } } } } | null;
  move?(waypoints: object, options?: object): Promise<unknown>;
  update(data: object): Promise<unknown>;
}

type FallFlag = { status?: string; damage?: number; prone?: boolean };
const fallOf = (m: ChatMessage): FallFlag | undefined => (m.flags as Record<string, Record<string, unknown> | undefined>)[MODULE_ID]?.fall as FallFlag | undefined;
const rollTotal = (m: ChatMessage): number => (m.rolls?.[0]?.total as number | undefined) ?? 0;
const hp = (t: TokenDoc): number => t.actor?.system.attributes?.hp?.value ?? NaN;

async function move(token: TokenDoc, to: { x?: number; elevation?: number }): Promise<void> {
  if (typeof token.move === "function") await token.move({ ...to }, { method: "api" });
  else await token.update(to);
}

function movementTests({ describe, it, before, after, assert }: BatchContext): void {
  describe("Falls and movement costs", () => {
    const box = new Sandbox();
    let n = 0;
    const creature = async (elevation = 0) => {
      n++;
      const actor = await box.actor({ name: `Aventure test ${n}`, type: "npc", system: { attributes: { hp: { value: 20, max: 20 } } } });
      return box.embedded<TokenDoc>("Token", { name: `Aventure test ${n}`, actorId: actor.id, actorLink: true, x: 0, y: 0, elevation });
    };
    const fallCards = () => box.messages().filter((m) => fallOf(m));
    before(() => box.open());
    after(() => box.close());

    it("a creature walking into a 9 m Fall region rolls 3d6 once, loses that many hit points and falls prone", async () => {
      await box.setting("fallRegions", true);
      const token = await creature();
      await box.embedded("Region", {
        name: "Aventure test pit",
        shapes: [{ type: "rectangle", x: 500, y: 0, width: 300, height: 300, rotation: 0, hole: false }],
        behaviors: [{ type: `${MODULE_ID}.fall`, system: { height: 9 } }],
      });
      await move(token, { x: 600 });
      const card = await waitFor(() => fallCards().find((m) => fallOf(m)?.status === "applied"), "the fall card");
      assert.equal(fallCards().length, 1, "one fall card");
      assert.lengthOf((card.rolls?.[0] as unknown as { dice: { results: unknown[] }[] }).dice[0]!.results, 3, "3d6");
      const damage = rollTotal(card);
      assert.equal(hp(token), Math.max(0, 20 - damage), "hit points lowered by the roll, once");
      assert.isTrue(token.actor!.statuses.has("prone"), "prone");
    });

    it("api.fall of 2.5 m posts a card without dice and changes no hit points", async () => {
      const token = await creature();
      const before = fallCards().length;
      await (game.modules.get(MODULE_ID) as unknown as { api: { fall(t: unknown, m: number): Promise<unknown> } }).api.fall(token, 2.5);
      const card = await waitFor(() => fallCards()[before], "the fall card");
      assert.lengthOf(card.rolls ?? [], 0, "no dice under 3 m");
      assert.equal(hp(token), 20);
    });

    it("an elevation drop of 6 m falls automatically (2d6) when the setting says so", async () => {
      await box.setting("fallOnDrop", "automatic");
      const token = await creature(6);
      const before = fallCards().length;
      await move(token, { elevation: 0 });
      const card = await waitFor(() => fallCards().slice(before).find((m) => fallOf(m)?.status === "applied"), "the fall card");
      assert.lengthOf((card.rolls?.[0] as unknown as { dice: { results: unknown[] }[] }).dice[0]!.results, 2, "2d6");
      assert.equal(hp(token), Math.max(0, 20 - rollTotal(card)));
    });

    it("Rôle'n Play: climbing through difficult terrain costs 3 m of movement per metre (core would charge 4)", async () => {
      await box.setting("ruleset", "rnp");
      const token = await creature();
      const actions = (CONFIG.Token as unknown as { movement: { actions: Record<string, { getCostFunction(t: unknown, o: object): (c: number, a: unknown, b: unknown, d: number, s: unknown) => number }> } }).movement.actions;
      const cost = actions.climb!.getCostFunction(token, {});
      assert.equal(cost(3, {}, {}, 1.5, {}), 4.5, "1.5 m of difficult climbing (base cost 3) costs 4.5 m");
    });

    it("without the movement costs setting, core's own cost is back", async () => {
      await box.setting("movementCosts", false);
      const token = await creature();
      const actions = (CONFIG.Token as unknown as { movement: { actions: Record<string, { getCostFunction(t: unknown, o: object): (c: number, a: unknown, b: unknown, d: number, s: unknown) => number }> } }).movement.actions;
      assert.equal(actions.climb!.getCostFunction(token, {})(3, {}, {}, 1.5, {}), 6, "core: climbing ×2 on top of the terrain");
    });
  });
}

export const MOVEMENT_BATCH: Batch = { key: `${MODULE_ID}.movement`, displayName: "Aventure: movement and falls", fn: movementTests };
