/**
 * The Exploration panel's and the exploration card's template contexts (pure: no Foundry globals; localization is
 * passed in). Every number shown comes from the rules' state or the record the active GM wrote.
 */
import {
  RNP_EXPLORATION_ACTIONS,
  restPenaltyOf,
  splitDuration,
  type ExplorationOptions,
  type LightKind,
  type RulesetId,
} from "../rules/index.js";
import type { AdvanceCard, ExplorationRecord, TokenRef } from "./record.js";
import type { BadOption } from "./options.js";
import type { FeatureNote } from "../core/feature-context.js";

export type Localize = (key: string, data?: Record<string, string | number>) => string;

/** A key's ".one" or ".other" form for a count (French takes the singular below 2). */
export function plural(
  l: Localize,
  key: string,
  n: number,
  lang: string,
  data: Record<string, string | number> = {},
): string {
  const one = /^fr\b/i.test(lang) ? n < 2 : n === 1;
  return l(`${key}.${one ? "one" : "other"}`, { n, ...data });
}

/** "1 h 10 min", "30 s", "2 d 4 h" (the largest units present). */
export function formatSeconds(seconds: number, l: Localize): string {
  let d;
  try {
    d = splitDuration(Math.max(0, Math.round(seconds)));
  } catch {
    return l("AVENTURE.Travel.Unit.daysShort", { n: Math.round(seconds / 86_400) });
  }
  const parts: string[] = [];
  if (d.days) parts.push(l("AVENTURE.Travel.Unit.daysShort", { n: d.days }));
  if (d.hours) parts.push(l("AVENTURE.Travel.Unit.hoursShort", { n: d.hours }));
  if (d.minutes) parts.push(l("AVENTURE.Travel.Unit.minutesShort", { n: d.minutes }));
  if (d.seconds || !parts.length) parts.push(l("AVENTURE.Exploration.secondsShort", { n: d.seconds }));
  return parts.join(" ");
}

/** The panel's buttons: an action, what it sends, its label and hint. */
export interface PanelAction {
  action: "explore" | "rest" | "search" | "spend";
  /** Turns (explore, rest, search) or seconds (spend). */
  amount: number;
  label: string;
  hint: string;
  icon: string;
}

/** A party member as found on its scene now. */
export interface PanelMember extends TokenRef {
  name: string;
  /** The token is gone (deleted, or its scene). */
  gone: boolean;
  /** The token's light is off while Aventure remembers its radii (burnt out, put out). */
  dark: boolean;
}

export interface PanelInput {
  record: ExplorationRecord;
  ruleset: RulesetId;
  options: ExplorationOptions;
  /** Settings the rules refused (their defaults are used). */
  bad: readonly BadOption[];
  worldTime: number;
  members: readonly PanelMember[];
  /** Names of the bearers of lights not carried by the party (by light id). */
  otherNames: Readonly<Record<string, string>>;
  lang: string;
  busy: boolean;
  /** The world's wandering checks (docs/rules.md §0): off, the book's "no such rule" line; borrowed, its label. */
  wandering?: FeatureNote;
}

const ICONS: Record<PanelAction["action"] | "searchRoom", string> = {
  explore: "fa-solid fa-shoe-prints",
  rest: "fa-solid fa-bed",
  search: "fa-solid fa-magnifying-glass",
  spend: "fa-solid fa-hourglass-half",
  searchRoom: "fa-solid fa-hourglass-end",
};

/** The panel's actions: +1 turn, rest, search; for Rôle'n Play also its minutes (RNP_EXPLORATION_ACTIONS). */
export function panelActions(ruleset: RulesetId, l: Localize): PanelAction[] {
  const out: PanelAction[] = (["explore", "rest", "search"] as const).map((action) => ({
    action,
    amount: 1,
    label: l(`AVENTURE.Exploration.Action.${action}`),
    hint: l(`AVENTURE.Exploration.ActionHint.${action}`),
    icon: ICONS[action],
  }));
  if (ruleset === "rnp") {
    for (const key of ["corridor", "searchRoom"] as const) {
      out.push({
        action: "spend",
        amount: RNP_EXPLORATION_ACTIONS[key],
        label: l(`AVENTURE.Exploration.Action.${key}`),
        hint: l(`AVENTURE.Exploration.ActionHint.${key}`),
        icon: key === "corridor" ? ICONS.spend : ICONS.searchRoom,
      });
    }
  }
  return out;
}

/**
 * The line about wandering checks: the rule in use (labelled with its game when borrowed), or, in a game without them
 * (docs/rules.md §0), the plain line that its book has none.
 */
export function wanderingLine(options: ExplorationOptions, lang: string, l: Localize, note?: FeatureNote): string {
  if (!options.wandering) return note?.noRule ?? l("AVENTURE.Exploration.Rules.noWandering");
  const line = plural(l, "AVENTURE.Exploration.Rules.wandering", options.wanderingEvery, lang, {
    chance: options.wanderingChance,
    die: options.wanderingDie,
  });
  return note?.borrowedLabel
    ? l("AVENTURE.Exploration.Rules.borrowed", { rule: line, from: note.borrowedLabel })
    : line;
}

/** The rules in use, one line each (from the checked settings), and the settings refused. */
export function rulesLines(options: ExplorationOptions, lang: string, l: Localize, wandering?: FeatureNote): string[] {
  return [
    l("AVENTURE.Exploration.Rules.turn", { duration: formatSeconds(options.turnSeconds, l) }),
    wanderingLine(options, lang, l, wandering),
    plural(l, "AVENTURE.Exploration.Rules.rest", options.restEvery, lang, { penalty: signed(options.restPenalty) }),
    l("AVENTURE.Exploration.Rules.lights", { torch: options.torchTurns, lantern: options.lanternTurns }),
  ];
}

