/**
 * The token HUD's Aventure button and palette (src/core/token-hud.ts), drawn in the test world's real DOM
 * (world.renderTokenHUD: core's three columns, then renderTokenHUD on the user's client): one button in the right
 * column, a palette of the actions that apply to this token and this user, opened and closed by the button, Escape or
 * the HUD re-rendering; an action clicked runs on the clicking user's client; every action has its own icon.
 */
import { describe, expect, it, vi } from "vitest";
import {
  addDnd5eActor,
  bootWorld,
  GM,
  PLAYER,
  PLAYER2,
  viewScene,
  type FakeToken,
  type FakeWorld,
} from "../world/index.js";
import type { HudButton } from "../../src/core/token-hud.js";
import { SAMPLES } from "../templates/samples.js";

// Booting a world loads the module once per client: slow on the shared machines.
vi.setConfig({ testTimeout: 30_000 });

/** The actions the features of this branch register; other features' actions are checked by their own tests. */
const KNOWN = new Set(["travel", "jumps", "fall", "pursuit", "hide", "end-hide", "search", "stop-search"]);
/** Every action of the palette, for the games (docs/rules.md §0). */
const ALL = new Set([...KNOWN, "travelRoute", "hold-breath", "breathe-again", "polaris-test"]);

interface Loaded {
  hud: { hudButtons(): readonly HudButton[] };
}

async function setup() {
  const world = await bootWorld({
    users: [GM, { ...PLAYER, lang: "fr" }, PLAYER2],
    // The module and its HUD registry, loaded together so that they are the same instances (one per client).
    load: async () => ({
      ...(await import("../../src/module.js")),
      hud: await import("../../src/core/token-hud.js"),
    }),
  });
  const scene = world.addScene({ _id: "s1" });
  for (const c of world.liveClients()) viewScene(world, c, scene);
  addDnd5eActor(world, { id: "aldric", name: "Aldric", owner: "p1", abilities: { str: 15 } });
  const token = world.addToken(scene, {
    _id: "tA",
    name: "Aldric",
    actorId: "aldric",
    actorLink: true,
    disposition: 1,
  });
  return { world, token };
}

function hud(world: FakeWorld, token: FakeToken, user: string) {
  const root = world.renderTokenHUD(token, user);
  const toggle = root.querySelector<HTMLButtonElement>("button.aventure-hud-toggle");
  const palette = root.querySelector<HTMLElement>(".aventure-hud-palette");
  const actions = [...root.querySelectorAll<HTMLButtonElement>(".aventure-hud-palette button[data-action]")];
  return {
    root,
    toggle,
    palette,
    actions,
    ids: actions.map((b) => b.dataset.action!.replace(/^aventure-/, "")).filter((id) => KNOWN.has(id)),
    icons: actions.map((b) => b.querySelector("i")!.className),
  };
}

