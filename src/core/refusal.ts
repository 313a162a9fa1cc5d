/**
 * The refusal of a request's field, worded from what its data model declares (FlagModel#bounds): the model decides
 * what is refused, the rules' validators word why, with the field's own range and choices. A bound is thus written
 * once, in the schema (docs/security.md: bad input gets a clear localized message naming the field).
 */
import { RulesError } from "../rules/errors.js";
import { bool, num, oneOf } from "../rules/validate.js";
import type { FieldBounds } from "./flag-model.js";

/** A model whose fields can be asked for what they declare. */
export interface Bounded {
  bounds(path: string): FieldBounds | null;
}

/**
 * Throws the refusal of `value` for the model's field at `path`, named `name`: a number out of the field's range (or
 * not an integer, or not positive), a string not among its choices, a flag that is not a boolean. Returns when the
 * field declares nothing that refuses the value (a document id, an object): the caller then names it as missing.
 */
export function wordRefusal(model: Bounded, path: string, name: string, value: unknown): void {
  const b = model.bounds(path);
  if (b?.kind === "number") {
    const n = num(name, value, { min: b.min, max: b.max, integer: b.integer });
    if (b.positive && n <= 0)
      throw new RulesError("AVENTURE.Error.OutOfRange", { name, value: n, min: b.min ?? 0, max: b.max ?? "∞" });
  } else if (b?.kind === "string" && b.choices) oneOf(name, value, b.choices);
  else if (b?.kind === "boolean") bool(name, value, false);
}
