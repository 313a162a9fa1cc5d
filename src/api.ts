/**
 * The public API: `game.modules.get("aventure").api`. Documented in docs/api.md; names are stable.
 * Each feature adds its entries in `buildApi`.
 */
import * as rules from "./rules/index.js";
import { ActorDataMenu } from "./actors/ActorDataMenu.js";
import { adapterFor } from "./actors/api.js";
import { getSetting } from "./core/settings.js";
import { openEncounter } from "./encounter/api.js";
import { openPolarisTest } from "./polaris/api.js";
import { rollPolarisTest } from "./polaris/api.js";
import { changeIntention } from "./combat/api.js";
import { openTravel } from "./travel/api.js";
import { requestTravel, requestUndo } from "./travel/api.js";
import { planRoute } from "./travel/api.js";
import { openPursuit } from "./pursuit/api.js";
import { lightApi } from "./light/api.js";
import { fall } from "./movement/api.js";
import { openFallDialog, showJumps } from "./movement/api.js";
import { openExploration } from "./exploration/api.js";
import { explorationApi } from "./exploration/api.js";
import { breatheAgainFor, holdBreathFor } from "./breath/api.js";
import { gatedAsync, jumpsPanelUseful, tellFeatureOff, worldFeatures } from "./core/features.js";
import { dnd5eOwners } from "./core/dnd5e-owners.js";

/**
 * Light and hiding: hiding, searching and the detection check are off where the game has no such rule (docs/rules.md
 * §0).
 */
function gatedLightApi() {
  const api = lightApi();
  return {
    ...api,
    hide: gatedAsync("hiding", api.hide),
    hideSelected: gatedAsync("hiding", api.hideSelected),
    setSearching: gatedAsync("hiding", api.setSearching),
    checkDetection: gatedAsync("detection", api.checkDetection),
  };
}

/** The windows the entry point (src/module.ts) hands to the API, so that the glue does not import them. */
export interface ApiWindows {
  /** Opens the first-run window (welcome/WelcomeDialog.ts); null for a player. */
  openWelcome(): Promise<unknown>;
}

export function buildApi(windows: ApiWindows) {
  return {
    /** The pure rules engine (src/rules). */
    rules,
    /** The active ruleset id. */
    ruleset: (): rules.RulesetId => getSetting("ruleset"),
    /**
     * What each game gets (docs/rules.md §0): the features of a ruleset (default: the world's) with the world's
     * borrowings. docs/api.md
     */
    features: (ruleset?: rules.RulesetId) =>
      worldFeatures(ruleset === undefined ? getSetting("ruleset") : rules.ruleset(ruleset)),
    /** Who acts for each rule Aventure and dnd5e both automate (docs/compat.md "Who acts under dnd5e"). docs/api.md */
    dnd5eOwners,
    /** The actor adapter for the running game system. */
    adapter: () => adapterFor(),
    /** Opens the Actor data menu (GM). */
    openActorData: () => new ActorDataMenu().render({ force: true }),
    /** Opens the first-run window, "Which game do you play here?" (GM). docs/api.md */
    openWelcome: () => windows.openWelcome(),
    /** Opens the encounter dialog (GM). docs/api/encounter.md */
    openEncounter: gatedAsync("encounter", openEncounter),
    /** Opens the Polaris test dialog. docs/api/polaris.md */
    openPolarisTest: gatedAsync("polaris", openPolarisTest),
    /** Rolls a Polaris test and posts its card, without the dialog. docs/api/polaris.md */
    polarisTest: gatedAsync("polaris", rollPolarisTest),
    /**
     * A combatant's Adaptation test to change intention (Polaris phases; once per round, on the active GM).
     * docs/api/polaris.md
     */
    changeIntention: gatedAsync("polaris", changeIntention),
    /** Opens the Travel dialog (optionally with a party of actor ids). docs/api/travel.md */
    openTravel: gatedAsync("travel", openTravel),
    /** Applies a journey request on the active GM (as the dialog's Apply does). docs/api/travel.md */
    applyTravel: gatedAsync("travel", requestTravel),
    /** Undoes a journey from its card's message id, as the card's Undo does (GMs). docs/api/travel.md */
    undoTravel: (messageId: string) => requestUndo(messageId),
    /**
     * Opens the Travel dialog for a journey along a route (points, a Drawing, or the selected Drawing).
     * docs/api/travel.md
     */
    planRoute: gatedAsync("travel", planRoute),
    /** Opens the Pursuit dialog (selected tokens, or `{ chaseId }` to continue a chase). docs/api/encounter.md */
    openPursuit: gatedAsync("pursuit", openPursuit),
    /**
     * Light and hiding: hide, setSearching, hideSelected, endHide, lightAt, checkDetection, refreshLight.
     * docs/api/light.md, docs/api/detection.md
     */
    ...gatedLightApi(),
    /** Makes a token or actor fall a number of metres (runs on the active GM). docs/api/movement.md */
    fall: gatedAsync("falls", (tokenOrActor: unknown, metres: number) => fall(tokenOrActor, metres)),
    /** Opens the fall dialog for the selected tokens. docs/api/movement.md */
    fallDialog: gatedAsync("falls", () => openFallDialog()),
    /** Opens the jump panel of the selected tokens. docs/api/movement.md */
    showJumps: async () => (jumpsPanelUseful() || !tellFeatureOff("jumps") ? showJumps() : undefined),
    /** Opens the Exploration panel (GM). docs/api/exploration.md */
    openExploration: gatedAsync("exploration", () => openExploration()),
    /** Exploration time: status, start, end, party, advance, spend, light, putOut (GMs). docs/api/exploration.md */
    exploration: explorationApi(),
    /** A token starts holding its breath (world time; a GM may give `{ conMod }`). docs/api/movement.md */
    holdBreath: gatedAsync("suffocation", (token: unknown, options?: { conMod?: number }) =>
      holdBreathFor(token, options),
    ),
    /** A token breathes again (its held breath or its suffocation ends). docs/api/movement.md */
    breatheAgain: (token: unknown) => breatheAgainFor(token),
  };
}

export type AventureApi = ReturnType<typeof buildApi>;
