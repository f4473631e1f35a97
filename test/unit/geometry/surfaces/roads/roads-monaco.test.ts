/**
 * Road surfaces on real Monaco roads: every highway line within 400 m of 43.7335 N 7.419 E,
 * projected into the local frame there, through roadSurfaces. The same properties as the
 * generated graphs (test/unit/geometry/surfaces/roads/road-surfaces.test.ts): valid footprints, no overlaps on the ground,
 * centerlines covered, every road strip touching its junction along an edge, one junction per
 * node where three or more carriageway ends meet, bridge decks clear of the roads under them,
 * tunnels absent.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../../../../src/config.ts';
import { importOsm } from '../../../../../src/sources/osm/import.ts';
import { OsmStore } from '../../../../../src/sources/osm/store.ts';
import { createLocalFrame, projectFlat } from '../../../../../src/frame/local-frame.ts';
import { roadSurfaces, type RoadInput, type RoadSurfaces } from '../../../../../src/geometry/surfaces/roads/road-surfaces.ts';
import { roadProfile } from '../../../../../src/geometry/surfaces/roads/classify.ts';
import { roadWays } from '../../../../../src/geometry/surfaces/roads/road-ways.ts';
import { bridgeDecks } from '../../../../../src/geometry/surfaces/roads/bridge-profile.ts';
import { crossedWay, crossingsOf, type Crossing, type UnderLine } from '../../../../../src/geometry/surfaces/roads/bridge-crossings.ts';
import { deckHeight, DECK_THICKNESS } from '../../../../../src/geometry/surfaces/deck-height.ts';
import { footprintProblem, overlaps, sharedBoundaryLength, stripsOffTheirJunctions, uncoveredPoints } from '../../../../support/checks/road-checks.ts';

/** The drawn ways with their bridge decks. */
function decked(roads: readonly RoadInput[], ground: (x: number, y: number) => number, under: readonly UnderLine[] = []) {
  const ways = roadWays(roads);
  bridgeDecks(ways, under, ground);
  return ways;
}

const ORIGIN = [43.7335, 7.419] as const;
const RADIUS = 400;

let roads: RoadInput[] = [];
let result: RoadSurfaces;

before(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cc-roads-'));
  const db = join(dir, 'monaco.sqlite');
  await importOsm(join(REPO_ROOT, 'data/monaco/monaco.osm.pbf'), db);
  const store = OsmStore.open(db);
  const [lat, lon] = ORIGIN;
  const dLat = RADIUS / 111320,
    dLon = RADIUS / (111320 * Math.cos((lat * Math.PI) / 180));
  const frame = createLocalFrame(lat, lon);
  const features = store.query({ minLon: lon - dLon, minLat: lat - dLat, maxLon: lon + dLon, maxLat: lat + dLat }, ['highway']);
  store.close();
  roads = features.filter((f) => f.kind === 'line' && f.line).map((f) => ({ id: f.id, tags: f.tags, points: projectFlat(frame, f.line!) }));
  result = roadSurfaces(roads, { ground: (x, y) => 10 + 0.01 * x + 0.02 * y });
});

test('Monaco: there is something to test', () => {
  assert.ok(roads.length > 300, `${roads.length} highway lines`);
  assert.ok(result.areas.length > 300);
  assert.ok(result.areas.some((a) => a.kind === 'roadwayIntersection'));
  assert.ok(result.areas.some((a) => a.descriptor.sidewalk === 'left' || a.descriptor.sidewalk === 'right'));
  assert.ok(
    result.areas.some((a) => a.deck),
    'Monaco has road bridges',
  );
  assert.ok(
    roads.some((r) => r.tags.tunnel && r.tags.tunnel !== 'no'),
    'Monaco has tunnels',
  );
});

test('Monaco: every footprint is valid', () => {
  const bad: string[] = [];
  for (const a of result.areas) {
    for (const fp of a.footprints) {
      const p = footprintProblem(fp);
      if (p) bad.push(`${a.descriptor.id} ${a.kind}: ${p}`);
    }
  }
  assert.deepEqual(bad, []);
});

test('Monaco: ground areas do not overlap, nor decks of one layer', () => {
  const groups = new Map<string, typeof result.areas>();
  for (const a of result.areas) {
    const key = a.deck ? `deck ${a.descriptor.layer ?? 1}` : 'ground';
    groups.set(key, [...(groups.get(key) ?? []), a]);
  }
  for (const [key, areas] of groups) {
    // tolerance: a 1 mm band along the smaller outline (the grid step: Clipper rounds new vertices to it)
    const bad = overlaps(areas).filter((o) => o.area > 1e-4 + 1e-3 * o.perimeter);
    assert.deepEqual(
      bad.map((o) => `${key}: ${areas[o.a].descriptor.id} × ${areas[o.b].descriptor.id}: ${o.area.toFixed(5)} m²`),
      [],
    );
  }
});

