/**
 * The calls that differ between Foundry v13 and v14 (docs/compat.md), feature-detected in one place.
 * Type against v13; branch on the generation where v14 changed a shape.
 */
export function generation(): number {
  return game.release?.generation ?? 13;
}
export const isV14 = (): boolean => generation() >= 14;

/** foundry.applications.handlebars.renderTemplate (the global is deprecated). */
export function renderTemplateCompat(path: string, data: Record<string, unknown>): Promise<string> {
  return foundry.applications.handlebars.renderTemplate(path, data);
}

export function loadTemplatesCompat(paths: string[]): Promise<unknown> {
  return foundry.applications.handlebars.loadTemplates(paths);
}

/** CONFIG.statusEffects as an array in both versions (v14 docs allow an object keyed by id). */
export interface StatusEffectLike {
  id: string;
  name?: string;
  img?: string;
}
export function statusEffects(): StatusEffectLike[] {
  const raw = CONFIG.statusEffects as unknown;
  if (Array.isArray(raw)) return raw as StatusEffectLike[];
  if (raw && typeof raw === "object") {
    return Object.entries(raw as Record<string, StatusEffectLike>).map(([id, e]) => ({ ...e, id: e.id ?? id }));
  }
  return [];
}

/** Adds status effects to CONFIG.statusEffects, whichever shape it has. */
export function addStatusEffects(effects: StatusEffectLike[]): void {
  const raw = CONFIG.statusEffects as unknown;
  if (Array.isArray(raw)) {
    for (const e of effects) if (!raw.some((x: StatusEffectLike) => x.id === e.id)) raw.push(e);
  } else if (raw && typeof raw === "object") {
    const obj = raw as Record<string, StatusEffectLike>;
    for (const e of effects) obj[e.id] ??= e;
  }
}

/** A combat tracker context-menu entry in the shape of the running version. */
export interface ContextEntry {
  name: string;
  icon: string;
  condition: (li: HTMLElement) => boolean;
  callback: (li: HTMLElement) => void;
}
export function contextEntry(e: ContextEntry): Record<string, unknown> {
  if (isV14()) {
    return {
      label: e.name,
      icon: e.icon,
      visible: (target: HTMLElement) => e.condition(target),
      onClick: (_event: Event, target: HTMLElement) => e.callback(target),
    };
  }
  return { name: e.name, icon: e.icon, condition: e.condition, callback: e.callback };
}

/** Token detection modes as a list in both versions (v13 array, v14 object keyed by id). */
export function detectionModes(tokenDoc: unknown): { id: string; enabled: boolean; range: number | null }[] {
  const raw = (tokenDoc as { detectionModes?: unknown }).detectionModes;
  if (Array.isArray(raw)) return raw as { id: string; enabled: boolean; range: number | null }[];
  if (raw && typeof raw === "object") {
    return Object.entries(raw as Record<string, { enabled?: boolean; range?: number | null }>).map(([id, m]) => ({
      id,
      enabled: m.enabled ?? true,
      range: m.range ?? null,
    }));
  }
  return [];
}

/** Time delta from combatRound/combatTurn options (v13 advanceTime, v14 worldTime.delta). */
export function roundTimeDelta(options: unknown): number {
  const o = options as { advanceTime?: number; worldTime?: { delta?: number } } | undefined;
  return o?.worldTime?.delta ?? o?.advanceTime ?? 0;
}

// -------------------------------------------------------------------------------------------------
// Deleting a key (docs/compat.md, the deletion rows)
// -------------------------------------------------------------------------------------------------

/**
 * The deletion operator of v14 (`_del`, a foundry.data.operators.ForcedDeletion: dnd5e 5.3.x writes
 * `{ [path]: _del }`), or undefined on v13 and where the global is missing.
 */
function deletionOperator(): unknown {
  if (!isV14()) return undefined;
  return (globalThis as { _del?: unknown })._del;
}

/**
 * The update entry that deletes `path` (a key, or a dotted path whose last part is the key), in the form of the
 * running generation: v13 `{ "a.b.-=key": null }`, v14 `{ "a.b.key": _del }` (the `-=` form is deprecated there).
 * Spread it into an update or into the object given to setFlag.
 */
