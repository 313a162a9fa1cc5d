/**
 * Every export of the rules engine, called with hostile arguments, returns finite values or throws a RulesError
 * (never NaN, ±Infinity, undefined in a result, a TypeError, nor a result of unbounded size). The list of functions
 * comes from the module itself, so a new export is covered as soon as it exists: each function is called with
 * arbitrary arguments (numbers such as NaN, ±Infinity, huge and negative ones, strings, null, undefined, objects,
 * arrays, wrong rulesets, dice that return nonsense) and, when a valid call is known below, with that call where
 * one part was replaced by such a value. Every function export must have such a valid call (SAMPLES; the test fails for
 * an export without one, and for a sample that throws), so the mutations reach past its first argument check.
 * Exported tables must be deeply frozen, with finite numbers.
 */
import { beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import * as rules from "../../src/rules/index.js";
import { isRulesError, type Dice } from "../../src/rules/index.js";

type Args = unknown[];
/** Runs per function; FUZZ_RUNS=5000 for a longer search. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 120);

// -------------------------------------------------------------------------------------------- walking the results

/** The first problem in a value: a number that is not finite, an undefined property, or too many nodes. */
function problem(value: unknown, budget = 200_000): string | null {
  const seen = new Set<unknown>();
  const stack: [unknown, string][] = [[value, "result"]];
  let nodes = 0;
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (++nodes > budget) return `more than ${budget} values (unbounded output)`;
    if (typeof v === "number") {
      if (!Number.isFinite(v)) return `${path} = ${v}`;
      continue;
    }
    if (typeof v === "bigint") return `${path} is a bigint`;
    if (v === null || typeof v !== "object" || seen.has(v)) continue;
    seen.add(v);
    if (v instanceof Error) continue;
    for (const [k, x] of Object.entries(v)) {
      if (x === undefined) return `${path}.${k} is undefined`;
      if (typeof x !== "function") stack.push([x, `${path}.${k}`]);
    }
  }
  return null;
}

function isDeeplyFrozen(value: unknown, seen = new Set<unknown>()): boolean {
  if (value === null || typeof value !== "object" || seen.has(value)) return true;
  seen.add(value);
  return Object.isFrozen(value) && Object.values(value).every((v) => isDeeplyFrozen(v, seen));
}

const isClass = (f: unknown) => typeof f === "function" && /^class\b/.test(Function.prototype.toString.call(f));

// -------------------------------------------------------------------------------------------- hostile values

/** Every string of the exported tables (ids, enumerations), so arguments often get past the first check. */
function tableStrings(): string[] {
  const out = new Set<string>(["gurps", "", "X", "__proto__", "constructor", "toString", "-1", "NaN"]);
  const visit = (v: unknown, depth: number) => {
    if (depth > 6) return;
    if (typeof v === "string") out.add(v);
    else if (v !== null && typeof v === "object")
      for (const [k, x] of Object.entries(v)) {
        out.add(k);
        visit(x, depth + 1);
      }
  };
  for (const v of Object.values(rules)) if (typeof v !== "function") visit(v, 0);
  return [...out];
}

const KEYS = [
  ...new Set([
    ...tableStrings(),
    ...`id name ruleset pace terrain mode speedKmh distance duration legs metres hoursPerDay hot stealth lostChance party conMod
    passivePerception exhaustion fasting thirst food water position activity chance difficulty roll secret retryPenalty kind mastery
    attributeLevel criticalBonus initiative reaction hasten delayTo success degree margin aSurprised bSurprised surprised where fleeing
    pursuers fleeingBonus pursuerBonus pursuersFaster outcome log day fleeingSpeed pursuerSpeed combatStarted monstersPursue
    reactionTotal dropped rounds exhausted pursues suggested pursuersCanCatch hiderLight hiderObscurity invisible travelling observers
    hasLineOfSight senses darkvision blindsight truesight notWatching stealthTotal searching perceptionRoll darkness globalLight sources
    bright dim strength strengthMod runUp height action difficult hasSpeed walk climb swim fly dehydrationSave members saves days
    stretches startSeconds seconds leg arrivalSeconds evasionRoll catchRoll band reason dropRoll memberId dc hour saveId forcedMarch
    dehydrationSaveId dehydrationDC fastingBefore fastingAllowed exhaustionBefore thirstBefore results count faces
    baseMetres flying guide river forage restWhenDue characters animals rations daysSinceRest restFirst maxDays`.split(
      /\s+/,
    ),
  ]),
].filter((k) => k !== "");

