/**
 * In-world tests of light, obscurity, hiding and ambient detection (Quench batch "aventure.light"): a throwaway scene
 * at night underground with a real AmbientLight (a torch: bright 6 m, dim 12 m) and a wall, dnd5e-shaped creatures
 * whose scores make the dice irrelevant (Dexterity 30: Stealth at least 11; Wisdom 1: passive Perception 5; Wisdom 30:
 * passive Perception 20), driven through Foundry's public API and the module's API. Dice are real: expectations are
 * derived from the card's own numbers.
 */
import { MODULE_ID } from "../core/constants.js";
import { cardOf, Sandbox, waitFor } from "./sandbox.js";
import type { Batch, BatchContext } from "./types.js";

interface TokenDoc {
  id: string | null;
  actor: { statuses: Set<string> } | null;
  getFlag(scope: string, key: string): unknown;
  setFlag(scope: string, key: string, value: unknown): Promise<unknown>;
  update(data: object): Promise<unknown>;
}

interface LightApi {
  refreshLight(): Promise<void>;
  lightAt(token: unknown): { level: string; obscurity: string; perceived: string; effect: string } | null;
  hide(
    token: unknown,
    options?: { observers?: string[] },
  ): Promise<{ dc: number; hidden: boolean; hiddenFrom: string[] } | { proposed: true } | null | undefined>;
  checkDetection(ids?: string[] | null): Promise<{ noticed: string[] } | null | undefined>;
  adapter(): { statusId(condition: string): string | null };
}

/** The module's API (typed by ModuleConfig in declarations.d.ts), as far as these tests use it. */
function api(): LightApi {
  const api = game.modules.get(MODULE_ID)?.api;
  if (!api) throw new Error("aventure | the module is not active");
  return api;
}
/** The Aventure flags of a chat message (hide, detect...). */
const SQUARE = 100;

