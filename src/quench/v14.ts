/**
 * In-world tests of what Foundry v14 changed under the module (Quench batch "aventure.v14", docs/compat.md): a scene
 * with two levels, a staircase move that is no fall, a creature upstairs that does not notice one hiding downstairs
 * (a creature on the same floor does), and the running exhaustion of a dungeon chase given again in a second chase
 * once the first one's has expired (v14 core only marks it expired). It runs only on v14: on v13 it registers a
 * single skipped note. Dice are real: nothing here depends on a die.
 */
import { MODULE_ID } from "../core/constants.js";
import { isV14 } from "../core/compat.js";
import { cardOf, Sandbox, waitFor } from "./sandbox.js";
import type { Batch, BatchContext } from "./types.js";

interface TokenDoc {
  id: string | null;
  name: string;
  level?: string | null;
  elevation: number;
  actor: {
    id: string | null;
    name: string;
    statuses: Set<string>;
    effects: Iterable<EffectDoc>;
    system: { attributes?: { hp?: { value: number } } };
  } | null;
  move(waypoints: object, options?: object): Promise<unknown>;
  update(data: object): Promise<unknown>;
}
interface EffectDoc {
  flags: Record<string, Record<string, unknown> | undefined>;
  duration?: { expired?: boolean } | null;
}
interface V14Api {
  checkDetection(ids?: string[] | null): Promise<{ noticed: string[] } | null | undefined>;
  openPursuit(options: { tokens: TokenDoc[] }): Promise<{
    start(): Promise<{ dungeon?: unknown } | null>;
    dungeon(op: "round"): Promise<unknown>;
    change(name: string, value: string | boolean): Promise<unknown>;
    close(): Promise<unknown>;
  }>;
}

function api(): V14Api {
  const mod = game.modules.get(MODULE_ID);
  if (!mod?.api) throw new Error("aventure | the module's API is missing");
  return mod.api as unknown as V14Api; // cast: the API as far as this batch uses it
}
const SQUARE = 100;
const at = (x: number, y: number) => ({ x: x * SQUARE - SQUARE / 2, y: y * SQUARE - SQUARE / 2 });
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const live = (e: EffectDoc) => e.flags?.[MODULE_ID]?.runExhaustion === true && e.duration?.expired !== true;

function v14Tests({ describe, it, before, after, assert }: BatchContext): void {
  if (!isV14()) {
    describe("Foundry v14 (scene levels, expired effects)", () => {
      it("skipped: this batch runs only on Foundry v14", () => undefined);
    });
    return;
  }
  describe("Foundry v14: a scene with two levels", () => {
    const box = new Sandbox();
    let ground = "";
    let upper = "";
    let n = 0;
    const creature = async (
      name: string,
      where: [number, number],
      level: string,
      disposition: number,
      abilities: Record<string, number> = {},
    ) => {
      n++;
      const system = {
        abilities: Object.fromEntries(Object.entries(abilities).map(([k, value]) => [k, { value }])),
        attributes: { hp: { value: 20, max: 20 } },
      };
      const actor = await box.actor({ name: `Aventure ${name} ${n}`, type: "npc", system });
      return box.embedded<TokenDoc>("Token", {
        name: `${name} ${n}`,
        actorId: actor.id,
        actorLink: true,
        disposition,
        level,
        elevation: level === upper ? 6 : 0,
        ...at(...where),
      });
    };

    before(async () => {
      await box.open();
      const scene = game.scenes.get(box.scene!.id!)!;
      await scene.update({ environment: { darknessLevel: 0, globalLight: { enabled: true } } });
      ground = (
        await box.embedded<{ id: string }>("Level", {
          name: "Aventure test: ground floor",
          elevation: { bottom: 0, top: 6 },
        })
      ).id;
      upper = (
        await box.embedded<{ id: string }>("Level", {
          name: "Aventure test: upper floor",
          elevation: { bottom: 6, top: 12 },
        })
      ).id;
    });
    after(() => box.close());

    it("a staircase move from the upper floor (6 m) down to the ground floor is no fall", async () => {
      await box.setting("fallOnDrop", "automatic");
      const token = await creature("Walker", [2, 2], upper, 1);
      await token.move({ ...at(4, 2), elevation: 0, level: ground }, { method: "api" });
      await waitFor(() => token.level === ground, "the token on the ground floor");
      await pause(500);
      assert.lengthOf(
        box.messages().filter((m) => cardOf(m, "fall") !== undefined),
        0,
        "no fall card",
      );
      assert.equal(token.actor!.system.attributes?.hp?.value, 20, "no damage");
    });

    it("a creature upstairs does not notice one hiding downstairs; one on the same floor does", async () => {
      await box.setting("detectionMode", "prompt");
      const rogue = await creature("Shade", [10, 10], ground, 1);
      const guard = await creature("Drowsy", [20, 16], ground, -1, { wis: 1 });
      const above = await creature("Above", [10, 11], upper, -1, { wis: 30 }); // passive Perception 20, right above
      const beside = await creature("Beside", [12, 10], ground, -1, { wis: 30 });
      const entry = {
        dc: 12,
        from: [guard.id!],
        because: { [guard.id!]: "darkness" as const },
        light: "dark" as const,
        seenBy: [],
        x: 10 * SQUARE,
        y: 10 * SQUARE,
      };
      await game.scenes.get(box.scene!.id!)!.update({ flags: { [MODULE_ID]: { hides: { [rogue.id!]: entry } } } });
      await rogue.update(at(10, 9)); // a step in the light: ambient detection judges the creatures that may see it
      const card = await waitFor(
        () => box.messages().find((m) => cardOf(m, "detect") !== undefined),
        "the detection card",
      );
      const rows = cardOf<{ rows: { observerId: string; hiderId: string }[] }>(card, "detect")!.rows;
      assert.deepEqual(
        rows.map((r) => [r.observerId, r.hiderId]),
        [[beside.id, rogue.id]],
        "only the creature on the same floor notices it",
      );
      const again = await api().checkDetection();
      assert.isFalse(
        (again?.noticed ?? []).includes(`${above.id}|${rogue.id}`),
        "the creature upstairs does not, even on a forced pass",
      );
    });

    it("the running exhaustion applies in two chases in a row (the first one's expired after three turns of rest)", async () => {
      await box.setting("ruleset", "ose");
      await box.setting("encounterTurn", false);
      const runner = await creature("Runner", [3, 14], ground, 1);
      const orc = await creature("Orc", [6, 14], ground, -1);
      const chase = async () => {
        const d = await api().openPursuit({ tokens: [runner, orc] });
        try {
          if (!(await d.start())) throw new Error("aventure | the chase did not start");
          for (let round = 1; round <= 30; round++) await d.dungeon("round");
        } finally {
          await d.close().catch(() => undefined);
        }
      };
      await chase();
      await waitFor(() => [...runner.actor!.effects].some(live), "the first running exhaustion");
      await box.advanceTime(1800); // three turns of rest (docs/rules.md §1: 1 turn = 10 min)
      await waitFor(() => ![...runner.actor!.effects].some(live), "the end of the first running exhaustion");
      await chase();
      await waitFor(() => [...runner.actor!.effects].some(live), "the second running exhaustion");
      assert.lengthOf([...runner.actor!.effects].filter(live), 1, "one running exhaustion in force");
    });
  });
}

export const V14_BATCH: Batch = {
  key: `${MODULE_ID}.v14`,
  displayName: "Aventure: Foundry v14 (scene levels, expired effects)",
  fn: v14Tests,
};
