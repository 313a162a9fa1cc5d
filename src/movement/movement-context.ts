/**
 * Template contexts of the movement feature (pure: no Foundry globals, used by the glue, the tests and the
 * screenshots): the fall chat card, the fall dialog and the jump panel.
 */
import { features, type FeatureBorrowings } from "../rules/features.js";
import { borrowedLabel, noRuleLine } from "../core/feature-context.js";
import {
  JUMP_CHECKS,
  fallRules,
  JUMP_RULES,
  fallFormula,
  highJump,
  jumpObstacleMax,
  jumpReach,
  longJump,
} from "../rules/movement.js";
import type { RulesetId } from "../rules/rulesets.js";
import { TRAVEL_RULES, TRAVEL_RUNNING_TABLE, encounterMovementLimitRounds } from "../rules/travel.js";
import { DUNGEON_RUN } from "../rules/pursuit.js";

export type Localize = (key: string, data?: Record<string, string | number>) => string;
/** A height typed in the panel: "1,8" and "1.8" are both 1.8; anything else (or a negative) is null. */
export function parseHeight(raw: string): number | null {
  const s = raw.trim().replace(",", ".");
  if (!/^(\d+\.?\d*|\.\d+)$/.test(s)) return null;
  const v = Number(s);
  return Number.isFinite(v) ? v : null;
}

export type FallSource = "api" | "region" | "drop" | "hud";

/** "4,5 m" in French, "4.5 m" in English; "—" when unknown. */
export function metresText(value: number | null, lang: string): string {
  if (value === null || !Number.isFinite(value)) return "—";
  return `${(Math.round(value * 100) / 100).toLocaleString(lang, { maximumFractionDigits: 2 })} m`;
}

/**
 * A jump's distance as the books' tables give it (docs/rules.md §3.2: "0,3 m", "1 m + 0,3 × …"): to the tenth of a
 * metre, "1,1 m" rather than "1,13 m".
 */
export function jumpMetresText(value: number | null, lang: string): string {
  if (value === null || !Number.isFinite(value)) return "—";
  return `${(Math.round(value * 10) / 10).toLocaleString(lang, { maximumFractionDigits: 1 })} m`;
}

export interface FallCardInput {
  name: string;
  metres: number;
  dice: number;
  total: number;
  applied: boolean;
  prone: boolean;
  source: FallSource;
  lang: string;
  /** The card's state: "applying" while the damage is being applied, "pending" when a GM applies it by hand. */
  status?: "applying" | "applied" | "pending";
  /** The active GM finished this fall after an interruption (a reload mid-way). */
  resumed?: boolean;
  /** What could not be done, already localized. */
  problems?: string[];
  /** docs/rules.md §0: the game whose fall rule applies (default rnp), and its label when borrowed. */
  ruleset?: RulesetId;
  borrowed?: string | null;
}

export function fallCardContext(input: FallCardInput, localize: Localize) {
  const metres = metresText(input.metres, input.lang);
  const hasDamage = input.dice > 0;
  const ruleset = input.ruleset ?? "rnp";
  const type = fallRules(ruleset).damageType;
  return {
    title: localize("AVENTURE.Movement.Fall.title"),
    summary: localize("AVENTURE.Movement.Fall.summary", { name: input.name, metres }),
    source: localize(`AVENTURE.Movement.Fall.source.${input.source}`),
    borrowed: input.borrowed ?? null,
    formula: hasDamage ? `${fallFormula(input.metres, ruleset)}` : null,
    noDamage: hasDamage ? null : localize("AVENTURE.Movement.Fall.noDamage"),
    damage: hasDamage
      ? type
        ? localize("AVENTURE.Movement.Fall.damage", {
            total: input.total,
            type: localize(`AVENTURE.Movement.Fall.type.${type}`),
          })
        : localize("AVENTURE.Movement.Fall.damageUntyped", { total: input.total })
      : null,
    applied: input.applied,
    prone: input.prone ? localize("AVENTURE.Movement.Fall.prone", { name: input.name }) : null,
    pending: hasDamage && input.total > 0 && !input.applied && input.status !== "applied",
    pendingNote: localize(
      input.status === "applying" ? "AVENTURE.Movement.Fall.applying" : "AVENTURE.Movement.Fall.pending",
    ),
    applyLabel: localize("AVENTURE.Movement.Fall.apply"),
    resumed: input.resumed ? localize("AVENTURE.Operation.resumed") : null,
    problems: input.problems ?? [],
  };
}

export interface FallDialogInput {
  names: string[];
  metres: number;
  lang: string;
  /** docs/rules.md §0: the game whose fall rule applies (default rnp), and its label when borrowed. */
  ruleset?: RulesetId;
  borrowed?: string | null;
}

export function fallDialogContext(input: FallDialogInput, localize: Localize) {
  const ruleset = input.ruleset ?? "rnp";
  const valid = Number.isFinite(input.metres) && input.metres >= 0;
  const formula = valid ? fallFormula(input.metres, ruleset) : null;
  return {
    names: input.names.join(", "),
    metres: input.metres,
    preview: !valid
      ? localize("AVENTURE.Movement.Fall.invalid")
      : formula
        ? localize("AVENTURE.Movement.Fall.preview", { formula })
        : localize("AVENTURE.Movement.Fall.noDamage"),
    hint: localize(ruleset === "ose" ? "AVENTURE.Movement.Fall.ruleOse" : "AVENTURE.Movement.Fall.rule"),
    borrowed: input.borrowed ?? null,
  };
}

