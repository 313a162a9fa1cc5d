/**
 * A token's senses in metres: the actor's (through the system adapter: dnd5e senses, converted) and the token's own
 * vision and detection modes (darkvision vision mode; seeAll ≈ truesight; senseAll ≈ blindsight). The best range of
 * each sense wins; the HUD names where each came from.
 */
import type { VisionSense, VisionSenses } from "../rules/light.js";
import { adapterFor } from "../actors/api.js";
import { detectionModes } from "../core/compat.js";
import { unitsToMetres, type GridLike, type TokenDocLike } from "./scene.js";

export type SenseOrigin = "actor" | "vision" | "detection";

export interface SenseEntry {
  sense: VisionSense;
  /** Metres. */
  range: number;
  from: SenseOrigin;
}

export interface TokenSenses {
  senses: VisionSenses;
  /** One entry per sense the token has (its best range), for the HUD. */
  entries: SenseEntry[];
}

/** An unlimited detection range (null in Foundry) as a finite number of metres for the rules engine. */
export const UNLIMITED_RANGE = 1_000_000;

const DETECTION_SENSE: Record<string, VisionSense> = { seeAll: "truesight", senseAll: "blindsight" };

export function tokenSenses(c: { grid: GridLike }, doc: TokenDocLike): TokenSenses {
  const best = new Map<VisionSense, SenseEntry>();
  const offer = (sense: VisionSense, range: number, from: SenseOrigin) => {
    if (!(range > 0)) return;
    const r = Math.min(range, UNLIMITED_RANGE);
    const cur = best.get(sense);
    if (!cur || r > cur.range) best.set(sense, { sense, range: r, from });
  };
  if (doc.actor) {
    const s = adapterFor().read(doc.actor).senses;
    offer("darkvision", s.darkvision, "actor");
    offer("blindsight", s.blindsight, "actor");
    offer("truesight", s.truesight, "actor");
  }
  const sight = doc.sight;
  if (sight?.enabled !== false && sight?.visionMode === "darkvision") {
    const range = sight.range;
    offer("darkvision", range === null || range === undefined ? UNLIMITED_RANGE : unitsToMetres(c, range), "vision");
  }
  for (const mode of detectionModes(doc)) {
    const sense = DETECTION_SENSE[mode.id];
    if (!sense || mode.enabled === false) continue;
    offer(
      sense,
      mode.range === null || mode.range === undefined ? UNLIMITED_RANGE : unitsToMetres(c, mode.range),
      "detection",
    );
  }
  const entries = ["darkvision", "blindsight", "truesight"]
    .map((k) => best.get(k as VisionSense))
    .filter((e): e is SenseEntry => !!e);
  const senses: VisionSenses = {};
  for (const e of entries) senses[e.sense] = e.range;
  return { senses, entries };
}