const hostileNumber = fc.oneof(
  fc.constantFrom(
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    1e308,
    -1e308,
    Number.MAX_SAFE_INTEGER,
    -1,
    -0,
    0,
  ),
  fc.constantFrom(0.5, 1, 2, 3, 6, 7, 12, 20, 21, 100, 101, 1000, 1e9, 1e12, Number.MIN_VALUE, 2 ** 31, -(2 ** 31)),
  fc.double(),
  fc.integer(),
  fc.integer({ min: -3, max: 30 }),
);

/** Dice that answer anything: nonsense, too many, too few, or sometimes fair results. */
const hostileDice = fc
  .constantFrom<(count: number, faces: number) => unknown>(
    () => [Number.NaN],
    () => [],
    () => "six",
    () => null,
    () => undefined,
    (c) => Array.from({ length: c }, () => 1.5),
    (c) => Array.from({ length: c }, () => 0),
    (c, f) => Array.from({ length: c }, () => f + 1),
    (c) => Array.from({ length: c + 1 }, () => 1),
    (c) => Array.from({ length: c }, () => Number.POSITIVE_INFINITY),
    (c) => Array.from({ length: c }, () => 1),
    (c, f) => Array.from({ length: c }, (_, i) => 1 + (i % f)),
    (c, f) => Array.from({ length: c }, () => f),
  )
  .map((answer): Dice => ({ roll: async (count, faces) => answer(count, faces) as number[] }));

const leaf: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileNumber },
  { weight: 4, arbitrary: fc.constantFrom(...KEYS) },
  { weight: 1, arbitrary: fc.string() },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constantFrom(null, undefined) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(10n, Symbol("s"), () => 1, new Date(Number.NaN)) },
  { weight: 1, arbitrary: hostileDice },
);

const { value: hostile } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    { weight: 6, arbitrary: leaf },
    { weight: 1, arbitrary: fc.array(tie("value"), { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...KEYS), tie("value"), { maxKeys: 5 }) },
    {
      weight: 1,
      arbitrary: fc
        .dictionary(fc.constantFrom(...KEYS), tie("value"), { maxKeys: 3 })
        .map((o) => Object.assign(Object.create(null) as object, o)),
    },
  ),
}));

// -------------------------------------------------------------------------------------------- known valid calls

const walker = {
  id: "w",
  name: "Walker",
  conMod: 1,
  passivePerception: 12,
  food: "half",
  water: "half",
  position: "front",
  activity: "watch",
};
const combatant = (id: string, initiative: number, extra: object = {}) => ({ id, initiative, reaction: 10, ...extra });
const travelInput = () => ({
  ruleset: "rnp",
  pace: "slow",
  terrain: "difficult",
  mode: "foot",
  distance: 40000,
  hoursPerDay: 9,
  hot: true,
  stealth: true,
  lostChance: 10,
  party: [walker, { ...walker, id: "x", water: "none", exhaustion: 1, fasting: 2, thirst: 1 }],
});
let SAMPLES: Record<string, () => Args> = {};

