/** Open Aventure windows: re-rendered when the ruleset changes. */
const open = new Set<{ render: (options?: object) => unknown }>();

export function trackWindow(app: { render: (options?: object) => unknown }): void {
  open.add(app);
}
export function untrackWindow(app: { render: (options?: object) => unknown }): void {
  open.delete(app);
}
export function onRulesetChange(): void {
  for (const app of open) app.render();
}
export function openWindowCount(): number {
  return open.size;
}
