/**
 * A Polaris test (RULES.md §9.1) rolled with Foundry dice: chance, difficulty (one of the 12 levels or a
 * modifier), secret difficulty (GM), cumulative retry penalty; 1d20 → one chat card. With a secret
 * difficulty the public card hides the difficulty and the final chance, and the GMs get the details.
 */
import { template } from "../../constants.js";
import { polarisTest, retryPenalty, type PolarisDifficulty, type PolarisTestResult } from "../../rules/polaris.js";
import { polarisCardContext } from "../../apps/polaris-context.js";
import { postCard } from "../chat.js";
import { foundryDice } from "../dice.js";
import { UserError, t } from "../i18n.js";

export interface PolarisTestRequest {
  chance: number | "X";
  difficulty: PolarisDifficulty | number;
  secret?: boolean;
  /** The attempt number (1 = first try) and whether the situation is pressing (−3 per retry instead of −1). */
  attempt?: number;
  pressed?: boolean;
  label?: string;
  speaker?: ChatMessage.SpeakerData;
}

export async function rollPolarisTest(req: PolarisTestRequest): Promise<{ die: number; result: PolarisTestResult }> {
  const secret = req.secret === true;
  if (secret && !game.user.isGM) throw new UserError("AVENTURE.Error.GMOnly");
  const penalty = retryPenalty(req.attempt ?? 1, req.pressed ?? false);
  const input = { chance: req.chance, difficulty: req.difficulty, secret, retryPenalty: penalty };
  polarisTest({ ...input, roll: 1 }); // validates everything before anything is rolled or posted
  const dice = foundryDice();
  const [die] = await dice.roll(1, 20, "polarisTest");
  const result = polarisTest({ ...input, roll: die! });
  const card = (hide: boolean) =>
    polarisCardContext(
      { label: req.label ?? "", chance: req.chance, difficulty: req.difficulty, retryPenalty: penalty, die: die!, result, hideDifficulty: hide },
      t,
    );
  await postCard({
    template: template("polaris/test-card.hbs"),
    context: card(secret),
    rolls: dice.rolls,
    speaker: req.speaker,
    flags: { polarisTest: { success: result.success, margin: result.margin, degree: result.degree } },
  });
  if (secret) await postCard({ template: template("polaris/test-card.hbs"), context: card(false), gmOnly: true, speaker: req.speaker });
  return { die: die!, result };
}
