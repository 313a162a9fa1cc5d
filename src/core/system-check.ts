/** At ready: tells the GM once when the system has no built-in adapter and no actor data paths are set. */
import { getSetting } from "./settings.js";
import { t, notify } from "./i18n.js";

export function warnUnsupportedSystem(): void {
  if (!game.user.isGM) return;
  const system = game.system.id;
  if (system === "dnd5e" || system === "ose") return;
  const paths = getSetting("actorData");
  if (Object.values(paths).some((p) => typeof p === "string" && p.trim() !== "")) return;
  notify("warn", t("AVENTURE.Error.UnsupportedSystem", { system }));
}
