import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  RulesError,
  TRAVEL_PACE_TABLE,
  TRAVEL_RUNNING_TABLE,
  encounterMovement,
  encounterMovementLimitRounds,
  fastingDays,
  forcedMarchDC,
  holdBreath,
  paceDistance,
  roundSeconds,
  routePosition,
  runningLimitRounds,
  suffocationRounds,
  survivalDay,
  travelLostCheck,
  travelOutcome,
  travelPlan,
  turnSeconds,
  waterNeedLitres,
  type TravelInput,
  type TravelMemberInput,
} from "../../src/rules/index.js";
import { errorKey } from "./helpers.js";

const walker: TravelMemberInput = {
  id: "w",
  name: "Walker",
  conMod: 0,
  passivePerception: 12,
  food: "full",
  water: "full",
  position: "front",
};

function plan(over: Partial<TravelInput>) {
  return travelPlan({ ruleset: "rnp", pace: "normal", terrain: "normal", mode: "foot", party: [walker], ...over });
}

describe("pace table (RULES.md §2.1)", () => {
  it("gives every cell as written, the day column as given", () => {
    expect(paceDistance("slow", "minute")).toBe(60);
    expect(paceDistance("slow", "hour")).toBe(3000);
    expect(paceDistance("slow", "day")).toBe(27000);
    expect(paceDistance("normal", "minute")).toBe(90);
    expect(paceDistance("normal", "hour")).toBe(4500);
    expect(paceDistance("normal", "day")).toBe(36000);
    expect(paceDistance("fast", "minute")).toBe(120);
    expect(paceDistance("fast", "hour")).toBe(6000);
    expect(paceDistance("fast", "day")).toBe(45000);
  });
  it("does not derive the day from the hour for slow and fast", () => {
    expect(paceDistance("slow", "day")).not.toBe(8 * 3000);
    expect(paceDistance("fast", "day")).not.toBe(8 * 6000);
  });
  it("halves in difficult terrain (§2.3): normal pace in a forest = 18 km a day", () => {
    expect(paceDistance("normal", "day", { difficult: true })).toBe(18000);
    expect(paceDistance("slow", "minute", { difficult: true })).toBe(30);
    expect(paceDistance("fast", "hour", { difficult: true })).toBe(3000);
    expect(paceDistance("fast", "hour", { difficult: false })).toBe(6000);
  });
  it("rejects unknown paces, periods and options", () => {
    expect(errorKey(() => paceDistance("run" as never, "day"))).toBe("AVENTURE.Error.UnknownValue");
    expect(errorKey(() => paceDistance("slow", "week" as never))).toBe("AVENTURE.Error.UnknownValue");
    expect(errorKey(() => paceDistance("slow", "day", { difficult: "yes" as never }))).toBe(
      "AVENTURE.Error.UnknownValue",
    );
  });
});

describe("forced march (§2.4)", () => {
  it("no save up to 8 h, then DC 10 + hours beyond 8", () => {
    for (let h = 0; h <= 8; h++) expect(forcedMarchDC(h)).toBeNull();
    expect(forcedMarchDC(9)).toBe(11);
    expect(forcedMarchDC(10)).toBe(12);
    expect(forcedMarchDC(12)).toBe(14);
    expect(forcedMarchDC(24)).toBe(26);
  });
  it("rejects negative, fractional, NaN and beyond-a-day hours", () => {
    expect(errorKey(() => forcedMarchDC(-1))).toBe("AVENTURE.Error.Negative");
    expect(errorKey(() => forcedMarchDC(8.5))).toBe("AVENTURE.Error.NotAnInteger");
    expect(errorKey(() => forcedMarchDC(Number.NaN))).toBe("AVENTURE.Error.NotANumber");
    expect(errorKey(() => forcedMarchDC(25))).toBe("AVENTURE.Error.OutOfRange");
  });
});

describe("suffocation (§4.2)", () => {
  it("holds breath 1 + CON minutes, at least 30 s", () => {
    expect(holdBreath(-1)).toBe(30);
    expect(holdBreath(-5)).toBe(30);
    expect(holdBreath(0)).toBe(60);
    expect(holdBreath(2)).toBe(180);
    expect(holdBreath(10)).toBe(660);
  });
  it("survives CON rounds once out of air, at least 1", () => {
    expect(suffocationRounds(-3)).toBe(1);
    expect(suffocationRounds(0)).toBe(1);
    expect(suffocationRounds(1)).toBe(1);
    expect(suffocationRounds(3)).toBe(3);
  });
  it("rejects a non-integer or absurd modifier", () => {
    expect(errorKey(() => holdBreath(1.5))).toBe("AVENTURE.Error.NotAnInteger");
    expect(errorKey(() => holdBreath(11))).toBe("AVENTURE.Error.OutOfRange");
    expect(errorKey(() => suffocationRounds(Number.NaN))).toBe("AVENTURE.Error.NotANumber");
  });
});

describe("food and water (§4.3–4.4)", () => {
  it("fasts 3 + CON days, at least 1", () => {
    expect(fastingDays(0)).toBe(3);
    expect(fastingDays(2)).toBe(5);
    expect(fastingDays(-2)).toBe(1);
    expect(fastingDays(-3)).toBe(1);
    expect(fastingDays(-5)).toBe(1);
  });
  it("needs 3 L of water, 6 L when hot", () => {
    expect(waterNeedLitres(false)).toBe(3);
    expect(waterNeedLitres(true)).toBe(6);
  });
  it("CON 0: the 4th day without food is one level", () => {
    const base = { conMod: 0, exhaustion: 0, food: "none", water: "full" } as const;
    expect(survivalDay({ ...base, fasting: 2 })).toMatchObject({ fastingAfter: 3, hungerLevels: 0, starving: false });
    expect(survivalDay({ ...base, fasting: 3 })).toMatchObject({
      fastingAfter: 4,
      hungerLevels: 1,
      exhaustionAfter: 1,
      starving: true,
    });
  });
  it("half rations are half a day of fasting; a full day resets the counter", () => {
    const base = { conMod: 0, exhaustion: 0, water: "full" } as const;
    expect(survivalDay({ ...base, fasting: 3, food: "half" })).toMatchObject({ fastingAfter: 3.5, hungerLevels: 0 });
    expect(survivalDay({ ...base, fasting: 3.5, food: "half" })).toMatchObject({ fastingAfter: 4, hungerLevels: 1 });
    expect(survivalDay({ ...base, fasting: 6, food: "full" })).toMatchObject({
      fastingAfter: 0,
      hungerLevels: 0,
      starving: false,
    });
  });
  it("no water: 1 level automatically; 2 when already exhausted", () => {
    const base = { conMod: 0, fasting: 0, food: "full", water: "none" } as const;
    expect(survivalDay({ ...base, exhaustion: 0 })).toMatchObject({
      thirstLevels: 1,
      dehydrationExtra: false,
      exhaustionAfter: 1,
    });
    expect(survivalDay({ ...base, exhaustion: 1 })).toMatchObject({
      thirstLevels: 2,
      dehydrationExtra: true,
      exhaustionAfter: 3,
    });
  });
  it("half water: CON save DC 15 (boolean or total)", () => {
    const base = { conMod: 0, fasting: 0, food: "full", water: "half", exhaustion: 0 } as const;
    expect(survivalDay({ ...base, dehydrationSave: 15 })).toMatchObject({ dehydrationSaveDC: 15, thirstLevels: 0 });
    expect(survivalDay({ ...base, dehydrationSave: 14 })).toMatchObject({ thirstLevels: 1, exhaustionAfter: 1 });
    expect(survivalDay({ ...base, dehydrationSave: true })).toMatchObject({ thirstLevels: 0, dehydrated: false });
    expect(errorKey(() => survivalDay({ ...base }))).toBe("AVENTURE.Error.Missing");
  });
  it("caps exhaustion at 6", () => {
    expect(survivalDay({ conMod: 0, fasting: 9, food: "none", water: "none", exhaustion: 5 }).exhaustionAfter).toBe(6);
  });
});

