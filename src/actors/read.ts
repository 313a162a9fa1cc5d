/**
 * Reading actor data through configurable paths. Pure: no Foundry globals (not even foundry.utils.getProperty, whose
 * work getPath does for a plain path), because the view models call it too — the Actor data menu's — and they are
 * rendered outside Foundry by the browser check; adapters are tested against plain fixtures shaped like actor
 * documents.
 *
 * A path is dot-separated ("system.abilities.str.value"); alternatives are separated by "|" and the first
 * one that resolves wins ("system.attributes.senses.ranges.darkvision|system.attributes.senses.darkvision"),
 * which is how one preset serves several versions of a system. A unit field may also hold a literal unit
 * ("ft", "m").
 */
import { parseUnit, toMetres, clean, type Unit } from "../rules/units.js";
import type { ActorDataPaths } from "../core/core-settings.js";

export function getPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.split(".")) {
    if (cur === null || cur === undefined || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** The raw value at the first alternative of `path` that is defined (null when none is, or path empty). */
export function resolvePath(obj: unknown, path: string): unknown {
  if (!path) return null;
  for (const alt of path.split("|")) {
    const p = alt.trim();
    if (!p) continue;
    const v = getPath(obj, p);
    if (v !== undefined && v !== null && v !== "") return v;
  }
  return null;
}

/** A finite number at `path`, or null. Numeric strings ("13") count; anything else is null. */
export function readNumber(obj: unknown, path: string): number | null {
  const v = resolvePath(obj, path);
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : Number.NaN;
  return Number.isFinite(n) ? n : null;
}

const LITERAL_UNITS = new Set(["m", "ft", "km", "mi"]);

/** The unit at `path` (or the literal unit written in the field); `fallback` when unknown. */
export function readUnit(obj: unknown, path: string, fallback: Unit): Unit {
  if (LITERAL_UNITS.has(path)) return path as Unit;
  const v = resolvePath(obj, path);
  try {
    return parseUnit(v, fallback);
  } catch {
    return fallback;
  }
}

export interface Senses {
  darkvision: number;
  blindsight: number;
  truesight: number;
}
export interface Speeds {
  walk: number;
  climb: number;
  swim: number;
  fly: number;
}

/** What the module reads of an actor, in metres. null = the system does not provide it. */
export interface ActorStats {
  strScore: number | null;
  strMod: number | null;
  dexMod: number | null;
  conMod: number | null;
  chaMod: number | null;
  passivePerception: number | null;
  /** Ranges in metres; 0 = none. */
  senses: Senses;
  /** Speeds in metres per round; null when no speed is known (walk 0 when only another speed is). */
  speeds: Speeds | null;
  hp: { value: number; max: number | null } | null;
  exhaustion: number | null;
  polarisInitiative: number | null;
  polarisReaction: number | null;
}

const toM = (value: number | null, unit: Unit, feetFactor: number): number =>
  value === null ? 0 : clean(toMetres(value, unit, unit === "ft" ? feetFactor : undefined));

/** Reads an actor through `paths`. `feetFactor` is the world's metres per foot (0.3 by default). */
export function readStats(actor: unknown, paths: ActorDataPaths, feetFactor = 0.3): ActorStats {
  const n = (p: string) => readNumber(actor, p);
  const sensesUnit = readUnit(actor, paths.sensesUnit, "ft");
  const speedUnit = readUnit(actor, paths.speedUnit, "ft");
  const [walk, climb, swim, fly] = [n(paths.walk), n(paths.climb), n(paths.swim), n(paths.fly)];
  // A creature with no walking speed but another one (dnd5e's fly-only summons store walk: null) does not walk.
  const moves = walk !== null || climb !== null || swim !== null || fly !== null;
  const hp = n(paths.hp);
  return {
    strScore: n(paths.strScore),
    strMod: n(paths.strMod),
    dexMod: n(paths.dexMod),
    conMod: n(paths.conMod),
    chaMod: n(paths.chaMod),
    passivePerception: n(paths.passivePerception),
    senses: {
      darkvision: toM(n(paths.darkvision), sensesUnit, feetFactor),
      blindsight: toM(n(paths.blindsight), sensesUnit, feetFactor),
      truesight: toM(n(paths.truesight), sensesUnit, feetFactor),
    },
    speeds: moves
      ? {
          walk: toM(walk, speedUnit, feetFactor),
          climb: toM(climb, speedUnit, feetFactor),
          swim: toM(swim, speedUnit, feetFactor),
          fly: toM(fly, speedUnit, feetFactor),
        }
      : null,
    hp: hp === null ? null : { value: hp, max: n(paths.hpMax) },
    exhaustion: n(paths.exhaustion),
    polarisInitiative: n(paths.polarisInitiative),
    polarisReaction: n(paths.polarisReaction),
  };
}

/** For the Actor data menu: which configured paths resolve to nothing on a given actor. */
export function unresolvedPaths(actor: unknown, paths: ActorDataPaths): (keyof ActorDataPaths)[] {
  return (Object.keys(paths) as (keyof ActorDataPaths)[]).filter((k) => {
    const p = paths[k];
    if (!p) return false;
    if ((k === "sensesUnit" || k === "speedUnit") && LITERAL_UNITS.has(p)) return false;
    if (isKeyedPath(p)) return keyedNumbers(actor, p).length === 0;
    return resolvePath(actor, p) === null;
  });
}

// ------------------------------------------------------------------------------------------------ keyed paths

/**
 * A keyed path names one value per key of an object: `*` stands for the key, e.g. "system.skills.*.value" reads
 * the level of every skill of system.skills (Polaris skill levels, masteries, attribute levels). Alternatives are
 * separated by "|" as for plain paths; each must hold exactly one `*` between dots (or at the end).
 */
export function isKeyedPath(path: string | undefined): boolean {
  return typeof path === "string" && path.includes("*");
}

/** The alternatives of a keyed path as [object path, path inside each entry] ("" = the entry itself). */
function keyedParts(path: string): [string, string][] {
  const out: [string, string][] = [];
  for (const alt of path.split("|")) {
    const m = /^([^*]+)\.\*(?:\.([^*]+))?$/.exec(alt.trim());
    if (m) out.push([m[1]!, m[2] ?? ""]);
  }
  return out;
}

const KEY = /^[\p{L}\p{N}_-]{1,64}$/u;
/** At most this many keys are read from one object (a skills list is a few dozen). */
export const MAX_KEYED = 200;

/**
 * Every key of a keyed path's object with a finite number at the entry's path, in the object's order (the first
 * alternative that gives any wins). Each entry's label is its `label` or `name` text when it has one, else the key.
 */
export function keyedNumbers(actor: unknown, path: string): { key: string; label: string; value: number }[] {
  for (const [base, inner] of keyedParts(path)) {
    const obj = getPath(actor, base);
    if (!obj || typeof obj !== "object" || Array.isArray(obj)) continue;
    const out: { key: string; label: string; value: number }[] = [];
    for (const key of Object.keys(obj).slice(0, MAX_KEYED)) {
      if (!KEY.test(key)) continue;
      const entry = (obj as Record<string, unknown>)[key];
      const value = inner ? readNumber(entry, inner) : readNumber({ v: entry }, "v");
      if (value === null) continue;
      const named =
        entry && typeof entry === "object"
          ? ((entry as Record<string, unknown>).label ?? (entry as Record<string, unknown>).name)
          : undefined;
      const label = typeof named === "string" && named.trim() ? named.trim().slice(0, 80) : key;
      out.push({ key, label, value });
    }
    if (out.length) return out;
  }
  return [];
}

/** The number a keyed path gives for one key (null when the path is empty, not keyed, or has nothing there). */
export function readKeyed(actor: unknown, path: string | undefined, key: string): number | null {
  if (!path || !isKeyedPath(path) || !KEY.test(key)) return null;
  for (const [base, inner] of keyedParts(path)) {
    const obj = getPath(actor, base);
    if (!obj || typeof obj !== "object" || Array.isArray(obj) || !Object.prototype.hasOwnProperty.call(obj, key))
      continue;
    const entry = (obj as Record<string, unknown>)[key];
    const value = inner ? readNumber(entry, inner) : readNumber({ v: entry }, "v");
    if (value !== null) return value;
  }
  return null;
}
