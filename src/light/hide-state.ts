/**
 * The hiding state and its changes, exactly once (docs/security.md, operations.ts).
 *
 * A token's hiding state is two things: its hide entry (the Stealth DC, the observers it is hidden from), kept on its
 * SCENE as `flags.aventure.hides.<tokenId>` (only GMs may write a scene: the active GM's hide, end of hiding, search
 * and ambient detection write it; a `flags.aventure.hide` on the token, which its owner may write and where 0.1.0
 * kept it, is never read, nor carried over: `migrateHideFlags`), and its actor's hidden status (the system's, e.g.
 * dnd5e `hiding`, else Aventure's own, flagged as Aventure's in the
 * same write). Every change of that state (a hide, an end of hiding, a search that spots someone) is an OPERATION
 * recorded on its GM card (`flags.aventure.<hide|hideEnd|search>.op`) marked "applying" with each token's state before
 * and after, BEFORE the first write. The status and the flag are then written as state-based steps, and the card is
 * marked "applied". The operation records the GM that executes it, and only that GM writes its steps (operations.ts).
 * A reload in between leaves "applying": a GM finishes it once that GM is gone (recovery "hide"), writing only what
 * is missing, and says so on the card. So the status and the flag end consistent, or the card
 * reports what changed meanwhile.
 *
 * On the active GM, one change per token at a time (claimTokens): two GMs, or a request and an automatic end, at once.
 */
import { MODULE_ID } from "../core/constants.js";
import { deletes, deletion } from "../core/compat.js";
import { HIDE_BECAUSE, LIGHT_LEVELS, OBSCURITY_LEVELS } from "../rules/index.js";
import { adapterFor, isOwnStatus, setOwnCondition } from "../actors/api.js";
import {
  cardState,
  cardUpdate,
  choiceField,
  executorField,
  flagField,
  idField,
  nullableObjectField,
  problemsField,
  textField,
  versionField,
  type CardData,
  type CardKind,
} from "../core/card-model.js";
import { announce } from "../core/extension-hooks.js";
import { escapeHtml, t } from "../core/i18n.js";
import { execute, resume, runSteps, type Executor, type Guard, type ReadBack, type Step } from "../core/operations.js";
import type { TokenDocLike } from "./scene.js";
import { markedSearching, writeSearchingMarks } from "./searching.js";
import { DOCUMENT_ID, isRecord } from "../core/values.js";
import { docIdField, entriesOf, flagModel, type DataOf, type Fields } from "../core/flag-model.js";

/** A document id as Aventure accepts it from a request, a card or a flag. */
export const ID = DOCUMENT_ID;
/** At most this many token ids in one list (observers, searchers, a hide flag's observers). */
export const MAX_IDS = 200;

const tokenIds = (f: Fields) =>
  new f.ArrayField(docIdField(f), {
    max: MAX_IDS,
  });

/** What Aventure stores for a hidden token (on its scene: flags.aventure.hides.<tokenId>). */
const hideSchema = (f: Fields) => ({
  /** The Stealth total: the DC to spot it. */
  dc: new f.NumberField({ required: true, nullable: false, initial: undefined }),
  /** Token ids of the observers it is hidden from. */
  from: tokenIds(f),
  /** Why each of them could not see it when it hid. */
  because: new f.TypedObjectField(new f.StringField({ required: true, blank: false, choices: [...HIDE_BECAUSE] }), {
    validateKey: (k: string) => ID.test(k),
  }),
  /** The actual light at the token when it hid. */
  light: new f.StringField({ required: true, blank: false, choices: [...LIGHT_LEVELS], initial: "dark" }),
  /** How obscured its spot was when it hid (absent: not obscured). */
  obscurity: new f.StringField({ required: false, blank: false, choices: [...OBSCURITY_LEVELS], initial: undefined }),
  /**
   * Observers that know where it is: those that noticed it when it hid, or to which it was revealed since (ambient
   * detection). Every other observer (those it hid from, and creatures that were not there) may still notice it.
   */
  seenBy: tokenIds(f),
  /** Where it hid (canvas pixels), to tell "it moved into sight" from "an observer moved". */
  x: new f.NumberField({ required: true, nullable: false, initial: 0 }),
  y: new f.NumberField({ required: true, nullable: false, initial: 0 }),
});
/**
 * A token's hide entry, declared once: GM-written (only GMs may update a scene), and still read through the model,
 * as a GM's macro may write the scene too: an entry the model refuses reads as no entry (the token is not hidden).
 */
