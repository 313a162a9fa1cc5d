/**
 * The Actor data menu (src/actors/ActorDataMenu.ts) in the test world's DOM: every path is shown whole (a field that
 * wraps, never an input that cuts it), a line break typed in a path is dropped when saved, and the window's title.
 */
import { describe, expect, it, vi } from "vitest";
import { addDnd5eActor, bootWorld, GM } from "../world/index.js";
import { DND5E_PATHS } from "../../src/actors/presets.js";
import { pathRows } from "../../src/actors/actor-data-context.js";

vi.setConfig({ testTimeout: 30_000 });

type Menu = {
  render(o: object): Promise<unknown>;
  submit(): Promise<void>;
  click(selector: string): Promise<void>;
  element: HTMLElement;
};

async function openMenu() {
  const world = await bootWorld({ system: "dnd5e", users: [GM] });
  addDnd5eActor(world, { id: "aldric", name: "Aldric" });
  const menu = world.clientOf("gm1").menus.get("aventure.actorDataMenu") as unknown as { type: new () => Menu };
  const app = world.as("gm1", () => new menu.type());
  await world.as("gm1", () => app.render({ force: true }));
  await world.settle();
  return { world, app };
}

describe("Actor data menu", () => {
  it("shows every path whole, in a field that wraps it; the title is 'Actor data'", async () => {
    const { world, app } = await openMenu();
    expect(app.element.querySelector(".window-title")!.textContent).toBe("Actor data");
    // The D&D 5e preset: its longest paths have two alternatives.
    await world.as("gm1", () => app.click("[data-action='preset'][data-preset='dnd5e']"));
    await world.settle();
    expect(app.element.querySelectorAll("input[type=text][name^='paths.']")).toHaveLength(0);
    const fields = [...app.element.querySelectorAll<HTMLTextAreaElement>("textarea[name^='paths.']")];
    expect(fields.length).toBeGreaterThan(10);
    const darkvision = fields.find((f) => f.name === "paths.darkvision")!;
    // Shown as "a | b" so that the field wraps between two paths, never inside one; saved as the preset has it.
    expect(darkvision.value).toBe(DND5E_PATHS.darkvision.split("|").join(" | "));
    // 80 characters: two lines to start with, wherever the browser cannot size the field to its content.
    expect(DND5E_PATHS.darkvision.length).toBeGreaterThan(56);
    expect(darkvision.getAttribute("rows")).toBe("2");
    for (const f of fields)
      expect(f.closest(".form-group")!.querySelector(`label[for="${f.id}"]`)!.textContent!.trim()).not.toBe("");
  });

  it("saves a path without the line breaks and spaces a field may hold", async () => {
    const { world, app } = await openMenu();
    const field = app.element.querySelector<HTMLTextAreaElement>("textarea[name='paths.strScore']")!;
    field.value = "system.abilities.str\n.value | system.abilities.str.base\r\n";
    await world.as("gm1", () => app.submit());
    await world.settle();
    const saved = world.as("gm1", () => game.settings.get("aventure" as never, "actorData" as never)) as Record<
      string,
      string
    >;
    expect(saved.strScore).toBe("system.abilities.str.value|system.abilities.str.base"); // the spaces around | shown in the field are not saved
  });

  it("starts a field with one line per 56 characters, at most 6", () => {
    expect(pathRows("")).toBe(1);
    expect(pathRows("x".repeat(56))).toBe(1);
    expect(pathRows("x".repeat(57))).toBe(2);
    expect(pathRows("x".repeat(5000))).toBe(6);
  });
});
