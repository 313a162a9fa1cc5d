/**
 * Real Handlebars with the few Foundry helpers our templates use, reading templates from the repo the way
 * Foundry serves them ("modules/aventure/templates/x.hbs" → templates/x.hbs). Shared by the template check,
 * the fake's renderTemplate and the browser screenshots.
 */
import Handlebars from "handlebars";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";

export const ROOT = resolve(import.meta.dirname, "../..");
export const TEMPLATES = join(ROOT, "templates");

export function listTemplates(dir = TEMPLATES): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? listTemplates(p) : p.endsWith(".hbs") ? [p] : [];
  });
}

export function templatePath(foundryPath: string): string {
  const prefix = "modules/aventure/templates/";
  if (!foundryPath.startsWith(prefix)) throw new Error(`Not an Aventure template path: ${foundryPath}`);
  return join(TEMPLATES, foundryPath.slice(prefix.length));
}

/** A Handlebars environment with Foundry-like helpers; `localize` throws on unknown keys. */
export function makeHandlebars(translate: (key: string, data?: Record<string, unknown>) => string, lang = "en") {
  const hb = Handlebars.create();
  hb.registerHelper("localize", (key: string, options: { hash: Record<string, unknown> }) =>
    translate(key, Object.keys(options.hash ?? {}).length ? options.hash : undefined),
  );
  hb.registerHelper("eq", (a: unknown, b: unknown) => a === b);
  hb.registerHelper("ne", (a: unknown, b: unknown) => a !== b);
  hb.registerHelper("gt", (a: number, b: number) => a > b);
  hb.registerHelper("and", (...args: unknown[]) => args.slice(0, -1).every(Boolean));
  hb.registerHelper("or", (...args: unknown[]) => args.slice(0, -1).some(Boolean));
  hb.registerHelper("not", (a: unknown) => !a);
  hb.registerHelper("checked", (v: unknown) => (v ? "checked" : ""));
  hb.registerHelper("disabled", (v: unknown) => (v ? "disabled" : ""));
  hb.registerHelper("ifThen", (c: unknown, a: unknown, b: unknown) => (c ? a : b));
  hb.registerHelper("concat", (...args: unknown[]) => args.slice(0, -1).join(""));
  hb.registerHelper("json", (v: unknown) => JSON.stringify(v));
  hb.registerHelper("numberFormat", (v: number, options: { hash: { decimals?: number; sign?: boolean } }) => {
    const d = options.hash.decimals ?? 0;
    const s = Number(v).toFixed(d);
    return options.hash.sign && v >= 0 ? `+${s}` : s;
  });
  // Same as src/core/handlebars.ts, with the language of the translations.
  hb.registerHelper("aventureMetres", (value: unknown) =>
    typeof value === "number" && Number.isFinite(value)
      ? `${new Intl.NumberFormat(lang, { maximumFractionDigits: 1 }).format(value)} m`
      : "—",
  );
  hb.registerHelper(
    "selectOptions",
    (
      choices: Record<string, string> | { value: string; label: string }[],
      options: { hash: { selected?: unknown; localize?: boolean } },
    ) => {
      const sel = options.hash.selected;
      const entries = Array.isArray(choices)
        ? choices.map((c) => [c.value, c.label] as const)
        : Object.entries(choices);
      const html = entries
        .map(([v, l]) => {
          const label = options.hash.localize ? translate(l) : l;
          return `<option value="${hb.escapeExpression(v)}"${String(v) === String(sel) ? " selected" : ""}>${hb.escapeExpression(label)}</option>`;
        })
        .join("");
      return new hb.SafeString(html);
    },
  );
  // A stand-in for core's waypoint label (templates/hud/waypoint-label.hbs), written for these tests from the fields
  // the v13 label context carries (TokenRuler#_getWaypointLabelContext: action, cost, distance, elevation, units,
  // secret): Aventure's label renders the base class's template as a partial and adds to it.
  hb.registerPartial(
    "templates/hud/waypoint-label.hbs",
    `<div class="waypoint-label {{cssClass}}">{{#if action.label}}<label class="action-label">{{localize action.label}}</label>{{/if}}` +
      `{{#if cost}}<span class="total-measurement">{{cost.total}} {{cost.units}}</span>{{#if cost.delta}}<span class="delta-measurement">({{cost.delta}})</span>{{/if}}` +
      `{{else if distance}}<span class="total-measurement">{{distance.total}} {{units}}</span>{{/if}}` +
      `{{#if (and elevation (not elevation.hidden))}}<i class="icon {{elevation.icon}}" aria-hidden="true"></i><span class="total-elevation">{{elevation.total}} {{units}}</span>` +
      `{{#if elevation.delta}}<span class="delta-elevation">({{elevation.delta}})</span>{{/if}}{{/if}}</div>`,
  );
  // Partials: every template is registered under its Foundry path.
  for (const file of listTemplates()) {
    const name = `modules/aventure/templates/${relative(TEMPLATES, file).replaceAll("\\", "/")}`;
    hb.registerPartial(name, readFileSync(file, "utf8"));
  }
  return hb;
}

export function renderWith(hb: ReturnType<typeof makeHandlebars>, foundryPath: string, context: object): string {
  const src = readFileSync(templatePath(foundryPath), "utf8");
  return hb.compile(src, { strict: false })(context);
}
