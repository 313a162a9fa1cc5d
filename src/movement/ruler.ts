/**
 * The token ruler: a subclass of the configured TokenRuler (core's or the system's) whose waypoint labels
 * show the cost in the display unit, the movement left this turn for the combatant whose turn it is (marked
 * when exceeded), and a warning when a single jump is longer than the token's long jump.
 * API: CONFIG.Token.rulerClass, TokenRuler#_getWaypointLabelContext and WAYPOINT_LABEL_TEMPLATE
 * (https://foundryvtt.com/api/v13/classes/foundry.canvas.placeables.tokens.TokenRuler.html; docs/compat.md).
 */
import { featureActive, terrainCostsApply } from "../core/features.js";
import { template } from "../core/constants.js";
import { BUDGET_ACTIONS, jumpTooLong, longJump, movementBudget, type BudgetAction } from "../rules/movement.js";
import type { Speeds } from "../actors/api.js";
import { loadTemplatesCompat } from "../core/compat.js";
import { getSetting } from "../core/settings.js";
import { aventureLabel, lengthForDisplay, signedText, type AventureLabel } from "./label.js";
import {
  isCurrentCombatant,
  movementStats,
  sceneToMetres,
  sceneUnit,
  type MovementStats,
  type SceneLike,
} from "./token-data.js";

/** What the ruler reads of a waypoint (core's TokenRulerWaypoint). */
export interface RulerWaypoint {
  action: string;
  previous: RulerWaypoint | null;
  measurement: { distance: number; cost: number };
  /** The waypoint's elevation in grid units. */
  elevation?: number;
}

/** Per-render state kept across the waypoints of one path (in scene units). */
interface JumpState {
  stats?: MovementStats | null;
  /** Length of the current jump (consecutive jump segments). */
  run: number;
  /** Length of the non-jump movement just before it (the run-up). */
  runUp: number;
  jumping: boolean;
  /** Cumulative cost (scene units) at the last waypoint that got a label: the start of the label's delta. */
  lastLabelCost: number;
  /** Cumulative distance and elevation at the last labelled waypoint (for their deltas). */
  lastLabelDistance?: number;
  lastLabelElevation?: number;
}

const isBudgetAction = (a: string): a is BudgetAction => (BUDGET_ACTIONS as readonly string[]).includes(a);

/** The movement budget (metres) for a Foundry movement action: the rules' budget; other actions use walking's. */
export function budgetFor(speeds: Speeds, action: string): number {
  return movementBudget(speeds, isBudgetAction(action) ? action : "walk");
}

interface TokenLike {
  document: { id: string | null; name: string; actor: unknown; parent: unknown; movementAction?: string };
  actor?: unknown;
}

/** The Aventure label for a waypoint, updating the jump state; null when nothing applies. */
export function labelFor(
  token: TokenLike,
  waypoint: RulerWaypoint,
  state: Record<string, unknown>,
): AventureLabel | null {
  const doc = token.document;
  const scene = doc.parent as SceneLike | null;
  const unit = sceneUnit(scene);
  const s = (state.aventure ??= { run: 0, runUp: 0, jumping: false, lastLabelCost: 0 }) as JumpState;
  if (s.stats === undefined) s.stats = doc.actor ? movementStats(doc.actor) : null;

  // Jump tracking (every waypoint, labelled or not).
  let jump: { metres: number; longJump: number } | null = null;
  if (waypoint.previous) {
    const seg = Math.max(0, waypoint.measurement.distance - waypoint.previous.measurement.distance);
    if (waypoint.action === "jump") {
      if (!s.jumping) s.run = 0;
      s.jumping = true;
      s.run += seg;
    } else {
      if (s.jumping) s.runUp = 0;
      s.jumping = false;
      s.runUp += seg;
    }
    const strength = s.stats?.strScore ?? null;
    if (s.jumping && strength !== null && getSetting("jumpWarning") && featureActive("jumps")) {
      const metres = sceneToMetres(s.run, scene);
      const runUp = sceneToMetres(s.runUp, scene);
      if (metres !== null && runUp !== null) {
        const ruleset = getSetting("ruleset");
        if (jumpTooLong(ruleset, { strength, runUp, metres }))
          jump = { metres, longJump: longJump(ruleset, { strength, runUp }) };
      }
    }
  }

  const speeds = s.stats?.speeds ?? null;
  const budgetMetres = speeds && isCurrentCombatant(doc) ? budgetFor(speeds, waypoint.action) : null;
  return aventureLabel({
    cost: waypoint.measurement.cost,
    previousCost: s.lastLabelCost,
    sceneUnits: scene?.grid?.units ?? "",
    unit,
    feetFactor: getSetting("feetFactor"),
    display: getSetting("distanceDisplay"),
    budgetMetres,
    jump,
    lang: game.i18n.lang,
    localize: (k, d) => (d ? game.i18n.format(k, d as Record<string, string>) : game.i18n.localize(k)),
  });
}

