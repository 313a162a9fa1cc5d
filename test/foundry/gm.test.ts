import { describe, expect, it } from "vitest";
import { bootModule } from "../fake/boot.js";
import { askGM, isActiveGM, registerQuery } from "../../src/foundry/gm.js";

const users = [
  { id: "gm1", isGM: true },
  { id: "gm2", isGM: true },
  { id: "p1", isGM: false },
];

describe("active GM and queries", () => {
  it("exactly one client is the active GM when two GMs are connected", async () => {
    const world = await bootModule({ users });
    const active: string[] = [];
    for (const u of ["gm1", "gm2", "p1"]) await world.asUser(u, () => isActiveGM() && active.push(u));
    expect(active).toEqual(["gm1"]);
  });

  it("a player's request runs on the active GM, which learns who sent it", async () => {
    const world = await bootModule({ users });
    const seen: { ranOn: string; sender: string; data: unknown }[] = [];
    registerQuery<{ n: number }, string>("echo", (data, sender) => {
      seen.push({ ranOn: world.game.user.id, sender: sender.id ?? "", data: data.n });
      return "ok";
    });
    const out = await world.asUser("p1", () => askGM<{ n: number }, string>("echo", { n: 3 }));
    expect(out).toBe("ok");
    expect(seen).toEqual([{ ranOn: "gm1", sender: "p1", data: 3 }]);
  });

  it("the active GM's own request runs locally", async () => {
    const world = await bootModule({ users });
    const seen: string[] = [];
    registerQuery("who", (_d, sender) => void seen.push(`${world.game.user.id}:${sender.id ?? ""}`));
    await askGM("who", {});
    expect(seen).toEqual(["gm1:gm1"]);
  });

  it("fails with a localized error when no GM is connected", async () => {
    const world = await bootModule({ users: [{ id: "gm1", isGM: true, active: false }, { id: "p1", isGM: false }], current: "p1" });
    await expect(askGM("anything", {})).rejects.toMatchObject({ key: "AVENTURE.Error.NoActiveGM" });
    expect(world.i18n.has("AVENTURE.Error.NoActiveGM")).toBe(true);
  });
});
