/**
 * The light feature's hooks (listed in hooks.ts): recompute on lighting refresh, token movement and light, token or
 * scene updates (debounced, only what changed); redraw icons on token draw; end hiding on dnd5e attacks (and OSE
 * attack messages); HUD panel and buttons; the requests "hide", "endHide", "setSearching", the proposal kind "hide"
 * and the recovery of interrupted hiding changes; the Obscurity region behaviour; ambient detection after each
 * recomputation on the active GM (detection.ts: requests "detectionDecide" and "checkDetection", GMs only, and the
 * card's Reveal / Ignore), also after a wall or door, a region, a hiding state or a searching mark (both on the scene,
 * GM-written: hide-state.ts, searching.ts; the migration of the 0.1.0 hide flags and marks kept on tokens runs with the
 * recoveries) or a status changes. The
 * dim-light status is set up with the module's statuses (status-effects.ts), where it survives the system's own status
 * list.
 */
import { featureActive } from "../core/features.js";
import { getSetting, onSettingChange } from "../core/settings.js";
import { ambientDetection, onRenderDetectionCard, registerDetection } from "./detection.js";
import { checkHiddenTokens, onAttackRolled, onChatMessageCreated, registerHideRequests } from "./hide.js";
import { hidesChanged, migrateHideFlags } from "./hide-state.js";
import { registerLightHud } from "./hud.js";
import { registerObscurityBehavior } from "./obscurity.js";
import { canvasLike, type TokenDocLike, type TokenObjLike } from "./scene.js";
import { marksChanged, migrateSearchingMarks } from "./searching.js";
import { lightTracker, type TokenLightState } from "./tracker.js";
import { onHook } from "../core/hooks-typed.js";
import { registerRecovery } from "../core/operations.js";
import { isActiveGM } from "../core/gm.js";
import { registerCardPart } from "../core/cards.js";
import { registerHideCards } from "./hide-cards.js";

/** Token fields whose change moves the token or changes what it sees or emits. */
const TOKEN_FIELDS = [
  "x",
  "y",
  "elevation",
  "width",
  "height",
  "sight",
  "detectionModes",
  "actorId",
  "disposition",
] as const;

function onSceneTokenChange(doc: TokenDocLike, changes: Record<string, unknown>): void {
  if (!onViewedScene(doc)) return;
  // A token's own light changes every token's light: the lighting refresh follows, but do not rely on it.
  if ("light" in changes) lightTracker.schedule();
  // Its flags are not looked at: the hiding state and the searching marks are on the scene (GM-written), so a token
  // flag its owner writes (a hide DC, `from`, `seenBy`, a searching mark) has no effect and is judged nowhere.
  else if (TOKEN_FIELDS.some((k) => k in changes)) lightTracker.schedule([doc.id]);
}

/** After each recomputation on the active GM: ambient detection, or (setting off) hiding that ends when seen. */
async function afterLightFlush(
  changed: TokenLightState[],
  states: ReadonlyMap<string, TokenLightState>,
  recomputed: ReadonlySet<string> | null,
): Promise<void> {
  if (getSetting("detectionMode") === "off" || !featureActive("detection")) return checkHiddenTokens(changed, states);
  await ambientDetection.pass(states, recomputed);
}

/** The tokens of the viewed scene whose actor is `actor` (a status or sheet change concerns them). */
function tokensOf(actor: { id: string | null } | null | undefined): string[] {
  const c = canvasLike();
  if (!c || !actor) return [];
  return c.tokens.placeables
    .filter((t) => t.document.actor === actor || (t.document.actor as { id?: string | null } | null)?.id === actor.id)
    .map((t) => t.id);
}

/** Whether `sceneId` is the scene this client draws. */
function viewedSceneId(sceneId: string | null | undefined): boolean {
  const c = canvasLike();
  return !!c && !!sceneId && sceneId === c.scene?.id;
}

function onViewedScene(doc: { parent?: { id: string | null } | null }): boolean {
  const c = canvasLike();
  return !!c && (!doc.parent || doc.parent.id === c.scene?.id);
}

