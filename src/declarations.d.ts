/**
 * Every fvtt-types declaration of the module lives here: setting keys, flags, the module API, added hooks.
 * (Lancer keeps a single file like this; so do we.)
 */
import type { AventureSettingConfig } from "./settings.js";
import type { AventureApi } from "./api.js";
import type {
  AventureActorFlags,
  AventureCombatantFlags,
  AventureCombatFlags,
  AventureMessageFlags,
  AventureSceneFlags,
  AventureTokenFlags,
} from "./core/flags.js";
import type { Quench } from "./quench/types.js";

declare module "fvtt-types/configuration" {
  interface AssumeHookRan {
    ready: never;
  }

  /** Each setting's field type, derived from its declaration (src/settings.ts): the only type of a setting's value. */
  // Declaration merging: the entries come from the extended type.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface SettingConfig extends AventureSettingConfig {}

  interface FlagConfig {
    Actor: {
      aventure: AventureActorFlags;
    };
    ChatMessage: {
      aventure: AventureMessageFlags;
    };
    Scene: {
      aventure: AventureSceneFlags;
    };
    Token: {
      aventure: AventureTokenFlags;
    };
    Combat: {
      aventure: AventureCombatFlags;
    };
    Combatant: {
      aventure: AventureCombatantFlags;
    };
  }

  interface ModuleConfig {
    aventure: { api: AventureApi };
  }

  /** Hooks the pinned types lack (docs/compat.md, the rows marked "types"). */
  namespace Hooks {
    interface HookConfig {
      /**
       * v13 hookEvents.preMoveToken(document, movement, operation): the moving user's client only, before the update;
       * the waypoints are final; returning false refuses the whole movement.
       */
      preMoveToken: (document: TokenDocument, movement: AventureMovementWaypoints, operation: object) => boolean | void;
    }
  }
}