describe("encounter movement and running (§2.8)", () => {
  it("36 m exploration → 12 m per round", () => {
    expect(encounterMovement(36)).toBe(12);
    expect(encounterMovement(0)).toBe(0);
    expect(errorKey(() => encounterMovement(-3))).toBe("AVENTURE.Error.Negative");
  });
  it("runs 30 rounds in pmt and in ose (OSE's own rule), then exhausted; no rule elsewhere (null)", () => {
    expect(runningLimitRounds("pmt")).toBe(30);
    expect(runningLimitRounds("ose")).toBe(30);
    expect(TRAVEL_RUNNING_TABLE.pmt).toEqual({ rounds: 30, exhaustedAfter: true });
    expect(TRAVEL_RUNNING_TABLE.ose).toEqual({ rounds: 30, exhaustedAfter: true });
    expect(runningLimitRounds("rnp")).toBeNull();
    expect(runningLimitRounds("dnd5e")).toBeNull();
    expect(runningLimitRounds("polaris")).toBeNull();
    expect(errorKey(() => runningLimitRounds("gurps" as never))).toBe("AVENTURE.Error.UnknownRuleset");
  });
  it("keeps the ose encounter movement rate for at most 60 rounds (one turn); no limit elsewhere", () => {
    expect(encounterMovementLimitRounds("ose")).toBe(60);
    expect(encounterMovementLimitRounds("ose")! * roundSeconds("ose")).toBe(turnSeconds("ose"));
    for (const rs of ["pmt", "rnp", "dnd5e", "polaris"] as const) expect(encounterMovementLimitRounds(rs)).toBeNull();
    expect(errorKey(() => encounterMovementLimitRounds("gurps" as never))).toBe("AVENTURE.Error.UnknownRuleset");
  });
});

describe("getting lost (§2.7)", () => {
  it("is lost when the d100 is at most the chance", () => {
    expect(travelLostCheck(15, 15)).toBe(true);
    expect(travelLostCheck(15, 16)).toBe(false);
    expect(travelLostCheck(0, 1)).toBe(false);
    expect(errorKey(() => travelLostCheck(15, 0))).toBe("AVENTURE.Error.OutOfRange");
  });
  it("lists the chance on each day and warns", () => {
    const p = plan({ ruleset: "pmt", distance: 72000, lostChance: 15 });
    expect(p.days.map((d) => d.lostCheckChance)).toEqual([15, 15]);
    expect(p.warnings).toContain("lostCheck");
    expect(plan({ distance: 72000 }).days.map((d) => d.lostCheckChance)).toEqual([null, null]);
  });
});

