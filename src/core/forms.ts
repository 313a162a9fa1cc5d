/** Reading a form as Foundry does: every window and dialog reads its fields through these, never field by field. */

/**
 * A form's values as Foundry reads them: FormDataExtended's flat `object` (field name → value; a checkbox gives a
 * boolean, a number field a number or null when empty),
 * https://foundryvtt.com/api/v13/classes/foundry.applications.ux.FormDataExtended.html.
 * Disabled fields are left out.
 */
export function formValues(form: HTMLFormElement | null | undefined): Record<string, unknown> {
  if (!form) return {};
  return { ...(new foundry.applications.ux.FormDataExtended(form).object as Record<string, unknown>) };
}

/** A field's value as text (a number field's number as its digits, an emptied one as ""); undefined when absent. */
export function formText(values: Record<string, unknown>, name: string): string | undefined {
  const v = values[name];
  return v === undefined ? undefined : v === null ? "" : String(v);
}

/** A checkbox's state (false when absent). */
export function formChecked(values: Record<string, unknown>, name: string): boolean {
  return values[name] === true;
}
