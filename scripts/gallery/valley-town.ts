/**
 * An Andorra-like town on steep slopes for `npm run gallery:scenes`: the synthetic dense city
 * (test/support/generators/dense-city.ts) laid over a mountain valley at Andorra la Vella, with a
 * river in a 5 m gorge along the valley floor and bridges where the streets cross it, and a
 * synthetic elevation model of that valley written as a GeoTIFF (gdal_translate from an ASCII
 * grid) in the town's own transverse Mercator frame.
 *
 * The valley runs along the avenues (grid v, 29° west of north): the avenues stay nearly level
 * (2.5 % down the valley), the streets climb the sides, gently near the floor and then at 32 %
 * and steeper (Andorra la Vella's slopes), one side 25 % steeper than the other, with spurs and
 * gullies so the slopes are not planes. The city's towers are brought down to a mountain town's
 * size: heights above 18 m grow a quarter as fast (min_height and levels alike, so stacked parts
 * still stack).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLocalFrame, type LocalFrame } from '../../src/frame/local-frame.ts';
import { GRID_ANGLE } from '../../test/support/generators/city-builder.ts';
import { denseCityExtract } from '../../test/support/generators/dense-city.ts';
import { type OsmPbfData, writeOsmPbf } from '../../test/support/generators/pbf-writer.ts';

export const VALLEY_TOWN_CENTRE: [number, number] = [42.5078, 1.5211];
const TOWN_SIDE = 1400;
/** Half-width of the strip kept free of buildings along the river, and of each bridge. */
const RIVER_CORRIDOR = 22;
const RIVER_HALF_WIDTH = 9;
/** Half-side of the elevation model: the request, its ring of tiles and the terrain-only tiles beyond. */
const DEM_HALF_SIDE = 1600;
const DEM_CELL = 5;

const cos = Math.cos(GRID_ANGLE),
  sin = Math.sin(GRID_ANGLE);
/** Grid coordinates (u across the valley, v along it) ↔ local metres of the town's frame. */
export const toGrid = (x: number, y: number): [number, number] => [x * cos + y * sin, -x * sin + y * cos];
export const fromGrid = (u: number, v: number): [number, number] => [u * cos - v * sin, u * sin + v * cos];

/** The grid lines of a generated city: u of its avenues and v of its streets, sorted. */
export function gridLines(data: OsmPbfData, frame: LocalFrame): { avenues: number[]; streets: number[] } {
  const byId = new Map(data.nodes.map((n) => [n.id, n]));
  const at = (id: number) => {
    const n = byId.get(id)!;
    return toGrid(...frame.toLocal(n.lon, n.lat));
  };
  const lines = (suffix: string, axis: 0 | 1) => {
    const values = data.ways.filter((w) => w.tags.name?.endsWith(suffix)).map((w) => Math.round(at(w.refs[0])[axis] * 10) / 10);
    return [...new Set(values)].sort((a, b) => a - b);
  };
  return { avenues: lines(' Avenue', 0), streets: lines(' Street', 1) };
}

/** Height of the valley at grid (u, v), `riverU` being the river's line. */
export function valleyHeight(u: number, v: number, riverU: number): number {
  const d = u - riverU,
    a = Math.abs(d);
  const smooth = (e0: number, e1: number, t: number) => {
    const s = Math.min(1, Math.max(0, (t - e0) / (e1 - e0)));
    return s * s * (3 - 2 * s);
  };
  let side = a <= 35 ? 0 : a <= 135 ? (0.32 * (a - 35) ** 2) / 200 : 16 + 0.32 * (a - 135) + 0.0004 * (a - 135) ** 2;
  if (d > 0) side *= 1.25;
  const gorge = -5 * (1 - smooth(RIVER_HALF_WIDTH + 3, RIVER_CORRIDOR, a));
  const spurs = 6 * Math.sin(v / 110 + d / 60) * smooth(40, 200, a);
  return 1020 + 0.025 * v + side + gorge + spurs;
}