describe("travelPlan: distance and duration", () => {
  it("normal pace in a forest covers 18 km in a day of 8 h", () => {
    const p = plan({ terrain: "difficult", distance: 18000 });
    expect(p.days).toHaveLength(1);
    expect(p.durationSeconds).toBe(8 * 3600);
    expect(p.dayDistance).toBe(18000);
    expect(plan({ terrain: "difficult", duration: 86400 }).distance).toBe(18000);
  });
  it("uses the day column for a full day: 27, 36, 45 km", () => {
    expect(plan({ pace: "slow", duration: 86400 }).distance).toBe(27000);
    expect(plan({ pace: "normal", duration: 86400 }).distance).toBe(36000);
    expect(plan({ pace: "fast", duration: 86400 }).distance).toBe(45000);
  });
  it("reads a short day at the hour column (§2.1: slow 5 h = 15 km, 8 h = 27 km; fast 7 h = 42 km)", () => {
    expect(plan({ pace: "slow", duration: 5 * 3600 }).distance).toBe(15000);
    expect(plan({ pace: "slow", duration: 8 * 3600 }).distance).toBe(27000);
    expect(plan({ pace: "fast", duration: 7 * 3600 }).distance).toBe(42000);
    expect(plan({ pace: "fast", duration: 8 * 3600 }).distance).toBe(45000);
    expect(plan({ pace: "slow", duration: 3600 }).distance).toBe(3000);
    expect(plan({ pace: "fast", duration: 3 * 3600 }).distance).toBe(18000);
    expect(plan({ pace: "normal", duration: 4 * 3600 }).distance).toBe(18000);
  });
  it("reads leftover minutes at the minute column (slow 1 h 30 = 3 km + 30 × 60 m)", () => {
    expect(plan({ pace: "slow", duration: 5400 }).distance).toBe(4800);
    expect(plan({ pace: "normal", duration: 20 * 60 }).distance).toBe(1800);
    expect(plan({ pace: "fast", duration: 7 * 3600 + 15 * 60 }).distance).toBe(43800);
  });
  it("a distance is whole days first, then the remainder at the hour column: 30 km slow = 1 day + 1 h (25 h)", () => {
    const p = plan({ pace: "slow", distance: 30000 });
    expect(p.days.map((d) => d.distance)).toEqual([27000, 3000]);
    expect(p.days.map((d) => d.marchSeconds)).toEqual([8 * 3600, 3600]);
    expect(p.durationSeconds).toBe(25 * 3600);
    expect(p.duration).toEqual({ days: 1, hours: 1, minutes: 0, seconds: 0 });
    expect(p.days.map((d) => d.stretches.map((x) => [x.column, x.seconds, x.metres]))).toEqual([
      [["day", 28800, 27000]],
      [["hour", 3600, 3000]],
    ]);
    // 28 km: the last kilometre at the hour column (3 km/h) takes 20 minutes.
    expect(plan({ pace: "slow", distance: 28000 }).durationSeconds).toBe(86400 + 1200);
    // Within a day: 15 km slow = 5 h, 42 km fast = 7 h.
    expect(plan({ pace: "slow", distance: 15000 }).durationSeconds).toBe(5 * 3600);
    expect(plan({ pace: "fast", distance: 42000 }).durationSeconds).toBe(7 * 3600);
  });
  it("a remainder that would need 8 h or more at the hour column is one more whole day (slow: above 24 km)", () => {
    expect(plan({ pace: "slow", distance: 24000 }).durationSeconds).toBe(8 * 3600);
    const p = plan({ pace: "slow", distance: 25000 });
    expect(p.durationSeconds).toBe(8 * 3600);
    expect(p.days[0]!.stretches.map((x) => x.column)).toEqual(["day"]);
    expect(plan({ pace: "slow", distance: 27000 + 25000 }).durationSeconds).toBe(86400 + 8 * 3600);
    expect(plan({ pace: "slow", distance: 23000 }).days[0]!.stretches.map((x) => x.column)).toEqual(["hour"]);
    // With forced march: 10 h a day slow (27 + 2 × 3 = 33 km); a 29 km remainder is a whole day (27 km) + 40 min.
    const q = plan({ pace: "slow", hoursPerDay: 10, distance: 33000 + 29000 });
    expect(q.days[1]!.stretches.map((x) => [x.column, x.seconds])).toEqual([
      ["day", 28800],
      ["hour", 2400],
    ]);
  });
  it("adds the hour column for forced-march hours", () => {
    expect(plan({ pace: "slow", hoursPerDay: 9, duration: 86400 }).distance).toBe(30000);
    expect(plan({ pace: "fast", hoursPerDay: 10, duration: 86400 }).distance).toBe(57000);
    expect(plan({ pace: "normal", hoursPerDay: 10, duration: 86400 }).distance).toBe(45000);
  });
  it("counts full days as 24 h and the last day as its march", () => {
    const p = plan({ terrain: "difficult", distance: 50000 });
    expect(p.days.map((d) => d.distance)).toEqual([18000, 18000, 14000]);
    expect(p.days.map((d) => d.distanceTotal)).toEqual([18000, 36000, 50000]);
    expect(p.days.map((d) => d.startSeconds)).toEqual([0, 86400, 172800]);
    expect(p.days[2]!.marchSeconds).toBeCloseTo((14000 / 2250) * 3600, 6);
    expect(p.durationSeconds).toBeCloseTo(2 * 86400 + (14000 / 2250) * 3600, 6);
    expect(p.duration).toEqual({ days: 2, hours: 6, minutes: 13, seconds: 20 });
  });
  it("a duration keeps its elapsed time; a remainder marches at most hoursPerDay", () => {
    const a = plan({ duration: 30 * 3600 });
    expect(a.days.map((d) => d.marchSeconds)).toEqual([8 * 3600, 6 * 3600]);
    expect(a.distance).toBe(36000 + 27000);
    expect(a.durationSeconds).toBe(30 * 3600);
    const b = plan({ duration: 40 * 3600 });
    expect(b.days.map((d) => d.marchSeconds)).toEqual([8 * 3600, 8 * 3600]);
    expect(b.distance).toBe(72000);
    expect(b.durationSeconds).toBe(40 * 3600);
  });
  it("a zero trip has no days", () => {
    const p = plan({ distance: 0 });
    expect(p.days).toEqual([]);
    expect(p.durationSeconds).toBe(0);
    expect(p.members[0]!.exhaustionMax).toBe(0);
  });
  it("only completed hours beyond 8 call for a save; the half hour is read at the minute column", () => {
    const p = plan({ hoursPerDay: 9.5, duration: 86400 });
    expect(p.days[0]!.forcedMarch).toEqual([{ hour: 9, dc: 11 }]);
    expect(p.distance).toBe(36000 + 4500 + 30 * 90);
    expect(p.days[0]!.stretches.map((x) => [x.column, x.seconds, x.metres])).toEqual([
      ["day", 28800, 36000],
      ["hour", 3600, 4500],
      ["minute", 1800, 2700],
    ]);
  });
});

describe("travelPlan: mounts and vehicles (§2.5)", () => {
  it("gallops 12 km in one hour", () => {
    const p = plan({ mode: "gallop", pace: "fast", duration: 3600 });
    expect(p.distance).toBe(12000);
    expect(p.warnings).not.toContain("gallopCapped");
    expect(plan({ mode: "gallop", pace: "fast", distance: 12000 }).durationSeconds).toBe(3600);
    expect(plan({ mode: "gallop", pace: "fast", terrain: "difficult", duration: 3600 }).distance).toBe(6000);
  });
  it("caps the gallop at one hour a day, then the chosen pace", () => {
    const p = plan({ mode: "gallop", pace: "fast", duration: 2 * 3600 });
    expect(p.distance).toBe(12000 + 6000); // then the hour column: a gallop day has no whole day of walking
    expect(p.days[0]!.stretches.map((x) => x.column)).toEqual(["gallop", "hour"]);
    expect(plan({ mode: "gallop", pace: "slow", duration: 86400 }).distance).toBe(12000 + 7 * 3000);
    expect(p.days[0]!.gallopSeconds).toBe(3600);
    expect(p.warnings).toContain("gallopCapped");
    expect(p.members[0]!.passivePerception).toBe(7);
    expect(p.canStealth).toBe(false);
  });
  it("vehicles travel at normal pace", () => {
    const p = plan({ mode: "vehicle", pace: "fast", duration: 86400 });
    expect(p.distance).toBe(36000);
    expect(p.effectivePace).toBe("normal");
    expect(p.members[0]!.passivePerception).toBe(12);
    expect(p.warnings).toContain("vehicleNormalPace");
  });
  it("boats use their speed, ignore pace and terrain, need crew beyond 8 h, roll no forced march", () => {
    const p = plan({
      mode: "boat",
      pace: "fast",
      terrain: "difficult",
      speedKmh: 10,
      hoursPerDay: 24,
      duration: 86400,
    });
    expect(p.distance).toBe(240000);
    expect(p.saves).toEqual([]);
    expect(p.members[0]!.passivePerception).toBe(12);
    expect(p.canStealth).toBe(false);
    expect(p.warnings).toEqual(expect.arrayContaining(["boatIgnoresPace", "boatCrewNeeded", "terrainIgnoredOnBoat"]));
    expect(p.effectivePace).toBeNull();
  });
  it("custom mounts use their speed, halved in difficult terrain", () => {
    expect(plan({ mode: "custom", speedKmh: 15, duration: 2 * 3600 }).distance).toBe(30000);
    expect(plan({ mode: "custom", speedKmh: 15, terrain: "difficult", duration: 2 * 3600 }).distance).toBe(15000);
  });
  it("warns about an ignored speed", () => {
    expect(plan({ speedKmh: 10, distance: 1000 }).warnings).toContain("speedIgnored");
  });
});