declare global {
  /** v13 document hooks (public API, hookEvents): create, update, delete and preCreate of a document of type D. */
  type AventureCreateHook<D> = (document: D, options: object, userId: string) => unknown;
  type AventureUpdateHook<D> = (
    document: D,
    changed: Record<string, unknown>,
    options: object,
    userId: string,
  ) => unknown;
  type AventureDeleteHook<D> = (document: D, options: object, userId: string) => unknown;
  type AventurePreCreateHook<D> = (document: D, data: object, options: object, userId: string) => boolean | void;

  /** v13 TokenDocument movement data as `moveToken` passes it (TokenMovementData): what Aventure reads of it. */
  interface AventureTokenMovement {
    id?: string;
    /** "api", "config", "dragging", "keyboard", "paste", "undo". */
    method?: string;
    origin?: { x?: number; y?: number; elevation?: number; width?: number; height?: number };
    destination?: { x?: number; y?: number; elevation?: number; width?: number; height?: number };
    history?: { cost?: number };
    passed?: { cost?: number; waypoints?: readonly { action?: string }[] };
    pending?: { cost?: number; waypoints?: readonly { action?: string }[] };
  }

  /**
   * v13 RegionEvent (public API, RegionDocument events): what a region behaviour's event handler receives. `user` is
   * the user whose action caused the event (`isSelf` on that user's client).
   */
  interface AventureRegionEvent<D> {
    /** "tokenMoveIn", "tokenMoveOut", "tokenEnter"... (CONST.REGION_EVENTS). */
    name?: string;
    data: D;
    region?: unknown;
    user: { isSelf: boolean };
  }

  /**
   * v13 data of the token movement region events (tokenMoveIn, tokenMoveOut, tokenMove...): the token and its movement.
   */
  interface AventureTokenRegionEventData<T> {
    token: T;
    movement?: AventureTokenMovement | null;
  }

  /**
   * Every hook Aventure registers (through `onHook` / `onceHook`, src/core/hooks-typed.ts) and its handler's
   * signature, from the public v13 API (hookEvents, the document hooks, ApplicationV2 render hooks), Quench's README
   * and the dnd5e 5.3.x sources. A handler's return value is ignored except where noted.
   */
  interface AventureHooks {
    // Lifecycle (hookEvents.init, i18nInit, setup, ready).
    init: () => void;
    i18nInit: () => void;
    setup: () => void;
    ready: () => void;
    /** hookEvents.canvasReady(canvas). */
    canvasReady: (canvas: unknown) => void;
    /** hookEvents.lightingRefresh(layer): the lighting layer was refreshed. */
    lightingRefresh: (layer: unknown) => void;
    /** hookEvents.drawToken(token): a Token placeable was drawn (canvas "draw{Placeable}"). */
    drawToken: (token: foundry.canvas.placeables.Token.Implementation) => void;
    /** hookEvents.updateWorldTime(worldTime, delta, options, userId). */
    updateWorldTime: (worldTime: number, delta: number, options: object, userId: string) => void;
    /** hookEvents.userConnected(user, connected). */
    userConnected: (user: User.Implementation, connected: boolean) => void;
    /** hookEvents.getSceneControlButtons(controls): v13 a record of SceneControl by name (v12: an array). */
    getSceneControlButtons: (controls: unknown) => void;
    /** ApplicationV2 render hook `render{Class}`(application, element, context, options). */
    renderTokenHUD: (
      hud: foundry.applications.hud.TokenHUD,
      html: HTMLElement,
      context: object,
      options: object,
    ) => void;
    renderCombatTracker: (
      app: foundry.applications.sidebar.tabs.CombatTracker,
      html: HTMLElement,
      context: object,
      options: object,
    ) => void;
    /**
     * dnd5e 5.x's group actor sheet (`GroupActorSheet`, an ApplicationV2): `renderGroupActorSheet`(app, element,
     * context, options).
     */
    renderGroupActorSheet: (
      app: { actor?: unknown; document?: unknown },
      element: HTMLElement,
      context: object,
      options: object,
    ) => void;
    /**
     * ApplicationV2 render hook of core's settings form (SettingsConfig): each setting's row a form-group stamped
     * data-setting-id.
     */
    renderSettingsConfig: (app: unknown, html: unknown, context: object, options: object) => void;
    /** hookEvents.renderChatMessageHTML(message, html, messageData). */
    renderChatMessageHTML: (message: ChatMessage.Implementation, html: HTMLElement, messageData: object) => void;
    /** ApplicationV2 `get{Class}ContextOptions`(application, menuItems): entries may be pushed to the list. */
    getCombatTrackerContextOptions: (
      app: foundry.applications.sidebar.tabs.CombatTracker,
      menuItems: Record<string, unknown>[],
    ) => void;
    /** hookEvents.combatStart(combat, updateData {round, turn}). */
    combatStart: (combat: Combat.Implementation, updateData: { round: number; turn: number | null }) => void;
    /** hookEvents.combatTurn(combat, updateData {round, turn}, updateOptions {advanceTime, direction}). */
    combatTurn: (
      combat: Combat.Implementation,
      updateData: { round: number; turn: number | null },
      updateOptions: object,
    ) => void;
    /**
     * hookEvents.combatTurnChange(combat, prior, current): every client, after the database update that changed the
     * round or turn; prior and current are CombatHistoryData {round, turn, tokenId, combatantId}.
     */
    combatTurnChange: (
      combat: Combat.Implementation,
      prior: { round?: unknown; turn?: unknown; combatantId?: unknown },
      current: { round?: unknown; turn?: unknown; combatantId?: unknown },
    ) => unknown;
    /** hookEvents.preMoveToken(document, movement, operation): returning false refuses the whole movement. */
    preMoveToken: (
      document: TokenDocument.Implementation,
      movement: AventureTokenMovement & AventureMovementWaypoints,
      operation: object,
    ) => boolean | void;
    /** hookEvents.moveToken(document, movement, operation, user): on every client, after the movement. */
    moveToken: (
      document: TokenDocument.Implementation,
      movement: AventureTokenMovement,
      operation: object,
      user: User.Implementation,
    ) => unknown;
    // Document hooks.
    preCreateActiveEffect: AventurePreCreateHook<ActiveEffect.Implementation>;
    createActiveEffect: AventureCreateHook<ActiveEffect.Implementation>;
    updateActiveEffect: AventureUpdateHook<ActiveEffect.Implementation>;
    deleteActiveEffect: AventureDeleteHook<ActiveEffect.Implementation>;
    updateActor: AventureUpdateHook<Actor.Implementation>;
    createChatMessage: AventureCreateHook<ChatMessage.Implementation>;
    updateChatMessage: AventureUpdateHook<ChatMessage.Implementation>;
    deleteChatMessage: AventureDeleteHook<ChatMessage.Implementation>;
    createCombatant: AventureCreateHook<Combatant.Implementation>;
    updateCombatant: AventureUpdateHook<Combatant.Implementation>;
    deleteCombat: AventureDeleteHook<Combat.Implementation>;
    updateScene: AventureUpdateHook<Scene.Implementation>;
    createToken: AventureCreateHook<TokenDocument.Implementation>;
    updateToken: AventureUpdateHook<TokenDocument.Implementation>;
    deleteToken: AventureDeleteHook<TokenDocument.Implementation>;
    createAmbientLight: AventureCreateHook<AmbientLightDocument.Implementation>;
    updateAmbientLight: AventureUpdateHook<AmbientLightDocument.Implementation>;
    deleteAmbientLight: AventureDeleteHook<AmbientLightDocument.Implementation>;
    createRegion: AventureCreateHook<RegionDocument.Implementation>;
    updateRegion: AventureUpdateHook<RegionDocument.Implementation>;
    deleteRegion: AventureDeleteHook<RegionDocument.Implementation>;
    createRegionBehavior: AventureCreateHook<RegionBehavior.Implementation>;
    updateRegionBehavior: AventureUpdateHook<RegionBehavior.Implementation>;
    deleteRegionBehavior: AventureDeleteHook<RegionBehavior.Implementation>;
    createWall: AventureCreateHook<WallDocument.Implementation>;
    updateWall: AventureUpdateHook<WallDocument.Implementation>;
    deleteWall: AventureDeleteHook<WallDocument.Implementation>;
    /** Quench (README): fired once its API is ready, to register batches. */
    quenchReady: (quench: Quench) => void;
    /**
     * dnd5e 5.3.x module/dice/basic-roll.mjs: (config, dialog, message) before the initiative d20 dialog; false stops
     * it.
     */
    "dnd5e.preRollInitiativeDialogV2": (
      config: { subject?: unknown } | undefined,
      dialog: object,
      message: object,
    ) => boolean | void;
    /** dnd5e 5.3.x module/documents/activity/attack.mjs: (rolls, data {subject}) after an attack roll. */
    "dnd5e.postRollAttack": (rolls: unknown, data: { subject?: { actor?: unknown } | null } | undefined) => unknown;
  }

  /** What Aventure reads of a v13 token movement: its origin and waypoints (top-left corners, sizes in grid spaces). */
  interface AventureMovementWaypoints {
    origin: { x: number; y: number; width: number; height: number };
    passed?: { waypoints: readonly { x: number; y: number; width: number; height: number }[] };
    pending: { waypoints: readonly { x: number; y: number; width: number; height: number }[] };
  }
}
