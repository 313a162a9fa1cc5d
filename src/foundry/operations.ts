/**
 * Exactly once, across reloads and two GMs: a change made of several writes (a journey's exhaustion, counters and
 * world time; a fall's hit points and prone condition) is written as STEPS whose state is read back from the world:
 * a step is done when the document already holds its target value, pending when it still holds the value from
 * before, drifted when it holds neither (someone changed it meanwhile), missing when its document is gone. The
 * operation is recorded on its GM card, marked "applying" (or "undoing") BEFORE the first step; running the steps
 * again only writes the pending ones, so the active GM can finish an interrupted operation on `ready` without doing
 * anything twice, and say on the card what was and was not applied.
 */
import { isActiveGM } from "./gm.js";

export type StepState = "pending" | "done" | "drifted" | "missing";

export interface Step {
  /** A short description for the report (localized by the caller), e.g. the actor's name and what changes. */
  label: string;
  state(): StepState;
  run(): Promise<unknown>;
}

export interface StepReport {
  done: string[];
  applied: string[];
  drifted: string[];
  missing: string[];
}

/** Runs the pending steps in order (each once); reports the others. A step that throws stops the run. */
export async function runSteps(steps: readonly Step[]): Promise<StepReport> {
  const report: StepReport = { done: [], applied: [], drifted: [], missing: [] };
  for (const s of steps) {
    const state = s.state();
    if (state === "pending") {
      await s.run();
      report.applied.push(s.label);
    } else if (state === "done") report.done.push(s.label);
    else if (state === "drifted") report.drifted.push(s.label);
    else report.missing.push(s.label);
  }
  return report;
}

/** The state of a value step: done at `after`, pending at `before`, drifted otherwise (numbers compared exactly). */
export function valueState(current: unknown, before: unknown, after: unknown): StepState {
  if (Object.is(current, after) || JSON.stringify(current) === JSON.stringify(after)) return "done";
  if (Object.is(current, before) || JSON.stringify(current) === JSON.stringify(before)) return "pending";
  return "drifted";
}

const recoveries: { name: string; run: () => Promise<void> }[] = [];

/** Registers what the active GM finishes on `ready` (call in init). */
export function registerRecovery(name: string, run: () => Promise<void>): void {
  if (recoveries.some((r) => r.name === name)) throw new Error(`aventure | recovery ${name} registered twice`);
  recoveries.push({ name, run });
}

/** Runs every feature's recovery on the active GM (ready, or when this client becomes the active GM). */
export async function runRecoveries(): Promise<void> {
  if (!isActiveGM()) return;
  for (const r of recoveries) {
    try {
      await r.run();
    } catch (e) {
      console.error(`aventure | recovery of ${r.name} failed`, e);
    }
  }
}
