/**
 * The ambient-detection benchmark's scene (issue 15), shared with the deterministic test that counts the work
 * (test/foundry/detection.test.ts): a 6000 × 4000 px dungeon level (a 60 × 40 grid of 1.5 m squares) with 240 wall
 * segments, 60 light sources, 40 hidden creatures and 60 observers. Line of sight is a straight scan of every wall,
 * standing in for Foundry's sight collision test (which is slower: it also handles wall types, directions and
 * elevations). Every token's light comes from the light feature's own computation (compute.ts).
 */
import { lightAtToken, prepareScene, type PlainLightSource, type PlainToken, type PreparedScene } from "../src/light/compute.js";
import type { DetectHider, DetectObserver, DetectPoint, DetectScene } from "../src/light/detection-pairs.js";
import { rng } from "./rng.js";


type Wall = readonly [number, number, number, number];

function crosses(ax: number, ay: number, bx: number, by: number, w: Wall): boolean {
  const [cx, cy, dx, dy] = w;
  const rX = bx - ax;
  const rY = by - ay;
  const sX = dx - cx;
  const sY = dy - cy;
  const den = rX * sY - rY * sX;
  if (den === 0) return false;
  const t = ((cx - ax) * sY - (cy - ay) * sX) / den;
  const u = ((cx - ax) * rY - (cy - ay) * rX) / den;
  return t >= 0 && t <= 1 && u >= 0 && u <= 1;
}

export interface DetectionBenchScene {
  scene: DetectScene;
  walls: Wall[];
  lights: PlainLightSource[];
  prepared: PreparedScene;
  /** Every token's position and what the light computation needs. */
  tokens: PlainToken[];
  hiders: DetectHider[];
  observers: DetectObserver[];
  /** Recomputes the light of the given tokens (all when undefined) into their hider records. */
  relight(ids?: ReadonlySet<string>): void;
  /** A light is put out (or lit again): the sources are prepared again, then every token's light recomputed. */
  toggleLight(index: number): void;
}

export function detectionScene(seed = 11): DetectionBenchScene {
  const r = rng(seed);
  const W = 6000;
  const H = 4000;
  const walls: Wall[] = [];
  // Rooms: a 6 × 4 grid of 1000 px cells, each wall with a door gap; plus loose segments (pillars, rubble).
  for (let i = 1; i < 6; i++) for (let j = 0; j < 4; j++) walls.push([i * 1000, j * 1000, i * 1000, j * 1000 + 400], [i * 1000, j * 1000 + 600, i * 1000, (j + 1) * 1000]);
  for (let j = 1; j < 4; j++) for (let i = 0; i < 6; i++) walls.push([i * 1000, j * 1000, i * 1000 + 400, j * 1000], [i * 1000 + 600, j * 1000, (i + 1) * 1000, j * 1000]);
  while (walls.length < 240) {
    const x = r() * W;
    const y = r() * H;
    const a = r() * Math.PI;
    const len = 50 + r() * 150;
    walls.push([x, y, x + Math.cos(a) * len, y + Math.sin(a) * len]);
  }
  const lights: PlainLightSource[] = Array.from({ length: 60 }, (_, i) => {
    const x = r() * W;
    const y = r() * H;
    return { id: `l${i}`, x, y, bright: 400, dim: 800 };
  });
  let prepared = prepareScene(lights);
  const out = new Set<number>();
  const tokens: PlainToken[] = Array.from({ length: 100 }, (_, i) => ({ id: `t${i}`, x: r() * W, y: r() * H, elevation: 0, darkness: 1, globalLight: false }));
  const hiders: DetectHider[] = tokens.slice(0, 40).map((t) => ({
    id: t.id,
    x: t.x,
    y: t.y,
    elevation: 0,
    dc: 8 + Math.floor(r() * 20), // d20 + 3..+7
    light: "dark",
    obscurity: r() < 0.1 ? "light" : "none",
    invisible: false,
    disposition: 1,
    from: new Set<string>(),
    seenBy: new Set<string>(),
  }));
  const observers: DetectObserver[] = tokens.slice(40).map((t) => ({
    id: t.id,
    x: t.x,
    y: t.y,
    elevation: 0,
    senses: r() < 0.3 ? { darkvision: 18 } : {},
    passive: 8 + Math.floor(r() * 10),
    searching: r() < 0.05,
    disposition: -1,
  }));
  const byId = new Map(hiders.map((h) => [h.id, h]));
  const relight = (ids?: ReadonlySet<string>) => {
    for (const t of tokens) {
      if (ids && !ids.has(t.id)) continue;
      const h = byId.get(t.id);
      const level = lightAtToken(t, prepared).level;
      if (h) h.light = level;
    }
  };
  relight();
  const scene: DetectScene = {
    ruleset: "dnd5e",
    metresPerPixel: 0.015,
    observers: "hostile",
    lineOfSight: (a: DetectPoint, b: DetectPoint) => {
      for (const w of walls) if (crosses(a.x, a.y, b.x, b.y, w)) return false;
      return true;
    },
  };
  const toggleLight = (index: number) => {
    if (out.has(index)) out.delete(index);
    else out.add(index);
    prepared = prepareScene(lights.filter((_, i) => !out.has(i)));
    relight();
  };
  return { scene, walls, lights, prepared, tokens, hiders, observers, relight, toggleLight };
}

/** Moves token `id` (a hider or an observer) to a new spot, as a drag on the canvas would. */
export function moveToken(s: DetectionBenchScene, id: string, x: number, y: number): void {
  const t = s.tokens.find((k) => k.id === id)!;
  t.x = x;
  t.y = y;
  const h = s.hiders.find((k) => k.id === id);
  if (h) {
    h.x = x;
    h.y = y;
  }
  const o = s.observers.find((k) => k.id === id);
  if (o) {
    o.x = x;
    o.y = y;
  }
}
