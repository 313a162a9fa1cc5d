/**
 * The searching marks (docs/rules.md §6): the tokens a GM marked as searching, which roll Wisdom (Perception) against
 * creatures that hide instead of using their passive score. Who may mark: GMs only (request "setSearching", or a
 * search operation on the active GM; docs/security.md).
 *
 * The marks live on the scene, `flags.aventure.searching.<tokenId> = true`, which only GMs may write (players may not
 * update a scene). Aventure 0.1.0 kept the mark on the token (`flags.aventure.searching`), which the token's owner
 * can write as well: that flag is never read, nor carried over (nothing records who wrote a token's flag: TokenData has
 * no `_stats`, v13 and v14). Once per world (the hidden world setting `searchingMarksMigrated`) the active GM lists the
 * 0.1.0 marks and hide flags (hide-state.ts `migrateHideFlags`, given by the caller: hide-state.ts imports this file)
 * on a card whispered to the GMs, then removes them from the tokens.
 */
import { MODULE_ID } from "../core/constants.js";
import { deletes, deletion } from "../core/compat.js";
import { gmIds } from "../core/chat.js";
import { escapeHtml, t } from "../core/i18n.js";
import { getSetting, setSetting } from "../core/settings.js";
import type { TokenDocLike } from "./scene.js";
import { DOCUMENT_ID } from "../core/values.js";
import { valueMap } from "../core/flag-model.js";

type MarksUpdate = Record<string, unknown>;

/**
 * The marks of a scene (`flags.aventure.searching`): token id → true, each read on its own (a bad entry is ignored).
 */
const SearchingMarks = valueMap({
  name: "AventureSearchingMark",
  value: (f) => new f.BooleanField({ required: true, nullable: false, initial: false }),
});

const sceneMarks = (sceneId: string | null | undefined): unknown =>
  sceneId ? game.scenes.get(sceneId)?.getFlag(MODULE_ID, "searching") : undefined;

/** Whether a GM marked the token `tokenId` of scene `sceneId` as searching. */
export function markedSearching(sceneId: string | null | undefined, tokenId: string | null | undefined): boolean {
  return SearchingMarks.get(sceneMarks(sceneId), tokenId) === true;
}

/** Whether a GM marked this token as searching (the mark on its scene; a flag on the token itself is ignored). */
export function isSearching(doc: TokenDocLike): boolean {
  return markedSearching(doc.parent?.id, doc.id);
}

/** The tokens of a scene marked as searching. */
export function searchingIds(sceneId: string | null | undefined): string[] {
  return [...SearchingMarks.read(sceneMarks(sceneId))].filter(([, on]) => on).map(([id]) => id);
}

/** Writes (GMs only: a scene update) the marks of these tokens, on or off, in one update. */
export async function writeSearchingMarks(sceneId: string, marks: Record<string, boolean>): Promise<void> {
  const scene = game.scenes.get(sceneId);
  if (!scene) return;
  const update: MarksUpdate = {};
  for (const [id, on] of Object.entries(marks)) {
    if (!DOCUMENT_ID.test(id)) continue;
    if (on) update[id] = true;
    else Object.assign(update, deletion(id));
  }
  if (Object.keys(update).length) await scene.update({ flags: { [MODULE_ID]: { searching: update } } });
}

/** The ids whose searching mark changed in a scene update (`changes.flags.aventure.searching`). */
export function marksChanged(changes: Record<string, unknown>): string[] | null {
  const flags = (changes.flags as Record<string, unknown> | undefined)?.[MODULE_ID] as
    Record<string, unknown> | undefined;
  if (!flags || typeof flags !== "object") return null;
  if (deletes(flags, "searching")) return [];
  const marks = flags.searching;
  if (!marks || typeof marks !== "object") return null;
  return Object.keys(marks).map((k) => k.replace(/^-=/, ""));
}

/** What a scene's 0.1.0 hide flags said, and how to remove them (hide-state.ts `migrateHideFlags`). */
export type LegacyHides = (scene: { id: string | null; tokens?: Iterable<unknown> | null }) => {
  lines: string[];
  drop: () => Promise<void>;
};

/**
 * Once per world, on the active GM: the 0.1.0 marks on tokens (`flags.aventure.searching`) and, through `legacyHides`,
 * the 0.1.0 hide flags are listed on one card whispered to the GMs (who may mark or hide those tokens again), then
 * removed from the tokens. Nothing of them becomes GM state: a token's owner may have written them. Later token flags
 * are never read. Safe to run again after a crash (the card first, removals idempotent, the setting last; a crash
 * between the card and the setting posts the card again).
 */
export async function migrateSearchingMarks(legacyHides?: LegacyHides): Promise<void> {
  if (getSetting("searchingMarksMigrated")) return;
  const lines: string[] = [];
  const drops: (() => Promise<void>)[] = [];
  for (const scene of game.scenes ?? []) {
    const old: TokenDocLike[] = [];
    for (const doc of (scene.tokens ?? []) as Iterable<TokenDocLike>) {
      const flag = doc.getFlag(MODULE_ID, "searching");
      if (flag === undefined || !doc.id) continue;
      old.push(doc);
      if (flag === true) lines.push(t("AVENTURE.Light.Hide.legacy.searching", { name: doc.name }));
    }
    drops.push(async () => {
      for (const doc of old) await doc.unsetFlag(MODULE_ID, "searching");
    });
    if (legacyHides) {
      const hides = legacyHides(scene);
      lines.push(...hides.lines);
      drops.push(hides.drop);
    }
  }
  if (lines.length) {
    const p = (s: string) => `<p>${escapeHtml(s)}</p>`;
    await ChatMessage.implementation.create({
      content: `<div class="aventure aventure-card aventure-legacy-hiding"><h3>${escapeHtml(t("AVENTURE.Light.Hide.legacy.title"))}</h3>${p(t("AVENTURE.Light.Hide.legacy.intro"))}<ul>${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join("")}</ul>${p(t("AVENTURE.Light.Hide.legacy.advice"))}</div>`,
      whisper: gmIds(),
      speaker: { alias: "Aventure" },
      flags: { [MODULE_ID]: { legacyHiding: { v: 1, count: lines.length } } },
    });
  }
  for (const drop of drops) await drop();
  await setSetting("searchingMarksMigrated", true);
}
