/**
 * The settings of movement costs, jumps and falls (declared as core/settings.ts says; registered by src/settings.ts).
 */
import { choiceField, choicesOf, declareSettings } from "../core/settings.js";

/** Falls on an elevation drop of 3 m or more. */
export const FALL_ON_DROP = ["off", "ask", "automatic"] as const;
export type FallOnDrop = (typeof FALL_ON_DROP)[number];

export const movementSettings = declareSettings(({ fields: f }) => {
  const flag = (initial: boolean) => ({
    scope: "world" as const,
    config: true,
    type: new f.BooleanField(),
    default: initial,
  });
  return {
    movementCosts: flag(true),
    movementRefuse: flag(false),
    jumpWarning: flag(true),
    // docs/rules.md §3.1: remind Strength (Athletics) at the GM's call when a path climbs or swims.
    athleticsReminder: flag(true),
    fallRegions: flag(true),
    fallOnDrop: {
      scope: "world",
      config: true,
      type: choiceField(f, choicesOf(FALL_ON_DROP, "AVENTURE.Settings.fallOnDrop.choices")),
      default: "ask",
    },
  };
});