describe("token HUD: the Aventure button and its palette", () => {
  it("draws one Aventure button in the right column instead of a column of buttons; the palette starts closed", async () => {
    const { world, token } = await setup();
    const h = hud(world, token, "gm1");
    expect(h.root.querySelectorAll(".aventure-hud-toggle")).toHaveLength(1);
    expect(h.toggle!.closest(".col.right")).not.toBeNull();
    // Every Aventure action is in the palette, none loose in a column.
    const loose = [...h.root.querySelectorAll(".col button[data-action^='aventure-']")].filter(
      (b) => !b.closest(".aventure-hud-palette") && !b.classList.contains("aventure-hud-toggle"),
    );
    expect(loose).toEqual([]);
    expect(h.palette!.hidden).toBe(true);
    expect(h.toggle!.getAttribute("aria-expanded")).toBe("false");
    expect(h.toggle!.getAttribute("aria-controls")).toBe(h.palette!.id);
    expect(h.toggle!.getAttribute("aria-label")).toBe("Aventure: actions for this token");
  });

  it("shows the GM every action that applies, the owner theirs, another player nothing", async () => {
    const { world, token } = await setup();
    // In the order the features register them (src/hooks.ts).
    // D&D 5e (docs/rules.md §0): no pursuit.
    expect(hud(world, token, "gm1").ids).toEqual(["travel", "hide", "search", "jumps", "fall"]);
    expect(hud(world, token, "p1").ids).toEqual(["hide", "jumps", "fall"]);
    const other = hud(world, token, "p2");
    expect(other.toggle).toBeNull();
    expect(other.palette).toBeNull();
    expect(other.root.querySelectorAll("[data-action^='aventure-']")).toHaveLength(0);
  });

  it("follows the token's state: a searching token offers the GM 'No longer searching' instead of 'Searching'", async () => {
    const { world, token } = await setup();
    // The mark is the one a GM writes on the scene (light/searching.ts); a flag on the token is not read.
    await world.as("gm1", () => token.setFlag("aventure", "searching", true));
    await world.settle();
    expect(hud(world, token, "gm1").ids).toEqual(["travel", "hide", "search", "jumps", "fall"]);
    await world.as("gm1", () => token.parent!.setFlag("aventure", "searching", { [token.id]: true }));
    await world.settle();
    expect(hud(world, token, "gm1").ids).toEqual(["travel", "hide", "stop-search", "jumps", "fall"]);
  });

  it("opens on a click of the button and closes on a second click, on Escape, and when the HUD is drawn again", async () => {
    const { world, token } = await setup();
    const h = hud(world, token, "gm1");
    (world.window.document.body as unknown as HTMLElement).appendChild(h.root); // on the page, as core's HUD is (focus moves)
    world.click("gm1", h.toggle);
    expect(h.palette!.hidden).toBe(false);
    expect(h.toggle!.getAttribute("aria-expanded")).toBe("true");
    expect(h.toggle!.classList.contains("active")).toBe(true);
    world.click("gm1", h.toggle);
    expect(h.palette!.hidden).toBe(true);
    expect(h.toggle!.getAttribute("aria-expanded")).toBe("false");

    world.click("gm1", h.toggle);
    const Key = world.window.KeyboardEvent as unknown as typeof KeyboardEvent;
    world.as("gm1", () => h.actions[0]!.dispatchEvent(new Key("keydown", { key: "Escape", bubbles: true })));
    expect(h.palette!.hidden).toBe(true);
    expect(world.window.document.activeElement).toBe(h.toggle); // the focus goes back to the Aventure button

    // The HUD closes or re-renders (another token, an update): core draws it again, and the palette is closed.
    world.click("gm1", h.toggle);
    const again = hud(world, token, "gm1");
    expect(again.palette!.hidden).toBe(true);
  });

  it("every action is a labelled button with a localized tooltip, in the user's language", async () => {
    const { world, token } = await setup();
    for (const [user, jumps] of [
      ["gm1", "Jumps"],
      ["p1", "Sauts"],
    ] as const) {
      const h = hud(world, token, user);
      for (const b of h.actions) {
        expect(b.type).toBe("button");
        expect(b.getAttribute("aria-label")).toBeTruthy();
        expect(b.dataset.tooltip).toBe(b.getAttribute("aria-label"));
        expect(b.textContent!.trim()).toBe(b.getAttribute("aria-label"));
      }
      expect(h.actions.find((b) => b.dataset.action === "aventure-jumps")!.getAttribute("aria-label")).toBe(jumps);
    }
  });

  it("a click on an action runs it on the clicking user's client and closes the palette", async () => {
    const { world, token } = await setup();
    const windows = () => [...world.window.document.querySelectorAll(".aventure-jumps")];
    const h = hud(world, token, "p1");
    world.click("p1", h.toggle);
    world.click(
      "p1",
      h.actions.find((b) => b.dataset.action === "aventure-jumps")!,
    );
    await world.settle();
    expect(h.palette!.hidden).toBe(true);
    // The Jumps window of the token, drawn by the player's client: in the player's language (French).
    expect(windows()).toHaveLength(1);
    expect(windows()[0]!.textContent).toContain("Saut en longueur");
    expect(windows()[0]!.querySelector(".window-title")!.textContent).toBe("Sauts — Aldric");

    const g = hud(world, token, "gm1");
    world.click(
      "gm1",
      g.actions.find((b) => b.dataset.action === "aventure-travel")!,
    );
    await world.settle();
    expect(world.window.document.querySelectorAll(".aventure-travel")).toHaveLength(1);
  });

  it("no two actions share an icon: in a palette, and among every action registered", async () => {
    const { world, token } = await setup();
    for (const user of ["gm1", "p1"]) {
      const icons = hud(world, token, user).icons;
      expect(new Set(icons).size).toBe(icons.length);
    }
    const registered = (world.clientOf("gm1").exports as unknown as Loaded).hud.hudButtons();
    expect(registered.length).toBeGreaterThanOrEqual(KNOWN.size);
    const byIcon = new Map<string, string[]>();
    for (const b of registered) byIcon.set(b.icon, [...(byIcon.get(b.icon) ?? []), b.id]);
    expect([...byIcon.values()].filter((ids) => ids.length > 1)).toEqual([]);
    // The Aventure button's own icon is none of theirs.
    expect(byIcon.has("fa-solid fa-compass")).toBe(false);
  });

  it("the palette samples (screenshots) show every registered action, with its own icon and title, in registration order", async () => {
    const { world } = await setup();
    const registered = (world.clientOf("gm1").exports as unknown as Loaded).hud.hudButtons();
    const samples = Object.entries(SAMPLES).filter(([key]) => key.split("#")[0] === "hud/palette.hbs");
    expect(samples.length).toBeGreaterThanOrEqual(2);
    const shown = new Set<string>();
    const order = registered.map((b) => b.id);
    for (const [key, sample] of samples) {
      const actions = (sample.context((k) => k) as { actions: { id: string; icon: string; label: string }[] }).actions;
      for (const a of actions) {
        const b = registered.find((x) => x.id === a.id);
        expect(b, `${key}: ${a.id} is not a registered action`).toBeDefined();
        expect([a.icon, a.label], `${key}: ${a.id}`).toEqual([b!.icon, b!.title]);
        shown.add(a.id);
      }
      const ids = actions.map((a) => a.id);
      expect(ids, `${key}: in registration order`).toEqual(
        [...ids].sort((x, y) => order.indexOf(x) - order.indexOf(y)),
      );
    }
    expect(order.filter((id) => !shown.has(id))).toEqual([]);
  });
});