const HideModel = flagModel({ name: "AventureHide", schema: hideSchema });
export type HideFlag = DataOf<typeof HideModel>;

/** A hide entry read through its model: null when it is not one. */
export function parseHideFlag(raw: unknown): HideFlag | null {
  return HideModel.read(raw);
}

/** The hide entries a scene keeps (`flags.aventure.hides`, by token id), unchecked; null when none. */
function hidesOf(scene: unknown): Record<string, unknown> | null {
  const flags =
    isRecord(scene) && typeof scene.getFlag === "function"
      ? (scene.getFlag as (s: string, k: string) => unknown)(MODULE_ID, "hides")
      : undefined;
  return isRecord(flags) ? flags : null;
}

/**
 * The raw hide entry of token `tokenId` on its scene (GM-written), undefined when there is none. Whatever the token's
 * own flags say is never read.
 */
export function rawHideEntry(scene: unknown, tokenId: string | null | undefined): unknown {
  if (typeof tokenId !== "string" || !ID.test(tokenId)) return undefined;
  const hides = hidesOf(scene);
  return hides && Object.hasOwn(hides, tokenId) ? hides[tokenId] : undefined;
}

/** The hide entries of a scene, each read on its own through the model (a bad entry is no entry; the others stay). */
const HideEntries = entriesOf(HideModel);

/** The hiding state of a token (read from its scene), or null when it is not hidden. */
export function hideFlagOf(doc: { id: string | null; parent?: unknown }): HideFlag | null {
  return HideEntries.get(hidesOf(doc.parent), doc.id);
}

/** The active GM writes (an entry) or removes (null) a token's hiding state: one update of its scene (GMs only). */
export async function writeHideEntry(sceneId: string, tokenId: string, flag: HideFlag | null): Promise<void> {
  const scene = game.scenes.get(sceneId);
  if (!scene) throw new Error(`aventure | no scene ${sceneId}`);
  // A merge, as setFlag: a search only shortens `from` (an array, replaced whole); a hide starts from no entry.
  const entry: Record<string, unknown> = flag ? { [tokenId]: flag } : deletion(tokenId);
  await scene.update({ flags: { [MODULE_ID]: { hides: entry } } });
}

/** The ids whose hide entry changed in a scene update (`changes.flags.aventure.hides`); [] for all, null for none. */
export function hidesChanged(changes: Record<string, unknown>): string[] | null {
  const flags = (changes.flags as Record<string, unknown> | undefined)?.[MODULE_ID];
  if (!isRecord(flags)) return null;
  if (deletes(flags, "hides")) return [];
  const hides = flags.hides;
  if (!isRecord(hides)) return null;
  return Object.keys(hides).map((k) => k.replace(/^-=/, ""));
}

/**
 * The 0.1.0 hide flags on a scene's tokens (`flags.aventure.hide`), read once per world by the active GM with the
 * searching marks (searching.ts `migrateSearchingMarks`): what each said, for the GMs' card, and how to remove them.
 * They are not carried over: a token's owner may write its flags, and nothing records who did (TokenData has no
 * `_stats`, v13 and v14; `lastModifiedBy` would name the last writer of the whole document anyway, not of a flag), so
 * a player who logged in before any GM's first ready on this version could have planted a DC of 99 there.
 */
