/**
 * The exploration's stored record (docs/api/exploration.md): one world setting, `aventure.explorationState`, that only
 * GMs can write (Foundry refuses a player's write of a world setting), so a player cannot forge it. It holds the
 * rules' state (src/rules/exploration.ts), the world time the turn count is synced to, the party's tokens, and the
 * operation being applied, if any:
 *
 * Exactly once. An advance (or lighting, or putting out a light) is an OPERATION recorded in this setting, marked
 * "applying" with ABSOLUTE targets (the world time before and after, each token's light before and after, the
 * record to write at the end with its turn count), BEFORE its first other write. Then come its steps, each read back
 * from the world (operations.ts): the world time, the tokens' lights, the chat card (found by the operation's id),
 * and last the record itself (its revision moves on, the operation is cleared). A reload or a GM leaving at any
 * point: the active GM finishes the pending steps on ready, once.
 *
 * Pure: no Foundry globals. The setting's field (recordField, below; Foundry's fields handed in) is the record's one
 * declaration: every value checked on each write (Foundry refuses a record its field does not accept) and again when
 * read (readRecord: a malformed record reads as none), the defaults of fields a record predates filled in.
 */
import { LIGHT_KINDS, RULESETS, restPenaltyOf, type ExplorationState, type RulesetId } from "../rules/index.js";
import { DOCUMENT_ID } from "../core/values.js";
import { docIdField, flagModel, type Fields } from "../core/flag-model.js";

/** At most this many tokens in the party. */
export const MAX_PARTY = 50;
/**
 * At most this many wandering checks rolled for one move of world time (a long journey, a calendar jumping days):
 * the card says how many more the elapsed turns implied.
 */
export const MAX_CHECKS = 60;
/**
 * What an advance does: explore (+n turns), rest, search, or spend seconds (rnp); "time": world time moved by another
 * cause.
 */
export const ADVANCE_ACTIONS = ["explore", "rest", "search", "spend", "time"] as const;
export type AdvanceAction = (typeof ADVANCE_ACTIONS)[number];

/** A token of a scene (the party, a light's bearer). */
export interface TokenRef {
  sceneId: string;
  tokenId: string;
}

/**
 * A token's light as Aventure writes it: the radii, and the radii remembered while it is out
 * (flags.aventure.explorationLight).
 */
export interface TokenLight {
  dim: number;
  bright: number;
  remembered: { dim: number; bright: number } | null;
}

/**
 * The record as its field (recordField, below) declares it: the rules' state (null when no exploration is under way),
 * the revision (moves on with every change: a request names the revision it was made from, a stale panel is refused),
 * the world time at the end of the last turn counted (seconds), the party, whether it must rest now, the operation
 * being applied.
 */
export type ExplorationRecord = foundry.data.fields.SchemaField.SourceData<ReturnType<typeof recordFields>>;
/** A member of the party: a token, and its name when it joined (shown if the token is gone). */
export type PartyMember = ExplorationRecord["party"][number];
type RecordedOp = NonNullable<ExplorationRecord["op"]>;
/**
 * The operation being applied (recorded before its first write; cleared by its last): world time before and after
 * (null when it does not move it), the lights changing, the card to post (null: none), the record's fields once
 * applied, and the GM (user and page load) that executes it (operations.ts), recorded with it (none while planned).
 */
export type ExplorationOp = Omit<RecordedOp, "executor"> & Partial<Pick<RecordedOp, "executor">>;
export type OpKind = ExplorationOp["kind"];
/** One token's light changing in an operation: before and after, absolute. */
export type LightChange = ExplorationOp["lights"][number];
/**
 * What the chat card of an advance says (the checks as rolled, at most MAX_CHECKS; those the elapsed turns implied
 * beyond: not rolled; whether the world had wandering checks, docs/rules.md §0; the lights that burnt out, with their
 * bearer's name). The card is posted once, by its operation.
 */
export type AdvanceCard = NonNullable<ExplorationOp["card"]>;

export const EMPTY_RECORD: ExplorationRecord = {
  v: 1,
  rev: 0,
  state: null,
  time: 0,
  party: [],
  restDue: false,
  op: null,
};

/** The largest world time a record may hold (seconds): far beyond any calendar, but a finite number. */
const MAX_TIME = 1e15;
const MAX_NAME = 200;
/** The largest light radius a record may hold. */
const MAX_RADIUS = 1e6;

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);
const isId = (v: unknown): v is string => typeof v === "string" && DOCUMENT_ID.test(v);
const isName = (v: unknown): v is string => typeof v === "string" && v.length <= MAX_NAME;

/** The rules' light id of a token's light: "<scene id>.<token id>". */
export function lightId(ref: TokenRef): string {
  return `${ref.sceneId}.${ref.tokenId}`;
}

/** The token a light id names, or null. */
export function lightToken(id: string): TokenRef | null {
  const [sceneId, tokenId, ...rest] = id.split(".");
  return isId(sceneId) && isId(tokenId) && rest.length === 0 ? { sceneId, tokenId } : null;
}

/** The rules check a state field by field before using it (and throw a RulesError on anything malformed). */
const checkedByRules = restPenaltyOf as (state: unknown) => number;

/** The rules' state, checked by the rules themselves (every field: ruleset, turns, lights, options). */
function isState(v: unknown): v is ExplorationState {
  if (!isObject(v) || typeof v.ruleset !== "string" || !(RULESETS as readonly string[]).includes(v.ruleset))
    return false;
  try {
    checkedByRules(v);
  } catch {
    return false;
  }
  return (
    Array.isArray(v.lights) &&
    v.lights.every((l) => isObject(l) && typeof l.id === "string" && lightToken(l.id) !== null)
  );
}

