/**
 * Template contexts of the Polaris test dialog and chat card (pure: tested and screenshotted without Foundry).
 * Every number shown comes from the rules (src/rules/polaris.ts): the final chance, the retry penalty, the degree,
 * the critical bonus, the difficulty raised on purpose and what is left of a countdown.
 */
import {
  countdownLeft,
  DIFFICULTIES,
  harderDifficulty,
  POLARIS_CATASTROPHE_COSTS,
  POLARIS_DIFFICULTY_IDS,
  polarisDifficultyModifier,
  retryPenalty,
  type PolarisCountdown,
  type PolarisDifficulty,
  type PolarisTestKind,
  type PolarisTestResult,
} from "../rules/polaris.js";

export type Localize = (key: string, data?: Record<string, string | number>) => string;

/** A skill of the actor, read through the keyed data paths (Actor data: "Skill level (Polaris)"...). */
export interface PolarisSkillOption {
  key: string;
  label: string;
  level: number;
  /** The skill's mastery level, null when the world has no mastery path. */
  mastery: number | null;
}
/** An attribute of the actor, read through the keyed data path "Attribute level (Polaris)". */
export interface PolarisAttributeOption {
  key: string;
  label: string;
  level: number;
}

/**
 * A countdown run by the dialog (docs/rules.md §9.1): the GM's maximum, what a catastrophe costs, the attempts made.
 */
export interface PolarisCountdownState {
  /** The maximum number of attempts (the field as typed: "" = no countdown). */
  max: string;
  catastropheCost: 1 | 2;
  /** The results of the attempts made in this countdown, in order. */
  tests: PolarisTestResult[];
}

/** The last roll of the dialog, shown under the form. */
export interface PolarisLastRoll {
  die: number;
  result: PolarisTestResult;
  kind: PolarisTestKind;
  criticalOverride?: boolean;
}

export interface PolarisTestState {
  /** What the user typed: an integer, or "X" for a skill that cannot be tested. */
  chance: string;
  kind: PolarisTestKind;
  /** The actor's skill (or attribute) picked in the list ("" = typed by hand). */
  skill: string;
  attribute: string;
  /** The skill's mastery level, as typed. */
  mastery: string;
  difficulty: PolarisDifficulty | "custom";
  custom: number;
  /** "Harder by N degrees" (harderDifficulty), as typed; only with one of the twelve difficulties. */
  harder: string;
  secret: boolean;
  /** The attempt number without a countdown (with one, it is the number of attempts made + 1). */
  attempt: number;
  pressed: boolean;
  label: string;
  isGM: boolean;
  countdown: PolarisCountdownState;
  last: PolarisLastRoll | null;
  /** What the actor offers (empty without an actor or without the keyed data paths). */
  actorName: string;
  skills: PolarisSkillOption[];
  attributes: PolarisAttributeOption[];
}

/** The Polaris test window's state when it opens: chance 10 at Moyenne, first attempt, no countdown. */
export function initialPolarisState(
  from: Pick<PolarisTestState, "label" | "isGM" | "actorName" | "skills" | "attributes">,
): PolarisTestState {
  return {
    chance: "10",
    kind: "skill",
    skill: "",
    attribute: "",
    mastery: "",
    difficulty: "average",
    custom: 0,
    harder: "",
    secret: false,
    attempt: 1,
    pressed: false,
    countdown: { max: "", catastropheCost: 1, tests: [] },
    last: null,
    ...from,
  };
}

/** Parses the chance field: "X" (a skill that cannot be tested) or a number (validated by the rules). */
export function parseChance(raw: string): number | "X" {
  const s = raw.trim();
  return s.toUpperCase() === "X" ? "X" : s === "" ? Number.NaN : Number(s);
}

/** Parses an optional whole number field ("" → the fallback; anything else → a number the rules validate). */
export function parseWhole(raw: string, fallback: number): number {
  const s = raw.trim();
  return s === "" ? fallback : Number(s.replace("−", "-"));
}

/**
 * The countdown's maximum: null when the field is empty (no countdown), else the number typed (validated by the rules).
 */
export function countdownMax(state: Pick<PolarisTestState, "countdown">): number | null {
  const s = state.countdown.max.trim();
  return s === "" ? null : Number(s);
}

/** The attempt the next roll is: with a countdown, the attempts made + 1; otherwise the field. */
export function nextAttempt(state: Pick<PolarisTestState, "countdown" | "attempt">): number {
  return countdownMax(state) === null ? state.attempt : state.countdown.tests.length + 1;
}