describe("travelPlan: pace effects, marching order, activities (§2.2, §2.6)", () => {
  const m = (
    id: string,
    pp: number,
    position: TravelMemberInput["position"],
    activity?: TravelMemberInput["activity"],
  ) =>
    ({
      ...walker,
      id,
      name: id,
      passivePerception: pp,
      position,
      ...(activity ? { activity } : {}),
    }) as TravelMemberInput;
  it("fast pace: −5 passive Perception; best per position among those who count", () => {
    const p = plan({
      pace: "fast",
      distance: 1000,
      party: [
        m("a", 15, "front"),
        m("b", 18, "front", "navigate"),
        m("c", 13, "middle", "watch"),
        m("d", 11, "rear", "forage"),
      ],
    });
    expect(p.members.map((x) => x.passivePerception)).toEqual([10, 13, 8, 6]);
    expect(p.members.map((x) => x.countsForNoticing)).toEqual([true, false, true, false]);
    expect(p.noticeByPosition).toEqual({ front: 10, middle: 8, rear: null });
  });
  it("slow pace allows stealth, other paces warn when stealth is asked", () => {
    expect(plan({ pace: "slow", stealth: true, distance: 1000 }).canStealth).toBe(true);
    expect(plan({ pace: "slow", stealth: true, distance: 1000 }).warnings).not.toContain("stealthNeedsSlow");
    expect(plan({ pace: "normal", stealth: true, distance: 1000 }).warnings).toContain("stealthNeedsSlow");
    expect(plan({ mode: "boat", speedKmh: 5, pace: "slow", stealth: true, distance: 1000 }).warnings).toContain(
      "stealthNotOnBoat",
    );
  });
  it("two positions are front and rear; one is the front", () => {
    const two = plan({ distance: 1000, party: [m("a", 10, "front"), m("b", 12, "middle")] });
    expect(two.members.map((x) => x.position)).toEqual(["front", "rear"]);
    expect(two.noticeByPosition).toEqual({ front: 10, middle: null, rear: 12 });
    expect(two.warnings).toContain("positionsNormalised");
    const one = plan({ distance: 1000, party: [m("a", 10, "rear"), m("b", 12, "rear")] });
    expect(one.members.map((x) => x.position)).toEqual(["front", "front"]);
    expect(plan({ distance: 1000, party: [m("a", 10, "front"), m("b", 12, "rear")] }).warnings).not.toContain(
      "positionsNormalised",
    );
  });
  it("warns when nobody keeps watch", () => {
    expect(plan({ distance: 1000, party: [m("a", 10, "front", "map")] }).warnings).toContain("noLookout");
  });
  it("marks a fallback ruleset", () => {
    expect(plan({ ruleset: "ose", distance: 1000 }).warnings).toContain("rulesetFallback");
    expect(plan({ ruleset: "dnd5e", distance: 1000 }).warnings).not.toContain("rulesetFallback");
  });
});

