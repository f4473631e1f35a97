/**
 * The synthetic downtown of the benchmark (test/support/generators/downtown.ts): deterministic from
 * its seed, at the densities of the real downtown it is shaped after (each kind within ±10 % of the
 * target), with sidewalks beside their roads as the service reads the roads' widths, crossings
 * joining the sidewalks across every arm of the junctions, and imported whole by importOsm.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOWNTOWN_DEFAULTS, DOWNTOWN_TARGETS, downtownExtract, downtownPbf, downtownSummary } from '../../../support/generators/downtown.ts';
import type { DenseCityOptions } from '../../../support/generators/dense-city.ts';
import type { OsmPbfData, WayInput } from '../../../support/generators/pbf-writer.ts';
import { createLocalFrame } from '../../../../src/frame/local-frame.ts';
import { carriagewayWidth } from '../../../../src/geometry/surfaces/roads/widths.ts';
import { importOsm, type ImportStats } from '../../../../src/sources/osm/import.ts';

const SMALL: DenseCityOptions = { ...DOWNTOWN_DEFAULTS, seed: 7, sideMetres: 700 };
const ROADS = new Set(['primary', 'secondary', 'tertiary', 'residential']);
const data: OsmPbfData = downtownExtract(DOWNTOWN_DEFAULTS);
const frame = createLocalFrame(DOWNTOWN_DEFAULTS.centre[0], DOWNTOWN_DEFAULTS.centre[1]);
const at = new Map(data.nodes.map((n) => [n.id, frame.toLocal(n.lon, n.lat)]));
const roads = data.ways.filter((w) => ROADS.has(w.tags.highway));
const sidewalkNodes = new Set(data.ways.filter((w) => w.tags.footway === 'sidewalk').flatMap((w) => w.refs));

const dir = mkdtempSync(join(tmpdir(), 'downtown-'));
let stats: ImportStats;
before(async () => {
  writeFileSync(join(dir, 'small.osm.pbf'), downtownPbf(SMALL));
  stats = await importOsm(join(dir, 'small.osm.pbf'), join(dir, 'osm.sqlite'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

type P = [number, number];
const sub = (a: P, b: P): P => [a[0] - b[0], a[1] - b[1]];
const cross = (a: P, b: P) => a[0] * b[1] - a[1] * b[0];
const unit = (a: P): P => [a[0] / Math.hypot(...a), a[1] / Math.hypot(...a)];
const p = (id: number) => at.get(id) as P;

/** Well inside the square: away from where the grid's runs are cut off by its edge. */
const inner = (q: P) => Math.max(Math.abs(q[0]), Math.abs(q[1])) < DOWNTOWN_DEFAULTS.sideMetres / 2 - 300;

interface Segment {
  way: WayInput;
  a: P;
  b: P;
}
/** Road segments by 50 m cell of the ground, each in every cell within 25 m of its box. */
const CELL = 50;
const cells = new Map<string, Segment[]>();
for (const way of roads)
  for (let k = 0; k + 1 < way.refs.length; k++) {
    const seg = { way, a: p(way.refs[k]), b: p(way.refs[k + 1]) };
    const [x0, x1] = [Math.min(seg.a[0], seg.b[0]) - 25, Math.max(seg.a[0], seg.b[0]) + 25];
    const [y0, y1] = [Math.min(seg.a[1], seg.b[1]) - 25, Math.max(seg.a[1], seg.b[1]) + 25];
    for (let cx = Math.floor(x0 / CELL); cx <= Math.floor(x1 / CELL); cx++)
      for (let cy = Math.floor(y0 / CELL); cy <= Math.floor(y1 / CELL); cy++) cells.set(`${cx},${cy}`, [...(cells.get(`${cx},${cy}`) ?? []), seg]);
  }

/**
 * The road segment nearest to a point within 25 m (only those parallel to `along` when given): its
 * way, ends, and the point's signed distance from its line.
 */
function nearestRoad(q: P, along?: P): { way: WayInput; a: P; b: P; signed: number } {
  let best = { way: roads[0], a: [0, 0] as P, b: [0, 0] as P, signed: Infinity, gap: Infinity };
  for (const { way, a, b } of cells.get(`${Math.floor(q[0] / CELL)},${Math.floor(q[1] / CELL)}`) ?? []) {
    const d = sub(b, a),
      len2 = d[0] ** 2 + d[1] ** 2;
    if (along && Math.abs(cross(unit(along), unit(d))) > 1e-3) continue;
    const t = Math.max(0, Math.min(1, ((q[0] - a[0]) * d[0] + (q[1] - a[1]) * d[1]) / len2));
    const gap = Math.hypot(q[0] - a[0] - t * d[0], q[1] - a[1] - t * d[1]);
    if (gap < best.gap) best = { way, a, b, signed: cross(unit(d), sub(q, a)), gap };
  }
  return best;
}

test('same seed, same bytes; another seed, another downtown', () => {
  const a = downtownPbf(SMALL);
  assert.ok(a.equals(downtownPbf({ ...SMALL })), 'same options give byte-identical PBFs');
  assert.ok(!a.equals(downtownPbf({ ...SMALL, seed: SMALL.seed + 1 })), 'another seed gives another file');
  assert.deepEqual(downtownSummary(downtownExtract(DOWNTOWN_DEFAULTS)), downtownSummary(data), 'the full-size default too');
});

