import { it } from "vitest";
import { travelPlan } from "../src/rules/index.js";
it("dbg", () => {
  const base = { ruleset: "dnd5e", pace: "slow", mode: "custom", terrain: "difficult", hoursPerDay: 0.34953215770433277, speedKmh: 0.5000000000000008, party: [{ id: "w", name: "W", conMod: 0, passivePerception: 10, food: "half", water: "half", position: "front" }] } as never;
  const t = 2 * 86400 + 0.9999999999999145 * 0.34953215770433277 * 3600;
  const there = travelPlan({ ...(base as object), duration: t } as never);
  console.log(there.distance, there.equivalentDistance, there.dayDistance, there.days.map((d) => [d.startSeconds, d.marchSeconds, d.distance]));
  const back = travelPlan({ ...(base as object), distance: there.distance } as never);
  console.log(back.durationSeconds, back.days.map((d) => [d.startSeconds, d.marchSeconds, d.distance]));
});
