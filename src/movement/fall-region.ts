/**
 * The "Fall" region behaviour (`aventure.fall`, module.json documentTypes.RegionBehavior.fall): a token that
 * moves into the region stops there and falls the behaviour's height in metres. Flying tokens (fly action,
 * fly or hover status) and teleported tokens (blink, displace) are left alone; a movement falls at most once
 * (claimMovementFall), even through two fall regions or a fall region with an elevation drop. The region
 * event fires on every client: the moving user's client stops the movement, the active GM runs the fall.
 */
import { featureActive } from "../core/features.js";
import { getSetting } from "../core/settings.js";
import { aventureActs } from "../core/dnd5e-owners.js";
import { guarded, UserError } from "../core/i18n.js";
import { isActiveGM } from "../core/gm.js";
import { claimMovementFall, executeFall, type FallTarget, type FallToken } from "./fall.js";
import { isFlying, isTeleportAction, lastAction } from "./token-data.js";

export const FALL_BEHAVIOR_TYPE = "aventure.fall";
/** The type's label key (Foundry reads it itself from TYPES.RegionBehavior.<type>). */
export const FALL_BEHAVIOR_LABEL = "TYPES.RegionBehavior.aventure.fall";
export const FALL_BEHAVIOR_ICON = "fa-solid fa-person-falling";

/** v13 region event tokenMoveIn (declared in src/declarations.d.ts): `{token, movement}`. */
export type FallRegionEvent = AventureRegionEvent<
  AventureTokenRegionEventData<FallToken & { stopMovement(): unknown }>
>;

/** tokenMoveIn handler, `this` being the behaviour's system data (its `height` in metres). */
export async function onFallRegionMoveIn(this: { height: number }, event: FallRegionEvent): Promise<void> {
  if (!getSetting("fallRegions") || !featureActive("falls") || !aventureActs("falls")) return;
  const { token, movement } = event.data;
  if (isTeleportAction(lastAction(movement)) || isFlying(token, movement)) return;
  if (event.user.isSelf) token.stopMovement();
  if (!isActiveGM() || !claimMovementFall(token, movement?.id)) return;
  const height = this.height;
  await guarded(async () => {
    if (!token.actor) throw new UserError("AVENTURE.Error.NoActor", { name: token.name });
    await executeFall({ token, actor: token.actor as FallTarget["actor"] }, height, "region");
  });
}

/** Registers the behaviour type (call in `init`). */
export function registerFallBehavior(): void {
  const { RegionBehaviorType } = foundry.data.regionBehaviors;
  const { NumberField } = foundry.data.fields;
  const Base = RegionBehaviorType as unknown as new (...args: never[]) => object; // cast: the v13 RegionBehaviorType base class as a plain constructor (its pinned generics need a schema)
  class FallRegionBehaviorType extends Base {
    static LOCALIZATION_PREFIXES = ["AVENTURE.Movement.FallRegion"];
    static defineSchema() {
      return {
        height: new NumberField({ required: true, nullable: false, min: 0, initial: 3, step: 0.5 }),
      };
    }
    static events = { tokenMoveIn: onFallRegionMoveIn };
  }
  // cast: registering a module behaviour type: the pinned dataModels record has only core's types
  const config = CONFIG.RegionBehavior as unknown as {
    dataModels: Record<string, unknown>;
    typeIcons: Record<string, string>;
  };
  config.dataModels[FALL_BEHAVIOR_TYPE] = FallRegionBehaviorType;
  config.typeIcons[FALL_BEHAVIOR_TYPE] = FALL_BEHAVIOR_ICON;
}