export interface ValleyTown {
  pbf: string;
  dem: string;
  /** proj4 definition of the elevation model's CRS (the town's frame). */
  demCrs: string;
  /** The river's line in grid u; the bridges' streets in grid v. */
  riverU: number;
  bridgeStreets: number[];
  avenues: number[];
  frame: LocalFrame;
}

/** Writes `valley-town.osm.pbf` and `valley-dem.tif` to `dir`. */
export function writeValleyTown(dir: string): ValleyTown {
  const frame = createLocalFrame(...VALLEY_TOWN_CENTRE);
  const data = denseCityExtract({ seed: 5, centre: VALLEY_TOWN_CENTRE, sideMetres: TOWN_SIDE });
  const { avenues } = gridLines(data, frame);
  const west = avenues.filter((u) => u <= 0).at(-1) ?? avenues[0];
  const riverU = west + 125; // mid-block, between two avenues
  const bridgeStreets = addRiver(data, frame, riverU);
  lowerTowers(data);
  const pbf = join(dir, 'valley-town.osm.pbf');
  writeFileSync(pbf, writeOsmPbf(data, { blockSize: 8000, writingProgram: 'city-context valley-town' }));
  const dem = join(dir, 'valley-dem.tif');
  writeValleyDem(dem, dir, frame.proj4, riverU);
  return { pbf, dem, demCrs: frame.proj4, riverU, bridgeStreets, avenues, frame };
}

/**
 * Clears the corridor along the river of buildings and other areas (and of the relations that
 * lose members), adds the river (line and water area) and splits every street crossing it into
 * approach, bridge (`bridge=yes`, `layer=1`) and approach. Returns the bridged streets' v.
 */
function addRiver(data: OsmPbfData, frame: LocalFrame, riverU: number): number[] {
  const byId = new Map(data.nodes.map((n) => [n.id, n]));
  const grid = (id: number) => toGrid(...frame.toLocal(byId.get(id)!.lon, byId.get(id)!.lat));
  const u = (id: number) => grid(id)[0];
  const inCorridor = (id: number) => Math.abs(u(id) - riverU) < RIVER_CORRIDOR;
  const crossing = data.ways.filter((w) => !w.tags.highway && w.refs.some(inCorridor));
  // Stacked parts have nodes of their own: they go with the outline whose box holds them.
  const boxes = crossing.map((w) => {
    const pts = w.refs.map(grid);
    return [Math.min(...pts.map((p) => p[0])), Math.max(...pts.map((p) => p[0])), Math.min(...pts.map((p) => p[1])), Math.max(...pts.map((p) => p[1]))];
  });
  const insideRemoved = (w: { refs: number[] }) =>
    boxes.some(([u0, u1, v0, v1]) =>
      w.refs.every((id) => {
        const [gu, gv] = grid(id);
        return gu >= u0 - 0.5 && gu <= u1 + 0.5 && gv >= v0 - 0.5 && gv <= v1 + 0.5;
      }),
    );
  const removed = new Set([...crossing.map((w) => w.id), ...data.ways.filter((w) => w.tags['building:part'] && insideRemoved(w)).map((w) => w.id)]);
  data.ways = data.ways.filter((w) => !removed.has(w.id));
  const gone = new Set<number>();
  for (let changed = true; changed; ) {
    changed = false;
    for (const r of data.relations) {
      if (gone.has(r.id)) continue;
      if (r.members.some((m) => (m.type === 'way' && removed.has(m.ref)) || (m.type === 'relation' && gone.has(m.ref)))) {
        gone.add(r.id);
        changed = true;
      }
    }
  }
  data.relations = data.relations.filter((r) => !gone.has(r.id));

  const node = (gu: number, gv: number) => {
    const [lon, lat] = frame.toLonLat(...fromGrid(gu, gv));
    const id = data.nodes.length + 1;
    data.nodes.push({ id, lon, lat });
    return id;
  };
  let nextWay = Math.max(...data.ways.map((w) => w.id)) + 1;
  const bridged: number[] = [];
  for (const way of [...data.ways]) {
    if (!way.tags.name?.endsWith(' Street')) continue;
    const k = way.refs.findIndex((id, i) => i + 1 < way.refs.length && (u(id) - riverU) * (u(way.refs[i + 1]) - riverU) < 0);
    if (k < 0) continue;
    const a = byId.get(way.refs[k])!;
    const gv = toGrid(...frame.toLocal(a.lon, a.lat))[1];
    const side = Math.sign(u(way.refs[k]) - riverU);
    const near = node(riverU + side * RIVER_CORRIDOR, gv),
      far = node(riverU - side * RIVER_CORRIDOR, gv);
    const rest = way.refs.slice(k + 1);
    way.refs = [...way.refs.slice(0, k + 1), near];
    data.ways.push({ id: nextWay++, tags: { ...way.tags, bridge: 'yes', layer: '1' }, refs: [near, far] });
    data.ways.push({ id: nextWay++, tags: { ...way.tags }, refs: [far, ...rest] });
    bridged.push(gv);
  }
  const reach = TOWN_SIDE;
  const line: number[] = [];
  for (let gv = -reach; gv <= reach; gv += 50) line.push(node(riverU, gv));
  data.ways.push({ id: nextWay++, tags: { waterway: 'river', name: 'Gran Valira' }, refs: line });
  const bank = [
    node(riverU - RIVER_HALF_WIDTH, -reach),
    node(riverU + RIVER_HALF_WIDTH, -reach),
    node(riverU + RIVER_HALF_WIDTH, reach),
    node(riverU - RIVER_HALF_WIDTH, reach),
  ];
  data.ways.push({ id: nextWay++, tags: { natural: 'water', water: 'river' }, refs: [...bank, bank[0]] });
  return bridged.sort((p, q) => p - q);
}