beforeAll(async () => {
  const R = rules;
  const dice = () => R.seededDice(7);
  const plan = R.travelPlan(travelInput() as never);
  const routePlan = R.travelPlan({
    ...travelInput(),
    terrain: undefined,
    distance: undefined,
    legs: [
      { metres: 9000, terrain: "normal" },
      { metres: 3000, terrain: "difficult" },
    ],
  } as never);
  const pursuit = (
    await R.pursuitDay(R.startPursuit({ fleeing: 4, pursuers: 2, pursuersFaster: true }), R.fixedDice([80, 90]))
  ).state;
  const chase = (
    await R.startDungeonChase(
      { ruleset: "pmt", fleeingSpeed: 9, pursuerSpeed: 12, combatStarted: false, reactionTotal: 9 },
      dice(),
    )
  ).state;
  const tests = [
    R.polarisTest({ chance: 10, difficulty: "average", roll: 13 }),
    R.polarisTest({ chance: 1, difficulty: "average", roll: 20 }),
  ];
  const survivalPlan = R.travelPlan({
    ...travelInput(),
    party: [
      { ...walker, activity: "navigate" },
      { ...walker, id: "t", activity: "track" },
      { ...walker, id: "f", activity: "forage" },
    ],
  } as never);
  const exploration = R.addLight(R.startExploration("ose", { wanderingEvery: 2, wanderingChance: 1 }), {
    id: "torch",
    kind: "torch",
  });
  const condition = (extra: object = {}) => ({
    observer: "o",
    hider: "h",
    inView: true,
    light: "dim",
    passive: 17,
    searching: false,
    dc: 12,
    ...extra,
  });
  SAMPLES = {
    RulesError: () => ["AVENTURE.Error.OutOfRange", { name: "x", value: 3, min: 0, max: 2 }],
    isRulesError: () => [new R.RulesError("AVENTURE.Error.Missing", { name: "x" })],
    num: () => ["x", 3, { min: 0, max: 5, integer: true }],
    nonNeg: () => ["x", 2],
    oneOf: () => ["x", "a", ["a", "b"]],
    bool: () => ["x", undefined, false],
    isRuleset: () => ["ose"],
    ruleset: () => ["ose"],
    isFeature: () => ["falls"],
    fallRules: () => ["ose"],
    featureLenders: () => ["falls"],
    borrowableFeatures: () => ["pmt"],
    features: () => ["pmt", { falls: "rnp", jumps: "dnd5e" }],
    featureOn: () => ["pmt", "falls", { falls: "rnp" }],
    roundSeconds: () => ["ose"],
    turnSeconds: () => ["pmt"],
    splitDuration: () => [90061],
    clean: () => [0.1 + 0.2],
    toMetres: () => [30, "ft", 0.3048],
    fromMetres: () => [9, "mi", 1609],
    parseUnit: () => ["feet", "m"],
    fixedDice: () => [[1, 2, 3]],
    seededDice: () => [7],
    recordingDice: () => [dice()],
    rollTotal: () => [dice(), 3, 6, "r"],
    movementCostPerMetre: () => ["dnd5e", "climb", true, true],
    movementCost: () => ["rnp", { metres: 10, action: "swim", difficult: true, hasSpeed: false }],
    longJump: () => ["rnp", { strength: 15, runUp: true }],
    highJump: () => ["dnd5e", { strengthMod: 2, runUp: 3 }],
    jumpReach: () => ["rnp", { strengthMod: 1, runUp: false, height: 1.8 }],
    jumpObstacleMax: () => [4.5],
    fallDice: () => [9],
    fallFormula: () => [9],
    hasSpeedFor: () => [{ walk: 9, climb: 9, swim: 0 }, "climb"],
    movementBudget: () => [{ walk: 9, climb: 0, swim: 0, fly: 18 }, "fly"],
    movementLeft: () => [9, 4],
    usualSpeed: () => [{ walk: 0, climb: 0, swim: 0, fly: 18 }],
    jumpTooLong: () => ["rnp", { strength: 10, runUp: true, metres: 4 }],
    lightRank: () => ["dim"],
    lightThresholds: () => [{ bright: 0.2, dim: 0.7 }],
    ambientLight: () => [0.5, { bright: 0.25, dim: 0.75 }],
    lightLevelFromNearest: () => [0.5, true, false, true, { bright: 0.25, dim: 0.75 }],
    lightLevel: () => [{ darkness: 0.9, globalLight: true, sources: [{ distance: 3, bright: 6, dim: 12 }] }],
    perceivedLightDetail: () => ["rnp", "dark", { darkvision: 18, blindsight: 3 }, 10],
    perceivedLight: () => ["dnd5e", "dim", { darkvision: 18 }, 10],
    perceivedVisibility: () => ["rnp", "bright", "light", { blindsight: 3 }, 2],
    visibilityEffect: () => ["dim"],
    mildestEffect: () => [["blinded", "disadvantage"]],
    canTryToHide: () => [
      {
        ruleset: "rnp",
        hiderLight: "dark",
        hiderObscurity: "heavy",
        invisible: false,
        travelling: true,
        pace: "slow",
        observers: [{ id: "g", hasLineOfSight: true, senses: { darkvision: 18 }, distance: 24, notWatching: false }],
      },
    ],
    hideResult: () => [
      {
        stealthTotal: 14,
        observers: [
          { id: "a", passivePerception: 12, searching: false },
          { id: "b", passivePerception: null, searching: true, perceptionRoll: 15 },
        ],
      },
    ],
    hideEnds: () => ["noise"],
    polarisDegree: () => [true, 5],
    polarisDifficultyModifier: () => ["hard"],
    polarisTest: () => [
      {
        chance: 12,
        difficulty: "average",
        roll: 12,
        mastery: 4,
        kind: "skill",
        attributeLevel: 12,
        criticalBonus: 2,
        secret: false,
        retryPenalty: -1,
      },
    ],
    retryPenalty: () => [3, true],
    harderDifficulty: () => ["average", 1],
    countdownLeft: () => [3, tests, 2],
    polarisActingPhase: () => [combatant("a", 9, { hasten: true, delayTo: 3 })],
    comparePolaris: () => [combatant("a", 9), combatant("b", 0, { hasten: true })],
    polarisPhases: () => [[combatant("a", 12), combatant("b", 9, { delayTo: 2 }), combatant("c", -1)]],
    encounterRules: () => ["pmt"],
    isSurprised: () => [2],
    surpriseOutcome: () => ["pmt", { aSurprised: true, bSurprised: false }],
    surprisedSides: () => [
      [
        { id: "a", surprised: true },
        { id: "b", surprised: false },
      ],
      "ose",
    ],
    encounterDistance: () => ["ose", { where: "wilderness", surprised: true }],
    rollEncounterDistance: () => ["ose", { where: "dungeon" }, dice()],
    reactionTotal: () => ["ose", 7],
    reaction: () => ["pmt", 7],
    reactionRoll: () => ["ose", [3, 4], 1],
    sideOrder: () => [{ a: 3, b: 5, c: 3 }, "reroll"],
    sideTiesFor: () => ["pmt", "reroll"],
    rollSideInitiative: () => [["a", "b", "c"], "reroll", dice()],
    sideInitiativeValues: () => [[["b"], ["a"]], { a: 3, b: 5 }],
    encounterEndAdvance: () => ["ose", 60],
    dungeonFlightDetail: () => [{ fleeingSpeed: 9, pursuerSpeed: 12, combatStarted: false }],
    dungeonFlight: () => [{ fleeingSpeed: 12, pursuerSpeed: 9, combatStarted: false }],
    pursuesDetail: () => ["pmt", 8],
    pursues: () => ["ose", 4],
    dropDistracts: () => [4],
    evasionChance: () => [{ fleeing: 4, pursuers: 2, fleeingBonus: 20, pursuerBonus: 5 }],
    startPursuit: () => [{ fleeing: 4, pursuers: 2, pursuersFaster: true, surprised: "fleeing", fleeingBonus: 20 }],
    pursuitDay: () => [pursuit, dice()],
    replayPursuit: () => [pursuit, dice(), 5],
    pursuitLogDice: () => [pursuit.log],
    dungeonRunStart: () => ["ose"],
    dungeonRunRound: () => [{ ruleset: "ose", rounds: 3, exhausted: false }],
    groupSpeed: () => [[9, 12]],
    compareSpeeds: () => [9, 18],
    evasionAdjustment: () => ["woods", 20],
    dungeonRunRestSeconds: () => ["ose"],
    startDungeonChase: () => [
      {
        ruleset: "pmt",
        fleeingSpeed: 9,
        pursuerSpeed: 12,
        combatStarted: false,
        surprised: null,
        monstersPursue: true,
        reactionTotal: null,
        dropped: true,
      },
      dice(),
    ],
    dungeonChaseRound: () => [chase],
    dungeonChaseDrop: () => [chase, dice()],
    dungeonChaseEnd: () => [chase, "caught"],
    checkStoredPursuitState: () => [pursuit],
    checkStoredDungeonChase: () => [chase],
    paceDistance: () => ["slow", "hour", { difficult: true }],
    forcedMarchDC: () => [9],
    encounterMovement: () => [36],
    runningLimitRounds: () => ["ose"],
    encounterMovementLimitRounds: () => ["ose"],
    travelLostCheck: () => [15, 10],
    travelPlan: () => [travelInput()],
    travelOutcome: () => [plan, Object.fromEntries(plan.saves.map((s, i) => [s.id, i % 2 === 0 ? 14 : false]))],
    routePosition: () => [routePlan, 5 * 3600],
    travelSurvivalChecks: () => [survivalPlan, 12],
    startExploration: () => [
      "ose",
      {
        turnSeconds: 600,
        wanderingEvery: 2,
        wanderingDie: 6,
        wanderingChance: 1,
        restEvery: 5,
        restPenalty: -1,
        torchTurns: 6,
        lanternTurns: 24,
      },
    ],
    addLight: () => [exploration, { id: "lamp", kind: "custom", turns: 3 }],
    removeLight: () => [exploration, "torch"],
    restPenaltyOf: () => [{ ...exploration, turnsSinceRest: 6 }],
    advanceExploration: () => [exploration, 4, dice(), { rest: false }],
    turnsIn: () => [3600, { turnSeconds: 600 }],
    passiveNotices: () => [{ passive: 17, dc: 12, light: "dim" }],
    perceivedHider: () => [
      {
        ruleset: "dnd5e",
        light: "dim",
        obscurity: "light",
        invisible: true,
        senses: { darkvision: 18, blindsight: 3, truesight: 9 },
        distance: 6,
      },
    ],
    detectionKey: () => [{ observer: "o", hider: "h" }],
    detectionChanges: () => [
      [condition(), condition({ observer: "p", light: "dark" })],
      [condition({ light: "bright" }), condition({ observer: "p", light: "dark" }), condition({ hider: "i" })],
    ],
    holdBreath: () => [2],
    suffocationRounds: () => [2],
    suffocationTimeline: () => [2, 6],
    breathState: () => [2, 6, 185],
    fastingDays: () => [2],
    waterNeedLitres: () => [true],
    survivalSaveSucceeds: () => ["x", 14, 15],
    survivalDay: () => [{ conMod: 0, fasting: 3, exhaustion: 1, food: "half", water: "half", dehydrationSave: 12 }],
    oseDailyDistance: () => [36, "forest", { forcedMarch: true, flying: false }],
    oseLostChance: () => ["swamp"],
    oseWanderingChance: () => ["hills"],
    oseRestPenalty: () => [7],
    oseJourneyPreview: () => [
      { baseMetres: 27, legs: [{ metres: 40000, terrain: "hills" }], characters: 2, forcedMarch: true, maxDays: 5 },
    ],
    oseJourney: () => [
      {
        baseMetres: 36,
        legs: [
          { metres: 27000, terrain: "road" },
          { metres: 24000, terrain: "forest" },
          { metres: 9000, terrain: "swamp" },
        ],
        forcedMarch: false,
        flying: false,
        guide: false,
        river: false,
        forage: true,
        restWhenDue: true,
        characters: 4,
        animals: 2,
        rations: 20,
        daysSinceRest: 5,
        restFirst: false,
        maxDays: 10,
      },
      dice(),
    ],
  };
});