/**
 * A light's radii: a token's light as Aventure sees it, and the radii it remembers on the token while it keeps the
 * light
 * out (the token flag flags.aventure.explorationLight, null once relit; the token's owner may write it, so it is read
 * through this model: anything else reads as none).
 */
const lightRadii = (f: Fields) => ({
  dim: new f.NumberField({ required: true, nullable: false, min: 0, max: MAX_RADIUS }),
  bright: new f.NumberField({ required: true, nullable: false, min: 0, max: MAX_RADIUS }),
});
export const LightRadii = flagModel({ name: "AventureLightRadii", exact: true, schema: lightRadii });

/** A ruleset id of the rules (re-exported for the request's checks). */
export type { RulesetId };

/**
 * The setting's value cleaned and checked by its field (Foundry's own DataField#clean and #validate): null when
 * refused.
 */
export type RecordCheck = (raw: ExplorationRecord) => ExplorationRecord | null;

/**
 * The stored record, cleaned and checked once more by its field when read (a GM wrote it, but a world may hold one an
 * older version wrote — the fields it predates take their initial values — or a malformed one): a malformed one reads
 * as no exploration (EMPTY_RECORD, its revision kept when the field reads it).
 */
export function readRecord(raw: ExplorationRecord | null | undefined, check: RecordCheck): ExplorationRecord {
  if (!raw || typeof raw !== "object") return { ...EMPTY_RECORD };
  return check(raw) ?? check({ ...EMPTY_RECORD, rev: raw.rev }) ?? { ...EMPTY_RECORD };
}

/**
 * The rules' state as the record holds it (checked by the rules, isState); a mapped copy of the rules' type, which
 * a field's value type must be (an object type whose keys are all known).
 */
type StoredState = { [K in keyof ExplorationState]: ExplorationState[K] } | null;

/**
 * The record's fields: ids, whole numbers in their bounds, finite times and radii, lists at most so long; the rules'
 * state checked by the rules themselves. `wandering` of a card recorded before the field existed: true (it was planned
 * with the checks on).
 */
function recordFields(f: typeof foundry.data.fields) {
  const id = () => docIdField(f);
  const name = () => new f.StringField({ required: true, blank: true, trim: false, validate: isName });
  const int = (min: number, max: number) =>
    new f.NumberField({ required: true, nullable: false, integer: true, min, max });
  const time = () => new f.NumberField({ required: true, nullable: false, min: -MAX_TIME, max: MAX_TIME });
  const bool = (initial = false) => new f.BooleanField({ required: true, initial });
  const stateOptions = { required: true, nullable: true, initial: null, validate: isState } as const;
  // The state's type is the rules' (ExplorationState): an object field holds any object, isState checks it is one.
  const state = () => new f.ObjectField<typeof stateOptions, StoredState, StoredState, StoredState>(stateOptions);
  const lightFields = () => lightRadii(f);
  const light = () =>
    new f.SchemaField({
      ...lightFields(),
      remembered: new f.SchemaField(lightFields(), { required: true, nullable: true, initial: null }),
    });
  const member = () => ({ sceneId: id(), tokenId: id(), name: name() });
  const card = new f.SchemaField(
    {
      action: new f.StringField({ required: true, blank: false, choices: [...ADVANCE_ACTIONS] }),
      seconds: time(),
      turnFrom: int(0, 1e6),
      turnTo: int(0, 1e6),
      checks: new f.ArrayField(new f.SchemaField({ turn: int(1, 1e6), roll: int(1, 100), encounter: bool() }), {
        required: true,
        max: MAX_CHECKS,
      }),
      notRolled: int(0, 1e6),
      die: int(2, 100),
      chance: int(0, 100),
      wandering: bool(true),
      restDue: bool(),
      attackPenalty: int(-20, 0),
      turnsSinceRest: int(0, 1e6),
      lightsOut: new f.ArrayField(
        new f.SchemaField({
          name: name(),
          kind: new f.StringField({ required: true, blank: false, choices: [...LIGHT_KINDS] }),
        }),
        { required: true, max: 100 },
      ),
    },
    { required: true, nullable: true, initial: null },
  );
  const op = new f.SchemaField(
    {
      id: id(),
      kind: new f.StringField({ required: true, blank: false, choices: ["advance", "light", "putOut"] }),
      time: new f.SchemaField({ before: time(), after: time() }, { required: true, nullable: true, initial: null }),
      lights: new f.ArrayField(new f.SchemaField({ ...member(), before: light(), after: light() }), {
        required: true,
        max: 100,
      }),
      card,
      target: new f.SchemaField({ state: state(), time: time(), restDue: bool() }),
      executor: new f.SchemaField(
        { user: id(), client: id(), took: bool() },
        { required: false, nullable: true, initial: null },
      ),
    },
    { required: true, nullable: true, initial: null },
  );
  return {
    v: int(1, 1),
    rev: int(0, Number.MAX_SAFE_INTEGER),
    state: state(),
    time: time(),
    party: new f.ArrayField(new f.SchemaField(member()), { required: true, max: MAX_PARTY }),
    restDue: bool(),
    op,
  };
}

/**
 * The setting's field (exploration/settings.ts): the record's one declaration, its type (ExplorationRecord) derived
 * from it.
 */
export function recordField(f: typeof foundry.data.fields) {
  return new f.SchemaField<
    ReturnType<typeof recordFields>,
    { required: true; nullable: false },
    ExplorationRecord,
    ExplorationRecord,
    ExplorationRecord
  >(recordFields(f), { required: true, nullable: false });
}
