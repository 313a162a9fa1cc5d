/** Test helper: records the calls of a hook on every connected client (which user's client called it, with what). */
import type { FakeWorld } from "./world.js";

export function listen(
  world: FakeWorld,
  name: string,
  fn: (data: Record<string, unknown>) => unknown = () => undefined,
) {
  const calls: { user: string; data: Record<string, unknown> }[] = [];
  for (const c of world.liveClients()) {
    world.as(c.user.id, () =>
      (Hooks.on as unknown as (n: string, f: (d: Record<string, unknown>) => unknown) => number)(name, (data) => {
        calls.push({ user: c.user.id, data });
        return fn(data);
      }),
    );
  }
  return calls;
}
