/**
 * Polaris in play (called once from registerHooks in init): the token HUD's "Polaris test" button (ruleset polaris,
 * the token's owners and GMs: the test dialog for the token's actor), and the change of intention (request
 * "polarisIntention" and the recovery of an interrupted one). The tracker's context-menu entries (Hasten, Delay,
 * Change intention) are added by the combat feature's getCombatTrackerContextOptions handler (combat/hooks.ts).
 */
import { template } from "../../constants.js";
import { DIFFICULTIES, POLARIS_DIFFICULTY_IDS } from "../../rules/polaris.js";
import { parseChance, parseWhole } from "../../apps/polaris-context.js";
import { renderTemplateCompat } from "../compat.js";
import { addHudButton } from "../token-hud.js";
import { t, UserError } from "../i18n.js";
import { openPolarisTest } from "../encounter/open.js";
import type { CombatLike, CombatantLike } from "../combat/types.js";
import { combatOf } from "../combat/round.js";
import { actorAdaptation } from "./actor.js";
import { registerIntention, requestIntention, type IntentionOutcome, type IntentionRequest } from "./intention.js";

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
        const form = button.form;
        const value = (name: string) =>
          (form?.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | null)?.value ?? "";
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
 * api.changeIntention(combatant, options?): the combatant's Adaptation test for a change of intention (docs/rules.md §9.2),
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

export function registerPolarisHooks(): void {
  registerIntention();
  addHudButton({
    id: "polaris-test",
    icon: "fa-solid fa-dice-d20",
    title: "AVENTURE.Polaris.hudTest",
    column: "right",
    feature: "polaris",
    onClick: (token) => openPolarisTest({ actor: token.actor }),
  });
}