describe("a 3-day forest journey at normal pace, 10 h a day, party of four", () => {
  const party: TravelMemberInput[] = [
    {
      id: "aria",
      name: "Aria",
      conMod: 2,
      passivePerception: 14,
      food: "full",
      water: "full",
      position: "front",
      activity: "watch",
    },
    {
      id: "bram",
      name: "Bram",
      conMod: 0,
      passivePerception: 12,
      food: "half",
      water: "half",
      position: "middle",
      activity: "navigate",
    },
    {
      id: "cyl",
      name: "Cyl",
      conMod: -1,
      passivePerception: 16,
      food: "none",
      water: "full",
      position: "middle",
      activity: "map",
      fasting: 1,
    },
    { id: "dun", name: "Dun", conMod: 1, passivePerception: 11, food: "full", water: "none", position: "rear" },
  ];
  const input: TravelInput = {
    ruleset: "rnp",
    pace: "normal",
    terrain: "difficult",
    mode: "foot",
    hoursPerDay: 10,
    distance: 67500,
    party,
  };
  const p = travelPlan(input);

  it("covers 22.5 km a day (18 km + 2 × 2.25 km) and arrives after 2 days 10 h", () => {
    expect(p.dayDistance).toBe(22500);
    expect(p.days.map((d) => d.distance)).toEqual([22500, 22500, 22500]);
    expect(p.days.map((d) => d.marchSeconds)).toEqual([36000, 36000, 36000]);
    expect(p.durationSeconds).toBe(208800);
    expect(p.duration).toEqual({ days: 2, hours: 10, minutes: 0, seconds: 0 });
    expect(p.marchSeconds).toBe(108000);
  });
  it("calls for forced-march saves DC 11 and 12 every day, plus Bram's dehydration saves DC 15", () => {
    for (const d of p.days)
      expect(d.forcedMarch).toEqual([
        { hour: 9, dc: 11 },
        { hour: 10, dc: 12 },
      ]);
    expect(p.saves.filter((s) => s.kind === "forcedMarch")).toHaveLength(24);
    expect(p.saves.filter((s) => s.kind === "dehydration").map((s) => [s.id, s.dc])).toEqual([
      ["bram:1:dehydration", 15],
      ["bram:2:dehydration", 15],
      ["bram:3:dehydration", 15],
    ]);
    expect(p.saves.slice(0, 3).map((s) => s.id)).toEqual([
      "aria:1:forcedMarch:9",
      "aria:1:forcedMarch:10",
      "bram:1:forcedMarch:9",
    ]);
    expect(p.warnings).toEqual(["forcedMarch"]);
  });
  it("lists who notices threats", () => {
    expect(p.members.map((m) => m.countsForNoticing)).toEqual([true, false, false, true]);
    expect(p.noticeByPosition).toEqual({ front: 14, middle: null, rear: 11 });
    expect(p.canStealth).toBe(false);
  });
  it("counts food and water per day", () => {
    const cyl = p.members[2]!;
    expect(cyl.fastingAllowed).toBe(2);
    expect(cyl.days.map((d) => [d.fastingAfter, d.hungerLevels])).toEqual([
      [2, 0],
      [3, 1],
      [4, 1],
    ]);
    expect(cyl.fastingAfter).toBe(4);
    expect(cyl.starvingAfter).toBe(true);
    const bram = p.members[1]!;
    expect(bram.days.map((d) => d.fastingAfter)).toEqual([0.5, 1, 1.5]);
    expect(bram.days.map((d) => d.dehydrationDC)).toEqual([15, 15, 15]);
    const dun = p.members[3]!;
    expect(dun.days.map((d) => d.thirstAutomatic)).toEqual([1, 1, 1]);
    expect(dun.days.every((d) => d.dehydrationExtraIfExhausted)).toBe(true);
  });
  it("gives the exhaustion range if every save succeeds / fails", () => {
    expect(p.members.map((m) => [m.exhaustionMin, m.exhaustionMax])).toEqual([
      [0, 6],
      [0, 6],
      [2, 6],
      [5, 6],
    ]);
  });
  it("applies the save results", () => {
    const results: Record<string, boolean | number> = Object.fromEntries(p.saves.map((s) => [s.id, true]));
    results["aria:2:forcedMarch:10"] = 11; // total 11 against DC 12: failure
    results["aria:3:forcedMarch:10"] = 12; // total 12: success
    results["bram:1:forcedMarch:9"] = false;
    results["bram:1:dehydration"] = false; // already exhausted by the forced march: 2 levels
    const o = travelOutcome(p, results);
    expect(o.failedSaves).toEqual(["bram:1:forcedMarch:9", "bram:1:dehydration", "aria:2:forcedMarch:10"]);
    expect(o.members.map((m) => m.exhaustionAfter)).toEqual([1, 3, 2, 5]);
    const bram = o.members[1]!;
    expect(bram.days[0]).toEqual({
      day: 1,
      forcedMarchFailures: 1,
      hungerLevels: 0,
      thirstLevels: 2,
      dehydrationExtra: true,
      fastingAfter: 0.5,
      thirstAfter: 1,
      exhaustionAfter: 3,
      applied: { forcedMarch: 1, hunger: 0, thirst: 2 },
    });
    const dun = o.members[3]!;
    expect(dun.days.map((d) => d.exhaustionAfter)).toEqual([1, 3, 5]);
    expect(dun.dehydrated).toBe(true);
    expect(dun.recoveryBlocked).toBe(true);
    expect(o.members[2]!.starving).toBe(true);
    expect(o.members[0]!.recoveryBlocked).toBe(false);
    expect(o.members.some((m) => m.dead)).toBe(false);
  });
  it("counts the days in a row that end dehydrated (thirst counter)", () => {
    const results: Record<string, boolean | number> = Object.fromEntries(p.saves.map((s) => [s.id, true]));
    results["bram:2:dehydration"] = 14; // below DC 15: dehydrated on day 2 only
    const o = travelOutcome(p, results);
    expect(o.members[1]!.days.map((d) => d.thirstAfter)).toEqual([0, 1, 0]);
    expect(o.members[1]!.thirstAfter).toBe(0);
    expect(o.members[3]!.days.map((d) => d.thirstAfter)).toEqual([1, 2, 3]); // no water at all
    expect(o.members[0]!.thirstAfter).toBe(0);
    // A counter carried in from before the trip goes on, and a day with full water resets it.
    const q = travelPlan({ ...input, party: party.map((m) => ({ ...m, thirst: 2 })) });
    expect(q.members.map((m) => m.thirstBefore)).toEqual([2, 2, 2, 2]);
    const oq = travelOutcome(q, Object.fromEntries(q.saves.map((s) => [s.id, true])));
    expect(oq.members.map((m) => m.thirstAfter)).toEqual([0, 0, 0, 5]);
    expect(errorKey(() => travelPlan({ ...input, party: [{ ...party[0]!, thirst: 1.5 }] }))).toBe(
      "AVENTURE.Error.NotAnInteger",
    );
    expect(errorKey(() => travelPlan({ ...input, party: [{ ...party[0]!, thirst: -1 }] }))).toBe(
      "AVENTURE.Error.Negative",
    );
  });
  it("refuses missing or unknown save results", () => {
    expect(errorKey(() => travelOutcome(p, {}))).toBe("AVENTURE.Error.Missing");
    const all = Object.fromEntries(p.saves.map((s) => [s.id, true]));
    expect(errorKey(() => travelOutcome(p, { ...all, "zed:1:dehydration": true }))).toBe("AVENTURE.Error.UnknownValue");
  });
  it("gives the same journey from a duration of three days", () => {
    const q = travelPlan({ ...input, distance: undefined, duration: 3 * 86400 });
    expect(q.distance).toBe(67500);
    expect(q.durationSeconds).toBe(259200);
    expect(q.saves).toEqual(p.saves);
  });
  it("is plain JSON", () => {
    expect(JSON.parse(JSON.stringify(p))).toEqual(p);
  });
});

describe("travelPlan: exhaustion from before the trip and the cap", () => {
  it("an already exhausted member takes 2 levels per dry day; 6 is death", () => {
    const p = plan({ distance: 36000 * 3, party: [{ ...walker, water: "none", exhaustion: 1 }] });
    const o = travelOutcome(p, {});
    expect(o.members[0]!.days.map((d) => d.exhaustionAfter)).toEqual([3, 5, 6]);
    expect(o.members[0]!.dead).toBe(true);
    // Day 3 causes 2 thirst levels, but only 1 fits under the cap: `applied` adds up to the 5 levels gained.
    expect(o.members[0]!.days.map((d) => d.thirstLevels)).toEqual([2, 2, 2]);
    expect(o.members[0]!.days.map((d) => d.applied.thirst)).toEqual([2, 2, 1]);
    expect(o.members[0]!.levelsGained).toBe(5);
  });
  it("property: the levels applied by cause add up to the levels gained, never past the cap", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("full", "half", "none"),
        fc.constantFrom("full", "half", "none"),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: -3, max: 4 }),
        fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
        (food, water, exhaustion, conMod, dice) => {
          const p = plan({
            distance: 36000 * 4,
            pace: "fast",
            hoursPerDay: 10,
            party: [{ ...walker, food, water, exhaustion, conMod }] as never,
          });
          const o = travelOutcome(p, Object.fromEntries(p.saves.map((sv, i) => [sv.id, dice[i % dice.length]!])));
          const m = o.members[0]!;
          const sum = m.days.reduce((a, d) => a + d.applied.forcedMarch + d.applied.hunger + d.applied.thirst, 0);
          expect(sum).toBe(m.levelsGained);
          for (const d of m.days) {
            expect(d.applied.forcedMarch).toBeLessThanOrEqual(d.forcedMarchFailures);
            expect(d.applied.hunger).toBeLessThanOrEqual(d.hungerLevels);
            expect(d.applied.thirst).toBeLessThanOrEqual(d.thirstLevels);
            expect(Math.min(d.applied.forcedMarch, d.applied.hunger, d.applied.thirst)).toBeGreaterThanOrEqual(0);
          }
        },
      ),
    );
  });
  it("hot weather doubles the water need", () => {
    const p = plan({ hot: true, distance: 1000 });
    expect(p.waterNeedLitres).toBe(6);
    expect(p.foodNeedGrams).toBe(500);
    expect(p.warnings).toContain("hotWeather");
  });
});

