/**
 * In-world tests of movement and falls (Quench batch "aventure.movement"): a real scene, a dnd5e-shaped creature, a
 * Fall region, a drop, the API, the ruler's cost functions. Dice are real: expectations are derived from the card's
 * own roll, never from a fixed die.
 */
import { MODULE_ID } from "../core/constants.js";
import { cardOf, Sandbox, waitFor } from "./sandbox.js";
import type { Batch, BatchContext } from "./types.js";

/**
 * CONFIG.Token.movement.actions, called the way core's ruler calls a cost function (plain test values for its
 * arguments).
 */
type CostActions = Record<
  string,
  { getCostFunction(t: unknown, o: object): (c: number, a: unknown, b: unknown, d: number, s: unknown) => number }
>;
function costActions(): CostActions {
  // cast: the batch passes plain objects for core's waypoint and segment arguments, which the cost function ignores
  return CONFIG.Token.movement.actions as unknown as CostActions;
}

interface TokenDoc {
  id: string | null;
  x: number;
  elevation: number;
  actor: { id: string | null; statuses: Set<string>; system: { attributes?: { hp?: { value: number } } } } | null;
  move?(waypoints: object, options?: object): Promise<unknown>;
  update(data: object): Promise<unknown>;
}

type FallFlag = { status?: string; damage?: number; prone?: boolean };
const fallOf = (m: ChatMessage): FallFlag | undefined => cardOf(m, "fall") as FallFlag | undefined;
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
      const actor = await box.actor({
        name: `Aventure test ${n}`,
        type: "npc",
        system: { attributes: { hp: { value: 20, max: 20 } } },
      });
      return box.embedded<TokenDoc>("Token", {
        name: `Aventure test ${n}`,
        actorId: actor.id,
        actorLink: true,
        x: 0,
        y: 0,
        elevation,
      });
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
      assert.lengthOf(card.rolls?.[0]?.dice[0]?.results ?? [], 3, "3d6");
      const damage = rollTotal(card);
      assert.equal(hp(token), Math.max(0, 20 - damage), "hit points lowered by the roll, once");
      assert.isTrue(token.actor!.statuses.has("prone"), "prone");
    });

    it("api.fall of 2.5 m posts a card without dice and changes no hit points", async () => {
      const token = await creature();
      const before = fallCards().length;
      const api = game.modules.get(MODULE_ID)?.api;
      if (!api) throw new Error("aventure | the module's API is missing");
      await api.fall(token, 2.5);
      const card = await waitFor(() => fallCards()[before], "the fall card");
      assert.lengthOf(card.rolls ?? [], 0, "no dice under 3 m");
      assert.equal(hp(token), 20);
    });

    it("an elevation drop of 6 m falls automatically (2d6) when the setting says so", async () => {
      await box.setting("fallOnDrop", "automatic");
      const token = await creature(6);
      const before = fallCards().length;
      await move(token, { elevation: 0 });
      const card = await waitFor(
        () =>
          fallCards()
            .slice(before)
            .find((m) => fallOf(m)?.status === "applied"),
        "the fall card",
      );
      assert.lengthOf(card.rolls?.[0]?.dice[0]?.results ?? [], 2, "2d6");
      assert.equal(hp(token), Math.max(0, 20 - rollTotal(card)));
    });

    it("Rôle'n Play: climbing through difficult terrain costs 3 m of movement per metre (core would charge 4)", async () => {
      await box.setting("ruleset", "rnp");
      await box.setting("dnd5eOwnerMovementCosts", "aventure"); // in a dnd5e 5.1+ world, dnd5e's costs act by default
      const token = await creature();
      const actions = costActions();
      const cost = actions.climb!.getCostFunction(token, {});
      assert.equal(cost(3, {}, {}, 1.5, {}), 4.5, "1.5 m of difficult climbing (base cost 3) costs 4.5 m");
    });

    it("without the movement costs setting, the system's (or core's) own cost is back", async () => {
      await box.setting("movementCosts", false);
      const token = await creature();
      const actions = costActions();
      // dnd5e 5.1+ adds 1 per metre of climbing without a climbing speed (docs/compat.md); core multiplies by 2.
      const dnd5e = game.modules.get(MODULE_ID)?.api?.dnd5eOwners().movementCosts.dnd5eHas === true;
      const expected = dnd5e ? 4.5 : 6;
      assert.equal(
        actions.climb!.getCostFunction(token, {})(3, {}, {}, 1.5, {}),
        expected,
        dnd5e ? "dnd5e: 1 more per metre of climbing" : "core: climbing ×2 on top of the terrain",
      );
    });
  });
}

/** A token as the suffocation tests read it: its scene's flags, its actor's hit points and statuses, its placeable. */
interface BreathTokenDoc extends TokenDoc {
  parent: { flags: Record<string, Record<string, unknown> | undefined> } | null;
  object?: { control(options?: { releaseOthers?: boolean }): boolean; release(): boolean } | null;
}

type BreathFlagShape = { start: number; airUntil: number; dropAt: number; dropped: boolean };
type SuffocationShape = { status?: string; breathId?: string; hpBefore?: number | null };
/** The held breath of a token: on its scene, by token id (only GMs write a scene). */
const breathOf = (t: BreathTokenDoc): BreathFlagShape | undefined => {
  const breaths = t.parent?.flags[MODULE_ID]?.breath;
  return t.id && typeof breaths === "object" && breaths !== null
    ? ((breaths as Record<string, unknown>)[t.id] as BreathFlagShape | undefined)
    : undefined;
};
const suffocationOf = (m: ChatMessage): SuffocationShape | undefined =>
  cardOf(m, "suffocation") as SuffocationShape | undefined;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

