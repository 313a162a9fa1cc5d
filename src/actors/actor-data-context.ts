/** The Actor data menu's template context (pure: tested and screenshotted without Foundry). */
import { ACTOR_DATA_FIELDS, type ActorDataPaths } from "../core/core-settings.js";
import type { FeatureId, FeatureState } from "../rules/index.js";
import { fieldVisibility } from "../core/feature-visibility.js";
import { PRESETS, type PresetId } from "./presets.js";
import { isKeyedPath, keyedNumbers, resolvePath, unresolvedPaths } from "./read.js";

export interface ActorDataContext extends Record<string, unknown> {
  fields: {
    key: string;
    label: string;
    hint: string;
    value: string;
    rows: number;
    missing: boolean;
    sample: string;
    borrowed: string;
  }[];
  actors: { id: string; name: string; selected: boolean }[];
  actorId: string;
  presets: { id: string; label: string }[];
}

/**
 * The lines a path's field starts with, so that a long path shows whole where the browser cannot size a field to its
 * content (CSS field-sizing): about 56 characters per line at the window's default width.
 */
export const PATH_LINE_CHARS = 56;
export function pathRows(path: string): number {
  return Math.min(6, Math.max(1, Math.ceil(path.length / PATH_LINE_CHARS)));
}

/**
 * Builds the template context (pure apart from localization; tested directly). With the world's `features`, only the
 * fields some feature of the game reads show (docs/rules.md §0: no passive Perception, Survival or exhaustion path in a
 * game that has none), a field shown only for a borrowed rule labelled with its game; the hidden fields keep their
 * paths (the form saves only what it shows).
 */
export function actorDataContext(
  paths: ActorDataPaths,
  actors: { id: string; name: string }[],
  actor: { id: string; name: string } | null,
  localize: (key: string) => string,
  features?: Readonly<Record<FeatureId, FeatureState>>,
): ActorDataContext {
  const shown = ACTOR_DATA_FIELDS.map((key) => ({
    key,
    v: features ? fieldVisibility(key, features) : { show: true, borrowedFrom: null },
  })).filter((x) => x.v.show);
  const missing = new Set(actor ? unresolvedPaths(actor, paths) : []);
  return {
    fields: shown.map(({ key, v }) => {
      // A keyed path (system.skills.*.value) shows its first entry and how many there are.
      const keyed = actor && paths[key] && isKeyedPath(paths[key]) ? keyedNumbers(actor, paths[key]) : null;
      const raw = keyed
        ? keyed[0]
          ? `${keyed[0].key} ${keyed[0].value}${keyed.length > 1 ? ` (+${keyed.length - 1})` : ""}`
          : null
        : actor && paths[key]
          ? resolvePath(actor, paths[key])
          : null;
      return {
        key,
        label: localize(`AVENTURE.ActorData.field.${key}`),
        hint: localize(`AVENTURE.ActorData.hint.${key}`),
        // Alternatives shown as "a | b": the field wraps between them, never inside a path (saved without the spaces).
        value: paths[key]
          .split("|")
          .map((p) => p.trim())
          .join(" | "),
        rows: pathRows(paths[key]),
        missing: missing.has(key),
        sample: raw === null ? "" : String(raw),
        borrowed: v.borrowedFrom ? localize(`AVENTURE.Feature.from.${v.borrowedFrom}`) : "",
      };
    }),
    actors: actors.map((a) => ({ ...a, selected: a.id === actor?.id })),
    actorId: actor?.id ?? "",
    // A preset is offered when it fills a field the game reads (none of them knows Polaris's paths).
    presets: (Object.keys(PRESETS) as PresetId[])
      .filter((id) => shown.some(({ key }) => PRESETS[id][key] !== ""))
      .map((id) => ({ id, label: localize(`AVENTURE.ActorData.preset.${id}`) })),
  };
}