describe("travelPlan: invalid input", () => {
  it("throws with the right keys", () => {
    expect(errorKey(() => plan({ distance: -1 }))).toBe("AVENTURE.Error.Negative");
    expect(errorKey(() => plan({ distance: Number.NaN }))).toBe("AVENTURE.Error.NotANumber");
    expect(errorKey(() => plan({ duration: Number.POSITIVE_INFINITY }))).toBe("AVENTURE.Error.NotANumber");
    expect(errorKey(() => plan({ distance: 1000, party: [] }))).toBe("AVENTURE.Error.EmptyParty");
    expect(errorKey(() => plan({ distance: 1000, pace: "trot" as never }))).toBe("AVENTURE.Error.UnknownValue");
    expect(errorKey(() => plan({ distance: 1000, mode: "ship" as never }))).toBe("AVENTURE.Error.UnknownValue");
    expect(errorKey(() => plan({ distance: 1000, terrain: "mud" as never }))).toBe("AVENTURE.Error.UnknownValue");
    expect(errorKey(() => plan({ distance: 1000, ruleset: "gurps" as never }))).toBe("AVENTURE.Error.UnknownRuleset");
    expect(errorKey(() => plan({}))).toBe("AVENTURE.Error.Missing");
    expect(errorKey(() => plan({ distance: 1, duration: 1 }))).toBe("AVENTURE.Error.UnknownValue");
    expect(errorKey(() => plan({ distance: 1000, mode: "boat" }))).toBe("AVENTURE.Error.Missing");
    expect(errorKey(() => plan({ distance: 1000, mode: "boat", speedKmh: 0 }))).toBe("AVENTURE.Error.OutOfRange");
    expect(errorKey(() => plan({ distance: 1000, hoursPerDay: 0 }))).toBe("AVENTURE.Error.OutOfRange");
    expect(errorKey(() => plan({ distance: 1000, hoursPerDay: 25 }))).toBe("AVENTURE.Error.OutOfRange");
    expect(errorKey(() => plan({ distance: 1000, lostChance: 101 }))).toBe("AVENTURE.Error.OutOfRange");
    expect(errorKey(() => plan({ distance: 1e9 }))).toBe("AVENTURE.Error.OutOfRange");
    expect(errorKey(() => plan({ distance: 1000, party: [walker, walker] }))).toBe("AVENTURE.Error.UnknownValue");
    expect(errorKey(() => plan({ distance: 1000, party: [{ ...walker, food: "lots" as never }] }))).toBe(
      "AVENTURE.Error.UnknownValue",
    );
    expect(errorKey(() => plan({ distance: 1000, party: [{ ...walker, exhaustion: 7 }] }))).toBe(
      "AVENTURE.Error.OutOfRange",
    );
    expect(errorKey(() => plan({ distance: 1000, party: [{ ...walker, id: "" }] }))).toBe("AVENTURE.Error.Missing");
    expect(errorKey(() => travelPlan(undefined as never))).toBe("AVENTURE.Error.Missing");
  });
});