test('the default ~10 km² downtown has every kind within ±10 % of the real extract', () => {
  const s = downtownSummary(data);
  for (const [kind, target] of Object.entries(DOWNTOWN_TARGETS)) {
    const got = s[kind as keyof typeof s];
    assert.ok(Math.abs(got - target) <= 0.1 * target, `${kind}: ${got} generated, ${target} wanted`);
  }
  assert.ok(s.buildings > 7000 && s.parts > 4000, `${s.buildings} buildings, ${s.parts} parts`);
});

test('sidewalks run parallel beside their road, half its carriageway plus 1.5 m from its centreline', () => {
  const sidewalks = data.ways.filter((w) => w.tags.footway === 'sidewalk');
  let checked = 0;
  for (const w of sidewalks) {
    const [a, b] = [p(w.refs[0]), p(w.refs[w.refs.length - 1])];
    const mid: P = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
    const road = nearestRoad(mid, sub(b, a));
    const expected = carriagewayWidth(road.way.tags.highway, road.way.tags).width / 2 + 1.5;
    assert.ok(
      Math.abs(Math.abs(road.signed) - expected) < 0.05,
      `way ${w.id}: ${Math.abs(road.signed).toFixed(2)} m from way ${road.way.id}, ${expected} wanted`,
    );
    for (const id of w.refs.slice(1, -1))
      assert.ok(Math.abs(Math.abs(nearestRoad(p(id), sub(b, a)).signed) - expected) < 0.05, `node ${id} of way ${w.id} off its line`);
    checked++;
  }
  assert.ok(checked > 2000, `${checked} sidewalks`);
});

test('each crossing runs from a sidewalk across the road to the sidewalk on the other side', () => {
  const crossingWays = data.ways.filter((w) => w.tags.footway === 'crossing' || w.tags.footway === 'traffic_island');
  const byNode = new Map<number, WayInput[]>();
  for (const w of crossingWays) for (const id of w.refs) byNode.set(id, [...(byNode.get(id) ?? []), w]);
  const roadNodes = new Set(roads.flatMap((w) => w.refs));
  const crossingNodes = data.nodes.filter((n) => n.tags?.highway === 'crossing' && inner(p(n.id)));
  assert.ok(crossingNodes.length > 500, `${crossingNodes.length} crossing nodes`);
  for (const x of crossingNodes) {
    assert.ok(roadNodes.has(x.id), `crossing node ${x.id} is on a road`);
    // walk out both ways along crossing and island ways until a sidewalk (or a dead end)
    const ends: number[] = [];
    const seen = new Set<number>();
    const walk = (id: number) => {
      const ways = sidewalkNodes.has(id) ? [] : (byNode.get(id) ?? []).filter((w) => !seen.has(w.id));
      if (ways.length === 0) ends.push(id);
      for (const w of ways) {
        seen.add(w.id);
        for (const end of [w.refs[0], w.refs[w.refs.length - 1]]) if (end !== id) walk(end);
      }
    };
    walk(x.id);
    assert.equal(ends.length, 2, `crossing at node ${x.id} has two ends`);
    assert.ok(
      ends.every((id) => sidewalkNodes.has(id)),
      `crossing at node ${x.id} ends on sidewalks`,
    );
    const road = nearestRoad(p(x.id));
    const sides = ends.map((id) => Math.sign(cross(unit(sub(road.b, road.a)), sub(p(id), road.a))));
    assert.ok(sides[0] * sides[1] < 0, `crossing at node ${x.id} ends on both sides of way ${road.way.id}`);
  }
});

test('every junction of two roads well inside the square has a crossing over each of its arms', () => {
  const uses = new Map<number, Set<string>>(),
    arms = new Map<number, number>();
  for (const w of roads)
    w.refs.forEach((id, k) => {
      uses.set(id, (uses.get(id) ?? new Set()).add(w.tags.name));
      arms.set(id, (arms.get(id) ?? 0) + (k > 0 ? 1 : 0) + (k + 1 < w.refs.length ? 1 : 0));
    });
  const crossings = data.nodes.filter((n) => n.tags?.highway === 'crossing').map((n) => p(n.id));
  let junctions = 0;
  for (const [id, names] of uses) {
    const q = p(id);
    if (names.size < 2 || !inner(q)) continue;
    const near = crossings.filter((c) => Math.hypot(c[0] - q[0], c[1] - q[1]) < 15);
    assert.ok(arms.get(id)! >= 3, `junction node ${id} has ${arms.get(id)} arms`);
    assert.equal(near.length, arms.get(id), `junction node ${id}: ${near.length} crossings within 15 m for ${arms.get(id)} arms`);
    junctions++;
  }
  assert.ok(junctions > 200, `${junctions} junctions`);
});

test('traffic islands stand in the middle of two-way boulevards, on a crossing', () => {
  const islands = data.ways.filter((w) => w.tags['area:highway'] === 'traffic_island');
  for (const w of islands) {
    const pts = w.refs.slice(0, -1).map(p);
    const mid: P = [pts.reduce((s, q) => s + q[0], 0) / pts.length, pts.reduce((s, q) => s + q[1], 0) / pts.length];
    const road = nearestRoad(mid);
    assert.ok(Math.abs(road.signed) < 0.01, `island way ${w.id} centred on its road`);
    assert.ok(road.way.tags.oneway === undefined && Number(road.way.tags.lanes) >= 6, `island way ${w.id} in a wide two-way road`);
  }
});

test('a 700 m downtown imports whole', () => {
  assert.ok(stats.byLayer.highway > 300, `${stats.byLayer.highway} highway features`);
  assert.ok(
    Object.values(stats.skipped).every((n) => n === 0),
    `nothing skipped: ${JSON.stringify(stats.skipped)}`,
  );
});
