/**
 * A Polaris test (docs/rules.md §9.1) rolled with Foundry dice: what is tested (a skill with its mastery, or an
 * attribute), the chance, the difficulty (one of the 12 levels, raised on purpose by N degrees, or a modifier), a
 * secret difficulty (GM), the cumulative retry penalty, and a countdown (the GM's maximum of attempts); 1d20 → one
 * chat card. With a secret difficulty the public card hides the difficulty and the final chance, and the GMs get the
 * details. When a countdown runs out, the card says that the planned event happens (shown, not applied).
 */
import { template } from "../core/constants.js";
import {
  countdownLeft,
  polarisTest,
  retryPenalty,
  type PolarisCountdown,
  type PolarisDifficulty,
  type PolarisTestKind,
  type PolarisTestResult,
} from "../rules/polaris.js";
import { effectiveDifficulty, polarisCardContext, type PolarisCardCountdown } from "./polaris-context.js";
import { postCard } from "../core/chat.js";
import { foundryDice } from "../core/dice.js";
import { UserError, t } from "../core/i18n.js";
import { POLARIS_TEST_CARD } from "./test-card.js";

/** A countdown a test belongs to: the GM's maximum, what a catastrophe costs (1 or 2 more), the attempts so far. */
export interface PolarisCountdownRequest {
  maxAttempts: number;
  catastropheCost?: number;
  /** The `polarisTest` results of the earlier attempts of this countdown, in order (default none). */
  tests?: readonly PolarisTestResult[];
}

export interface PolarisTestRequest {
  chance: number | "X";
  difficulty: PolarisDifficulty | number;
  /** "skill" (default) or "attribute". */
  kind?: PolarisTestKind;
  /** A skill's mastery level (added to the margin on a critical success). */
  mastery?: number;
  /** An attribute's level (default: the chance, for an attribute test). */
  attributeLevel?: number;
  /** The GM's own critical bonus (overrides mastery and attribute). */
  criticalBonus?: number;
  /** Raise the difficulty on purpose by this many degrees (negative: easier); only with a difficulty id. */
  harder?: number;
  secret?: boolean;
  /** The attempt number (1 = first try; with a countdown, default: its attempts so far + 1) and whether the
   * situation is pressing (−3 per retry instead of −1). */
  attempt?: number;
  pressed?: boolean;
  countdown?: PolarisCountdownRequest;
  label?: string;
  speaker?: ChatMessage.SpeakerData;
}

export interface PolarisTestOutcome {
  die: number;
  result: PolarisTestResult;
  /** The difficulty rolled at (after "harder by N degrees"). */
  difficulty: PolarisDifficulty | number;
  /** The countdown after this test (null without one). */
  countdown: PolarisCountdown | null;
}

/** What the card shows of a countdown (null without one); throws when the countdown is already over. */
function countdownOf(
  req: PolarisCountdownRequest | undefined,
): { max: number; cost: 1 | 2; tests: PolarisTestResult[] } | null {
  if (req === undefined) return null;
  if (req === null || typeof req !== "object") throw new UserError("AVENTURE.Polaris.countdown.bad");
  const tests = [...(req.tests ?? [])];
  const before = countdownLeft(req.maxAttempts, tests, req.catastropheCost ?? 1); // validates every field
  if (before.succeeded || before.exhausted) throw new UserError("AVENTURE.Polaris.countdown.over");
  return { max: req.maxAttempts, cost: (req.catastropheCost ?? 1) as 1 | 2, tests };
}

export async function rollPolarisTest(req: PolarisTestRequest): Promise<PolarisTestOutcome> {
  const secret = req.secret === true;
  if (secret && !game.user.isGM) throw new UserError("AVENTURE.Error.GMOnly");
  const countdown = countdownOf(req.countdown);
  const attempt = req.attempt ?? (countdown ? countdown.tests.length + 1 : 1);
  const penalty = retryPenalty(attempt, req.pressed ?? false);
  const harder = req.harder ?? 0;
  const difficulty = effectiveDifficulty(req.difficulty, harder);
  const kind = req.kind ?? "skill";
  const attributeLevel =
    req.attributeLevel ?? (kind === "attribute" && typeof req.chance === "number" ? req.chance : undefined);
  const input = {
    chance: req.chance,
    difficulty,
    secret,
    retryPenalty: penalty,
    kind,
    ...(req.mastery !== undefined ? { mastery: req.mastery } : {}),
    ...(attributeLevel !== undefined ? { attributeLevel } : {}),
    ...(req.criticalBonus !== undefined ? { criticalBonus: req.criticalBonus } : {}),
  };
  // Validates everything before anything is rolled or posted (an attribute test's level defaults to its chance, so a
  // critical success always has the level it needs).
  polarisTest({ ...input, roll: 1 });
  const dice = foundryDice();
  const [die] = await dice.roll(1, 20, "polarisTest");
  const result = polarisTest({ ...input, roll: die! });
  const after = countdown ? countdownLeft(countdown.max, [...countdown.tests, result], countdown.cost) : null;
  const cardCountdown: PolarisCardCountdown | undefined =
    countdown && after ? { max: countdown.max, cost: countdown.cost, after } : undefined;
  const card = (hide: boolean) =>
    polarisCardContext(
      {
        label: req.label ?? "",
        chance: req.chance,
        difficulty,
        ...(harder !== 0 && typeof req.difficulty === "string"
          ? { harder: { from: req.difficulty, steps: harder } }
          : {}),
        retryPenalty: penalty,
        die: die!,
        result,
        hideDifficulty: hide,
        kind,
        criticalOverride: req.criticalBonus !== undefined,
        ...(cardCountdown ? { countdown: cardCountdown } : {}),
      },
      t,
    );
  const flag = {
    success: result.success,
    margin: result.margin,
    degree: result.degree,
    ...(after ? { countdown: { left: after.left, succeeded: after.succeeded, exhausted: after.exhausted } } : {}),
  };
  await postCard({
    template: template("polaris/test-card.hbs"),
    context: card(secret),
    rolls: dice.rolls,
    speaker: req.speaker,
    card: { kind: POLARIS_TEST_CARD, state: flag },
  });
  if (secret)
    await postCard({
      template: template("polaris/test-card.hbs"),
      context: card(false),
      gmOnly: true,
      speaker: req.speaker,
    });
  return { die: die!, result, difficulty, countdown: after };
}