/** The movement actions that may call for Strength (Athletics) at the GM's call (docs/rules.md §3.1). */
const ATHLETICS_ACTIONS: ReadonlySet<string> = new Set(["climb", "swim"]);

/**
 * docs/rules.md §3.1: whether the path climbs or swims between the previous labelled waypoint and this one (the
 * reminder goes on the label that ends such a stretch, once). Remembers this waypoint as the last labelled one.
 */
export function climbsOrSwimsSinceLabel(waypoint: RulerWaypoint, state: Record<string, unknown>): boolean {
  const last = state.aventureLastLabelled;
  let found = false;
  for (let w: RulerWaypoint | null = waypoint; w?.previous && w !== last; w = w.previous) {
    if (ATHLETICS_ACTIONS.has(w.action)) found = true;
  }
  state.aventureLastLabelled = waypoint;
  return found;
}

type RulerClass = typeof foundry.canvas.placeables.tokens.TokenRuler;

/** The label context fields core (or the system) gives that carry lengths. */
interface LabelContext {
  cost?: { total: string; units: string; delta?: string };
  distance?: { total: string; delta?: string };
  elevation?: { total: string | number; delta?: string; hidden?: boolean; icon?: string };
  units?: string;
  cssClass?: string;
  [key: string]: unknown;
}

/**
 * A subclass of `Base` (the configured ruler class: core's or the system's) with Aventure's label: it ADDS to the
 * context the base class builds — lengths in one display unit (cost, distance and elevation alike), the movement left,
 * the jump warning, the Strength (Athletics) reminder on climbs and swims — and renders the base class's own label
 * template first (as a partial: `aventureBase`), then its additions; a system's label content is kept.
 */
