/**
 * The searching marks (RULES.md §6): the tokens a GM marked as searching, which roll Wisdom (Perception) against
 * creatures that hide instead of using their passive score. Who may mark: GMs only (request "setSearching", or a
 * search operation on the active GM; docs/security.md).
 *
 * The marks live on the scene, `flags.aventure.searching.<tokenId> = true`, which only GMs may write (players may not
 * update a scene). Aventure 0.1.0 kept the mark on the token (`flags.aventure.searching`), which the token's owner
 * can write as well: that flag is never read. The active GM moves the 0.1.0 marks to the scene once per world
 * (the hidden world setting `searchingMarksMigrated`), then removes them from the tokens; the same pass moves the
 * 0.1.0 hide flags kept on tokens to their scene (hide-state.ts `migrateHideFlags`, given by the caller: hide-state.ts
 * imports this file).
 */
import { MODULE_ID } from "../../constants.js";
import { getSetting, setSetting } from "../settings.js";
import type { TokenDocLike } from "./scene.js";

/** A document id (as hide-state.ts `ID`, not imported: hide-state.ts imports this file). */
const ID = /^[A-Za-z0-9]{1,64}$/;

type MarksUpdate = Record<string, boolean | null>;

function sceneMarks(sceneId: string | null | undefined): Record<string, unknown> | null {
  const scene = sceneId ? game.scenes.get(sceneId) : undefined;
  const raw: unknown = scene?.getFlag(MODULE_ID, "searching");
  return raw && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : null;
}

/** Whether a GM marked the token `tokenId` of scene `sceneId` as searching. */
export function markedSearching(sceneId: string | null | undefined, tokenId: string | null | undefined): boolean {
  return !!tokenId && ID.test(tokenId) && sceneMarks(sceneId)?.[tokenId] === true;
}

/** Whether a GM marked this token as searching (the mark on its scene; a flag on the token itself is ignored). */
export function isSearching(doc: TokenDocLike): boolean {
  return markedSearching(doc.parent?.id, doc.id);
}

/** The tokens of a scene marked as searching. */
export function searchingIds(sceneId: string | null | undefined): string[] {
  return Object.entries(sceneMarks(sceneId) ?? {})
    .filter(([id, on]) => on === true && ID.test(id))
    .map(([id]) => id);
}

/** Writes (GMs only: a scene update) the marks of these tokens, on or off, in one update. */
export async function writeSearchingMarks(sceneId: string, marks: Record<string, boolean>): Promise<void> {
  const scene = game.scenes.get(sceneId);
  if (!scene) return;
  const update: MarksUpdate = {};
  for (const [id, on] of Object.entries(marks)) {
    if (!ID.test(id)) continue;
    if (on) update[id] = true;
    else update[`-=${id}`] = null;
  }
  if (Object.keys(update).length) await scene.update({ flags: { [MODULE_ID]: { searching: update } } });
}

/** The ids whose searching mark changed in a scene update (`changes.flags.aventure.searching`). */
export function marksChanged(changes: Record<string, unknown>): string[] | null {
  const flags = (changes.flags as Record<string, unknown> | undefined)?.[MODULE_ID] as Record<string, unknown> | undefined;
  if (!flags || typeof flags !== "object") return null;
  if ("-=searching" in flags) return [];
  const marks = flags.searching;
  if (!marks || typeof marks !== "object") return null;
  return Object.keys(marks).map((k) => k.replace(/^-=/, ""));
}

/**
 * Once per world, on the active GM: the 0.1.0 marks on tokens (`flags.aventure.searching === true`) become marks on
 * their scene, and every such token flag is removed; `perScene` then runs on each scene (the hide flags' migration).
 * Later token flags are never read, so a player who writes one afterwards marks nothing. Safe to run again after a
 * crash (each write is idempotent; the setting is written last).
 */
export async function migrateSearchingMarks(perScene?: (scene: { id: string | null; tokens?: Iterable<unknown> | null }) => Promise<void>): Promise<void> {
  if (getSetting("searchingMarksMigrated")) return;
  for (const scene of game.scenes ?? []) {
    const marks: Record<string, boolean> = {};
    const old: TokenDocLike[] = [];
    for (const doc of (scene.tokens ?? []) as Iterable<TokenDocLike>) {
      const flag = doc.getFlag(MODULE_ID, "searching");
      if (flag === undefined || !doc.id) continue;
      old.push(doc);
      if (flag === true) marks[doc.id] = true;
    }
    if (scene.id) await writeSearchingMarks(scene.id, marks);
    for (const doc of old) await doc.unsetFlag(MODULE_ID, "searching");
    if (perScene) await perScene(scene);
  }
  await setSetting("searchingMarksMigrated", true);
}
