/**
 * The words of D&D 5e that a game without them must not meet (docs/rules.md §0): under Portes, Monstres & Trésors,
 * Old-School Essentials and Polaris no window, card or HUD part shows them unless the GMs borrowed the rule (and then
 * labelled with its game). One list per language, matched as whole words (French typography included).
 */
export const FORBIDDEN_5E_TERMS: Readonly<Record<"en" | "fr", readonly string[]>> = {
  en: [
    "DC",
    "passive Perception",
    "Wisdom (Perception)",
    "Survival",
    "Athletics",
    "Acrobatics",
    "Stealth",
    "exhaustion level",
    "exhaustion levels",
    "level of exhaustion",
    "levels of exhaustion",
    "Constitution save",
    "Constitution saving throw",
    "disadvantage",
  ],
  fr: [
    "DD",
    "Perception passive",
    "Perc. passive",
    "Sagesse (Perception)",
    "Survie",
    "Athlétisme",
    "Acrobaties",
    "Discrétion",
    "niveau d’épuisement",
    "niveaux d’épuisement",
    "JS de Constitution",
    "jet de sauvegarde de Constitution",
    "désavantage",
  ],
};

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The forbidden 5e terms found in `text` (the text of rendered HTML: tags removed), each once, in list order. */
export function forbiddenTerms(text: string, lang: "en" | "fr"): string[] {
  const plain = text.replace(/<[^>]*>/g, " ").replace(/&nbsp;|&#160;/g, "\u00a0");
  return FORBIDDEN_5E_TERMS[lang].filter((term) =>
    new RegExp(`(?<![\\p{L}\\p{N}])${escape(term)}(?![\\p{L}\\p{N}])`, "iu").test(plain),
  );
}
