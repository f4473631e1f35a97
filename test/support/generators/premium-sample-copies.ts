/**
 * Large premium files for the import bench: the bundled samples copied side by side on a grid
 * (each copy shifted by the sample's extent, ids suffixed) until a file reaches the asked size,
 * written as they go so the generator itself stays small.
 */
import { closeSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../../src/repo-root.ts';

const ZURICH = join(REPO_ROOT, 'data/premium/zurich_subset_lod2.json');
const BERLIN = join(REPO_ROOT, 'data/premium/berlin_open_data_sample_data.citygml');

interface CityJson {
  CityObjects: Record<string, { type: string; parents?: string[]; children?: string[]; geometry?: { boundaries: unknown }[] }>;
  vertices: number[][];
  transform: { scale: number[]; translate: number[] };
  metadata: unknown;
}

/** Grid offset (in copies) of copy k: rows of 20. */
const cell = (k: number) => [k % 20, Math.floor(k / 20)];

function remap(value: unknown, f: (i: number) => number): unknown {
  return Array.isArray(value) ? value.map((v) => remap(v, f)) : typeof value === 'number' ? f(value) : value;
}

class Out {
  private readonly fd: number;
  bytes = 0;
  constructor(path: string) {
    this.fd = openSync(path, 'w');
  }
  write(text: string): void {
    this.bytes += writeSync(this.fd, text);
  }
  close(): void {
    closeSync(this.fd);
  }
}

/** Zürich copies as one CityJSON 1.1 file with `vertices` after `CityObjects` (as in the sample). Returns the building count. */
export function writeZurichCityJson(path: string, targetBytes: number): number {
  const src = JSON.parse(readFileSync(ZURICH, 'utf8')) as CityJson;
  const step = 12_000 / src.transform.scale[0]; // 12 km in the file's integer units
  const out = new Out(path);
  out.write('{"type":"CityJSON","version":"1.1","CityObjects":{');
  const estimate = statSync(ZURICH).size * 0.22; // the copy is written without the sample's indentation
  const copies = Math.max(1, Math.ceil(targetBytes / estimate));
  let first = true;
  for (let k = 0; k < copies; k++) {
    const base = k * src.vertices.length;
    for (const [id, o] of Object.entries(src.CityObjects)) {
      const copy = {
        ...o,
        parents: o.parents?.map((p) => `${p}-${k}`),
        children: o.children?.map((c) => `${c}-${k}`),
        geometry: o.geometry?.map((g) => ({ ...g, boundaries: remap(g.boundaries, (i) => i + base) })),
      };
      out.write(`${first ? '' : ','}${JSON.stringify(`${id}-${k}`)}:${JSON.stringify(copy)}`);
      first = false;
    }
  }
  out.write('},"vertices":[');
  for (let k = 0; k < copies; k++) {
    const [cx, cy] = cell(k);
    const lines = src.vertices.map((v) => `[${v[0] + cx * step},${v[1] + cy * step},${v[2]}]`);
    out.write(`${k === 0 ? '' : ','}${lines.join(',')}`);
  }
  out.write(`],"transform":${JSON.stringify(src.transform)},"metadata":${JSON.stringify(src.metadata)}}`);
  out.close();
  return copies * Object.values(src.CityObjects).filter((o) => o.type === 'Building').length;
}

/** Zürich copies as CityJSONSeq: a header line, then one feature per building. Returns the building count. */
export function writeZurichSeq(path: string, targetBytes: number): number {
  const src = JSON.parse(readFileSync(ZURICH, 'utf8')) as CityJson;
  const step = 12_000 / src.transform.scale[0];
  const out = new Out(path);
  out.write(`${JSON.stringify({ type: 'CityJSON', version: '2.0', transform: src.transform, metadata: src.metadata, CityObjects: {}, vertices: [] })}\n`);
  const roots = Object.entries(src.CityObjects).filter(([, o]) => o.type === 'Building');
  let buildings = 0;
  for (let k = 0; out.bytes < targetBytes; k++) {
    const [cx, cy] = cell(k);
    for (const [id, root] of roots) {
      const local = new Map<number, number>();
      const vertices: number[][] = [];
      const objects: Record<string, unknown> = { [`${id}-${k}`]: { ...root, children: root.children?.map((c) => `${c}-${k}`) } };
      for (const child of root.children ?? []) {
        const o = src.CityObjects[child];
        const geometry = o.geometry?.map((g) => ({
          ...g,
          boundaries: remap(g.boundaries, (i) => {
            let j = local.get(i);
            if (j === undefined) {
              j = vertices.length;
              local.set(i, j);
              const v = src.vertices[i];
              vertices.push([v[0] + cx * step, v[1] + cy * step, v[2]]);
            }
            return j;
          }),
        }));
        objects[`${child}-${k}`] = { ...o, parents: [`${id}-${k}`], geometry };
      }
      out.write(`${JSON.stringify({ type: 'CityJSONFeature', id: `${id}-${k}`, CityObjects: objects, vertices })}\n`);
      buildings++;
    }
  }
  out.close();
  return buildings;
}

/** Berlin copies as one CityGML 1.0 file. Returns the building count. */
export function writeBerlinGml(path: string, targetBytes: number): number {
  const text = readFileSync(BERLIN, 'utf8');
  const start = text.indexOf('<cityObjectMember>');
  const end = text.lastIndexOf('</cityObjectMember>') + '</cityObjectMember>'.length;
  const members = text.slice(start, end);
  const out = new Out(path);
  out.write(text.slice(0, start));
  let buildings = 0;
  for (let k = 0; out.bytes < targetBytes; k++) {
    const [cx, cy] = cell(k);
    const shifted = members
      .replace(/gml:id="([^"]+)"/g, (_, id: string) => `gml:id="${id}-${k}"`)
      .replace(/<gml:posList([^>]*)>([^<]+)</g, (_, attrs: string, list: string) => {
        const v = list.trim().split(/\s+/).map(Number);
        for (let i = 0; i < v.length; i += 3) {
          v[i] += cx * 400;
          v[i + 1] += cy * 400;
        }
        return `<gml:posList${attrs}>${v.join(' ')}<`;
      });
    out.write(shifted);
    buildings += 61;
  }
  out.write(text.slice(end));
  out.close();
  return buildings;
}