const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${Math.abs(n)}` : "0");
/** A number with a typographic minus (−1, not -1). */
const plainNumber = (n: number) => (n < 0 ? `−${Math.abs(n)}` : String(n));

export function difficultyLabel(d: PolarisDifficulty | number, l: Localize): string {
  return typeof d === "number"
    ? l("AVENTURE.Polaris.customDifficulty", { modifier: signed(d) })
    : l(`AVENTURE.Polaris.difficulty.${d}`);
}

/** "Difficile (−5)". */
function difficultyWithModifier(d: PolarisDifficulty, l: Localize): string {
  return `${l(`AVENTURE.Polaris.difficulty.${d}`)} (${signed(DIFFICULTIES[d].modifier)})`;
}

/**
 * The difficulty a test is rolled at: the id raised `harder` degrees (harderDifficulty). A plain modifier has no
 * degrees: with `harder` other than 0 the rules refuse it (UnknownValue), as they refuse a step that is not an integer.
 */
export function effectiveDifficulty(
  difficulty: PolarisDifficulty | number,
  harder: number,
): PolarisDifficulty | number {
  if (harder === 0) return difficulty;
  return harderDifficulty(difficulty as PolarisDifficulty, harder);
}

/** What a critical success would add, before the roll (null when the fields do not say yet). */
function criticalPreview(state: PolarisTestState, l: Localize): string {
  const chance = parseChance(state.chance);
  if (state.kind === "attribute") {
    if (typeof chance !== "number" || !Number.isInteger(chance)) return "";
    return l("AVENTURE.Polaris.criticalPreview.attribute", {
      bonus: Math.max(0, Math.floor(chance / 2)),
      level: chance,
    });
  }
  const mastery = parseWhole(state.mastery, 0);
  if (!Number.isInteger(mastery)) return "";
  return mastery > 0
    ? l("AVENTURE.Polaris.criticalPreview.skill", { bonus: mastery })
    : l("AVENTURE.Polaris.criticalPreview.noMastery");
}

/** How many attempts, the string chosen by count ("no attempt", "1 attempt", "2 attempts"). */
function attempts(n: number, l: Localize): string {
  return l(
    n === 0
      ? "AVENTURE.Polaris.countdown.attemptsNone"
      : n === 1
        ? "AVENTURE.Polaris.countdown.attemptsOne"
        : "AVENTURE.Polaris.countdown.attemptsMany",
    { count: n },
  );
}

/** "raised by 2 degrees from Average" (or lowered), the string chosen by count. */
function harderText(steps: number, from: PolarisDifficulty, l: Localize): string {
  const n = Math.abs(steps);
  const key =
    steps > 0
      ? n === 1
        ? "AVENTURE.Polaris.harderNote.one"
        : "AVENTURE.Polaris.harderNote.many"
      : n === 1
        ? "AVENTURE.Polaris.easierNote.one"
        : "AVENTURE.Polaris.easierNote.many";
  return l(key, { steps: n, from: l(`AVENTURE.Polaris.difficulty.${from}`) });
}

/** The countdown in words, or null without one (or with a maximum the rules refuse: the roll says why). */
function countdownView(
  state: PolarisTestState,
  l: Localize,
): { status: string; ended: string; left: number; over: boolean } | null {
  const max = countdownMax(state);
  if (max === null) return null;
  let c: PolarisCountdown;
  try {
    c = countdownLeft(max, state.countdown.tests, state.countdown.catastropheCost);
  } catch {
    return null;
  }
  const over = c.succeeded || c.exhausted;
  const status = over
    ? ""
    : l("AVENTURE.Polaris.countdown.status", {
        attempt: state.countdown.tests.length + 1,
        left: attempts(c.left, l),
        max,
      });
  const ended = c.succeeded
    ? l("AVENTURE.Polaris.countdown.succeeded")
    : c.exhausted
      ? l("AVENTURE.Polaris.countdown.exhausted")
      : "";
  return { status, ended, left: c.left, over };
}

/** "Margin 4 (0 + 4: mastery)", or "Margin 5". */
export function marginText(
  result: PolarisTestResult,
  kind: PolarisTestKind | undefined,
  override: boolean,
  l: Localize,
): string {
  if (result.critical !== "success") return l("AVENTURE.Polaris.marginIs", { margin: result.margin });
  if (!override && result.criticalBonus === 0)
    return l("AVENTURE.Polaris.marginCriticalNone", { margin: result.margin });
  const source = l(
    override
      ? "AVENTURE.Polaris.criticalSource.override"
      : kind === "attribute"
        ? "AVENTURE.Polaris.criticalSource.attribute"
        : "AVENTURE.Polaris.criticalSource.skill",
  );
  return l("AVENTURE.Polaris.marginCritical", {
    margin: result.margin,
    base: result.baseMargin,
    bonus: result.criticalBonus,
    source,
  });
}

/** "Success — Fair (+1)": the outcome and the degree read from the (improved) margin. */
function outcomeText(result: PolarisTestResult, l: Localize): string {
  const side = result.success ? "success" : "failure";
  const outcome = l(result.success ? "AVENTURE.Polaris.success" : "AVENTURE.Polaris.failure");
  return `${outcome} — ${l(`AVENTURE.Polaris.degree.${side}.${result.degree}`)} (${signed(result.modifier)})`;
}

/** "Rolled at Hard (−5), 2 degrees harder than Average" (or the custom modifier), from the rules. */
function rolledAt(state: PolarisTestState, l: Localize): string {
  if (state.difficulty === "custom") {
    return Number.isInteger(state.custom)
      ? l("AVENTURE.Polaris.rolledAt", { difficulty: difficultyLabel(state.custom, l) })
      : "";
  }
  const harder = parseWhole(state.harder, 0);
  let d: PolarisDifficulty;
  try {
    d = harderDifficulty(state.difficulty, Number.isInteger(harder) ? harder : 0);
  } catch {
    return "";
  }
  const at = l("AVENTURE.Polaris.rolledAt", { difficulty: difficultyWithModifier(d, l) });
  if (!Number.isInteger(harder) || harder === 0) return at;
  return `${at}, ${harderText(harder, state.difficulty, l)}`;
}

export function polarisDialogContext(state: PolarisTestState, l: Localize) {
  const isSkill = state.kind === "skill";
  const countdown = state.isGM ? countdownView(state, l) : null;
  const attempt = nextAttempt(state);
  let penalty: string;
  try {
    const p = retryPenalty(attempt, state.pressed);
    penalty = p !== 0 ? l("AVENTURE.Polaris.retryIs", { penalty: signed(p), attempt }) : "";
  } catch {
    penalty = "";
  }
  const last = state.last;
  return {
    label: state.label,
    actorName: state.actorName,
    kinds: [
      { value: "skill", label: l("AVENTURE.Polaris.kind.skill") },
      { value: "attribute", label: l("AVENTURE.Polaris.kind.attribute") },
    ],
    kind: state.kind,
    isSkill,
    skills: state.skills.length
      ? [
          { value: "", label: l("AVENTURE.Polaris.typedByHand") },
          ...state.skills.map((s) => ({ value: s.key, label: `${s.label} (${s.level})` })),
        ]
      : [],
    skill: state.skill,
    attributes: state.attributes.length
      ? [
          { value: "", label: l("AVENTURE.Polaris.typedByHand") },
          ...state.attributes.map((a) => ({ value: a.key, label: `${a.label} (${a.level})` })),
        ]
      : [],
    attribute: state.attribute,
    chance: state.chance,
    chanceLabel: l(isSkill ? "AVENTURE.Polaris.skillLevel" : "AVENTURE.Polaris.attributeLevel"),
    chanceHint: l(isSkill ? "AVENTURE.Polaris.chanceHint" : "AVENTURE.Polaris.attributeHint"),
    mastery: state.mastery,
    criticalPreview: criticalPreview(state, l),
    difficulties: [
      ...POLARIS_DIFFICULTY_IDS.map((id) => ({ value: id, label: difficultyWithModifier(id, l) })),
      { value: "custom", label: l("AVENTURE.Polaris.custom") },
    ],
    difficulty: state.difficulty,
    custom: state.custom,
    isCustom: state.difficulty === "custom",
    harder: state.harder,
    rolledAt: rolledAt(state, l),
    secret: state.secret,
    isGM: state.isGM,
    countdownMax: state.countdown.max,
    catastropheCosts: POLARIS_CATASTROPHE_COSTS.map((n) => ({ value: String(n), label: attempts(n, l) })),
    catastropheCost: String(state.countdown.catastropheCost),
    countdownOn: countdown !== null,
    countdownStatus: countdown?.status ?? "",
    countdownEnded: countdown?.ended ?? "",
    attempt,
    pressed: state.pressed,
    penalty,
    canRoll: !countdown?.over,
    canReset: state.countdown.tests.length > 0 || state.attempt > 1 || last !== null,
    last: last
      ? {
          die: last.die,
          outcome: outcomeText(last.result, l),
          success: last.result.success,
          margin: marginText(last.result, last.kind, last.criticalOverride === true, l),
          critical: last.result.critical ? l(`AVENTURE.Polaris.critical.${last.result.critical}`) : "",
          criticalClass: last.result.critical ?? "",
        }
      : null,
  };
}

/** A countdown on the card: the GM's maximum, what a catastrophe costs, and where it stands after this test. */
export interface PolarisCardCountdown {
  max: number;
  cost: 1 | 2;
  after: PolarisCountdown;
}

export interface PolarisCardInput {
  label: string;
  /** The card's title (default: "Polaris test: <label>"). */
  title?: string;
  /** What the chance is called (default: the skill or attribute level). */
  chanceLabel?: string;
  chance: number | "X";
  /** The difficulty the test was rolled at (after "harder by N degrees"). */
  difficulty: PolarisDifficulty | number;
  /** The difficulty before it was raised on purpose, and by how many degrees (harderDifficulty). */
  harder?: { from: PolarisDifficulty; steps: number };
  retryPenalty: number;
  die: number;
  result: PolarisTestResult;
  /** Hide the difficulty and the final chance (a secret difficulty, on the public card). */
  hideDifficulty: boolean;
  /** What was tested (default "skill"): says what a critical success added to the margin. */
  kind?: PolarisTestKind;
  /** The GM set the critical bonus by hand (polarisTest's `criticalBonus`). */
  criticalOverride?: boolean;
  countdown?: PolarisCardCountdown;
  /** Extra lines (plain text, escaped by the template), e.g. what a change of intention leads to. */
  notes?: string[];
}

/** docs/rules.md §9.1: how a critical success improved the margin, in words (empty otherwise). */
function criticalExplanation(input: PolarisCardInput, l: Localize): string {
  const r = input.result;
  if (r.critical !== "success") return "";
  const data = { bonus: r.criticalBonus, base: r.baseMargin, margin: r.margin };
  if (input.criticalOverride) return l("AVENTURE.Polaris.criticalExplain.override", data);
  if (input.kind === "attribute") return l("AVENTURE.Polaris.criticalExplain.attribute", data);
  return l(
    r.criticalBonus > 0 ? "AVENTURE.Polaris.criticalExplain.skill" : "AVENTURE.Polaris.criticalExplain.noMastery",
    data,
  );
}

/** The countdown's lines on the card: a catastrophe's extra cost, what is left, and when the planned event happens. */
function countdownLines(input: PolarisCardInput, l: Localize): string[] {
  const c = input.countdown;
  if (!c) return [];
  const lines: string[] = [];
  if (!input.result.success && input.result.degree === "catastrophique") {
    lines.push(
      l(c.cost === 1 ? "AVENTURE.Polaris.countdown.catastropheOne" : "AVENTURE.Polaris.countdown.catastropheMany", {
        count: c.cost,
      }),
    );
  }
  if (c.after.succeeded) lines.push(l("AVENTURE.Polaris.countdown.succeeded"));
  else if (c.after.exhausted) lines.push(l("AVENTURE.Polaris.countdown.exhausted"));
  else lines.push(l("AVENTURE.Polaris.countdown.left", { left: attempts(c.after.left, l), max: c.max }));
  return lines;
}

export function polarisCardContext(input: PolarisCardInput, l: Localize) {
  const r = input.result;
  const side = r.success ? "success" : "failure";
  const lines = countdownLines(input, l);
  return {
    title:
      input.title ??
      (input.label ? l("AVENTURE.Polaris.cardTitleFor", { label: input.label }) : l("AVENTURE.Polaris.cardTitle")),
    chance: input.chance === "X" ? "X" : plainNumber(input.chance),
    chanceLabel:
      input.chanceLabel ??
      l(input.kind === "attribute" ? "AVENTURE.Polaris.attributeLevel" : "AVENTURE.Polaris.skillLevel"),
    showDifficulty: !input.hideDifficulty,
    difficulty: difficultyLabel(input.difficulty, l),
    difficultyModifier: signed(polarisDifficultyModifier(input.difficulty)),
    harderNote:
      input.harder && input.harder.steps !== 0 && !input.hideDifficulty
        ? harderText(input.harder.steps, input.harder.from, l)
        : "",
    retry: input.retryPenalty !== 0 ? signed(input.retryPenalty) : "",
    finalChance: input.hideDifficulty || r.finalChance === null ? "" : plainNumber(r.finalChance),
    secretNote: input.hideDifficulty ? l("AVENTURE.Polaris.secretNote") : "",
    die: input.die,
    success: r.success,
    outcome: l(r.success ? "AVENTURE.Polaris.success" : "AVENTURE.Polaris.failure"),
    margin: r.margin,
    marginText: marginText(r, input.kind, input.criticalOverride === true, l),
    criticalExplain: criticalExplanation(input, l),
    degree: l(`AVENTURE.Polaris.degree.${side}.${r.degree}`),
    modifier: signed(r.modifier),
    critical: r.critical ? l(`AVENTURE.Polaris.critical.${r.critical}`) : "",
    criticalClass: r.critical ?? "",
    automaticFailure: r.automaticFailure,
    automaticNote: r.automaticFailure
      ? l(input.chance === "X" ? "AVENTURE.Polaris.untestable" : "AVENTURE.Polaris.automaticFailure")
      : "",
    countdownLines: lines,
    countdownOver: input.countdown?.after.exhausted === true,
    notes: input.notes ?? [],
  };
}