/** −1 with a true minus sign, 0 as 0. */
export function signed(n: number): string {
  return n < 0 ? `−${-n}` : String(n);
}

function lightText(kind: LightKind, turnsLeft: number, lang: string, l: Localize): string {
  return plural(l, "AVENTURE.Exploration.turnsLeft", turnsLeft, lang, {
    kind: l(`AVENTURE.Exploration.Light.${kind}`),
  });
}

export function explorationPanelContext(input: PanelInput, l: Localize) {
  const { record, lang } = input;
  const state = record.state;
  const penalty = state ? restPenaltyOf(state) : 0;
  const into = state ? input.worldTime - record.time : 0;
  const lights = state?.lights ?? [];
  const partyIds = new Set(input.members.map((m) => `${m.sceneId}.${m.tokenId}`));
  return {
    running: !!state,
    rev: record.rev,
    busy: input.busy,
    turn: state ? l("AVENTURE.Exploration.turn", { turn: state.turn }) : "",
    sinceRest: state ? plural(l, "AVENTURE.Exploration.sinceRest", state.turnsSinceRest, lang) : "",
    restDue: state && record.restDue && penalty === 0 ? l("AVENTURE.Exploration.restDue") : "",
    penalty: state && penalty !== 0 ? l("AVENTURE.Exploration.penalty", { penalty: signed(penalty) }) : "",
    intoTurn: into > 0 ? l("AVENTURE.Exploration.intoTurn", { duration: formatSeconds(into, l) }) : "",
    actions: panelActions(input.ruleset, l),
    members: input.members.map((m) => {
      const light = lights.find((x) => x.id === `${m.sceneId}.${m.tokenId}`);
      return {
        sceneId: m.sceneId,
        tokenId: m.tokenId,
        name: m.name,
        gone: m.gone,
        lit: !!light,
        light: light
          ? lightText(light.kind, light.turnsLeft, lang, l)
          : m.gone
            ? l("AVENTURE.Exploration.tokenGone")
            : m.dark
              ? l("AVENTURE.Exploration.dark")
              : l("AVENTURE.Exploration.noLight"),
      };
    }),
    others: lights
      .filter((x) => !partyIds.has(x.id))
      .map((x) => {
        const [sceneId, tokenId] = x.id.split(".");
        return {
          sceneId,
          tokenId,
          name: input.otherNames[x.id] ?? "?",
          light: lightText(x.kind, x.turnsLeft, lang, l),
        };
      }),
    kinds: (["torch", "lantern", "custom"] as const).map((kind) => ({
      kind,
      label: l(`AVENTURE.Exploration.Light.${kind}`),
    })),
    rules: rulesLines(input.options, lang, l, input.wandering),
    bad: input.bad.map((b) =>
      l("AVENTURE.Exploration.badSetting", {
        setting: l(`AVENTURE.Settings.${b.setting}.name`),
        error: b.error,
        value: signed(b.fallback),
      }),
    ),
  };
}

export interface CardEnv {
  localize: Localize;
  lang: string;
  /** Finished by the active GM after an interruption (the dice are listed, not shown). */
  resumed: boolean;
  /** What was left alone or skipped. */
  problems: readonly string[];
  /** The world's wandering checks when the card is written (docs/rules.md §0). */
  wandering?: FeatureNote;
}

/** The card of an advance: what moved, the turns, each check, the rest, the lights that went out. */
export function explorationCardContext(card: AdvanceCard, env: CardEnv) {
  const l = env.localize;
  const encounter = card.checks.some((c) => c.encounter);
  return {
    title: l(`AVENTURE.Exploration.Card.title.${card.action}`),
    turns: l("AVENTURE.Exploration.Card.turns", { from: card.turnFrom, to: card.turnTo }),
    time: l("AVENTURE.Exploration.Card.time", { duration: formatSeconds(card.seconds, l) }),
    checks: card.checks.map((c) => ({
      text: l("AVENTURE.Exploration.Card.check", { turn: c.turn, roll: c.roll, die: card.die }),
      result: l(c.encounter ? "AVENTURE.Exploration.Card.encounter" : "AVENTURE.Exploration.Card.quiet"),
      encounter: c.encounter,
    })),
    // A game without wandering checks (docs/rules.md §0): its book's plain line instead of "no check in these turns".
    noCheck: !card.wandering
      ? (env.wandering?.noRule ?? l("AVENTURE.Exploration.Rules.noWandering"))
      : card.checks.length === 0 && card.notRolled === 0
        ? l("AVENTURE.Exploration.Card.noCheck")
        : "",
    borrowed:
      card.wandering && env.wandering?.borrowedLabel
        ? l("AVENTURE.Exploration.Card.borrowed", { from: env.wandering.borrowedLabel })
        : "",
    notRolled: card.notRolled
      ? plural(l, "AVENTURE.Exploration.Card.notRolled", card.notRolled, env.lang, { max: card.checks.length })
      : "",
    rested: card.action === "rest" ? l("AVENTURE.Exploration.Card.rested") : "",
    restDue: card.restDue && card.attackPenalty === 0 ? l("AVENTURE.Exploration.restDue") : "",
    penalty: card.attackPenalty !== 0 ? l("AVENTURE.Exploration.penalty", { penalty: signed(card.attackPenalty) }) : "",
    sinceRest: plural(l, "AVENTURE.Exploration.sinceRest", card.turnsSinceRest, env.lang),
    lightsOut: card.lightsOut.map((x) => l(`AVENTURE.Exploration.Card.lightOut.${x.kind}`, { name: x.name })),
    resumed: env.resumed ? l("AVENTURE.Operation.resumed") : "",
    problems: [...env.problems],
    encounter,
  };
}