describe("travelPlan along a route (RULES.md §11)", () => {
  const route = (pace: TravelInput["pace"], legs: TravelInput["legs"], over: Partial<TravelInput> = {}) =>
    travelPlan({ ruleset: "rnp", pace, mode: "foot", party: [walker], legs, ...over });
  const roadThenForest = [
    { metres: 18000, terrain: "normal" },
    { metres: 9000, terrain: "difficult" },
  ] as const;

  it("18 km of road then 9 km of forest at normal pace: 36 km equivalent, exactly one day", () => {
    const p = route("normal", roadThenForest);
    expect(p.equivalentDistance).toBe(36000);
    expect(p.distance).toBe(27000);
    expect(p.days).toHaveLength(1);
    expect(p.durationSeconds).toBe(28800);
    expect(p.terrain).toBe("mixed");
    expect(p.legs).toEqual([
      { metres: 18000, terrain: "normal", arrivalSeconds: 14400 },
      { metres: 9000, terrain: "difficult", arrivalSeconds: 28800 },
    ]);
    expect(p.days[0]!.stretches).toEqual([
      { column: "day", leg: 0, startSeconds: 0, seconds: 14400, metres: 18000 },
      { column: "day", leg: 1, startSeconds: 14400, seconds: 14400, metres: 9000 },
    ]);
  });
  it("at slow pace: 1 day + 3 h (durationSeconds 97200), the forest spread over both days", () => {
    const p = route("slow", roadThenForest);
    expect(p.durationSeconds).toBe(97200);
    expect(p.distance).toBe(27000);
    expect(p.days.map((d) => d.distance)).toEqual([22500, 4500]);
    expect(p.days.map((d) => d.stretches.map((x) => x.column))).toEqual([["day", "day"], ["hour"]]);
    expect(p.legs.map((l) => l.arrivalSeconds)).toEqual([19200, 97200]); // 18/27 of the day's 8 h; 3 h on day 2
  });
  it("routePosition: where the party stands after that much world time", () => {
    const p = route("slow", roadThenForest);
    expect(routePosition(p, 0)).toEqual({ leg: 0, metresAlongRoute: 0, fraction: 0 });
    expect(routePosition(p, 9600)).toEqual({ leg: 0, metresAlongRoute: 9000, fraction: 0.5 });
    expect(routePosition(p, 19200)).toEqual({ leg: 1, metresAlongRoute: 18000, fraction: 0 });
    expect(routePosition(p, 8 * 3600)).toEqual({ leg: 1, metresAlongRoute: 22500, fraction: 0.5 });
    expect(routePosition(p, 20 * 3600)).toEqual({ leg: 1, metresAlongRoute: 22500, fraction: 0.5 }); // resting
    expect(routePosition(p, 86400 + 5400)).toEqual({ leg: 1, metresAlongRoute: 24750, fraction: 0.75 });
    expect(routePosition(p, 97200)).toEqual({ leg: 1, metresAlongRoute: 27000, fraction: 1 });
    expect(routePosition(p, 1e6)).toEqual({ leg: 1, metresAlongRoute: 27000, fraction: 1 }); // clamped
    expect(routePosition(p, -60)).toEqual({ leg: 0, metresAlongRoute: 0, fraction: 0 });
  });
  it("a journey by distance is a route of one leg", () => {
    const p = plan({ pace: "slow", terrain: "difficult", distance: 15000 });
    expect(p.legs).toEqual([{ metres: 15000, terrain: "difficult", arrivalSeconds: p.durationSeconds }]);
    expect(p.equivalentDistance).toBe(30000);
    expect(p.terrain).toBe("difficult");
    expect(route("slow", [{ metres: 15000, terrain: "difficult" }]).durationSeconds).toBe(p.durationSeconds);
    expect(p.durationSeconds).toBe(25 * 3600); // 30 km equivalent: a day (27 km) and 1 h
    expect(routePosition(p, 4 * 3600).metresAlongRoute).toBe(6750);
    expect(routePosition(p, 12 * 3600).metresAlongRoute).toBe(13500);
  });
  it("legs of no length are reached as soon as the party gets there", () => {
    const p = route("normal", [
      { metres: 0, terrain: "difficult" },
      { metres: 4500, terrain: "normal" },
      { metres: 0, terrain: "normal" },
      { metres: 4500, terrain: "normal" },
    ]);
    expect(p.legs.map((l) => l.arrivalSeconds)).toEqual([0, 3600, 3600, 7200]);
    expect(routePosition(p, 0)).toEqual({ leg: 1, metresAlongRoute: 0, fraction: 0 });
    expect(routePosition(p, 3600)).toEqual({ leg: 3, metresAlongRoute: 4500, fraction: 0 });
  });
  it("boats ignore difficult terrain on their legs", () => {
    const p = route("normal", roadThenForest, { mode: "boat", speedKmh: 9 });
    expect(p.equivalentDistance).toBe(27000);
    expect(p.durationSeconds).toBe(3 * 3600);
    expect(p.warnings).toContain("terrainIgnoredOnBoat");
  });
  it("refuses legs with a distance, a duration or a terrain, and an empty route", () => {
    expect(errorKey(() => route("normal", roadThenForest, { distance: 1000 }))).toBe("AVENTURE.Error.UnknownValue");
    expect(errorKey(() => route("normal", roadThenForest, { duration: 1000 }))).toBe("AVENTURE.Error.UnknownValue");
    expect(errorKey(() => route("normal", roadThenForest, { terrain: "normal" }))).toBe("AVENTURE.Error.UnknownValue");
    expect(errorKey(() => route("normal", []))).toBe("AVENTURE.Error.Missing");
    expect(errorKey(() => route("normal", [{ metres: -1, terrain: "normal" }]))).toBe("AVENTURE.Error.Negative");
    expect(errorKey(() => route("normal", [{ metres: 1, terrain: "swamp" as never }]))).toBe(
      "AVENTURE.Error.UnknownValue",
    );
    expect(errorKey(() => route("normal", "far" as never))).toBe("AVENTURE.Error.Missing");
    expect(errorKey(() => routePosition({ ...route("normal", roadThenForest), legs: [] }, 0))).toBe(
      "AVENTURE.Error.Missing",
    );
    expect(errorKey(() => routePosition(route("normal", roadThenForest), Number.NaN))).toBe(
      "AVENTURE.Error.NotANumber",
    );
    expect(errorKey(() => routePosition(null as never, 0))).toBe("AVENTURE.Error.Missing");
  });
  it("properties: legs arrive in order, the last at the end; the position only moves forward and matches the arrivals", () => {
    const legArb = fc.record({
      metres: fc.integer({ min: 0, max: 40000 }),
      terrain: fc.constantFrom("normal", "difficult" as const),
    });
    fc.assert(
      fc.property(
        fc.constantFrom("slow", "normal", "fast" as const),
        fc.constantFrom("foot", "gallop", "vehicle", "custom" as const),
        fc.array(legArb, { minLength: 1, maxLength: 6 }),
        fc.double({ min: 1, max: 14, noNaN: true }),
        fc.array(fc.nat(10 * 86400), { minLength: 2, maxLength: 5 }),
        (pace, mode, legs, hoursPerDay, times) => {
          const p = route(pace, legs, { mode, hoursPerDay, ...(mode === "custom" ? { speedKmh: 5 } : {}) });
          const arrivals = p.legs.map((l) => l.arrivalSeconds);
          arrivals.forEach((a, i) => i > 0 && expect(a).toBeGreaterThanOrEqual(arrivals[i - 1]!));
          expect(arrivals.at(-1)).toBeCloseTo(p.durationSeconds, 3);
          let end = 0;
          p.legs.forEach((l, i) => {
            end += l.metres;
            if (i < p.legs.length - 1) expect(routePosition(p, l.arrivalSeconds).metresAlongRoute).toBeCloseTo(end, 3);
          });
          const sorted = [...times].sort((a, b) => a - b);
          const along = sorted.map((t) => routePosition(p, t).metresAlongRoute);
          along.forEach((m, i) => i > 0 && expect(m).toBeGreaterThanOrEqual(along[i - 1]! - 1e-6));
          expect(routePosition(p, p.durationSeconds).metresAlongRoute).toBeCloseTo(p.distance, 3);
          // One terrain everywhere is the same journey as that distance on that terrain.
          if (legs.every((l) => l.terrain === legs[0]!.terrain)) {
            const same = travelPlan({
              ruleset: "rnp",
              pace,
              mode,
              hoursPerDay,
              party: [walker],
              terrain: legs[0]!.terrain,
              distance: p.distance,
              ...(mode === "custom" ? { speedKmh: 5 } : {}),
            });
            expect(same.durationSeconds).toBeCloseTo(p.durationSeconds, 3);
          }
        },
      ),
    );
  });
});

