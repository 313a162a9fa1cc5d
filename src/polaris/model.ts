/**
 * Aventure's own Polaris character type (docs/rules.md §9.3): an Actor
 * sub-type of the module, `aventure.polaris`, declared in module.json (documentTypes.Actor.polaris), with a
 * TypeDataModel whose schema types and checks every value (whole numbers in the bounds of actor-type.ts), and its sheet
 * (polaris/PolarisActorSheet.ts), registered for that type only and as its default. Called in `init` by the entry
 * point.
 * Foundry: https://foundryvtt.com/article/module-sub-types/ and foundry.abstract.TypeDataModel (v13 API).
 */
import { MODULE_ID } from "../core/constants.js";
import {
  POLARIS_ACTOR_TYPE,
  POLARIS_ATTRIBUTES,
  POLARIS_BOUNDS,
  POLARIS_LABEL_MAX,
  POLARIS_SKILL_KEY,
} from "./actor-type.js";

/** The icon of the type in the Actors directory's create dialog. */
export const POLARIS_ACTOR_ICON = "icons/svg/d20-grey.svg";

/** Builds the TypeDataModel class (foundry.data.fields exists only inside Foundry, hence a function). */
function polarisActorModel(): unknown {
  const { TypeDataModel } = foundry.abstract;
  const { NumberField, SchemaField, StringField, TypedObjectField } = foundry.data.fields;
  const whole = (b: { min: number; max: number }) =>
    new NumberField({ required: true, nullable: true, integer: true, min: b.min, max: b.max, initial: null });
  // cast: the v13 TypeDataModel base as a plain constructor (its pinned generics need the schema's type)
  const Base: new (...args: never[]) => object = TypeDataModel as never;
  class PolarisActorModel extends Base {
    static defineSchema() {
      return {
        attributes: new SchemaField(
          Object.fromEntries(
            POLARIS_ATTRIBUTES.map((k) => [k, new SchemaField({ value: whole(POLARIS_BOUNDS.level) })]),
          ),
        ),
        chance: whole(POLARIS_BOUNDS.level),
        reaction: whole(POLARIS_BOUNDS.level),
        initiative: whole(POLARIS_BOUNDS.level),
        skills: new TypedObjectField(
          new SchemaField({
            label: new StringField({
              required: true,
              blank: false,
              trim: true,
              initial: "—",
              validate: (v: unknown) => typeof v === "string" && v.length <= POLARIS_LABEL_MAX,
            }),
            attribute: new StringField({
              required: true,
              nullable: true,
              blank: false,
              initial: null,
              choices: [...POLARIS_ATTRIBUTES],
            }),
            level: whole(POLARIS_BOUNDS.level),
            mastery: whole(POLARIS_BOUNDS.mastery),
          }),
          { validateKey: (k: string) => POLARIS_SKILL_KEY.test(k) },
        ),
      };
    }
  }
  return PolarisActorModel;
}

/**
 * Registers the type's data model, icon and sheet (in `init`; the entry point hands the sheet class,
 * polaris/PolarisActorSheet.ts).
 */
export function registerPolarisActor(sheet: unknown): void {
  // cast: registering a module sub-type: the pinned dataModels record has only the configured types
  const config: { dataModels: Record<string, unknown>; typeIcons?: Record<string, string> } = CONFIG.Actor as never;
  config.dataModels[POLARIS_ACTOR_TYPE] = polarisActorModel();
  config.typeIcons ??= {};
  config.typeIcons[POLARIS_ACTOR_TYPE] = POLARIS_ACTOR_ICON;
  const { DocumentSheetConfig } = foundry.applications.apps;
  const options = { types: [POLARIS_ACTOR_TYPE], makeDefault: true, label: "AVENTURE.PolarisActor.sheet" };
  // cast: the pinned registerSheet wants a configured Actor class and a sheet of the configured types
  DocumentSheetConfig.registerSheet(Actor as never, MODULE_ID, sheet as never, options);
}
