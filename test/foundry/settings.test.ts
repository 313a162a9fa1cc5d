import { describe, expect, it } from "vitest";
import { bootModule } from "../fake/boot.js";
import { settingsSchema, defaultRulesetFor } from "../../src/foundry/settings-schema.js";

describe("settings", () => {
  it("registers every declared setting with a localized name and hint", async () => {
    const world = await bootModule({ systemId: "dnd5e" });
    const schema = settingsSchema("dnd5e");
    for (const key of Object.keys(schema)) {
      const def = world.settings.defs.get(`aventure.${key}`) as unknown as { name: string; hint: string };
      expect(def, key).toBeDefined();
      expect(world.i18n.has(def.name), def.name).toBe(true);
      expect(world.i18n.has(def.hint), def.hint).toBe(true);
    }
  });

  it("defaults the ruleset from the game system", async () => {
    expect(defaultRulesetFor("dnd5e")).toBe("dnd5e");
    expect(defaultRulesetFor("ose")).toBe("ose");
    expect(defaultRulesetFor("pf2e")).toBe("rnp");
    const w1 = await bootModule({ systemId: "ose" });
    expect(w1.game.settings.get("aventure", "ruleset")).toBe("ose");
    const w2 = await bootModule({ systemId: "worldbuilding" });
    expect(w2.game.settings.get("aventure", "ruleset")).toBe("rnp");
  });

  it("defaults distances to metres and the foot to 0.3 m", async () => {
    const world = await bootModule();
    expect(world.game.settings.get("aventure", "distanceDisplay")).toBe("metres");
    expect(world.game.settings.get("aventure", "feetFactor")).toBe(0.3);
  });

  it("throws on an undeclared key (the fake is strict)", async () => {
    const world = await bootModule();
    expect(() => world.game.settings.get("aventure", "nope")).toThrow(/not registered/);
  });

  it("refuses a ruleset that is not a choice, and a player writing a world setting", async () => {
    const world = await bootModule({
      users: [
        { id: "gm1", isGM: true },
        { id: "p1", isGM: false },
      ],
    });
    await expect(world.game.settings.set("aventure", "ruleset", "gurps")).rejects.toThrow(/not a choice/);
    await world.asUser("p1", async () => {
      await expect(world.game.settings.set("aventure", "ruleset", "pmt")).rejects.toThrow(/Only a GM/);
    });
    await world.game.settings.set("aventure", "ruleset", "pmt");
    expect(world.game.settings.get("aventure", "ruleset")).toBe("pmt");
  });

  it("re-renders open Aventure windows when the ruleset changes", async () => {
    const world = await bootModule();
    const { trackWindow } = await import("../../src/foundry/windows.js");
    let renders = 0;
    trackWindow({ render: () => renders++ });
    await world.game.settings.set("aventure", "ruleset", "ose");
    expect(renders).toBe(1);
  });
});

describe("module entry", () => {
  it("exposes the API with the rules engine", async () => {
    const world = await bootModule();
    const api = world.modules.get("aventure")!.api as { rules: { roundSeconds: (r: string) => number }; ruleset: () => string };
    expect(api.rules.roundSeconds("ose")).toBe(10);
    expect(api.ruleset()).toBe("dnd5e");
  });

  it("registers the Actor data menu, GM only", async () => {
    const world = await bootModule();
    const menu = world.settings.menus.get("aventure.actorDataMenu") as { restricted: boolean; name: string };
    expect(menu.restricted).toBe(true);
    expect(world.i18n.has(menu.name)).toBe(true);
  });

  it("adds its own status effects only where the system lacks them", async () => {
    const dnd = await bootModule({ systemId: "dnd5e" });
    const ids = dnd.CONFIG.statusEffects.map((e) => e.id);
    expect(ids).toContain("aventure-dim");
    expect(ids).not.toContain("aventure-hidden"); // dnd5e has "hiding"
    expect(ids).not.toContain("aventure-surprised"); // dnd5e has "surprised"
    const core = await bootModule({ systemId: "worldbuilding" });
    const coreIds = core.CONFIG.statusEffects.map((e) => e.id);
    expect(coreIds).toContain("aventure-hidden");
    expect(coreIds).toContain("aventure-surprised");
  });
});

describe("unsupported systems", () => {
  it("warns the GM once at ready when no adapter and no paths exist", async () => {
    const world = await bootModule({ systemId: "worldbuilding" });
    expect(world.notifications).toEqual([
      { type: "warn", message: expect.stringContaining("worldbuilding") },
    ]);
  });
  it("stays quiet for dnd5e", async () => {
    const world = await bootModule({ systemId: "dnd5e" });
    expect(world.notifications).toEqual([]);
  });
});

describe("keybindings", () => {
  it("are registered in init with localized names and no default key", async () => {
    const world = await bootModule();
    const ids = [...world.keybindings.keys()].sort();
    expect(ids).toEqual(["aventure.encounter", "aventure.hide", "aventure.jumps", "aventure.travel"]);
    for (const kb of world.keybindings.values()) {
      expect(world.i18n.has(kb.name)).toBe(true);
      expect(kb.editable).toEqual([]);
    }
    expect(world.keybindings.get("aventure.travel")!.restricted).toBe(true);
  });
});