// -------------------------------------------------------------------------------------------- mutating a valid call

/** A copy of the arguments (plain objects and arrays copied, anything else kept). */
function copy(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(copy);
  if (
    v !== null &&
    typeof v === "object" &&
    (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null)
  ) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, copy(x)]));
  }
  return v;
}

/** Every place in `args` that can be replaced: [container, key]. */
function places(args: Args): [Record<string | number, unknown>, string | number][] {
  const out: [Record<string | number, unknown>, string | number][] = [];
  const visit = (v: unknown, depth: number) => {
    if (depth > 8 || v === null || typeof v !== "object" || out.length > 500) return;
    for (const k of Object.keys(v)) {
      out.push([v as Record<string, unknown>, Array.isArray(v) ? Number(k) : k]);
      visit((v as Record<string, unknown>)[k], depth + 1);
    }
  };
  visit(args, 0);
  return out;
}

type Mutation = { how: "replace" | "delete" | "add"; at: number; key: string; value: unknown };
const mutation: fc.Arbitrary<Mutation> = fc.record({
  how: fc.constantFrom("replace", "replace", "replace", "delete", "add"),
  at: fc.nat(),
  key: fc.constantFrom(...KEYS),
  value: hostile,
});

function mutate(args: Args, m: Mutation): Args {
  const out = copy(args) as Args;
  const where = places(out);
  if (!where.length) return out;
  const [container, key] = where[m.at % where.length]!;
  if (m.how === "replace") container[key] = m.value;
  else if (m.how === "delete") delete container[key];
  else if (!Array.isArray(container)) container[m.key] = m.value;
  return out;
}