export function deletion(path: string): Record<string, unknown> {
  const op = deletionOperator();
  if (op !== undefined) return { [path]: op };
  const i = path.lastIndexOf(".");
  return { [i < 0 ? `-=${path}` : `${path.slice(0, i)}.-=${path.slice(i + 1)}`]: null };
}

/** Whether an update's changes (one object level) delete `key`, in either form. */
export function deletes(changes: Record<string, unknown>, key: string): boolean {
  if (`-=${key}` in changes) return true;
  const v = changes[key];
  if (v === null || typeof v !== "object") return false;
  const op = (globalThis as { _del?: unknown })._del;
  if (op !== undefined && v === op) return true;
  const Forced = (globalThis as { foundry?: { data?: { operators?: { ForcedDeletion?: new () => unknown } } } }).foundry
    ?.data?.operators?.ForcedDeletion;
  return typeof Forced === "function" && v instanceof Forced;
}

// -------------------------------------------------------------------------------------------------
// Scene levels (v14)
// -------------------------------------------------------------------------------------------------

/** A token's level id (v14 TokenDocument#level, TokenPosition.level), or null (v13, or none). */
export function tokenLevel(doc: unknown): string | null {
  if (!isV14()) return null;
  const level = (doc as { level?: unknown } | null)?.level;
  return typeof level === "string" && level !== "" ? level : null;
}

interface MovementLevels {
  origin?: { level?: unknown } | null;
  destination?: { level?: unknown } | null;
  passed?: { waypoints?: readonly { level?: unknown }[] } | null;
  pending?: { waypoints?: readonly { level?: unknown }[] } | null;
}

/**
 * Whether a movement changes level (v14): its origin and destination levels differ, or a waypoint it passes is on
 * another level than its origin (core's Change Level region behaviour moves a token between levels during an
 * ordinary move). Always false on v13.
 */
export function movementChangesLevel(movement: MovementLevels | null | undefined): boolean {
  if (!isV14() || !movement) return false;
  const level = (p: { level?: unknown } | null | undefined) =>
    typeof p?.level === "string" && p.level !== "" ? p.level : null;
  const from = level(movement.origin);
  const to = level(movement.destination);
  if (from !== null && to !== null && from !== to) return true;
  if (from === null) return false;
  const waypoints = [...(movement.passed?.waypoints ?? []), ...(movement.pending?.waypoints ?? [])];
  return waypoints.some((w) => level(w) !== null && level(w) !== from);
}

interface LevelLike {
  id?: string | null;
  visibility?: { levels?: Iterable<string> | null } | null;
}
interface SceneWithLevels {
  levels?: { get?(id: string): LevelLike | undefined } | null;
}

/** The Level document of `levelId` on `scene` (v14 Scene#levels), or null. */
export function levelOf(scene: unknown, levelId: string | null): LevelLike | null {
  if (!levelId) return null;
  return (scene as SceneWithLevels | null)?.levels?.get?.(levelId) ?? null;
}

/**
 * Whether a creature on level `from` may see one on level `to` (v14): the same level, or a level that `from`'s level
 * lists as visible (LevelData.visibility.levels). No level on either side (v13, or a scene without levels): true.
 */
export function levelSees(scene: unknown, from: string | null, to: string | null): boolean {
  if (from === null || to === null || from === to) return true;
  const visible = levelOf(scene, from)?.visibility?.levels;
  if (!visible) return false;
  for (const id of visible) if (id === to) return true;
  return false;
}

// -------------------------------------------------------------------------------------------------
// Expired effects (v14)
// -------------------------------------------------------------------------------------------------

/**
 * Whether an Active Effect has expired: v14 core marks a temporary effect's `duration.expired` (EffectDurationData)
 * and, by default (CONFIG.ActiveEffect.expiryAction "update"), leaves it on the actor. v13 has no such mark.
 */
export function isExpired(effect: { duration?: unknown } | null | undefined): boolean {
  return (effect?.duration as { expired?: unknown } | null | undefined)?.expired === true;
}
