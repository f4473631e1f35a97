/**
 * A premium city for the request bench: the Zürich sample's buildings (with their parts) copied
 * onto a square grid of cells around a centre until the square is full — ~20,000 buildings over
 * ~10 km² with 22 m cells — as one CityJSON 1.1 file in UTM (EPSG:326zz), written as it goes.
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import proj4 from 'proj4';
import { REPO_ROOT } from '../../../src/repo-root.ts';

interface CityObject {
  type: string;
  parents?: string[];
  children?: string[];
  geometry?: { boundaries: unknown }[];
}

export interface PremiumCityOptions {
  /** [latitude, longitude] of the square's centre. */
  centre: [number, number];
  sideMetres: number;
  cellMetres: number;
}

const indicesOf = (value: unknown, out: Set<number>): void => {
  if (Array.isArray(value)) for (const v of value) indicesOf(v, out);
  else if (typeof value === 'number') out.add(value);
};
const remap = (value: unknown, f: (i: number) => number): unknown =>
  Array.isArray(value) ? value.map((v) => remap(v, f)) : typeof value === 'number' ? f(value) : value;

/** Writes the file; returns its building and part counts. */
export function writePremiumCity(path: string, o: PremiumCityOptions): { buildings: number; parts: number } {
  const src = JSON.parse(readFileSync(join(REPO_ROOT, 'data/premium/zurich_subset_lod2.json'), 'utf8')) as {
    CityObjects: Record<string, CityObject>;
    vertices: number[][];
    transform: { scale: number[]; translate: number[] };
  };
  const { scale, translate } = src.transform;
  const real = (v: number[]) => [v[0] * scale[0] + translate[0], v[1] * scale[1] + translate[1], v[2] * scale[2] + translate[2]];
  // each building with its parts, its vertices moved so its box centre is at 0, 0
  const templates = Object.entries(src.CityObjects)
    .filter(([, b]) => b.type === 'Building' && !b.parents?.length)
    .map(([id, b]) => {
      const members: [string, CityObject][] = [[id, b], ...(b.children ?? []).map((c): [string, CityObject] => [c, src.CityObjects[c]])];
      const used = new Set<number>();
      for (const [, m] of members) for (const g of m.geometry ?? []) indicesOf(g.boundaries, used);
      const order = [...used];
      const points = order.map((i) => real(src.vertices[i]));
      const xs = points.map((p) => p[0]),
        ys = points.map((p) => p[1]);
      const cx = (Math.min(...xs) + Math.max(...xs)) / 2,
        cy = (Math.min(...ys) + Math.max(...ys)) / 2;
      const index = new Map(order.map((v, k) => [v, k]));
      return { id, members, points: points.map((p) => [p[0] - cx, p[1] - cy, p[2]]), index };
    })
    .filter((t) => t.points.length > 0);
  const zone = Math.floor((o.centre[1] + 180) / 6) + 1;
  const [e0, n0] = proj4('EPSG:4326', `+proj=utm +zone=${zone} +datum=WGS84 +units=m +no_defs`, [o.centre[1], o.centre[0]]);
  const cells = Math.floor(o.sideMetres / o.cellMetres);
  const fd = openSync(path, 'w');
  const write = (s: string) => writeSync(fd, s);
  write('{"type":"CityJSON","version":"1.1","CityObjects":{');
  const vertexLines: string[] = [];
  let base = 0,
    buildings = 0,
    parts = 0,
    first = true;
  const verticesFd = openSync(`${path}.vertices`, 'w');
  for (let j = 0; j < cells; j++)
    for (let i = 0; i < cells; i++) {
      const t = templates[(i + j * cells) % templates.length];
      const k = buildings++;
      const dx = (i + 0.5) * o.cellMetres - o.sideMetres / 2,
        dy = (j + 0.5) * o.cellMetres - o.sideMetres / 2;
      for (const [id, m] of t.members) {
        const copy = {
          ...m,
          parents: m.parents?.map((p) => `${p}-${k}`),
          children: m.children?.map((c) => `${c}-${k}`),
          geometry: m.geometry?.map((g) => ({ ...g, boundaries: remap(g.boundaries, (v) => base + t.index.get(v)!) })),
        };
        if (m.type === 'BuildingPart' || (m.geometry?.length ?? 0) > 0) parts++;
        write(`${first ? '' : ','}${JSON.stringify(`${id}-${k}`)}:${JSON.stringify(copy)}`);
        first = false;
      }
      for (const p of t.points) vertexLines.push(`[${Math.round((p[0] + dx) * 1000)},${Math.round((p[1] + dy) * 1000)},${Math.round(p[2] * 1000)}]`);
      base += t.points.length;
      if (vertexLines.length > 50_000) {
        writeSync(verticesFd, `${vertexLines.join(',')},`);
        vertexLines.length = 0;
      }
    }
  writeSync(verticesFd, vertexLines.join(','));
  closeSync(verticesFd);
  write('},"vertices":[');
  write(readFileSync(`${path}.vertices`, 'utf8').replace(/,$/, ''));
  rmSync(`${path}.vertices`);
  write(
    `],"transform":{"scale":[0.001,0.001,0.001],"translate":[${e0},${n0},0]},"metadata":{"referenceSystem":"https://www.opengis.net/def/crs/EPSG/0/${32600 + zone}"}}`,
  );
  closeSync(fd);
  return { buildings, parts };
}