export function migrateHideFlags(scene: { id: string | null; tokens?: Iterable<unknown> | null }): {
  lines: string[];
  drop: () => Promise<void>;
} {
  const old: TokenDocLike[] = [];
  const lines: string[] = [];
  for (const doc of (scene.tokens ?? []) as Iterable<TokenDocLike>) {
    const raw = doc.getFlag(MODULE_ID, "hide");
    if (raw === undefined || !doc.id) continue;
    old.push(doc);
    const flag = parseHideFlag(raw);
    if (flag) lines.push(t("AVENTURE.Light.Hide.legacy.hidden", { name: doc.name, dc: flag.dc }));
  }
  return {
    lines,
    drop: async () => {
      for (const doc of old) await doc.unsetFlag(MODULE_ID, "hide");
    },
  };
}

/** A value with its object keys sorted, to compare two flags whatever the order of their keys. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === "object" && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : x,
  );
}
const sameFlag = (a: HideFlag | null, b: HideFlag | null): boolean => canonical(a) === canonical(b);

// ------------------------------------------------------------------------------------------------ one change per token

const busy = new Set<string>();
const key = (sceneId: string, tokenId: string) => `${sceneId}.${tokenId}`;

/**
 * Claims tokens for a change on this client (the active GM), synchronously: true when none of them was being changed
 * (they are then claimed until released), false otherwise (nothing claimed).
 */
export function claimTokens(sceneId: string, tokenIds: readonly string[]): boolean {
  const keys = tokenIds.map((id) => key(sceneId, id));
  if (keys.some((k) => busy.has(k))) return false;
  for (const k of keys) busy.add(k);
  return true;
}

export function releaseTokens(sceneId: string, tokenIds: readonly string[]): void {
  for (const id of tokenIds) busy.delete(key(sceneId, id));
}

export function tokenBusy(sceneId: string, tokenId: string): boolean {
  return busy.has(key(sceneId, tokenId));
}

// ------------------------------------------------------------------------------------------------ operations

/** A hiding state in an operation: null (not hidden) or a hide entry as the scene keeps it. */
const isHideState = (v: unknown): boolean => v === null || parseHideFlag(v) !== null;
// Checked by isHideState: a hide entry or null (fvtt-types derives only an object from an ObjectField).
const hideState = () => nullableObjectField<HideFlag>(isHideState);

/** An operation recorded on its card (its `op`; the card's field in hide-cards.ts). */
export const hideOpSchema = (f: Fields) => ({
  v: versionField(1),
  status: choiceField(["applying", "applied"]),
  sceneId: idField(),
  /** Each token's hiding state before and after the change (null: not hidden). */
  changes: new f.ArrayField(
    new f.SchemaField({ tokenId: idField(), name: textField(), before: hideState(), after: hideState() }),
    { required: true, max: MAX_IDS },
  ),
  /** A search: the observer's token, marked as searching by the same operation. */
  mark: idField(true),
  /** Finished by the active GM after an interruption. */
  resumed: flagField(),
  problems: problemsField(),
  /** The GM (user and page load) that executes it, recorded with "applying" (operations.ts executorStamp). */
  executor: executorField(),
});
export type HideOp = CardData<typeof hideOpSchema>;
/** One token's hiding state before and after a change (null: not hidden). */
export type HideChange = HideOp["changes"][number];
export type HideProblem = HideOp["problems"][number];

/** The cards that carry an operation: a hide, an end of hiding, a search, an ambient detection's reveal. */
export const HIDE_CARDS = ["hide", "hideEnd", "search", "detect"] as const;
export type HideCard = (typeof HIDE_CARDS)[number];

/**
 * Each hiding card's kind (hide-cards.ts): its sub-type, and the flag of the cards posted before it (the same name).
 */
export const HIDE_CARD_KINDS: Record<HideCard, CardKind> = {
  hide: { kind: "hide", legacyFlag: "hide" },
  hideEnd: { kind: "hideEnd", legacyFlag: "hideEnd" },
  search: { kind: "search", legacyFlag: "search" },
  detect: { kind: "detect", legacyFlag: "detect" },
};

