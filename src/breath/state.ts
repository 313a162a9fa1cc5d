/**
 * The state of a creature that holds its breath (docs/rules.md §4.2): one entry per token in its SCENE's
 * `flags.aventure.breath` (keyed by the token's id), written only by the active GM, with ABSOLUTE world-time deadlines
 * (when the air runs out, when it drops to 0 HP), so that it survives a reload and every client reads the same thing.
 * It is kept on the scene, not on the token, because a token's owner may write the token's flags (docs/security.md,
 * "What Aventure cannot prevent") while only GMs write a scene: a player cannot start, back-date or copy a held breath
 * by hand. The entry is still checked field by field, and its deadlines must be the ones the rules give for its
 * start, Constitution modifier and round.
 */
import { MODULE_ID } from "../core/constants.js";
import { deletion } from "../core/compat.js";
import { breathState, suffocationTimeline, type BreathState } from "../rules/suffocation.js";
import type { ActorLike } from "../actors/api.js";
import { isRecord } from "../core/values.js";
import { entriesOf, flagModel, type DataOf, type Fields } from "../core/flag-model.js";

export const BREATH_ID = /^[A-Za-z0-9]{8,32}$/;
/** World times beyond this are not believed (Foundry keeps seconds; a calendar's far future is well below). */
const MAX_WORLD_TIME = 1e13;

const seconds = (f: Fields, bound?: number) =>
  new f.NumberField({
    required: true,
    nullable: false,
    initial: undefined,
    ...(bound ? { min: -bound, max: bound } : {}),
  });

/** A held breath (on its scene: flags.aventure.breath.<tokenId>). */
const breathSchema = (f: Fields) => ({
  v: new f.NumberField({ required: true, nullable: false, integer: true, min: 1, max: 1, initial: undefined }),
  /** One id per held breath: its drop card names it (one drop per held breath). */
  id: new f.StringField({ required: true, blank: false, validate: (v: unknown) => BREATH_ID.test(String(v)) }),
  /** World time when it started holding its breath (seconds). */
  start: seconds(f, MAX_WORLD_TIME),
  conMod: seconds(f),
  /** The ruleset's round when it started (seconds). */
  roundSeconds: seconds(f),
  /** World time when the air runs out. */
  airUntil: seconds(f),
  /** World time when it drops to 0 HP (the start of the round after the last one survived). */
  dropAt: seconds(f),
  /** The drop was applied (its card says so). */
  dropped: new f.BooleanField({ required: true, nullable: false, initial: undefined }),
});
/** A held breath, declared once; its deadlines must be the ones the rules give for its start, modifier and round. */
const BreathModel = flagModel({
  name: "AventureBreath",
  schema: breathSchema,
  joint: (d) => {
    const timeline = suffocationTimeline(d.conMod, d.roundSeconds); // throws a RulesError: not a breath
    if (d.airUntil !== d.start + timeline.holdSeconds || d.dropAt !== d.start + timeline.dropSeconds)
      throw new Error("deadlines that are not the rules'");
  },
});
export type BreathFlag = DataOf<typeof BreathModel>;

/** A held breath read through its model; null when it is not one. */
export function parseBreathFlag(raw: unknown): BreathFlag | null {
  return BreathModel.read(raw);
}

/** The held breaths a scene keeps (`flags.aventure.breath`, by token id), each read on its own through the model. */
const BreathEntries = entriesOf(BreathModel);

/**
 * The held breath of a token document, read from its scene (GM-written), or null when it is not holding its breath.
 * Whatever the token's own flags say is never read.
 */
export function breathFlagOf(doc: { id?: string | null; parent?: unknown } | null | undefined): BreathFlag | null {
  return BreathEntries.get(breathsOf(doc?.parent), doc?.id);
}

/** The held breaths a scene document keeps (`flags.aventure.breath`), as stored. */
function breathsOf(scene: unknown): unknown {
  const flags = isRecord(scene) && isRecord(scene.flags) ? scene.flags[MODULE_ID] : undefined;
  return isRecord(flags) ? flags.breath : undefined;
}

/**
 * The active GM writes (a flag) or removes (null) the held breath of a token: one update of its scene (GMs only may
 * write a scene), on the token's own key.
 */
export async function writeBreath(sceneId: string, tokenId: string, flag: BreathFlag | null): Promise<void> {
  const scene = game.scenes?.get(sceneId);
  if (!scene) throw new Error(`aventure | no scene ${sceneId}`);
  const entry: Record<string, unknown> = flag ? { [tokenId]: flag } : deletion(tokenId);
  await scene.update({ flags: { [MODULE_ID]: { breath: entry } } });
}

/** Where the creature stands at `worldTime` (the rules' breathState, from the flag's start). */
export function breathNow(flag: BreathFlag, worldTime: number): BreathState {
  return breathState(flag.conMod, flag.roundSeconds, worldTime - flag.start);
}

/** What Aventure uses of a token document (a real TokenDocument satisfies it). */
export interface BreathToken {
  id: string | null;
  name: string;
  parent: unknown;
  actor: unknown;
  hidden?: boolean;
  isOwner?: boolean;
  testUserPermission(user: User, level: "OWNER" | "OBSERVER"): boolean;
}

export function isBreathToken(x: unknown): x is BreathToken {
  return (
    isRecord(x) &&
    (typeof x.id === "string" || x.id === null) &&
    typeof x.name === "string" &&
    typeof x.testUserPermission === "function"
  );
}

export function isActorLike(x: unknown): x is ActorLike {
  return (
    isRecord(x) &&
    typeof x.update === "function" &&
    typeof x.toggleStatusEffect === "function" &&
    x.statuses instanceof Set &&
    typeof x.getFlag === "function"
  );
}

/** A token on a scene, read from the world (no canvas needed). */
export function sceneToken(sceneId: string, tokenId: string): BreathToken | null {
  const token: unknown = game.scenes?.get(sceneId)?.tokens.get(tokenId);
  return isBreathToken(token) ? token : null;
}

/** The scene id of a token document. */
export function sceneIdOf(token: { parent: unknown }): string | null {
  const parent = token.parent;
  return isRecord(parent) && typeof parent.id === "string" ? parent.id : null;
}

/** Every token of every scene that holds its breath (or is down for want of air), with its flag. */
export function breathingTokens(): { sceneId: string; token: BreathToken; flag: BreathFlag }[] {
  const out: { sceneId: string; token: BreathToken; flag: BreathFlag }[] = [];
  for (const scene of game.scenes ?? []) {
    const sceneId = scene.id;
    if (!sceneId) continue;
    for (const [tokenId, flag] of BreathEntries.read(breathsOf(scene))) {
      const token = sceneToken(sceneId, tokenId);
      if (token) out.push({ sceneId, token, flag });
    }
  }
  return out;
}

/**
 * Who may read what a token's breath does (its suffocation card, its HUD panel, its tracker badge): the GMs, and the
 * players the token's visibility allows (never while it is hidden). Source: TokenDocument#hidden, "only GMs see it".
 */
export function playersMaySee(token: BreathToken): boolean {
  return token.hidden !== true;
}
