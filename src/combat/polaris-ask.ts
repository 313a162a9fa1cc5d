/**
 * The change of intention asked for from the combat tracker or `api.changeIntention` (Polaris phases, docs/rules.md
 * §9.2): with the actor's Adaptation from the Actor data paths the test is asked for at once; otherwise a small
 * dialog asks for it. The request itself is polaris-intention.ts.
 */
import { template } from "../core/constants.js";
import { DIFFICULTIES, POLARIS_DIFFICULTY_IDS } from "../rules/polaris.js";
import { parseChance, parseWhole } from "../polaris/api.js";
import { renderTemplateCompat } from "../core/compat.js";
import { t, UserError } from "../core/i18n.js";
import type { CombatLike, CombatantLike } from "./types.js";
import { combatOf } from "./round.js";
import { actorAdaptation } from "../polaris/api.js";
import { requestIntention, type IntentionOutcome, type IntentionRequest } from "./polaris-intention.js";
import { formText, formValues } from "../core/forms.js";

const isPicked = (v: unknown): v is { chance: string; mastery: string; difficulty: string } =>
  !!v && typeof v === "object" && typeof (v as { chance?: unknown }).chance === "string";

const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${Math.abs(n)}` : "0");

/**
 * Changing intention from the tracker: with the actor's Adaptation from the Actor data paths, the test is asked for at
 * once (difficulty Moyenne); otherwise a small dialog asks for the Adaptation level, its mastery and the difficulty.
 * Closed: nothing happens.
 */
export async function askIntention(combat: CombatLike, c: CombatantLike): Promise<IntentionOutcome | null> {
  const known = actorAdaptation(c.actor);
  const base = { combatId: combat.id ?? "", combatantId: c.id ?? "" };
  if (known.level !== null) {
    return requestIntention({
      ...base,
      chance: Math.trunc(known.level),
      ...(known.mastery !== null ? { mastery: Math.trunc(known.mastery) } : {}),
    });
  }
  const content = await renderTemplateCompat(template("polaris/intention.hbs"), {
    name: c.name,
    chance: "",
    mastery: known.mastery === null ? "" : String(known.mastery),
    difficulties: POLARIS_DIFFICULTY_IDS.map((id) => ({
      value: id,
      label: `${t(`AVENTURE.Polaris.difficulty.${id}`)} (${signed(DIFFICULTIES[id].modifier)})`,
    })),
    difficulty: "average",
  });
  const picked: unknown = await foundry.applications.api.DialogV2.prompt({
    window: { title: t("AVENTURE.Polaris.intention.menu") },
    content,
    rejectClose: false,
    ok: {
      label: t("AVENTURE.Polaris.roll"),
      callback: (_e: Event, button: HTMLButtonElement) => {
        const values = formValues(button.form);
        const value = (name: string) => formText(values, name) ?? "";
        return { chance: value("chance"), mastery: value("mastery"), difficulty: value("difficulty") };
      },
    },
  });
  if (!isPicked(picked)) return null;
  const req: IntentionRequest = {
    ...base,
    chance: parseChance(picked.chance),
    mastery: parseWhole(picked.mastery, 0),
    difficulty: picked.difficulty as IntentionRequest["difficulty"],
  };
  return requestIntention(req);
}

/** What `api.changeIntention` may be given instead of the actor's Adaptation (read through the Actor data paths). */
export interface ChangeIntentionOptions {
  chance?: number | "X";
  mastery?: number;
  difficulty?: IntentionRequest["difficulty"];
}

/** A Combatant document (or anything naming one: its id and its combat's). */
export interface CombatantRef {
  id: string | null;
  parent?: { id: string | null } | null;
}

/**
 * api.changeIntention(combatant, options?): the combatant's Adaptation test for a change of intention (docs/rules.md
 * §9.2),
 * on the active GM, once per round. The level is `options.chance`, else the actor's Adaptation (Actor data paths), else
 * asked in a dialog (`null` when it is closed).
 */
export async function changeIntention(
  combatant: CombatantRef,
  options: ChangeIntentionOptions = {},
): Promise<IntentionOutcome | null> {
  const combat = combatOf(combatant?.parent?.id);
  const c = combat.combatants.get(combatant.id ?? "");
  if (!c?.id) throw new UserError("AVENTURE.Combat.badRequest");
  if (options.chance === undefined) return askIntention(combat, c);
  return requestIntention({
    combatId: combat.id ?? "",
    combatantId: c.id,
    chance: options.chance,
    ...(options.mastery !== undefined ? { mastery: options.mastery } : {}),
    ...(options.difficulty !== undefined ? { difficulty: options.difficulty } : {}),
  });
}
