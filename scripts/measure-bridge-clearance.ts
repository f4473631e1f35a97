/**
 * Measures the bridge decks of a real extract (default: Monaco around 43.7335 N 7.419 E, 2 km):
 * for every drawn bridge way, the clearance under its deck where it crosses a road, path, railway
 * or waterway (deck underside − what is crossed), with flat ground and on the SRTM terrain, next
 * to what the old straight abutment-to-abutment deck gave (a single-sided plane, no slab), and how
 * many bridges lie within ±5 cm of the ground under them.
 *
 *   node --import tsx scripts/measure-bridge-clearance.ts [pbf] [lat lon radius]
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../src/config.ts';
import { importOsm } from '../src/sources/osm/import.ts';
import { OsmStore } from '../src/sources/osm/store.ts';
import { createLocalFrame, projectFlat } from '../src/frame/local-frame.ts';
import { openHgt, readTileElevation } from '../src/sources/dem/index.ts';
import { roadWays, type RoadInput } from '../src/geometry/surfaces/roads/road-ways.ts';
import { bridgeDecks } from '../src/geometry/surfaces/roads/bridge-profile.ts';
import { crossedLine, crossedWay, crossingsOf, type Crossing, type UnderLine } from '../src/geometry/surfaces/roads/bridge-crossings.ts';
import { DECK_THICKNESS, deckHeight } from '../src/geometry/surfaces/deck-height.ts';

const pbf = process.argv[2] ?? join(REPO_ROOT, 'data/monaco/monaco.osm.pbf');
const [lat, lon, radius] = process.argv.length > 5 ? process.argv.slice(3, 6).map(Number) : [43.7335, 7.419, 2000];

const dir = mkdtempSync(join(tmpdir(), 'cc-bridges-'));
const db = join(dir, 'x.sqlite');
await importOsm(pbf, db);
const store = OsmStore.open(db);
const dLat = radius / 111320,
  dLon = radius / (111320 * Math.cos((lat * Math.PI) / 180));
const frame = createLocalFrame(lat, lon);
const features = store.query({ minLon: lon - dLon, minLat: lat - dLat, maxLon: lon + dLon, maxLat: lat + dLat }, ['highway', 'railway', 'water']);
store.close();
const lines = features.filter((f) => f.kind === 'line' && f.line).map((f) => ({ id: f.id, tags: f.tags, points: projectFlat(frame, f.line!), layer: f.layer }));
const roads: RoadInput[] = lines.filter((l) => l.layer === 'highway');
const under: UnderLine[] = lines.filter((l) => l.layer !== 'highway');

const dem = await openHgt(join(REPO_ROOT, 'data/dem/N43E007.hgt'));
const bbox = { minX: -radius, minY: -radius, maxX: radius, maxY: radius };
const terrain = (await readTileElevation(dem, frame, bbox, { segments: Math.round((2 * radius) / 30) })).ground;

/** The drawn ways with their bridge decks. */
function decked(roads: readonly RoadInput[], ground: (x: number, y: number) => number, under: readonly UnderLine[] = []) {
  const ways = roadWays(roads);
  bridgeDecks(ways, under, ground);
  return ways;
}

const fmt = (v: number) => (v >= 0 ? '+' : '') + v.toFixed(2);
for (const [name, ground] of [
  ['flat ground (z = 0)', () => 0],
  ['SRTM terrain', terrain],
] as const) {
  const ways = decked(roads, ground, under);
  const crossed = [...under.map(crossedLine), ...ways.map((w, i) => crossedWay(w, i))].filter((c) => c !== null);
  console.log(`\n## ${name}`);
  let flatOld = 0,
    flatNew = 0,
    bridges = 0;
  const oldAll: number[] = [],
    newAll: number[] = [];
  for (const w of ways) {
    if (!w.deck) continue;
    bridges++;
    const p = w.input.points,
      n = p.length;
    const old = { start: { x: p[0], y: p[1], z: ground(p[0], p[1]) }, end: { x: p[n - 2], y: p[n - 1], z: ground(p[n - 2], p[n - 1]) } };
    let maxOld = 0,
      maxNew = 0;
    for (let i = 0; i + 3 < n; i += 2) {
      for (let s = 0; s <= 10; s++) {
        const x = p[i] + ((p[i + 2] - p[i]) * s) / 10,
          y = p[i + 1] + ((p[i + 3] - p[i + 1]) * s) / 10;
        maxOld = Math.max(maxOld, Math.abs(deckHeight(old, x, y) - ground(x, y)));
        maxNew = Math.max(maxNew, Math.abs(deckHeight(w.deck, x, y) - ground(x, y)));
      }
    }
    if (maxOld <= 0.05) flatOld++;
    if (maxNew <= 0.05) {
      flatNew++;
      console.log(`within ±5 cm of the ground: ${w.input.id} (${w.input.tags.highway})`);
    }
    const along = [0];
    for (let i = 2; i < n; i += 2) along.push(along[along.length - 1] + Math.hypot(p[i] - p[i - 2], p[i + 1] - p[i - 1]));
    const found: Crossing[] = [];
    const layer = w.profile.layer ?? 1;
    for (const c of crossed)
      if (c.layer < layer && c.way === undefined ? true : c.layer < layer && !ways[c.way!].profile.bridge) crossingsOf(p, along, w.profile.width / 2, c, found);
    for (const f of found) {
      const base = ground(f.x, f.y);
      const o = deckHeight(old, f.x, f.y) - base;
      const nw = deckHeight(w.deck, f.x, f.y) - DECK_THICKNESS - base;
      oldAll.push(o);
      newAll.push(nw);
      const what = f.crossed.way !== undefined ? `${ways[f.crossed.way].input.id} ${ways[f.crossed.way].input.tags.highway}` : 'rail/water';
      console.log(
        `${w.input.id} (${w.input.tags.highway}, ${along[along.length - 1].toFixed(0)} m) over ${what}: old ${fmt(o)} m, new ${fmt(nw)} m (wants ${f.crossed.clearance})`,
      );
    }
  }
  const stat = (a: number[]) =>
    a.length ? `min ${fmt(Math.min(...a))} median ${fmt(a.sort((x, y) => x - y)[a.length >> 1])} max ${fmt(Math.max(...a))}` : '-';
  console.log(`${bridges} bridge ways; within ±5 cm of the ground all along: old ${flatOld}, new ${flatNew}`);
  console.log(`clearance at ${oldAll.length} crossings: old ${stat(oldAll)}; new ${stat(newAll)}`);
}
