/**
 * The Exploration panel's and card's contexts (pure): what the panel shows for a state (the penalty from the rules,
 * the rest due, lights with their turns left, the party's gone and dark tokens, Rôle'n Play's minutes), the card's
 * lines, plurals in both languages, durations.
 */
import { describe, expect, it } from "vitest";
import { FakeI18n } from "../fake/i18n.js";
import {
  explorationCardContext,
  explorationPanelContext,
  formatSeconds,
  panelActions,
  plural,
  rulesLines,
  signed,
} from "../../src/exploration/exploration-context.js";
import { EMPTY_RECORD, type ExplorationRecord } from "../../src/exploration/record.js";
import { addLight, startExploration, EXPLORATION_DEFAULTS } from "../../src/rules/index.js";

const en = new FakeI18n("en");
const fr = new FakeI18n("fr");
const L = (i18n: FakeI18n) => (k: string, d?: Record<string, string | number>) =>
  d ? i18n.format(k, d) : i18n.localize(k);
const l = L(en);

function record(over: Partial<ExplorationRecord> = {}): ExplorationRecord {
  return { ...EMPTY_RECORD, state: startExploration("ose"), party: [], ...over };
}

const input = (rec: ExplorationRecord, over: Partial<Parameters<typeof explorationPanelContext>[0]> = {}) => ({
  record: rec,
  ruleset: "ose" as const,
  options: { ...EXPLORATION_DEFAULTS },
  bad: [],
  worldTime: rec.time,
  members: [],
  otherNames: {},
  lang: "en",
  busy: false,
  ...over,
});

describe("plurals and durations", () => {
  it("chooses the form by count: English 1 only, French below 2", () => {
    expect(plural(l, "AVENTURE.Exploration.sinceRest", 1, "en")).toBe("1 turn since the last rest");
    expect(plural(l, "AVENTURE.Exploration.sinceRest", 0, "en")).toBe("0 turns since the last rest");
    expect(plural(L(fr), "AVENTURE.Exploration.sinceRest", 0, "fr")).toBe("0 tour depuis le dernier repos");
    expect(plural(L(fr), "AVENTURE.Exploration.sinceRest", 2, "fr")).toBe("2 tours depuis le dernier repos");
  });
  it("formats durations with their largest units, seconds when they are all there is", () => {
    expect(formatSeconds(600, l)).toBe("10 min");
    expect(formatSeconds(3900, l)).toBe("1 h 5 min");
    expect(formatSeconds(30, l)).toBe("30 s");
    expect(formatSeconds(7 * 86_400, l)).toBe("7 d");
    expect(formatSeconds(600, L(fr))).toBe("10\u00a0min");
  });
  it("signs a penalty with a true minus", () => {
    expect(signed(-1)).toBe("−1");
    expect(signed(0)).toBe("0");
  });
});