describe("travelPlan: properties", () => {
  const paceArb = fc.constantFrom("slow", "normal", "fast" as const);
  const modeArb = fc.constantFrom("foot", "gallop", "vehicle", "boat", "custom" as const);
  const terrainArb = fc.constantFrom("normal", "difficult" as const);
  const hoursArb = fc.double({ min: 0.25, max: 24, noNaN: true });
  const speedArb = fc.double({ min: 0.5, max: 100, noNaN: true });
  const base = (
    pace: TravelInput["pace"],
    mode: TravelInput["mode"],
    terrain: TravelInput["terrain"],
    hoursPerDay: number,
    speedKmh: number,
  ) =>
    ({
      ruleset: "dnd5e",
      pace,
      mode,
      terrain,
      hoursPerDay,
      ...(mode === "boat" || mode === "custom" ? { speedKmh } : {}),
      party: [{ ...walker, water: "half", food: "half" }],
    }) as TravelInput;

  /** Runs a plan, skipping (fc.pre) the journeys longer than the 1000-day limit. */
  const tryPlan = (input: TravelInput) => {
    try {
      return travelPlan(input);
    } catch (e) {
      if (e instanceof RulesError && e.key === "AVENTURE.Error.OutOfRange" && e.data.name === "days") fc.pre(false);
      throw e;
    }
  };

  it("distance grows with time (whole hours)", () => {
    fc.assert(
      fc.property(
        paceArb,
        modeArb,
        terrainArb,
        hoursArb,
        speedArb,
        fc.nat(30 * 24),
        fc.nat(30 * 24),
        (pa, mo, te, h, sp, t1, t2) => {
          const [a, b] = t1 <= t2 ? [t1, t2] : [t2, t1];
          const d1 = travelPlan({ ...base(pa, mo, te, h, sp), duration: a * 3600 }).distance;
          const d2 = travelPlan({ ...base(pa, mo, te, h, sp), duration: b * 3600 }).distance;
          expect(d1).toBeLessThanOrEqual(d2 + 1e-6);
        },
      ),
    );
  });
  it("the time a distance takes grows with the distance", () => {
    fc.assert(
      fc.property(
        paceArb,
        modeArb,
        terrainArb,
        hoursArb,
        speedArb,
        fc.nat(2_000_000),
        fc.nat(2_000_000),
        (pa, mo, te, h, sp, x1, x2) => {
          const [a, b] = x1 <= x2 ? [x1, x2] : [x2, x1];
          const t1 = tryPlan({ ...base(pa, mo, te, h, sp), distance: a }).durationSeconds;
          const t2 = tryPlan({ ...base(pa, mo, te, h, sp), distance: b }).durationSeconds;
          expect(t1).toBeLessThanOrEqual(t2 + 1e-6);
        },
      ),
    );
  });
  it("difficult terrain halves the distance (boats excepted)", () => {
    fc.assert(
      fc.property(
        paceArb,
        fc.constantFrom("foot", "gallop", "vehicle", "custom" as const),
        hoursArb,
        speedArb,
        fc.nat(30 * 86400),
        (pa, mo, h, s, t) => {
          const easy = travelPlan({ ...base(pa, mo, "normal", h, s), duration: t }).distance;
          const hard = travelPlan({ ...base(pa, mo, "difficult", h, s), duration: t }).distance;
          expect(hard).toBeCloseTo(easy / 2, 6);
        },
      ),
    );
  });
  it("never gives NaN or infinities", () => {
    const finite = (v: unknown): boolean =>
      typeof v === "number"
        ? Number.isFinite(v)
        : typeof v === "object" && v !== null
          ? Object.values(v).every(finite)
          : true;
    fc.assert(
      fc.property(
        paceArb,
        modeArb,
        terrainArb,
        hoursArb,
        speedArb,
        fc.boolean(),
        fc.double({ min: 0, max: 2e6, noNaN: true }),
        (pa, mo, te, h, s, byDistance, x) => {
          const p = tryPlan({ ...base(pa, mo, te, h, s), ...(byDistance ? { distance: x } : { duration: x }) });
          expect(finite(p)).toBe(true);
          expect(finite(travelOutcome(p, Object.fromEntries(p.saves.map((sv) => [sv.id, false]))))).toBe(true);
        },
      ),
    );
  });
  it("distance → duration → distance: at least the distance, in as many days", () => {
    // The minute column covers more than a sixtieth of the hour column, and a short whole day takes 8 h: marching
    // for the time a distance takes covers at least that distance.
    fc.assert(
      fc.property(
        paceArb,
        modeArb,
        terrainArb,
        hoursArb,
        speedArb,
        fc.double({ min: 0.001, max: 1e6, noNaN: true }),
        (pa, mo, te, h, sp, d) => {
          const there = tryPlan({ ...base(pa, mo, te, h, sp), distance: d });
          const back = travelPlan({ ...base(pa, mo, te, h, sp), duration: there.durationSeconds });
          expect(back.distance).toBeGreaterThanOrEqual(d - 1e-3);
          expect(back.days.length).toBe(there.days.length);
        },
      ),
    );
  });
  it("whole days and whole hours round-trip exactly (foot, hoursPerDay 8)", () => {
    fc.assert(
      fc.property(paceArb, terrainArb, fc.nat(30), fc.integer({ min: 0, max: 7 }), (pa, te, k, hours) => {
        fc.pre(k + hours > 0);
        const t = hours === 0 ? (k - 1) * 86400 + 8 * 3600 : k * 86400 + hours * 3600;
        const there = travelPlan({ ...base(pa, "foot", te, 8, 1), duration: t });
        const back = travelPlan({ ...base(pa, "foot", te, 8, 1), distance: there.distance });
        expect(back.durationSeconds).toBeCloseTo(t, 3);
        expect(back.distance).toBeCloseTo(there.distance, 3);
      }),
    );
  });
  it("the days' stretches add up to the days (columns, seconds, metres)", () => {
    fc.assert(
      fc.property(
        paceArb,
        modeArb,
        terrainArb,
        hoursArb,
        speedArb,
        fc.boolean(),
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        (pa, mo, te, h, sp, byDistance, x) => {
          const p = tryPlan({ ...base(pa, mo, te, h, sp), ...(byDistance ? { distance: x } : { duration: x }) });
          for (const d of p.days) {
            expect(d.stretches.reduce((a, s) => a + s.seconds, 0)).toBeCloseTo(d.marchSeconds, 3);
            expect(d.stretches.reduce((a, s) => a + s.metres, 0)).toBeCloseTo(d.distance, 3);
            expect(d.stretches[0]!.startSeconds).toBe(d.startSeconds);
            if (mo === "boat" || mo === "custom") expect(d.stretches.every((s) => s.column === "speed")).toBe(true);
            else expect(d.stretches.every((s) => s.column !== "speed")).toBe(true);
          }
        },
      ),
    );
  });
});

it("keeps the pace table as exported data", () => {
  expect(TRAVEL_PACE_TABLE.normal).toEqual({ minute: 90, hour: 4500, day: 36000 });
});
