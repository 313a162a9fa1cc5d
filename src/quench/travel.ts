/**
 * In-world tests of travel (Quench batch "aventure.travel"): a journey applied and undone (world time, exhaustion,
 * counters, the card), a route along a Drawing through a Travel terrain region, the party's token moved to the point
 * reached and put back, a journey stopped after its first day, a route through a region of an unknown kind refused,
 * a refused request quoting the range its model declares (read from Foundry's own fields), and in a dnd5e world a
 * journey opened from a party (group actor).
 * Dice are real: expectations come from the card's own journal, never from a fixed die.
 */
import { MODULE_ID } from "../core/constants.js";
import { cardOf, Sandbox, waitFor } from "./sandbox.js";
import { featureRuleset } from "../core/features.js";
import type { Batch, BatchContext } from "./types.js";
import { parseRequest, type TravelRequest } from "../travel/request.js";
import { isRulesError } from "../rules/errors.js";

interface TokenDoc {
  id: string | null;
  x: number;
  y: number;
}
type Journal = {
  status: string;
  journal: {
    time: { before: number; after: number } | null;
    actors: {
      actorId: string;
      exhaustion: { before: number; after: number } | null;
      fasting: { after: number } | null;
    }[];
    tokens: { tokenId: string; before: { x: number; y: number }; after: { x: number; y: number } }[];
  };
  next: object | null;
};

function api() {
  const module = game.modules.get(MODULE_ID);
  if (!module?.api) throw new Error("aventure | the module is not active");
  return module.api;
}
const messageIdOf = (r: { ok: boolean; messageId?: string | null } | null) => (r?.ok ? (r.messageId ?? null) : null);
/** The world actor a sandbox document is (typed through Foundry's collection). */
function actorOf(doc: { id: string | null }): Actor {
  const a = doc.id ? game.actors.get(doc.id) : undefined;
  if (!a) throw new Error("aventure | test actor missing");
  return a;
}
const journeyOf = (m: ChatMessage | undefined): Journal | undefined =>
  m ? (cardOf(m, "travel") as Journal | undefined) : undefined;
const exhaustionOf = (a: { system: unknown }): number =>
  (a.system as { attributes?: { exhaustion?: number } }).attributes?.exhaustion ?? 0;