/** Polls an asynchronous check until it gives something (documents and light sources update asynchronously). */
async function poll<T>(fn: () => Promise<T | null | undefined | false>, what: string, timeout = 5000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() - start > timeout) throw new Error(`aventure | timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
/** A token's top-left corner for a centre at (x, y) squares. */
const at = (x: number, y: number) => ({ x: x * SQUARE - SQUARE / 2, y: y * SQUARE - SQUARE / 2 });

function lightTests({ describe, it, before, after, assert }: BatchContext): void {
  describe("Light, obscurity, hiding and ambient detection on a lit scene", () => {
    const box = new Sandbox();
    let n = 0;
    const creature = async (
      name: string,
      where: [number, number],
      disposition: number,
      abilities: Record<string, number> = {},
    ) => {
      n++;
      const system = { abilities: Object.fromEntries(Object.entries(abilities).map(([k, value]) => [k, { value }])) };
      const actor = await box.actor({ name: `Aventure ${name} ${n}`, type: "npc", system });
      return box.embedded<TokenDoc>("Token", {
        name: `${name} ${n}`,
        actorId: actor.id,
        actorLink: true,
        disposition,
        ...at(...where),
      });
    };
    /** Recomputes until the token's light is what `ok` wants (light sources are set up asynchronously). */
    const lightOf = (token: TokenDoc, ok: (l: NonNullable<ReturnType<LightApi["lightAt"]>>) => boolean, what: string) =>
      poll(async () => {
        await api().refreshLight();
        const l = api().lightAt(token.id);
        return l && ok(l) ? l : null;
      }, what);
    const cardsWith = (key: string) => box.messages().filter((m) => cardOf(m, key) !== undefined);
    /** A token's hiding state: on its scene (`flags.aventure.hides.<tokenId>`, GM-written), never on the token. */
    const hideOf = (token: TokenDoc) =>
      (game.scenes.get(box.scene!.id!)!.getFlag(MODULE_ID, "hides") as Record<string, { dc: number }> | undefined)?.[
        token.id!
      ];

    before(async () => {
      await box.open();
      const scene = game.scenes.get(box.scene!.id!)!;
      await scene.update({ environment: { darknessLevel: 1, globalLight: { enabled: false } } });
      await box.embedded("AmbientLight", { x: 10 * SQUARE, y: 10 * SQUARE, config: { bright: 6, dim: 12 } });
      await box.embedded("Wall", { c: [13 * SQUARE, 7 * SQUARE, 13 * SQUARE, 13 * SQUARE] });
    });
    after(() => box.close());

    it("measures the light at tokens from a real AmbientLight and walls: bright by the torch, dim farther, dark behind the wall", async () => {
      const near = await creature("Near", [11, 10], 1);
      const far = await creature("Far", [10, 17], 1);
      const hidden = await creature("Behind", [14, 10], 1);
      assert.equal((await lightOf(near, (l) => l.level === "bright", "bright light by the torch")).level, "bright");
      assert.equal((await lightOf(far, (l) => l.level === "dim", "dim light 10.5 m away")).level, "dim");
      assert.equal((await lightOf(hidden, (l) => l.level === "dark", "darkness behind the wall")).level, "dark");
    });

    it("with the light effects setting, a creature in darkness is blinded, and no longer once a light reaches it", async () => {
      await box.setting("lightEffects", true);
      const token = await creature("Blind", [15, 10], 1);
      const blinded = api().adapter().statusId("blinded");
      assert.ok(blinded, "the system has a blinded status");
      await lightOf(token, (l) => l.effect === "blinded", "effectively blinded");
      await waitFor(() => token.actor?.statuses.has(blinded!), "the blinded status");
      await box.embedded("AmbientLight", { x: 16 * SQUARE, y: 10 * SQUARE, config: { bright: 3, dim: 6 } });
      await lightOf(token, (l) => l.level === "bright", "the lantern's light");
      await waitFor(() => !token.actor?.statuses.has(blinded!), "the blinded status removed");
      await box.setting("lightEffects", false);
    });

    it("hides a creature in darkness: Stealth against passive Perception, a card for the GMs with the DC, the hiding state on the scene", async () => {
      const rogue = await creature("Rogue", [10, 22], 1, { dex: 30 });
      await creature("Guard", [20, 22], -1, { wis: 1 });
      await lightOf(rogue, (l) => l.level === "dark", "darkness");
      const out = await api().hide(rogue.id);
      assert.ok(out && "dc" in out, "a hiding result");
      const result = out as { dc: number; hidden: boolean };
      assert.isAbove(result.dc, 10, "Dexterity 30: at least 11");
      assert.isTrue(result.hidden, "passive 5 misses it");
      const card = await waitFor(() => cardsWith("hide").at(-1), "the hide card");
      assert.include(card.content, `DC ${result.dc}`);
      assert.deepEqual(card.whisper.length > 0, true, "whispered to the GMs");
      assert.equal(hideOf(rogue)?.dc, result.dc);
      assert.equal(rogue.getFlag(MODULE_ID, "hide"), undefined, "nothing on the token, which its owner may write");
    });

    it("ambient detection off: the hiding ends when the hider walks into the torch's light in its observer's view", async () => {
      await box.setting("detectionMode", "off");
      const rogue = await creature("Sneak", [10, 24], 1, { dex: 30 });
      const guard = await creature("Sentry", [16, 24], -1, { wis: 1 });
      await lightOf(rogue, (l) => l.level === "dark", "darkness");
      const out = (await api().hide(rogue.id, { observers: [guard.id!] })) as { hidden: boolean; dc: number };
      assert.isTrue(out.hidden);
      await rogue.update(at(10, 13));
      await waitFor(() => hideOf(rogue) === undefined, "the hiding ended");
      const end = await waitFor(() => cardsWith("hideEnd").at(-1), "the end card");
      assert.include(end.content, `DC ${out.dc}`, "the card names the DC of the observers' checks");
      await box.setting("detectionMode", "prompt");
    });

    it("an Obscurity region caps what is seen: light fog at best dim, thick fog nothing, whatever the torch", async () => {
      const regionAt = (x: number, level: string) => ({
        name: `Aventure fog ${level}`,
        shapes: [
          {
            type: "rectangle",
            x: x * SQUARE,
            y: 6 * SQUARE,
            width: SQUARE,
            height: 2 * SQUARE,
            rotation: 0,
            hole: false,
          },
        ],
        behaviors: [{ type: `${MODULE_ID}.obscurity`, system: { level } }],
      });
      await box.embedded("Region", regionAt(8, "light"));
      await box.embedded("Region", regionAt(11, "heavy"));
      const inLight = await creature("Mist", [8.5, 7], 1);
      const inHeavy = await creature("Fog", [11.5, 7], 1);
      const l = await lightOf(inLight, (x) => x.obscurity === "light", "lightly obscured");
      assert.equal(l.level, "bright");
      assert.equal(l.perceived, "dim");
      const h = await lightOf(inHeavy, (x) => x.obscurity === "heavy", "heavily obscured");
      assert.equal(h.level, "bright");
      assert.equal(h.perceived, "dark");
    });

    it("ambient detection prompts the GM: a watcher that was not an observer notices a hider (Stealth 12) stepping into bright light", async () => {
      await box.setting("detectionMode", "prompt");
      const rogue = await creature("Shade", [20, 18], 1);
      const guard = await creature("Drowsy", [30, 18], -1, { wis: 1 });
      const watcher = await creature("Watcher", [10, 5], -1, { wis: 30 }); // passive Perception 20
      await lightOf(rogue, (l) => l.level === "dark", "darkness");
      // A creature hidden from the guard with a Stealth result of 12 (as a hide leaves it; set here so that no die
      // decides).
      const centre = { x: 20 * SQUARE, y: 18 * SQUARE };
      const entry = {
        dc: 12,
        from: [guard.id!],
        because: { [guard.id!]: "darkness" as const },
        light: "dark" as const,
        seenBy: [],
        ...centre,
      };
      await game.scenes.get(box.scene!.id!)!.update({ flags: { [MODULE_ID]: { hides: { [rogue.id!]: entry } } } });
      await rogue.update(at(10, 9)); // a metre and a half from the torch, in the watcher's view
      const card = await waitFor(
        () => cardsWith("detect").find((m) => m.content.includes("vs Stealth 12")),
        "the detection card",
      );
      assert.include(card.content, "notices");
      assert.isTrue(card.whisper.length > 0, "for the GMs only");
      const detect = cardOf<{ rows: { observerId: string; hiderId: string; status: string }[] }>(card, "detect")!;
      assert.deepEqual(
        detect.rows.map((r) => [r.observerId, r.hiderId, r.status]),
        [[watcher.id, rogue.id, "pending"]],
      );
      assert.ok(hideOf(rogue), "still hidden until a GM decides");
      // Judged once: a forced pass asks nothing more.
      const again = await api().checkDetection();
      assert.deepEqual(again?.noticed ?? [], []);
    });
  });
}

export const LIGHT_BATCH: Batch = {
  key: `${MODULE_ID}.light`,
  displayName: "Aventure: light, obscurity, hiding and ambient detection",
  fn: lightTests,
};
