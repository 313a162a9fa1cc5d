/**
 * Keybindings (registered in init: Foundry refuses them after setup). None has a default key, so Aventure
 * never takes a key another module or the core uses: GMs and players assign them in Configure Controls.
 */
import { MODULE_ID } from "./core/constants.js";
import { guarded } from "./core/i18n.js";

interface Binding {
  id: string;
  restricted: boolean;
  run: () => boolean;
}

export function registerKeybindings(api: () => object | undefined): void {
  const call = (name: string) => () => {
    const fn: unknown = Reflect.get(api() ?? {}, name);
    if (typeof fn === "function") void guarded(() => (fn as () => unknown)());
    return true;
  };
  const bindings: Binding[] = [
    { id: "hide", restricted: false, run: call("hideSelected") },
    { id: "jumps", restricted: false, run: call("showJumps") },
    { id: "travel", restricted: true, run: call("openTravel") },
    { id: "encounter", restricted: true, run: call("openEncounter") },
  ];
  for (const b of bindings) {
    game.keybindings.register(MODULE_ID, b.id, {
      name: `AVENTURE.Keybindings.${b.id}.name`,
      hint: `AVENTURE.Keybindings.${b.id}.hint`,
      editable: [],
      restricted: b.restricted,
      onDown: b.run,
    });
  }
}