// -------------------------------------------------------------------------------------------- the property

async function check(name: string, fn: (...a: Args) => unknown, args: Args, asClass: boolean): Promise<void> {
  let result: unknown;
  try {
    result = asClass ? new (fn as unknown as new (...a: Args) => unknown)(...args) : fn(...args);
    if (result !== null && typeof (result as Promise<unknown>)?.then === "function") result = await result;
  } catch (e) {
    if (isRulesError(e)) return;
    throw new Error(`${name}(${describeArgs(args)}) threw ${String(e)}`, { cause: e });
  }
  if (asClass) return;
  const p = problem(result);
  if (p) throw new Error(`${name}(${describeArgs(args)}) returned ${p}`);
}

function describeArgs(args: Args): string {
  try {
    return JSON.stringify(args, (_k, v) =>
      typeof v === "number" && !Number.isFinite(v)
        ? String(v)
        : typeof v === "bigint"
          ? `${v}n`
          : typeof v === "function"
            ? "[function]"
            : v,
    ).slice(0, 400);
  } catch {
    return "(unprintable)";
  }
}

const functions = Object.entries(rules).filter(([, v]) => typeof v === "function") as [
  string,
  (...a: Args) => unknown,
][];
const tables = Object.entries(rules).filter(([, v]) => typeof v !== "function");

