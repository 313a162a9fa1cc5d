/**
 * The sheet of Aventure's Polaris character type (polaris/PolarisActorSheet.ts): its template's context, and the
 * reading of
 * its form into one update (docs/rules.md §9.3). Pure: tested and
 * screenshotted without Foundry. The form is checked against the same bounds as the data model (actor-type.ts): a value
 * that is not a whole number in its range is refused with a clear message and nothing is written.
 */
import {
  POLARIS_ATTRIBUTES,
  POLARIS_BOUNDS,
  POLARIS_LABEL_MAX,
  POLARIS_MAX_SKILLS,
  POLARIS_SCORES,
  POLARIS_SKILL_KEY,
  type PolarisActorSystem,
  type PolarisAttribute,
} from "./actor-type.js";
import { UserError } from "../core/i18n.js";

type Localize = (key: string, data?: Record<string, string>) => string;

export interface PolarisSheetNumber {
  name: string;
  label: string;
  value: string;
}
export interface PolarisSheetSkill {
  key: string;
  label: string;
  attribute: string;
  level: string;
  mastery: string;
  names: { label: string; attribute: string; level: string; mastery: string };
  attributes: { value: string; label: string; selected: boolean }[];
}
export interface PolarisSheetContext extends Record<string, unknown> {
  name: string;
  img: string;
  editable: boolean;
  attributes: PolarisSheetNumber[];
  scores: PolarisSheetNumber[];
  skills: PolarisSheetSkill[];
  canAddSkill: boolean;
  bounds: { levelMin: number; levelMax: number; masteryMin: number; masteryMax: number };
}

const show = (v: unknown): string => (typeof v === "number" && Number.isFinite(v) ? String(v) : "");

/** The template's context for an actor of the type (its name, image and system data as stored). */
export function polarisSheetContext(
  input: { name: string; img: string; system: Partial<PolarisActorSystem> | null | undefined; editable: boolean },
  localize: Localize,
): PolarisSheetContext {
  const sys = input.system ?? {};
  const attributes = POLARIS_ATTRIBUTES.map((k) => ({
    name: `system.attributes.${k}.value`,
    label: localize(`AVENTURE.PolarisActor.attribute.${k}`),
    value: show(sys.attributes?.[k]?.value),
  }));
  const scores = POLARIS_SCORES.map((k) => ({
    name: `system.${k}`,
    label: localize(`AVENTURE.PolarisActor.${k}`),
    value: show(sys[k]),
  }));
  const skills = Object.entries(sys.skills ?? {}).map(([key, s]): PolarisSheetSkill => {
    const attribute = s?.attribute ?? "";
    return {
      key,
      label: String(s?.label ?? ""),
      attribute,
      level: show(s?.level),
      mastery: show(s?.mastery),
      names: {
        label: `system.skills.${key}.label`,
        attribute: `system.skills.${key}.attribute`,
        level: `system.skills.${key}.level`,
        mastery: `system.skills.${key}.mastery`,
      },
      attributes: [
        { value: "", label: "—", selected: attribute === "" },
        ...POLARIS_ATTRIBUTES.map((a) => ({
          value: a,
          label: localize(`AVENTURE.PolarisActor.attributeShort.${a}`),
          selected: attribute === a,
        })),
      ],
    };
  });
  return {
    name: input.name,
    img: input.img,
    editable: input.editable,
    attributes,
    scores,
    skills,
    canAddSkill: input.editable && skills.length < POLARIS_MAX_SKILLS,
    bounds: {
      levelMin: POLARIS_BOUNDS.level.min,
      levelMax: POLARIS_BOUNDS.level.max,
      masteryMin: POLARIS_BOUNDS.mastery.min,
      masteryMax: POLARIS_BOUNDS.mastery.max,
    },
  };
}

/**
 * A form value as the type stores it: "" (or nothing) → null; otherwise a whole number within `bounds`. Anything else
 * throws a UserError naming the field (`label`) and the range.
 */
export function parseSheetNumber(value: unknown, label: string, bounds: { min: number; max: number }): number | null {
  if (value === null || value === undefined) return null;
  const text =
    typeof value === "number" ? String(value) : typeof value === "string" ? value.trim().replace("−", "-") : null;
  if (text === "") return null;
  const n = text === null ? Number.NaN : Number(text);
  if (!Number.isInteger(n) || n < bounds.min || n > bounds.max) {
    throw new UserError("AVENTURE.PolarisActor.badNumber", { field: label, min: bounds.min, max: bounds.max });
  }
  return n;
}

/**
 * The update a submitted form makes (FormDataExtended's flat `object`: field name → value), checked against the type's
 * bounds; throws a UserError (nothing to write) on the first bad value. Only the fields the form has are written; a
 * skill key the actor does not have is refused (skills are added with the sheet's button).
 */
export function parsePolarisSheet(
  form: Record<string, unknown>,
  current: Partial<PolarisActorSystem>,
  localize: Localize,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (typeof form.name === "string") {
    const name = form.name.trim();
    if (!name) throw new UserError("AVENTURE.PolarisActor.badName");
    out.name = name;
  }
  for (const k of POLARIS_ATTRIBUTES) {
    const field = `system.attributes.${k}.value`;
    if (field in form)
      out[field] = parseSheetNumber(
        form[field],
        localize(`AVENTURE.PolarisActor.attribute.${k}`),
        POLARIS_BOUNDS.level,
      );
  }
  for (const k of POLARIS_SCORES) {
    const field = `system.${k}`;
    if (field in form)
      out[field] = parseSheetNumber(form[field], localize(`AVENTURE.PolarisActor.${k}`), POLARIS_BOUNDS.level);
  }
  const known = new Set(Object.keys(current.skills ?? {}));
  for (const [field, value] of Object.entries(form)) {
    const m = /^system\.skills\.([^.]+)\.(label|attribute|level|mastery)$/.exec(field);
    if (!m) continue;
    const key = m[1]!;
    const part = m[2] as "label" | "attribute" | "level" | "mastery";
    if (!POLARIS_SKILL_KEY.test(key) || !known.has(key)) throw new UserError("AVENTURE.PolarisActor.badSkill");
    const name = String(form[`system.skills.${key}.label`] ?? current.skills?.[key]?.label ?? key).trim() || key;
    if (part === "label") {
      const label = typeof value === "string" ? value.trim() : "";
      if (!label || label.length > POLARIS_LABEL_MAX)
        throw new UserError("AVENTURE.PolarisActor.badLabel", { max: POLARIS_LABEL_MAX });
      out[field] = label;
    } else if (part === "attribute") {
      const a = typeof value === "string" ? value : "";
      if (a !== "" && !(POLARIS_ATTRIBUTES as readonly string[]).includes(a))
        throw new UserError("AVENTURE.PolarisActor.badSkill");
      out[field] = a === "" ? null : (a as PolarisAttribute);
    } else {
      const what = localize(`AVENTURE.PolarisActor.${part}`);
      out[field] = parseSheetNumber(
        value,
        `${name} (${what})`,
        part === "level" ? POLARIS_BOUNDS.level : POLARIS_BOUNDS.mastery,
      );
    }
  }
  return out;
}

/** A new skill's key: "skill" and the first free number (keys are never reused while the skill exists). */
export function newSkillKey(skills: Record<string, unknown> | undefined): string {
  const used = new Set(Object.keys(skills ?? {}));
  let i = used.size + 1;
  while (used.has(`skill${i}`)) i++;
  return `skill${i}`;
}
