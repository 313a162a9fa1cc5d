/**
 * The chase card (docs/rules.md §9): a ChatMessage of the module's sub-type `aventure.pursuit` (module.json
 * documentTypes.ChatMessage.pursuit), one per step of a chase, whose state is declared once by its data model below
 * (core/card-model.ts): ids, step bounds, ruleset, place, groups, the outdoor or dungeon state through the rules' own
 * checks, the apply record and the claims of the next step. Cards posted before the sub-type kept the same state in
 * `flags.aventure.pursuit`; they are read through the same model (their missing apply record and claims as none).
 */
import {
  checkStoredDungeonChase,
  checkStoredPursuitState,
  isRuleset,
  type DungeonChaseState,
  type PursuitState,
  type RulesetId,
} from "../rules/index.js";
import {
  choiceField,
  executorField,
  flagField,
  idField,
  numberField,
  problemsField,
  registerCard,
  nullableObjectField,
  textField,
  versionField,
  type CardData,
  type CardKind,
  type Fields,
} from "../core/card-model.js";
import { isDocumentId } from "../core/values.js";
import { PURSUIT_PLACES, SURPRISE_CHOICES, type ChaseRecord } from "./pursuit-context.js";
import { PURSUIT_SIDES } from "./groups.js";

export const CHASE_CARD: CardKind = { kind: "pursuit", legacyFlag: "pursuit" };

/** The most steps a chase may have (a step per card; far beyond any chase the rules can produce). */
export const MAX_CHASE_STEPS = 10000;
/** The most tokens in a group, and the longest name kept. */
export const MAX_GROUP_TOKENS = 200;
const MAX_NAME = 200;
/** The largest group and speed a chase accepts (members; metres per round). */
export const MAX_GROUP_SIZE = 100000;
export const MAX_SPEED = 1000;
/** The largest absolute world time a step records (seconds). */
const MAX_TIME = 1e15;

/** Whether a rules check accepts a value (it throws a RulesError otherwise). */
const passes = (check: (v: unknown) => unknown) => (v: unknown) => {
  if (v === null) return true;
  try {
    check(v);
    return true;
  } catch {
    return false;
  }
};

const nullable = { required: true, nullable: true, initial: null } as const;
const group = (f: Fields) =>
  new f.SchemaField({
    count: numberField({ integer: true, min: 1, max: MAX_GROUP_SIZE }),
    speed: numberField({ min: 0, max: MAX_SPEED }),
    tokenIds: new f.ArrayField(idField(), { required: true, initial: [], max: MAX_GROUP_TOKENS }),
    names: new f.ArrayField(textField(MAX_NAME), { required: true, initial: [], max: MAX_GROUP_TOKENS }),
  });
const time = () => numberField({ min: -MAX_TIME, max: MAX_TIME });
/** The chase's ruleset: checked by isRuleset, so a RulesetId (a StringField with a validator derives only a string). */
const rulesetField = (f: Fields) => {
  type Options = { required: true; blank: false; validate: (v: unknown) => boolean };
  return new f.StringField<Options, RulesetId, RulesetId, RulesetId>({
    required: true,
    blank: false,
    validate: (v: unknown) => isRuleset(v),
  });
};

/**
 * A chase card's state as its model keeps it: the chase record (pursuit-context.ts ChaseRecord), its apply record or
 * null, the claims of the next step.
 */
