/** The movement entries of the public API: showJumps, fallDialog, fall (see docs/api/movement.md). */
import type { JumpSubject } from "./JumpPanel.js";
import { onDemand } from "../core/on-demand.js";
import { UserError, guarded } from "../core/i18n.js";
import { controlledTokens } from "../light/api.js";

/** The windows' files (dist/aventure-JumpPanel.js, dist/aventure-FallDialog.js), loaded when first opened. */
const jumpPanelFile = onDemand(() => import("./JumpPanel.js"));
const fallDialogFile = onDemand(() => import("./FallDialog.js"));

/** Opens the jump panel of each token (default: the controlled tokens). A token needs an actor. */
export async function showJumps(tokens?: JumpSubject[]): Promise<void> {
  await guarded(async () => {
    const list = tokens ?? controlledTokens();
    const { JumpPanel } = await jumpPanelFile();
    for (const token of list) {
      if (!token.actor) throw new UserError("AVENTURE.Error.NoActor", { name: token.name });
      await new JumpPanel(token).render({ force: true });
    }
  });
}

/**
 * Opens the fall dialog for tokens (default: the controlled tokens); each must have an actor. `source` tells
 * the fall card where the fall came from: the token HUD, or a macro (`api.fallDialog()`).
 */
export async function openFallDialog(
  tokens?: { name: string; actor: unknown }[],
  source: "hud" | "api" = "api",
): Promise<void> {
  await guarded(async () => {
    const list = tokens ?? controlledTokens();
    for (const token of list) if (!token.actor) throw new UserError("AVENTURE.Error.NoActor", { name: token.name });
    const { FallDialog } = await fallDialogFile();
    await new FallDialog(list, source).render({ force: true });
  });
}
export { fall } from "./fall.js";

/** The feature's settings (registered by the composition root, src/settings.ts). */
export { movementSettings } from "./settings.js";
