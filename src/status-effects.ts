/**
 * The status effects Aventure adds where a game system has none for a rule meaning: dim light (always; in dnd5e it
 * carries disadvantage on Perception, light/effects.ts), hidden and surprised (only where the system has neither, or,
 * for surprised, where the system's own gives disadvantage on initiative: dnd5e's 2024 rules, dnd5e-owners.ts).
 *
 * Where they survive: a system may rebuild CONFIG.statusEffects after the modules' `init` — dnd5e 5.3.x does it in
 * its `i18nInit` handler (dnd5e.mjs `_configureStatusEffects`; docs/compat.md, the dnd5e rows), which drops
 * what a module pushed in `init`. The system's handlers run before the module's for every hook, so the statuses are
 * added in `init` (systems that keep the list), again in `i18nInit` and `setup` (after a system's rebuild), and
 * checked in `ready`: anything missing then is logged and added back. The dim-light change is set up after each.
 */
import { addStatusEffects, statusEffects } from "./core/compat.js";
import { OWN_STATUS } from "./actors/api.js";
import { configureDimLightStatus } from "./light/api.js";
import { onceHook } from "./core/hooks-typed.js";
import { dnd5eSurprisedHasEffect } from "./core/dnd5e-owners.js";

interface OwnStatus {
  id: string;
  name: string;
  img: string;
}

/** The statuses Aventure needs on top of the current list (the system's own "hidden"/"surprised" win). */
export function ownStatuses(): OwnStatus[] {
  const existing = new Set(statusEffects().map((e) => e.id));
  const add: OwnStatus[] = [
    { id: OWN_STATUS.dimLight, name: "AVENTURE.Status.dimLight", img: "icons/svg/light-off.svg" },
  ];
  if (!existing.has("hiding") && !existing.has("hidden")) {
    add.push({ id: OWN_STATUS.hidden, name: "AVENTURE.Status.hidden", img: "icons/svg/mystery-man.svg" });
  }
  if (!existing.has("surprised")) {
    add.push({ id: OWN_STATUS.surprised, name: "AVENTURE.Status.surprised", img: "icons/svg/hazard.svg" });
  } else if (dnd5eSurprisedHasEffect()) {
    // dnd5e's Surprised gives disadvantage on initiative (2024 rules): Aventure's surprise has its own marker.
    add.push({ id: OWN_STATUS.surprised, name: "AVENTURE.Status.surprisedRound", img: "icons/svg/hazard.svg" });
  }
  return add;
}

/** Adds the missing ones to CONFIG.statusEffects and sets up the dim-light change. Returns the ids added. */
export function addOwnStatuses(): string[] {
  const existing = new Set(statusEffects().map((e) => e.id));
  const missing = ownStatuses().filter((s) => !existing.has(s.id));
  addStatusEffects(missing);
  configureDimLightStatus(game.system.id);
  return missing.map((s) => s.id);
}

/** ready: the statuses should all be there; a system or module that removed them later is reported (and undone). */
export function checkOwnStatuses(): string[] {
  const missing = addOwnStatuses();
  if (missing.length) {
    console.warn(
      `aventure | status effects removed after setup by the system or another module, added again: ${missing.join(", ")}`,
    );
  }
  return missing;
}

export function registerStatusEffects(): void {
  addOwnStatuses();
  onceHook("i18nInit", () => void addOwnStatuses());
  onceHook("setup", () => void addOwnStatuses());
  onceHook("ready", () => void checkOwnStatuses());
}