test('Monaco: every centerline point of a drawn road lies on some area', () => {
  const missing: string[] = [];
  for (const line of result.centerlines) {
    // ground and decks together: a bridge's last metres before its abutment may lie on the ground connector
    const gaps = uncoveredPoints(line.points, line.closed, result.areas);
    if (gaps.length > 0) missing.push(`${line.descriptor.id}: ${gaps.length} points, first ${gaps[0].map((v) => v.toFixed(2))}`);
  }
  assert.deepEqual(missing, []);
});

test('Monaco: road strips touch their junction along an edge', () => {
  const byId = new Map<string, typeof result.areas>();
  for (const a of result.areas) byId.set(String(a.descriptor.id), [...(byId.get(String(a.descriptor.id)) ?? []), a]);
  let pairs = 0,
    touching = 0;
  for (const j of result.areas.filter((a) => a.kind === 'roadwayIntersection')) {
    for (const id of j.descriptor.ways as string[]) {
      const strip = (byId.get(id) ?? []).find((a) => a.descriptor.sidewalk === undefined);
      if (!strip) continue;
      pairs++;
      if (sharedBoundaryLength(j, strip) > 0.01) touching++;
    }
  }
  assert.ok(pairs > 300 && touching > 0.97 * pairs, `${touching} of ${pairs} strips touch their junction`);
  // the others begin where another road already lies (a wider way at an acute angle, a way over it)
  assert.deepEqual(stripsOffTheirJunctions(roads, result.areas), []);
});

test('Monaco: one junction per node where three or more carriageway ends meet', () => {
  const count = new Map<string, number>();
  for (const r of roads) {
    const p = roadProfile(r.tags);
    if (!p || p.network !== 'road') continue;
    const pts = r.points;
    const n = pts.length / 2;
    const closed = pts[0] === pts[2 * n - 2] && pts[1] === pts[2 * n - 1];
    const seen = new Set<string>();
    for (let i = 0; i < (closed ? n - 1 : n); i++) {
      const key = `${pts[2 * i]} ${pts[2 * i + 1]}`;
      if (i > 0 && key === `${pts[2 * i - 2]} ${pts[2 * i - 1]}`) continue;
      const arms = !closed && (i === 0 || i === n - 1) ? 1 : 2;
      count.set(key, (count.get(key) ?? 0) + arms);
      seen.add(key);
    }
  }
  const nodes = [...count.values()].filter((c) => c >= 3).length;
  const carriageways = new Set(roads.filter((r) => roadProfile(r.tags)?.network === 'road').map((r) => r.id));
  const junctions = result.areas.filter((a) => a.descriptor.junction === true && (a.descriptor.ways as string[]).every((w) => carriageways.has(w))).length;
  assert.equal(junctions, nodes);
});

test('Monaco: bridges clear what they cross, never under the ground; tunnels give nothing', () => {
  const ground = (x: number, y: number) => 10 + 0.01 * x + 0.02 * y;
  const tunnels = new Set(roads.filter((r) => r.tags.tunnel !== undefined && r.tags.tunnel !== 'no').map((r) => r.id));
  for (const a of result.areas) assert.ok(!tunnels.has(String(a.descriptor.id)), `tunnel ${a.descriptor.id} drawn`);
  for (const l of result.centerlines) assert.ok(!tunnels.has(String(l.descriptor.id)));
  const byId = new Map(roads.map((r) => [r.id, r]));
  let decks = 0;
  for (const a of [...result.areas, ...result.centerlines]) {
    const road = byId.get(String(a.descriptor.id));
    if (!road || !a.deck) continue;
    decks++;
    assert.ok(road.tags.bridge && road.tags.bridge !== 'no');
    const axis = a.deck.axes![0];
    for (let i = 0; i < axis.length; i += 3) assert.ok(axis[i + 2] >= ground(axis[i], axis[i + 1]) - 1e-9);
  }
  assert.ok(decks > 0);
  // where a bridge crosses a road or path of a lower layer (not a mapped crosswalk), its underside
  // clears it: 4.5 m over roads, 2.5 m over paths (sampled on the deck's profile, 1 m apart)
  const ways = decked(roads, ground);
  const crossed = ways.map((w, i) => crossedWay(w, i)).filter((c) => c !== null);
  let crossings = 0;
  for (const w of ways) {
    if (!w.deck) continue;
    const p = w.input.points;
    const along = [0];
    for (let i = 2; i < p.length; i += 2) along.push(along[along.length - 1] + Math.hypot(p[i] - p[i - 2], p[i + 1] - p[i - 1]));
    if (along[along.length - 1] < 10) continue; // steps a few metres long: the profile's samples are as long as the bridge
    const found: Crossing[] = [];
    for (const c of crossed) if (c.layer < (w.profile.layer ?? 1) && !ways[c.way!].profile.bridge) crossingsOf(p, along, 0, c, found);
    for (const f of found) {
      crossings++;
      const clearance = deckHeight(w.deck, f.x, f.y) - DECK_THICKNESS - ground(f.x, f.y);
      assert.ok(clearance >= f.crossed.clearance - 0.05, `${w.input.id}: ${clearance.toFixed(2)} m over ${ways[f.crossed.way!].input.id}`);
    }
  }
  assert.ok(crossings >= 5, `${crossings} crossings`);
});