/** The token document of a scene, read from the world (no canvas needed: recovery runs wherever the GM is). */
export function sceneToken(sceneId: string, tokenId: string): TokenDocLike | undefined {
  const scene = game.scenes.get(sceneId);
  return (scene?.tokens?.get(tokenId) as TokenDocLike | undefined) ?? undefined;
}

/** Whether another token of the same actor on the scene is still hidden (a linked actor has one status for all). */
function otherHidden(sceneId: string, doc: TokenDocLike): boolean {
  const scene = game.scenes.get(sceneId);
  for (const other of scene?.tokens ?? []) {
    if (other.id !== doc.id && other.actor && other.actor === doc.actor && hideFlagOf(other)) return true;
  }
  return false;
}

/**
 * The steps of one change, each reading its state back from the world. Hiding: the status, then the flag. Ending:
 * the flag, then the status (kept while another token of the actor is still hidden, or when it is not Aventure's).
 */
function changeSteps(sceneId: string, change: HideChange): Step[] {
  const doc = sceneToken(sceneId, change.tokenId);
  if (!doc) return [{ label: change.name, state: () => "missing", run: async () => undefined }];
  const adapter = adapterFor();
  const flagStep: Step = {
    label: t("AVENTURE.Light.Hide.stepFlag", { name: change.name }),
    state: () => {
      const now = hideFlagOf(doc);
      if (sameFlag(now, change.after)) return "done";
      return sameFlag(now, change.before) ? "pending" : "drifted";
    },
    // On the scene (GM-written), never on the token: its owner may write the token's flags.
    run: () => writeHideEntry(sceneId, change.tokenId, change.after),
  };
  const statusStep: Step = {
    label: t("AVENTURE.Light.Hide.stepStatus", { name: change.name }),
    state: () => {
      const actor = doc.actor;
      const id = adapter.statusId("hidden");
      if (!actor || !id) return "done";
      if (change.after) return actor.statuses.has(id) ? "done" : "pending";
      if (hideFlagOf(doc) || otherHidden(sceneId, doc)) return "done";
      return isOwnStatus(actor, id) ? "pending" : "done";
    },
    run: async () => {
      if (doc.actor) await setOwnCondition(adapter, doc.actor, "hidden", change.after !== null); // state() is "done" without an actor
    },
  };
  return change.after ? [statusStep, flagStep] : [flagStep, statusStep];
}

/** A search marks its observer as searching (on its scene, searching.ts) in the same operation. */
function markStep(sceneId: string, tokenId: string): Step {
  const doc = sceneToken(sceneId, tokenId);
  if (!doc) return { label: tokenId, state: () => "missing", run: async () => undefined };
  return {
    label: t("AVENTURE.Light.Hide.stepSearching", { name: doc.name }),
    state: () => (markedSearching(sceneId, tokenId) ? "done" : "pending"),
    run: () => writeSearchingMarks(sceneId, { [tokenId]: true }),
  };
}

/** The tokens an operation changes (to claim them). */
export function opTokens(op: HideOp): string[] {
  return [...op.changes.map((c) => c.tokenId), ...(op.mark ? [op.mark] : [])];
}

/** A card's hiding operation read back from the world: its executor while it is applying. */
function readHideOp(messageId: string, card: HideCard): ReadBack {
  return () => {
    const op = hideOpOf(game.messages.get(messageId), card);
    return op?.status === "applying" ? { executor: op.executor ?? null } : undefined;
  };
}

/**
 * Brings the world to what the card's operation says (first run: this client recorded it, with itself as executor)
 * and marks the card applied.
 */
export async function runHideOp(message: ChatMessage, card: HideCard, op: HideOp, resumed: boolean): Promise<HideOp> {
  const id = message.id ?? "";
  return execute(`hide.${id}.${card}`, readHideOp(id, card), (guard) => applyHideOp(message, card, op, resumed, guard));
}