function environmentTests({ describe, it, before, after, assert }: BatchContext): void {
  describe("Suffocation (docs/rules.md §4.2) and hard climbs (§3.1)", () => {
    const box = new Sandbox();
    let n = 0;
    const api = () => {
      const a = game.modules.get(MODULE_ID)?.api;
      if (!a) throw new Error("aventure | no API");
      return a;
    };
    /** A creature with Constitution 14 (+2) and 20 hit points. */
    const creature = async () => {
      n++;
      const actor = await box.actor({
        name: `Aventure breath ${n}`,
        type: "npc",
        system: { abilities: { con: { value: 14 } }, attributes: { hp: { value: 20, max: 20 } } },
      });
      return box.embedded<BreathTokenDoc>("Token", {
        name: `Aventure breath ${n}`,
        actorId: actor.id,
        actorLink: true,
        x: 0,
        y: 0,
      });
    };
    const cardsOf = (t: BreathTokenDoc) =>
      box.messages().filter((m) => {
        const f = suffocationOf(m);
        return !!f && f.breathId === (breathOf(t) as { id?: string } | undefined)?.id;
      });
    before(() => box.open());
    after(() => box.close());

    it("Hold breath with CON +2: 3 minutes of world time, then 2 rounds (deadlines from the world clock)", async () => {
      const token = await creature();
      const start = game.time.worldTime;
      await api().holdBreath(token);
      const flag = await waitFor(() => breathOf(token), "the breath flag");
      assert.equal(flag.airUntil - flag.start, 180, "holds 1 + 2 = 3 minutes");
      assert.equal(flag.dropAt - flag.airUntil, 12, "then 2 rounds of 6 s");
      assert.isAtMost(Math.abs(flag.start - start), 6, "starts now");
      assert.isFalse(flag.dropped);
      await api().breatheAgain(token); // so that the next tests' world time does not make this one drop
      await waitFor(() => !breathOf(token), "the flag removed");
    });

    it("world time passing: nothing before the drop; then 0 HP, unconscious and one card, once", async () => {
      const token = await creature();
      await api().holdBreath(token);
      const flag = await waitFor(() => breathOf(token), "the breath flag");
      await box.advanceTime(flag.dropAt - game.time.worldTime - 1);
      await pause(200);
      assert.equal(hp(token), 20, "still alive a second before the drop");
      assert.lengthOf(cardsOf(token), 0, "no card yet");
      await box.advanceTime(1);
      const card = await waitFor(
        () => cardsOf(token).find((m) => suffocationOf(m)?.status === "applied"),
        "the suffocation card",
      );
      assert.equal(hp(token), 0, "0 HP");
      assert.isTrue(token.actor!.statuses.has("unconscious"), "unconscious");
      assert.equal(suffocationOf(card)?.hpBefore, 20);
      assert.isTrue(
        card.whisper.length > 0 && card.whisper.every((id) => !!id && game.users.get(id)?.isGM === true),
        "for the GMs only (no player owns it)",
      );
      assert.include(
        card.content ?? "",
        game.i18n.localize("AVENTURE.Breath.noStabilise"),
        "the card says it cannot be stabilised",
      );
      await box.advanceTime(60);
      await pause(200);
      assert.lengthOf(cardsOf(token), 1, "once");
      assert.isTrue(breathOf(token)?.dropped, "marked dropped");
    });

    it("Breathe again ends it: no drop afterwards", async () => {
      const token = await creature();
      const cards = () => box.messages().filter((m) => suffocationOf(m)).length;
      const before = cards();
      await api().holdBreath(token);
      await waitFor(() => breathOf(token), "the breath flag");
      await api().breatheAgain(token);
      await waitFor(() => !breathOf(token), "the flag removed");
      await box.advanceTime(600);
      await pause(200);
      assert.equal(hp(token), 20, "no drop");
      assert.equal(cards(), before, "no suffocation card");
    });

    it("the jumps panel reminds Strength (Athletics) at the GM's call for climbs and swims, unless the setting is off", async () => {
      const reminder = game.i18n.localize("AVENTURE.Movement.Jump.athletics");
      const panelText = async (token: BreathTokenDoc) => {
        token.object?.control({ releaseOthers: true });
        await api().showJumps();
        const el = await waitFor(() => document.getElementById(`aventure-jumps-${token.id}`), "the jumps panel");
        const text = el.textContent ?? "";
        el.querySelector<HTMLElement>("[data-action='close']")?.click();
        token.object?.release();
        return text;
      };
      await box.setting("athleticsReminder", true);
      assert.include(await panelText(await creature()), reminder, "reminded");
      await box.setting("athleticsReminder", false);
      assert.isFalse((await panelText(await creature())).includes(reminder), "not with the setting off");
    });
  });
}

export const MOVEMENT_BATCH: Batch = {
  key: `${MODULE_ID}.movement`,
  displayName: "Aventure: movement, falls and the environment",
  fn: (context) => {
    movementTests(context);
    environmentTests(context);
  },
};