describe("the panel's context", () => {
  it("ose: three buttons; Rôle'n Play adds a minute and ten; each label says what it spends", () => {
    expect(panelActions("ose", l).map((a) => [a.action, a.amount, a.label])).toEqual([
      ["explore", 1, "Explore (1 turn)"],
      ["rest", 1, "Rest a turn"],
      ["search", 1, "Search (1 turn)"],
    ]);
    expect(
      panelActions("rnp", l)
        .slice(3)
        .map((a) => [a.action, a.amount, a.label]),
    ).toEqual([
      ["spend", 60, "Corridor, lock, trap (1 min)"],
      ["spend", 600, "Large room (10 min)"],
    ]);
  });

  it("no exploration: not running, the rules still shown", () => {
    const ctx = explorationPanelContext(input({ ...EMPTY_RECORD }), l);
    expect(ctx.running).toBe(false);
    expect(ctx.rules).toEqual(rulesLines(EXPLORATION_DEFAULTS, "en", l));
  });

  it("6 turns without rest: the penalty, from the rules; 5: the rest due, no penalty", () => {
    const six = explorationPanelContext(
      input(record({ state: { ...startExploration("ose"), turn: 6, turnsSinceRest: 6 }, restDue: true })),
      l,
    );
    expect(six.penalty).toBe("Rest overdue: −1 to attacks and damage until the party rests.");
    expect(six.restDue).toBe("");
    const five = explorationPanelContext(
      input(record({ state: { ...startExploration("ose"), turn: 5, turnsSinceRest: 5 }, restDue: true })),
      l,
    );
    expect(five.penalty).toBe("");
    expect(five.restDue).toBe("Rest due: the party should rest a turn now.");
  });

  it("lists the party with each light, a light out, a token gone, and lights carried by others", () => {
    let state = addLight(startExploration("ose"), { id: "s.tA", kind: "torch" });
    state = addLight(state, { id: "s.tZ", kind: "custom", turns: 3 });
    const rec = record({ state, time: 100, party: [{ sceneId: "s", tokenId: "tA", name: "Aldric" }] });
    const ctx = explorationPanelContext(
      input(rec, {
        worldTime: 340,
        members: [
          { sceneId: "s", tokenId: "tA", name: "Aldric", gone: false, dark: false },
          { sceneId: "s", tokenId: "tB", name: "Brune", gone: false, dark: true },
          { sceneId: "s", tokenId: "tD", name: "Doria", gone: true, dark: false },
        ],
        otherNames: { "s.tZ": "Zora" },
      }),
      l,
    );
    expect(ctx.members.map((m) => [m.name, m.lit, m.light])).toEqual([
      ["Aldric", true, "Torch: 6 turns left"],
      ["Brune", false, "Light out"],
      ["Doria", false, "Token gone"],
    ]);
    expect(ctx.others).toEqual([{ sceneId: "s", tokenId: "tZ", name: "Zora", light: "Other light: 3 turns left" }]);
    expect(ctx.intoTurn).toBe("4 min into the current turn");
  });
});

describe("the card's context", () => {
  const card = {
    action: "time" as const,
    seconds: 7 * 86_400,
    turnFrom: 0,
    turnTo: 1008,
    checks: Array.from({ length: 60 }, (_, i) => ({ turn: 2 * (i + 1), roll: 6, encounter: false })),
    notRolled: 444,
    die: 6,
    chance: 1,
    wandering: true,
    restDue: true,
    attackPenalty: -1,
    turnsSinceRest: 1008,
    lightsOut: [{ name: "Aldric", kind: "lantern" as const }],
  };
  it("says how many checks were not rolled, the penalty and the lights out", () => {
    const ctx = explorationCardContext(card, { localize: l, lang: "en", resumed: true, problems: ["x"] });
    expect(ctx.title).toBe("World time moved");
    expect(ctx.time).toBe("7 d of world time.");
    expect(ctx.notRolled).toBe("444 more checks not rolled (at most 60 for one move of world time).");
    expect(ctx.penalty).toBe("Rest overdue: −1 to attacks and damage until the party rests.");
    expect(ctx.lightsOut).toEqual(["Aldric: the lantern goes out."]);
    expect(ctx.encounter).toBe(false);
    expect(ctx.resumed).toContain("Interrupted by a reload");
    expect(ctx.noCheck).toBe("");
  });
  it("a turn without a check says so; an encounter offers the dialog", () => {
    const quiet = explorationCardContext(
      { ...card, action: "explore", checks: [], notRolled: 0, lightsOut: [] },
      { localize: l, lang: "en", resumed: false, problems: [] },
    );
    expect(quiet.noCheck).toBe("No wandering-monster check in these turns.");
    const monsters = explorationCardContext(
      { ...card, checks: [{ turn: 2, roll: 1, encounter: true }], notRolled: 0 },
      { localize: l, lang: "en", resumed: false, problems: [] },
    );
    expect(monsters.encounter).toBe(true);
    expect(monsters.checks[0]).toEqual({ text: "Turn 2: 1 on the d6", result: "wandering monsters!", encounter: true });
  });
});
