/**
 * The settings of light, hiding and ambient detection (declared as core/settings.ts says; registered by
 * src/settings.ts).
 */
import { choiceField, choicesOf, declareSettings } from "../core/settings.js";

/** Ambient detection: what happens when an observer's passive Perception notices a hidden creature. */
export const DETECTION_MODES = ["prompt", "auto", "off"] as const;
export type DetectionMode = (typeof DETECTION_MODES)[number];
/**
 * Which tokens may notice a hidden creature besides those it hid from: friendly ↔ hostile only, or any other
 * disposition.
 */
export const DETECTION_OBSERVERS = ["hostile", "all"] as const;
export type DetectionObservers = (typeof DETECTION_OBSERVERS)[number];

export const lightSettings = declareSettings(({ fields: f }) => {
  const threshold = (initial: number) => ({
    scope: "world" as const,
    config: true,
    type: new f.NumberField({ required: true, nullable: false, min: 0, max: 1, step: 0.05 }),
    default: initial,
  });
  return {
    lightEffects: { scope: "world", config: true, type: new f.BooleanField(), default: false },
    lightIcons: { scope: "client", config: true, type: new f.BooleanField(), default: true },
    lightThresholdBright: threshold(0.25),
    lightThresholdDim: threshold(0.75),
    detectionMode: {
      scope: "world",
      config: true,
      type: choiceField(f, choicesOf(DETECTION_MODES, "AVENTURE.Settings.detectionMode.choices")),
      default: "prompt",
    },
    detectionObservers: {
      scope: "world",
      config: true,
      type: choiceField(f, choicesOf(DETECTION_OBSERVERS, "AVENTURE.Settings.detectionObservers.choices")),
      default: "hostile",
    },
    // The 0.1.0 searching marks and hide flags on tokens were listed for the GMs and removed (searching.ts), once per
    // world.
    searchingMarksMigrated: { scope: "world", config: false, type: new f.BooleanField(), default: false },
  };
});