describe("token HUD: each game sees its own actions (docs/rules.md §0)", () => {
  const setSetting = (world: FakeWorld, key: string, value: unknown) =>
    world.as("gm1", () => game.settings.set("aventure" as never, key as never, value as never));
  const all = (world: FakeWorld, token: FakeToken) => {
    const h = hud(world, token, "gm1");
    return h.actions.map((b) => b.dataset.action!.replace(/^aventure-/, "")).filter((id) => ALL.has(id));
  };
  const labels = (world: FakeWorld, token: FakeToken) =>
    hud(world, token, "gm1").actions.map((b) => b.textContent!.trim());

  it.each([
    // rnp and dnd5e: travel, hiding, jumps, falls, suffocation; no pursuit, no Polaris test
    ["rnp", ["travel", "travelRoute", "hide", "search", "jumps", "fall", "hold-breath"]],
    ["dnd5e", ["travel", "travelRoute", "hide", "search", "jumps", "fall", "hold-breath"]],
    // pmt: the movement panel (encounter movement and running) and pursuit only
    ["pmt", ["jumps", "pursuit"]],
    // ose: wilderness travel (OSE SRD), the movement panel, falls (OSE SRD) and pursuit
    ["ose", ["travel", "travelRoute", "jumps", "fall", "pursuit"]],
    // polaris: the Polaris test only
    ["polaris", ["polaris-test"]],
  ])("%s", async (ruleset, expected) => {
    const { world, token } = await setup();
    await setSetting(world, "ruleset", ruleset);
    await world.settle();
    expect(all(world, token)).toEqual(expected);
  });

  it("a borrowed feature shows, labelled with the game it comes from", async () => {
    const { world, token } = await setup();
    await setSetting(world, "ruleset", "pmt");
    await setSetting(world, "borrowFalls", "rnp");
    await setSetting(world, "borrowSuffocation", "dnd5e");
    await world.settle();
    expect(all(world, token)).toEqual(["jumps", "fall", "hold-breath", "pursuit"]);
    const l = labels(world, token);
    expect(l).toContain("Fall (Rôle'n Play's rule)");
    expect(l.some((x) => x.endsWith("(D&D 5e's rule)"))).toBe(true);
    expect(l.filter((x) => x.includes("'s rule)"))).toHaveLength(2); // the game's own actions carry no label
  });
});
