/**
 * In-world tests of Old-School Essentials wilderness travel (Quench batch "aventure.wilderness", docs/rules.md §12): a
 * regional map painted with a road, a forest and a swamp (Travel terrain regions with an OSE terrain), the route along
 * a Drawing split by them in the Travel dialog, a journey applied (a card whispered to the GMs, the party's token where
 * the last day ends, world time a whole day per day) and undone. Dice are real: expectations come from the card's own
 * journal, never from a fixed die.
 */
import { MODULE_ID } from "../core/constants.js";
import { cardOf, Sandbox, waitFor } from "./sandbox.js";
import { offHook, onHook } from "../core/hooks-typed.js";
import type { Batch, BatchContext } from "./types.js";

interface TokenDoc {
  id: string | null;
  x: number;
  y: number;
}
type Journal = {
  status: string;
  journal: { time: { before: number; after: number } | null; tokens: { after: { x: number; y: number } }[] };
};

function api() {
  const module = game.modules.get(MODULE_ID);
  if (!module?.api) throw new Error("aventure | the module is not active");
  return module.api;
}
const journeyOf = (m: ChatMessage | undefined): Journal | undefined =>
  m ? (cardOf(m, "travel") as Journal | undefined) : undefined;

function wildernessTests({ describe, it, before, after, assert }: BatchContext): void {
  describe("Old-School Essentials wilderness travel", () => {
    const box = new Sandbox();
    /**
     * 1 km a space; road x 0..2800, forest 2800..5200, swamp 5200..8000; the route along y = 500 from x = 100 to 7900.
     */
    const map = async () => {
      await game.scenes
        .get(box.scene?.id ?? "")
        ?.update({ grid: { size: 100, distance: 1, units: "km" }, width: 9000 });
      for (const [name, x, width, oseTerrain] of [
        ["Aventure test road", 0, 2800, "road"],
        ["Aventure test forest", 2800, 2400, "forest"],
        ["Aventure test swamp", 5200, 2800, "swamp"],
      ] as const) {
        await box.embedded("Region", {
          name,
          shapes: [{ type: "rectangle", x, y: 300, width, height: 400, rotation: 0, hole: false }],
          behaviors: [{ type: `${MODULE_ID}.travelTerrain`, system: { terrain: "normal", label: "", oseTerrain } }],
        });
      }
      return box.embedded<{ id: string | null }>("Drawing", {
        x: 100,
        y: 500,
        shape: { type: "p", width: 7800, height: 0, points: [0, 0, 7800, 0] },
      });
    };
    before(async () => {
      await box.open();
      await box.setting("ruleset", "ose");
    });
    after(() => box.close());

    it("splits the route by the painted OSE terrains and applies the days once, for the GMs; Undo puts it back", async () => {
      const drawing = await map();
      const actor = await box.actor({ name: "Aventure wanderer", type: "character" });
      const token = await box.embedded<TokenDoc>("Token", {
        name: "Aventure wanderer",
        actorId: actor.id,
        actorLink: true,
        x: 50,
        y: 450,
      });
      const start = game.time.worldTime;
      const dialog: {
        formState: { route: { legs: { metres: number; terrain: string }[] } };
        change(name: string, value: string | boolean): Promise<unknown>;
        apply(): Promise<{ ok: boolean; messageId?: string | null } | null>;
        // cast: under ose planRoute opens the OSE Travel dialog, whose form state the batch reads and drives.
      } = (await api().planRoute({ drawingId: drawing.id ?? undefined, tokenIds: [token.id ?? ""] })) as never;
      assert.deepEqual(
        dialog.formState.route.legs.map((l) => [l.terrain, l.metres]),
        [
          ["road", 27000],
          ["forest", 24000],
          ["swamp", 27000],
        ],
      );
      await dialog.change("base", "36");
      // The days are walked one at a time: world time moves one day per day (an updateWorldTime each).
      const deltas: number[] = [];
      const hook = onHook("updateWorldTime", (_time: number, delta: number) => void deltas.push(delta));
      const result = await dialog.apply();
      assert.isTrue(result?.ok, "applied");
      const message = await waitFor(
        () => (result?.messageId ? game.messages.get(result.messageId) : undefined),
        "the journey card",
      );
      const j = journeyOf(message)!;
      assert.equal(j.status, "applied");
      assert.isAbove(message.whisper.length, 0, "the card is whispered to the GMs");
      const days = (game.time.worldTime - start) / 86400;
      assert.isTrue(
        Number.isInteger(days) && days >= 3,
        "world time moved by whole days, at least the 3 a party never lost takes",
      );
      await waitFor(() => deltas.length === days || undefined, "an updateWorldTime per day");
      offHook("updateWorldTime", hook);
      assert.deepEqual(
        deltas,
        Array.from({ length: days }, () => 86400),
        "one day at a time",
      );
      await waitFor(() => token.x === j.journal.tokens[0]!.after.x, "the token where the last day ends");
      const undone = await api().undoTravel(message.id!);
      assert.isTrue(undone.ok, "undone");
      await waitFor(() => token.x === 50, "the token back");
      assert.equal(game.time.worldTime, start, "world time back");
    });
  });
}

export const WILDERNESS_BATCH: Batch = {
  key: `${MODULE_ID}.wilderness`,
  displayName: "Aventure: wilderness travel (Old-School Essentials)",
  fn: wildernessTests,
};