export function registerLightHooks(): void {
  lightTracker.afterFlush = afterLightFlush;
  registerDetection(async (ids) => {
    lightTracker.schedule(ids ? [...ids] : undefined);
    await lightTracker.flush();
  });
  registerHideRequests();
  // Every GM runs the recoveries (operations.ts): the one-time migration is the active GM's.
  registerRecovery("searchingMarks", async () => {
    if (isActiveGM()) await migrateSearchingMarks(migrateHideFlags);
  });
  registerLightHud();
  registerObscurityBehavior();

  onHook("canvasReady", () => {
    lightTracker.reset();
    lightTracker.schedule();
  });
  onHook("lightingRefresh", () => lightTracker.schedule());
  onHook("updateToken", (doc: TokenDocLike, changes: Record<string, unknown>) => onSceneTokenChange(doc, changes));
  onHook("createToken", (doc: TokenDocLike) => onViewedScene(doc) && lightTracker.schedule([doc.id]));
  onHook("deleteToken", (doc: TokenDocLike) => onViewedScene(doc) && lightTracker.schedule());
  for (const hook of ["createAmbientLight", "updateAmbientLight", "deleteAmbientLight"] as const) {
    onHook(hook, (doc: { parent?: { id: string | null } | null }) => onViewedScene(doc) && lightTracker.schedule());
  }
  // Obscurity regions (their shapes, elevation range, behaviours) and walls (doors opening: line of sight) change what
  // every token sees and how it is seen.
  const onRegion = (doc: RegionDocument.Implementation) => viewedSceneId(doc.parent?.id) && lightTracker.schedule();
  const onBehavior = (doc: RegionBehavior.Implementation) =>
    viewedSceneId(doc.parent?.parent?.id) && lightTracker.schedule();
  // A door opened or closed, a wall drawn or deleted: the lines of sight crossing it change (a moved wall: all of
  // them).
  const onWall = (doc: WallDocument.Implementation, moved: boolean) => {
    if (!viewedSceneId(doc.parent?.id)) return;
    const [x1, y1, x2, y2] = doc.c;
    ambientDetection.wallsChanged(
      moved || x1 === undefined || y1 === undefined || x2 === undefined || y2 === undefined ? null : [x1, y1, x2, y2],
    );
    lightTracker.schedule();
  };
  onHook("createRegion", onRegion);
  onHook("updateRegion", onRegion);
  onHook("deleteRegion", onRegion);
  onHook("createRegionBehavior", onBehavior);
  onHook("updateRegionBehavior", onBehavior);
  onHook("deleteRegionBehavior", onBehavior);
  onHook("createWall", (doc) => onWall(doc, false));
  onHook("updateWall", (doc, changes) => onWall(doc, "c" in changes));
  onHook("deleteWall", (doc) => onWall(doc, false));
  onHook("updateScene", (scene: { id: string | null }, changes: Record<string, unknown>) => {
    if (scene.id !== canvasLike()?.scene?.id) return;
    if ("environment" in changes || "darkness" in changes || "grid" in changes) lightTracker.schedule();
    else {
      // A GM marked tokens as searching, or no longer, or changed their hiding state (their pairs are judged again).
      const marked = marksChanged(changes);
      const hid = hidesChanged(changes);
      if (marked?.length === 0 || hid?.length === 0) lightTracker.schedule();
      else if (marked || hid) lightTracker.schedule([...(marked ?? []), ...(hid ?? [])]);
    }
  });
  onHook("updateActor", (actor: { id: string | null }, changes: Record<string, unknown>) => {
    // Senses live in system data; Aventure's own flags and statuses do not change the light.
    if (!("system" in changes)) return;
    const c = canvasLike();
    if (!c) return;
    lightTracker.schedule(
      c.tokens.placeables
        .filter((t) => (t.document.actor as { id?: string | null } | null)?.id === actor.id)
        .map((t) => t.id),
    );
  });
  // A status changes what a creature sees or how it is seen (invisible, blinded): its tokens are looked at again.
  const onEffect = (effect: ActiveEffect.Implementation) => {
    const parent = effect.parent;
    if (parent && parent.documentName === "Actor") lightTracker.schedule(tokensOf(parent));
  };
  onHook("createActiveEffect", onEffect);
  onHook("deleteActiveEffect", onEffect);
  registerHideCards();
  registerCardPart({
    kind: "detection",
    type: "detect",
    selector: "[data-action='aventure-detect']",
    render: onRenderDetectionCard,
  });
  onHook("drawToken", (token: TokenObjLike) => lightTracker.redrawIcons(token));
  onHook("dnd5e.postRollAttack", onAttackRolled);
  onHook("createChatMessage", onChatMessageCreated);

  onSettingChange("lightIcons", () => lightTracker.redrawIcons());
  onSettingChange("lightEffects", (on) => void lightTracker.reconcileAll(on === true));
  for (const key of [
    "lightThresholdBright",
    "lightThresholdDim",
    "ruleset",
    "detectionMode",
    "detectionObservers",
  ] as const)
    onSettingChange(key, () => lightTracker.schedule());
}