export const chaseCardSchema = (f: Fields) => ({
  version: versionField(1),
  id: idField(),
  step: numberField({ integer: true, min: 1, max: MAX_CHASE_STEPS }),
  place: choiceField(PURSUIT_PLACES),
  ruleset: rulesetField(f),
  fleeingSide: choiceField(PURSUIT_SIDES),
  sceneId: idField(true),
  groups: new f.SchemaField({ party: group(f), opponents: group(f) }),
  surprise: choiceField(SURPRISE_CHOICES),
  startedBy: idField(),
  // Checked by the rules' own checks: a PursuitState, a DungeonChaseState (fvtt-types derives only an object).
  outdoors: nullableObjectField<PursuitState>(passes(checkStoredPursuitState)),
  dungeon: nullableObjectField<DungeonChaseState>(passes(checkStoredDungeonChase)),
  over: flagField(),
  shownFrom: numberField({ integer: true, min: 0, max: MAX_CHASE_STEPS }),
  exhaustedActors: new f.ArrayField(textField(MAX_NAME), {
    required: true,
    initial: [],
    max: 2 * MAX_GROUP_TOKENS,
  }),
  apply: new f.SchemaField(
    {
      status: choiceField(["applying", "applied"]),
      time: new f.SchemaField({ before: time(), after: time() }, nullable),
      exhaust: new f.SchemaField(
        {
          targets: new f.ArrayField(
            new f.SchemaField({ sceneId: idField(), tokenId: idField(), name: textField(MAX_NAME) }),
            { required: true, initial: [], max: 2 * MAX_GROUP_TOKENS },
          ),
          penalty: numberField({ integer: true, min: -100, max: 0 }),
          restTurns: new f.NumberField({ ...nullable, integer: true, min: 0, max: 1000 }),
          restSeconds: new f.NumberField({ ...nullable, min: 0, max: 1e9 }),
          startTime: time(),
        },
        nullable,
      ),
      resumed: flagField(),
      problems: problemsField(),
      executor: executorField(),
    },
    nullable,
  ),
  /**
   * The claims of the step after this card (operations.ts claimFirst: page load id → GM user id), withdrawn by
   * deletion.
   */
  claims: new f.TypedObjectField(idField(), {
    required: true,
    initial: {},
    validateKey: (k: string) => isDocumentId(k),
  }),
});
export type ChaseCardState = CardData<typeof chaseCardSchema>;

/** Registers the chase card's sub-type (init). */
export function registerChaseCard(): void {
  registerCard(CHASE_CARD, {
    name: "ChaseCardModel",
    schema: chaseCardSchema,
    // Cards of earlier versions: no apply record (nothing to apply), no claims.
    defaults: { apply: null, claims: {} },
    /*
     * One place, its state; one log entry per step (the first card holds the first day or the start); the dungeon
     * state of the chase's ruleset; over exactly when the state's outcome is decided; the card shows from its step.
     */
    joint(s) {
      const state = s.place === "outdoors" ? s.outdoors : s.dungeon;
      if (!state || (s.place === "outdoors" ? s.dungeon : s.outdoors) !== null)
        throw new Error("a chase holds the state of its place only");
      if (state.log.length !== s.step) throw new Error("a chase's log has one entry per step");
      if (s.dungeon && s.dungeon.ruleset !== s.ruleset) throw new Error("the dungeon chase is of the chase's ruleset");
      if (s.over !== (state.outcome !== "continues")) throw new Error("a chase is over once decided");
      if (s.shownFrom !== s.step - 1) throw new Error("a card shows its own step");
    },
  });
}

/**
 * The chase record of a card's state (read through the model: cardState): the outdoor or dungeon state as the rules'
 * checks return it, no apply record when there is none (and in it, no `resumed` or `problems` unless set), without the
 * claims (they stay on their card).
 */
export function chaseRecordOf(state: ChaseCardState): ChaseRecord {
  const { apply, claims: _claims, ...rest } = state;
  return {
    ...rest,
    outdoors: rest.outdoors && checkStoredPursuitState(rest.outdoors),
    dungeon: rest.dungeon && checkStoredDungeonChase(rest.dungeon),
    ...(apply ? { apply: stepApply(apply) } : {}),
  };
}

/** An apply record as a step writes it: `resumed` only when set, `problems` only when there are some. */
function stepApply(apply: NonNullable<ChaseRecord["apply"]>): NonNullable<ChaseRecord["apply"]> {
  const { resumed, problems, ...rest } = apply;
  return { ...rest, ...(resumed ? { resumed } : {}), ...(problems?.length ? { problems } : {}) };
}
