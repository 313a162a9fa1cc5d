/**
 * The calls that differ between Foundry v13 and v14 (NOTES.md), feature-detected in one place.
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
