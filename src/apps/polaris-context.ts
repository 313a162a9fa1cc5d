/** Template contexts of the Polaris test dialog and chat card (pure: tested and screenshotted without Foundry). */
import {
  DIFFICULTIES,
  POLARIS_DIFFICULTY_IDS,
  polarisDifficultyModifier,
  type PolarisDifficulty,
  type PolarisTestKind,
  type PolarisTestResult,
} from "../rules/polaris.js";

export type Localize = (key: string, data?: Record<string, string | number>) => string;

export interface PolarisTestState {
  /** What the user typed: an integer, or "X" for a skill that cannot be tested. */
  chance: string;
  difficulty: PolarisDifficulty | "custom";
  custom: number;
  secret: boolean;
  attempt: number;
  pressed: boolean;
  label: string;
  isGM: boolean;
}

/** Parses the chance field: "X" (a skill that cannot be tested) or a number (validated by the rules). */
export function parseChance(raw: string): number | "X" {
  const s = raw.trim();
  return s.toUpperCase() === "X" ? "X" : s === "" ? Number.NaN : Number(s);
}

const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${Math.abs(n)}` : "0");

export function difficultyLabel(d: PolarisDifficulty | number, l: Localize): string {
  return typeof d === "number" ? l("AVENTURE.Polaris.customDifficulty", { modifier: signed(d) }) : l(`AVENTURE.Polaris.difficulty.${d}`);
}

export function polarisDialogContext(state: PolarisTestState, l: Localize) {
  return {
    chance: state.chance,
    difficulties: [
      ...POLARIS_DIFFICULTY_IDS.map((id) => ({
        value: id,
        label: `${l(`AVENTURE.Polaris.difficulty.${id}`)} (${signed(DIFFICULTIES[id].modifier)})`,
      })),
      { value: "custom", label: l("AVENTURE.Polaris.custom") },
    ],
    difficulty: state.difficulty,
    custom: state.custom,
    isCustom: state.difficulty === "custom",
    secret: state.secret,
    attempt: state.attempt,
    pressed: state.pressed,
    label: state.label,
    isGM: state.isGM,
  };
}

export interface PolarisCardInput {
  label: string;
  chance: number | "X";
  difficulty: PolarisDifficulty | number;
  retryPenalty: number;
  die: number;
  result: PolarisTestResult;
  /** Hide the difficulty and the final chance (a secret difficulty, on the public card). */
  hideDifficulty: boolean;
  /** What was tested (default "skill"): says what a critical success added to the margin. */
  kind?: PolarisTestKind;
  /** The GM set the critical bonus by hand (polarisTest's `criticalBonus`). */
  criticalOverride?: boolean;
}

/** RULES.md §9.1: how a critical success improved the margin, in words (empty otherwise). */
function criticalExplanation(input: PolarisCardInput, l: Localize): string {
  const r = input.result;
  if (r.critical !== "success") return "";
  const data = { bonus: r.criticalBonus, base: r.baseMargin, margin: r.margin };
  if (input.criticalOverride) return l("AVENTURE.Polaris.criticalExplain.override", data);
  if (input.kind === "attribute") return l("AVENTURE.Polaris.criticalExplain.attribute", data);
  return l(r.criticalBonus > 0 ? "AVENTURE.Polaris.criticalExplain.skill" : "AVENTURE.Polaris.criticalExplain.noMastery", data);
}

export function polarisCardContext(input: PolarisCardInput, l: Localize) {
  const r = input.result;
  const side = r.success ? "success" : "failure";
  return {
    title: input.label ? l("AVENTURE.Polaris.cardTitleFor", { label: input.label }) : l("AVENTURE.Polaris.cardTitle"),
    chance: input.chance === "X" ? "X" : String(input.chance),
    showDifficulty: !input.hideDifficulty,
    difficulty: difficultyLabel(input.difficulty, l),
    difficultyModifier: signed(polarisDifficultyModifier(input.difficulty)),
    retry: input.retryPenalty !== 0 ? signed(input.retryPenalty) : "",
    finalChance: input.hideDifficulty || r.finalChance === null ? "" : String(r.finalChance),
    secretNote: input.hideDifficulty ? l("AVENTURE.Polaris.secretNote") : "",
    die: input.die,
    success: r.success,
    outcome: l(r.success ? "AVENTURE.Polaris.success" : "AVENTURE.Polaris.failure"),
    margin: r.margin,
    marginText:
      r.critical === "success"
        ? l("AVENTURE.Polaris.marginCritical", { margin: r.margin, base: r.baseMargin, bonus: r.criticalBonus })
        : l("AVENTURE.Polaris.marginIs", { margin: r.margin }),
    criticalExplain: criticalExplanation(input, l),
    degree: l(`AVENTURE.Polaris.degree.${side}.${r.degree}`),
    modifier: signed(r.modifier),
    critical: r.critical ? l(`AVENTURE.Polaris.critical.${r.critical}`) : "",
    criticalClass: r.critical ?? "",
    automaticFailure: r.automaticFailure,
    automaticNote: r.automaticFailure ? l(input.chance === "X" ? "AVENTURE.Polaris.untestable" : "AVENTURE.Polaris.automaticFailure") : "",
  };
}