function lowerTowers(data: OsmPbfData): void {
  const lower = (h: number) => (h <= 18 ? h : 18 + (h - 18) / 4);
  const metres = (value: string) => Number.parseFloat(value);
  for (const entity of [...data.ways, ...data.relations]) {
    const t = entity.tags;
    for (const key of ['height', 'min_height']) if (t[key]) t[key] = String(Math.round(lower(metres(t[key])) * 10) / 10);
    for (const key of ['building:levels', 'building:min_level']) if (t[key]) t[key] = String(Math.round(lower(3 * Number(t[key])) / 3));
    if (t['roof:height'] && t.height) {
      const walls = metres(t.height) - (t.min_height ? metres(t.min_height) : 0);
      t['roof:height'] = String(Math.round(Math.min(metres(t['roof:height']), walls / 2) * 10) / 10);
    }
  }
}

/** The valley as an ASCII grid in the town's frame, turned into a GeoTIFF by gdal_translate. */
function writeValleyDem(tif: string, dir: string, proj4: string, riverU: number): void {
  const n = (2 * DEM_HALF_SIDE) / DEM_CELL;
  const lines = [`ncols ${n}`, `nrows ${n}`, `xllcorner ${-DEM_HALF_SIDE}`, `yllcorner ${-DEM_HALF_SIDE}`, `cellsize ${DEM_CELL}`, 'NODATA_value -9999'];
  for (let row = 0; row < n; row++) {
    const y = DEM_HALF_SIDE - (row + 0.5) * DEM_CELL;
    const values: string[] = [];
    for (let col = 0; col < n; col++) {
      const x = -DEM_HALF_SIDE + (col + 0.5) * DEM_CELL;
      values.push(valleyHeight(...toGrid(x, y), riverU).toFixed(2));
    }
    lines.push(values.join(' '));
  }
  const asc = join(dir, 'valley-dem.asc');
  writeFileSync(asc, `${lines.join('\n')}\n`);
  execFileSync('gdal_translate', ['-q', '-of', 'GTiff', '-ot', 'Float32', '-a_srs', proj4, asc, tif], { stdio: 'inherit' });
}