describe("every export of the rules engine", () => {
  it("is covered (the list comes from the module)", () => {
    expect(functions.length).toBeGreaterThan(100);
    expect(Object.keys(SAMPLES).filter((k) => !(k in rules))).toEqual([]); // samples of exports that no longer exist
    // Every function export has a valid call below, so that the mutations reach past its first argument check.
    expect(functions.map(([name]) => name).filter((name) => !SAMPLES[name])).toEqual([]);
  });

  it.each(functions)(
    "%s: its sample is a valid call (it neither throws nor returns a non-finite value)",
    async (name, fn) => {
      const sample = SAMPLES[name];
      expect(sample, `${name} has no valid sample in SAMPLES`).toBeDefined();
      const asClass = isClass(fn);
      let result: unknown = asClass
        ? new (fn as unknown as new (...a: Args) => unknown)(...sample!())
        : fn(...sample!());
      if (result !== null && typeof (result as Promise<unknown>)?.then === "function") result = await result;
      if (!asClass) expect(problem(result)).toBeNull();
    },
  );

  it.each(tables)("%s is deeply frozen, its numbers finite", (_name, value) => {
    expect(problem(value)).toBeNull();
    expect(isDeeplyFrozen(value)).toBe(true);
  });

  it.each(functions)("%s: hostile arguments give finite values or a RulesError", async (name, fn) => {
    const asClass = isClass(fn);
    await fc.assert(
      fc.asyncProperty(fc.array(hostile, { maxLength: 5 }), (args) => check(name, fn, args, asClass)),
      { numRuns: RUNS },
    );
    const sample = SAMPLES[name];
    if (!sample) throw new Error(`${name} has no valid sample: add one to SAMPLES`);
    await check(name, fn, sample(), asClass); // the valid call itself
    await fc.assert(
      fc.asyncProperty(mutation, (m) => check(name, fn, mutate(sample(), m), asClass)),
      { numRuns: RUNS },
    );
  });
});
