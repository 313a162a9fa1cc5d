/** The status effects Aventure adds where a game system has none for a rule meaning. */
import { addStatusEffects } from "./compat.js";
import { OWN_STATUS } from "./adapters/adapter.js";

export function registerStatusEffects(): void {
  const existing = new Set(
    (Array.isArray(CONFIG.statusEffects) ? CONFIG.statusEffects : Object.values(CONFIG.statusEffects as object)).map(
      (e: { id: string }) => e.id,
    ),
  );
  const add: { id: string; name: string; img: string }[] = [
    { id: OWN_STATUS.dimLight, name: "AVENTURE.Status.dimLight", img: "icons/svg/light-off.svg" },
  ];
  if (!existing.has("hiding") && !existing.has("hidden")) {
    add.push({ id: OWN_STATUS.hidden, name: "AVENTURE.Status.hidden", img: "icons/svg/mystery-man.svg" });
  }
  if (!existing.has("surprised")) {
    add.push({ id: OWN_STATUS.surprised, name: "AVENTURE.Status.surprised", img: "icons/svg/hazard.svg" });
  }
  addStatusEffects(add);
}