/**
 * The steps of a card's operation and its "applied" mark, each write only while this client is still its executor of
 * record; a recovered or partly drifted operation says so on the card.
 */
async function applyHideOp(
  message: ChatMessage,
  card: HideCard,
  op: HideOp,
  resumed: boolean,
  guard: Guard,
): Promise<HideOp> {
  const steps = op.changes.flatMap((c) => changeSteps(op.sceneId, c));
  if (op.mark) steps.push(markStep(op.sceneId, op.mark));
  const report = await runSteps(steps, guard);
  const problems: HideProblem[] = [
    ...report.drifted.map((what) => ({ key: "AVENTURE.Operation.drifted", data: { what } })),
    ...report.missing.map((name) => ({ key: "AVENTURE.Light.Hide.gone", data: { name } })),
  ];
  const next: HideOp = {
    ...op,
    status: "applied",
    ...(resumed ? { resumed: true } : {}),
    ...(problems.length ? { problems } : {}),
  };
  const update: Record<string, unknown> = cardUpdate(message, HIDE_CARD_KINDS[card], { op: next });
  if (resumed || problems.length) {
    const notes = [...(resumed ? [t("AVENTURE.Operation.resumed")] : []), ...problems.map((p) => t(p.key, p.data))];
    update.content = `${message.content}<p class="aventure-note">${notes.map(escapeHtml).join("<br>")}</p>`;
  }
  guard.check();
  await message.update(update as never); // cast: the card's update, of its system or its older flag (card-model.ts)
  announceChanges(message, card, op);
  return next;
}

/**
 * `aventure.hidden` / `aventure.revealed` for each token this operation hid or stopped hiding (once, on its executor).
 */
function announceChanges(message: ChatMessage, card: HideCard, op: HideOp): void {
  // What is read of an end-of-hiding card (hide-cards.ts declares it): its event, checked below.
  const ended = cardState<{ event?: unknown }>(message, HIDE_CARD_KINDS.hideEnd)?.event;
  for (const c of op.changes) {
    const token = sceneToken(op.sceneId, c.tokenId);
    if (!token) continue;
    if (!c.before && c.after) announce("aventure.hidden", { token, stealth: c.after.dc });
    else if (c.before && !c.after) {
      announce("aventure.revealed", {
        token,
        event: card === "hideEnd" && typeof ended === "string" ? ended : card === "detect" ? "detected" : "spotted",
      });
    }
  }
}

/** The operation of a hiding card a GM wrote, through its data model (hide-cards.ts); null for anything else. */
export function hideOpOf(message: Parameters<typeof cardState>[0], card: HideCard): HideOp | null {
  return cardState<{ op: HideOp | null }>(message, HIDE_CARD_KINDS[card])?.op ?? null;
}

/**
 * Recovery (every GM: ready, a GM leaving): hiding operations left "applying" by a GM who is gone (or by this GM's own
 * previous page) are finished, and say so; those another GM still executes are left to it.
 */
export async function recoverHideOps(): Promise<void> {
  for (const message of [...game.messages.contents]) {
    for (const card of HIDE_CARDS) {
      const op = hideOpOf(message, card);
      const id = message.id;
      if (!op || op.status !== "applying" || !id) continue;
      const tokens = opTokens(op);
      if (!claimTokens(op.sceneId, tokens)) continue;
      try {
        const claim = (executor: Executor) =>
          message.update(cardUpdate(message, HIDE_CARD_KINDS[card], { op: { executor } }));
        await resume(`hide.${id}.${card}`, readHideOp(id, card), claim, (guard) =>
          applyHideOp(message, card, hideOpOf(game.messages.get(id), card) ?? op, true, guard),
        );
      } catch (e) {
        console.error("aventure | could not finish an interrupted hiding change", e);
      } finally {
        releaseTokens(op.sceneId, tokens);
      }
    }
  }
}