export interface JumpPanelInput {
  name: string;
  ruleset: RulesetId;
  rulesetLabel: string;
  strScore: number | null;
  strMod: number | null;
  /** The creature's height in metres (the panel lets the user change it). */
  height: number;
  lang: string;
  /**
   * docs/rules.md §3.1: remind Strength (Athletics) at the GM's call for climbs and swims (the world setting; default
   * on).
   */
  athleticsReminder?: boolean;
  /**
   * docs/rules.md §0: what the world's GMs borrowed. The panel shows jumps only when `ruleset` has them (or borrows
   * them: then labelled with their game), otherwise one line saying the game's book has none; and the encounter
   * movement and running of Portes, Monstres & Trésors and Old-School Essentials.
   */
  borrowed?: FeatureBorrowings;
}

/** The jump panel: long jump and high jump with and without run-up, reach, obstacle, checks. */
export function jumpPanelContext(input: JumpPanelInput, localize: Localize) {
  const { strScore, strMod, lang } = input;
  const f = features(input.ruleset, input.borrowed ?? {});
  const jumpsFrom = f.jumps.from;
  const encounterFrom = f.movementCosts.from === "pmt" || f.movementCosts.from === "ose" ? f.movementCosts.from : null;
  const encounter = encounterFrom === null ? [] : encounterMovementNotes(encounterFrom, localize);
  // docs/rules.md §0: a game without jump rules gets one plain line, and its encounter movement if it has one.
  if (jumpsFrom === null) {
    return {
      name: input.name,
      ruleset: input.rulesetLabel,
      jumpsOn: false,
      noJumps: noRuleLine(input.ruleset, "jumps", f.jumps, localize),
      encounter,
    };
  }
  const ruleset = jumpsFrom;
  const rule = JUMP_RULES[ruleset];
  const long = (runUp: boolean) => (strScore === null ? null : longJump(ruleset, { strength: strScore, runUp }));
  const high = (runUp: boolean) => (strMod === null ? null : highJump(ruleset, { strengthMod: strMod, runUp }));
  const reach = (runUp: boolean) =>
    strMod === null ? null : jumpReach(ruleset, { strengthMod: strMod, height: input.height, runUp });
  const longRun = long(true);
  const checks = JUMP_CHECKS[ruleset];
  const check = (id: "obstacle" | "landing") => {
    const c = checks[id];
    return (
      localize(`AVENTURE.Movement.Jump.check.${id}`, {
        check: localize(`AVENTURE.Movement.Jump.ability.${c.ability}`),
        dc: c.dc,
      }) + (c.dcFrom === "decision" ? ` ${localize("AVENTURE.Movement.Jump.dcDecision", { dc: c.dc })}` : "")
    );
  };
  const missing = [
    ...(strScore === null ? [localize("AVENTURE.Movement.Jump.missing.strScore")] : []),
    ...(strMod === null ? [localize("AVENTURE.Movement.Jump.missing.strMod")] : []),
  ];
  return {
    name: input.name,
    ruleset: input.rulesetLabel,
    jumpsOn: true,
    borrowed: borrowedLabel(f.jumps, localize),
    fallback:
      rule.source !== ruleset ? localize("AVENTURE.Movement.Jump.fallback", { ruleset: input.rulesetLabel }) : null,
    runUpNote: localize("AVENTURE.Movement.Jump.runUpNote", { metres: metresText(rule.runUpMetres, lang) }),
    rows: [
      {
        label: localize("AVENTURE.Movement.Jump.long"),
        runUp: jumpMetresText(longRun, lang),
        standing: jumpMetresText(long(false), lang),
      },
      {
        label: localize("AVENTURE.Movement.Jump.high"),
        runUp: jumpMetresText(high(true), lang),
        standing: jumpMetresText(high(false), lang),
      },
      {
        label: localize("AVENTURE.Movement.Jump.reach"),
        runUp: jumpMetresText(reach(true), lang),
        standing: jumpMetresText(reach(false), lang),
      },
    ],
    obstacle: localize("AVENTURE.Movement.Jump.obstacle", {
      metres: jumpMetresText(longRun === null ? null : jumpObstacleMax(longRun), lang),
    }),
    checks: [check("obstacle"), check("landing")],
    cost: localize("AVENTURE.Movement.Jump.cost"),
    /** The height as the user's language writes it ("1,8" in French); the panel reads "1,8" and "1.8" alike. */
    height: input.height.toLocaleString(lang, { maximumFractionDigits: 2, useGrouping: false }),
    missing: missing.length ? localize("AVENTURE.Movement.Jump.missing.text", { list: missing.join(", ") }) : null,
    encounter,
    athletics: input.athleticsReminder === false ? null : localize("AVENTURE.Movement.Jump.athletics"),
  };
}

/**
 * docs/rules.md §2.8, shown with the movement (pmt, ose): encounter movement is a third of the exploration rate per
 * round,
 * kept for at most 60 rounds in ose; running lasts 30 rounds, then the runner is exhausted (ose: Old-School Essentials'
 * own rule, said so). Empty for the rulesets without these rules.
 */
export function encounterMovementNotes(ruleset: RulesetId, localize: Localize): string[] {
  const notes: string[] = [];
  const limit = encounterMovementLimitRounds(ruleset);
  const running = TRAVEL_RUNNING_TABLE[ruleset];
  if (limit === null && running === null) return notes;
  const divisor = TRAVEL_RULES.encounterMovementDivisor;
  notes.push(
    limit === null
      ? localize("AVENTURE.Movement.Encounter.rate", { divisor })
      : localize("AVENTURE.Movement.Encounter.rateLimited", { divisor, rounds: limit }),
  );
  if (running !== null) {
    const rest = ruleset === "ose" ? DUNGEON_RUN.ose.restTurns : null;
    notes.push(
      rest === null
        ? localize("AVENTURE.Movement.Encounter.running", { rounds: running.rounds })
        : localize("AVENTURE.Movement.Encounter.runningOse", { rounds: running.rounds, turns: rest }),
    );
  }
  return notes;
}
