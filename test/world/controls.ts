/**
 * The scene controls of one client (ui.controls): core prepares its controls, then calls
 * `getSceneControlButtons(controls)` so that modules add theirs, then draws them. v13 and v14: `controls` is a record
 * of SceneControl keyed by name, each with `tools`, a record of SceneControlTool keyed by name
 * (https://foundryvtt.com/api/v13/functions/hookEvents.getSceneControlButtons.html,
 * https://foundryvtt.com/api/v13/interfaces/foundry.SceneControl.html, .../foundry.SceneControlTool.html; v14: the same
 * pages under /api/v14/, where a control's `tools` is optional). The fake checks every tool a module added the way
 * the interfaces type it (name, title, icon, order; a button has an onChange), and `click` calls a button's onChange.
 */
import type { FakeWorld } from "./world.js";

export interface FakeTool {
  name: string;
  title: string;
  icon: string;
  order: number;
  button?: boolean;
  toggle?: boolean;
  visible?: boolean;
  onChange?: (event: unknown, active: boolean) => unknown;
}
export interface FakeControl {
  name: string;
  title: string;
  icon: string;
  order: number;
  visible?: boolean;
  tools?: Record<string, FakeTool>;
}

function tool(name: string, order: number, icon: string): FakeTool {
  return { name, title: `CONTROLS.Basic${name[0]!.toUpperCase()}${name.slice(1)}`, icon, order };
}

/** Core's controls (a subset: tokens, lighting, walls), then the hook on the user's client; the tools checked. */
export function sceneControls(world: FakeWorld, userId: string): Record<string, FakeControl> {
  const client = world.clientOf(userId);
  const controls: Record<string, FakeControl> = {
    tokens: {
      name: "tokens",
      title: "CONTROLS.GroupToken",
      icon: "fa-solid fa-user-alien",
      order: 0,
      tools: {
        select: tool("select", 0, "fa-solid fa-expand"),
        target: tool("target", 1, "fa-solid fa-bullseye"),
        ruler: tool("ruler", 2, "fa-solid fa-ruler"),
      },
    },
    lighting: {
      name: "lighting",
      title: "CONTROLS.GroupLighting",
      icon: "fa-regular fa-lightbulb",
      order: 5,
      visible: client.user.isGM,
      tools: { light: tool("light", 0, "fa-solid fa-lightbulb") },
    },
    walls: {
      name: "walls",
      title: "CONTROLS.GroupWall",
      icon: "fa-solid fa-block-brick",
      order: 6,
      visible: client.user.isGM,
      tools: { walls: tool("walls", 0, "fa-solid fa-bars") },
    },
  };
  world.runOn(client, () => client.hooks.callAll("getSceneControlButtons", controls));
  for (const control of Object.values(controls)) {
    for (const [key, t] of Object.entries(control.tools ?? {})) {
      if (!t || typeof t !== "object") throw new Error(`SceneControlTool ${control.name}.${key}: not an object`);
      if (t.name !== key) throw new Error(`SceneControlTool ${control.name}.${key}: its name must be its key`);
      if (typeof t.title !== "string" || typeof t.icon !== "string" || typeof t.order !== "number")
        throw new Error(`SceneControlTool ${control.name}.${key}: title, icon and order are required`);
      if (t.button && typeof t.onChange !== "function")
        throw new Error(`SceneControlTool ${control.name}.${key}: a button needs onChange`);
    }
  }
  return controls;
}

/** A user clicks a button tool (core calls its onChange on that client). */
export function clickTool(world: FakeWorld, userId: string, control: string, name: string): unknown {
  const t = sceneControls(world, userId)[control]?.tools?.[name];
  if (!t) throw new Error(`Fake scene controls: no tool ${control}.${name} for ${userId}`);
  if (t.visible === false)
    throw new Error(`Fake scene controls: the tool ${control}.${name} is not shown to ${userId}`);
  const client = world.clientOf(userId);
  return world.runOn(client, () => t.onChange?.(new world.window.Event("click"), true));
}