export function makeAventureRuler(Base: RulerClass): RulerClass {
  const baseTemplate =
    // cast: a static of core's TokenRuler the pinned types lack
    (Base as unknown as { WAYPOINT_LABEL_TEMPLATE?: string }).WAYPOINT_LABEL_TEMPLATE ??
    "templates/hud/waypoint-label.hbs";
  // cast: the system's ruler class (a runtime value) as the constructor Aventure extends
  const Ruler = Base as unknown as new (...args: never[]) => {
    token: TokenLike;
    _getWaypointLabelContext(waypoint: unknown, state: unknown): object | void;
  };
  class AventureTokenRuler extends Ruler {
    static WAYPOINT_LABEL_TEMPLATE = template("movement/waypoint-label.hbs");
    static AVENTURE_BASE_TEMPLATE = baseTemplate;

    override _getWaypointLabelContext(waypoint: unknown, state: unknown): object | void {
      const context = super._getWaypointLabelContext(waypoint, state) as LabelContext | void;
      if (!context) return context;
      const out: LabelContext = { ...context, aventureBase: baseTemplate };
      // docs/rules.md §3.1: a hard climb, icy water or currents call for Strength (Athletics) at the GM's call. A
      // reminder of its own, on or off with its setting, whether or not Aventure computes the costs.
      if (
        climbsOrSwimsSinceLabel(waypoint as RulerWaypoint, state as Record<string, unknown>) &&
        getSetting("athleticsReminder") &&
        terrainCostsApply()
      ) {
        out.aventureAthletics = game.i18n.localize("AVENTURE.Movement.Ruler.athletics");
      }
      if (!getSetting("movementCosts") || !terrainCostsApply()) return out; // the automation is off: the base class's label (and the reminder)
      let aventure: AventureLabel | null = null;
      try {
        aventure = labelFor(this.token, waypoint as RulerWaypoint, state as Record<string, unknown>);
      } catch (e) {
        console.error("aventure | ruler label", e);
      }
      if (!aventure) return out;
      const wp = waypoint as RulerWaypoint;
      const s = (state as { aventure: JumpState }).aventure;
      s.lastLabelCost = wp.measurement.cost;
      // The cost: ours (in the display unit). Core's delta (if any) is in grid units: ours, in the unit of the total.
      const { delta, ...cost } = aventure.cost;
      out.cost = {
        ...(context.cost ?? {}),
        ...cost,
        ...(context.cost?.delta !== undefined && delta !== undefined ? { delta } : {}),
      };
      // Distance and elevation in the same unit as the cost, so that a label never mixes metres and feet.
      const scene = this.token.document.parent as SceneLike | null;
      const display = {
        unit: sceneUnit(scene),
        feetFactor: getSetting("feetFactor"),
        display: getSetting("distanceDisplay"),
        sceneUnits: scene?.grid?.units ?? "",
        lang: game.i18n.lang,
      };
      if (context.distance) {
        const d = lengthForDisplay(wp.measurement.distance, display);
        const prev = s.lastLabelDistance;
        out.distance = {
          ...context.distance,
          total: d.text,
          ...(context.distance.delta !== undefined && prev !== undefined
            ? { delta: signedText(d.value - lengthForDisplay(prev, display).value, display.lang) }
            : {}),
        };
        s.lastLabelDistance = wp.measurement.distance;
      }
      if (context.elevation && typeof wp.elevation === "number") {
        const e = lengthForDisplay(wp.elevation, display);
        const prev = s.lastLabelElevation;
        out.elevation = {
          ...context.elevation,
          total: e.text,
          ...(context.elevation.delta !== undefined && prev !== undefined
            ? { delta: signedText(e.value - lengthForDisplay(prev, display).value, display.lang) }
            : {}),
        };
        s.lastLabelElevation = wp.elevation;
      }
      out.units = aventure.units;
      if (aventure.exceeded) out.cssClass = `${context.cssClass ?? ""} aventure-exceeded`.trim();
      out.aventure = aventure;
      return out;
    }
  }
  return AventureTokenRuler as unknown as RulerClass; // cast: the subclass as the pinned TokenRuler class type
}

/**
 * Sets CONFIG.Token.rulerClass to Aventure's subclass of the current one (call at `setup`) and loads the
 * label template ahead, so that the first drag does not wait for it.
 */
export function installRuler(): void {
  const config = CONFIG.Token as unknown as { rulerClass: RulerClass }; // cast: CONFIG.Token.rulerClass gets the subclass (the pinned type wants core's exact class)
  const ruler = makeAventureRuler(config.rulerClass);
  config.rulerClass = ruler;
  // Both templates as partials: Aventure's label renders the base class's label inside it.
  const base = (ruler as unknown as { AVENTURE_BASE_TEMPLATE: string }).AVENTURE_BASE_TEMPLATE; // cast: a static the subclass adds
  void loadTemplatesCompat([base, template("movement/waypoint-label.hbs")]).catch((e: unknown) =>
    console.error("aventure | ruler template", e),
  );
}
