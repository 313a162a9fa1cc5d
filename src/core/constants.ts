/** The module id, used for settings, flags, queries, CSS and templates. */
export const MODULE_ID = "aventure";
export const TEMPLATE_ROOT = `modules/${MODULE_ID}/templates`;
export const template = (name: string): string => `${TEMPLATE_ROOT}/${name}`;