function travelTests({ describe, it, before, after, assert }: BatchContext): void {
  describe("Journeys and routes", () => {
    const box = new Sandbox();
    let n = 0;
    const hero = async () => {
      n++;
      return actorOf(
        await box.actor({
          name: `Aventure traveller ${n}`,
          type: "character",
          system: { abilities: { con: { value: 10 } } },
        }),
      );
    };
    const card = (id: string | null | undefined) =>
      id ? (game.messages.get(id) as ChatMessage | undefined) : undefined;
    /** A regional map: 1 km a space; a forest (Travel terrain) over x 1900..2800; a road along y = 500. */
    const map = async () => {
      await game.scenes.get(box.scene?.id ?? "")?.update({ grid: { size: 100, distance: 1, units: "km" } });
      await box.embedded("Region", {
        name: "Aventure test forest",
        shapes: [{ type: "rectangle", x: 1900, y: 300, width: 900, height: 400, rotation: 0, hole: false }],
        behaviors: [
          { type: `${MODULE_ID}.travelTerrain`, system: { terrain: "difficult", label: "Forêt de Brocéliande" } },
        ],
      });
      return box.embedded<{ id: string | null }>("Drawing", {
        x: 100,
        y: 500,
        shape: { type: "p", width: 2700, height: 0, points: [0, 0, 1800, 0, 2700, 0] },
      });
    };
    before(() => box.open());
    after(() => box.close());

    it("applies a journey and undoes it: world time, exhaustion and counters come back, the card says so", async () => {
      const actor = await hero();
      const start = game.time.worldTime;
      const request: TravelRequest = {
        pace: "normal",
        terrain: "normal",
        mode: "foot",
        speedKmh: null,
        distance: 40500,
        duration: null,
        hoursPerDay: 9,
        hot: false,
        stealth: false,
        lostChance: 0,
        survivalDC: 10,
        route: null,
        members: [
          {
            actorId: actor.id ?? "",
            food: "full",
            water: "full",
            position: "front",
            activity: "none",
            conMod: null,
            passivePerception: null,
          },
        ],
      };
      const result = (await api().applyTravel(request))!;
      assert.isTrue(result.ok, "applied");
      const message = await waitFor(() => card(messageIdOf(result)), "the journey card");
      const j = journeyOf(message)!;
      assert.equal(j.status, "applied");
      // 40.5 km at normal pace, 9 h a day: one day of 8 h at the day column, then 1 h at the hour column (a forced
      // march).
      assert.equal(game.time.worldTime - start, 9 * 3600, "world time moved by the journey");
      const gained = j.journal.actors[0]!.exhaustion;
      assert.equal(exhaustionOf(actor), gained ? gained.after : 0, "exhaustion as the card's own save says");
      assert.equal(actor.getFlag(MODULE_ID, "fastingDays"), 0, "fasting counter written");
      assert.include(message.content, "Constitution", "the save named on the card");
      const undone = await api().undoTravel(message.id!);
      assert.isTrue(undone.ok, "undone");
      assert.equal(journeyOf(card(message.id))!.status, "undone");
      assert.equal(game.time.worldTime, start, "world time back");
      assert.equal(exhaustionOf(actor), 0, "exhaustion back");
      assert.equal(actor.getFlag(MODULE_ID, "fastingDays"), undefined, "counter removed");
    });

    it("measures a route along a Drawing through a Travel terrain region: 18 km of road, 9 km of the named forest", async () => {
      const drawing = await map();
      const actor = await hero();
      const token = await box.embedded<TokenDoc>("Token", {
        name: actor.name,
        actorId: actor.id,
        actorLink: true,
        x: 50,
        y: 450,
      });
      const dialog = await api().planRoute({ drawingId: drawing.id ?? undefined, tokenIds: [token.id ?? ""] });
      assert.ok(dialog, "the dialog opened");
      assert.deepEqual(
        dialog!.formState.route!.legs.map((l) => [l.metres, l.terrain, l.regions.join()]),
        [
          [18000, "normal", ""],
          [9000, "difficult", "Forêt de Brocéliande"],
        ],
      );
      await dialog!.close();
    });

    it("moves the party's token to the point reached, and Undo puts it back", async () => {
      const drawing = await map();
      const actor = await hero();
      const token = await box.embedded<TokenDoc>("Token", {
        name: actor.name,
        actorId: actor.id,
        actorLink: true,
        x: 50,
        y: 450,
      });
      const start = game.time.worldTime;
      const dialog = (await api().planRoute({ drawingId: drawing.id ?? undefined, tokenIds: [token.id ?? ""] }))!;
      const result = await dialog.apply();
      assert.isTrue(result?.ok, "applied");
      const message = await waitFor(() => card(messageIdOf(result)), "the journey card");
      await waitFor(() => token.x === 2750, "the token at the end of the route");
      assert.deepEqual({ x: token.x, y: token.y }, { x: 2750, y: 450 });
      assert.equal(game.time.worldTime - start, 8 * 3600, "docs/rules.md §11: 36 km equivalent = one day of 8 h");
      await api().undoTravel(message.id!);
      await waitFor(() => token.x === 50, "the token back");
      assert.deepEqual({ x: token.x, y: token.y }, { x: 50, y: 450 });
      assert.equal(game.time.worldTime, start);
    });

    it("a journey stopped after its first day leaves the token on the way and offers to continue", async () => {
      const drawing = await map();
      const actor = await hero();
      const token = await box.embedded<TokenDoc>("Token", {
        name: actor.name,
        actorId: actor.id,
        actorLink: true,
        x: 50,
        y: 450,
      });
      const dialog = (await api().planRoute({ drawingId: drawing.id ?? undefined, tokenIds: [token.id ?? ""] }))!;
      await dialog.change("pace", "slow");
      await dialog.change("days", "1");
      const result = await dialog.apply();
      const message = await waitFor(() => card(messageIdOf(result)), "the journey card");
      const j = journeyOf(message)!;
      // Slow pace: 27 km of equivalent distance a day: the road, then 4.5 km into the forest.
      assert.deepEqual(j.journal.tokens[0]!.after, { x: 2300, y: 450 });
      await waitFor(() => token.x === 2300, "the token where the day ends");
      assert.ok(j.next, "the rest of the route is on the card");
      await api().undoTravel(message.id!);
    });

    it("refuses a route through a region of an unknown kind, and changes nothing", async () => {
      await map();
      await box.embedded("Region", {
        name: "Aventure test swamp",
        shapes: [{ type: "rectangle", x: 500, y: 400, width: 200, height: 200, rotation: 0, hole: false }],
        behaviors: [{ type: "modifyMovementCost", system: { difficulties: { walk: -1 } } }],
      });
      const start = game.time.worldTime;
      const before = box.messages().length;
      assert.equal(
        await api().planRoute({
          points: [
            { x: 100, y: 500 },
            { x: 900, y: 500 },
          ],
          tokenIds: [],
        }),
        null,
        "refused",
      );
      assert.equal(box.messages().length, before, "no message");
      assert.equal(game.time.worldTime, start);
    });

    it("a refused request quotes the range its model declares, as Foundry's own fields read it (a distance of 0, beyond 1e9 m)", () => {
      const base = {
        pace: "normal",
        terrain: "normal",
        mode: "foot",
        hoursPerDay: 8,
        members: [{ actorId: "aaaaaaaaaaaaaaaa", food: "full", water: "full", position: "middle", activity: "none" }],
      };
      const refusal = (distance: number) => {
        try {
          parseRequest({ ...base, distance });
          return null;
        } catch (e) {
          return isRulesError(e) ? { key: e.key, data: e.data } : String(e);
        }
      };
      assert.deepEqual(refusal(2e9), {
        key: "AVENTURE.Error.OutOfRange",
        data: { name: "distance", value: 2e9, min: 0, max: 1e9 },
      });
      assert.deepEqual(refusal(0), {
        key: "AVENTURE.Error.OutOfRange",
        data: { name: "distance", value: 0, min: 0, max: 1e9 },
      });
      assert.equal(refusal(1000), null, "a distance in range reads");
    });

    it("dnd5e: a party (group actor) travels with its creature members at its pace, its vehicles offered (skipped in other systems)", async () => {
      if (game.system.id !== "dnd5e" || featureRuleset("travel") === "ose") return;
      const a = await hero();
      const b = await hero();
      const boat = actorOf(
        await box.actor({ name: "Aventure test boat", type: "vehicle", system: { details: { type: "water" } } }),
      );
      const party = actorOf(
        await box.actor({
          name: "Aventure test party",
          type: "group",
          system: {
            members: [{ actor: a.id }, { actor: b.id }, { actor: boat.id }],
            attributes: { travel: { pace: "fast" } },
          },
        }),
      );
      const dialog = await api().openTravel({ groupId: party.id ?? "" });
      if (!dialog) throw new Error("aventure | the Travel dialog did not open");
      const state = dialog.formState as {
        pace?: string;
        members: { actorId: string }[];
        party?: { vehicles: { actorId: string; mode: string }[] } | null;
      };
      assert.deepEqual(
        state.members.map((m) => m.actorId),
        [a.id, b.id],
        "the creature members travel",
      );
      assert.equal(state.pace, "fast", "the party's pace");
      assert.deepEqual(
        state.party?.vehicles.map((v) => [v.actorId, v.mode]),
        [[boat.id, "boat"]],
        "its vehicle offered",
      );
      await dialog.close();
    });
  });
}

export const TRAVEL_BATCH: Batch = {
  key: `${MODULE_ID}.travel`,
  displayName: "Aventure: travel and routes",
  fn: travelTests,
};
