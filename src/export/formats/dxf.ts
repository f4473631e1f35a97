/**
 * DXF (AutoCAD R2004, AC1018 — the first version with 24-bit true colour, group 420), ASCII so
 * absolute grid coordinates keep full double precision. One layer per group and kind
 * (`buildings-building`, `surface-asphalt`, `surfaceLines-asphalt`, `instances-tree`,
 * `instances-wire`, …; a premium building's roofs, walls and floors on `buildings-buildingRoof`,
 * `-buildingWall`, `-buildingFloor`) in the kind's palette colour (true colour and the nearest ACI); a feature
 * with a colour of its own (`building:colour`) carries it on its faces. Triangles as 3DFACE (the
 * 4th corner repeats the 3rd), polylines (ground linework, power-line cables) as 3D POLYLINE.
 * Nodes are INSERTs of one BLOCK per shared model (node-models.ts): the block is the model at its
 * reference size in the file's units, on layer 0 so it takes the colour of the INSERT's
 * `instances-<type>` layer; the INSERT carries position, rotation (degrees) and the node's scale
 * per axis (unitless), and the node's stable name as XDATA of application `CITY_CONTEXT`. The
 * georeference is in 999 comments at the top and, for people, as TEXT lines on layer
 * `georeference` below the origin; `$INSBASE` stays (0, 0, 0) — the origin in anchor placement,
 * the grid's zero in absolute placement.
 */
import {
  METRES_PER_UNIT,
  sceneHead,
  type ExportFile,
  type ExportGroupName,
  type ExportMesh,
  type ExportNode,
  type ExportPolyline,
  type ExportScene,
  type ExportSceneHead,
  type ExportUnits,
  type FinishedExport,
} from '../scene.ts';
import { modelKeys } from '../../geometry/instances/models/index.ts';
import { safeName } from './export-names.ts';
import { georefLines } from './georef-note.ts';
import { nodeInstance, nodeName, placeModel, sharedModel } from './node-models.ts';
import { kindColour } from './palette.ts';
import { surfaceParts } from './surface-parts.ts';
import { num } from './text-number.ts';
import { colourGroups } from './dxf-colour.ts';
import { DxfTables, XDATA_APP } from './dxf-tables.ts';
import { writeThroughStream, type SyncStreamingWriter } from './stream-scene.ts';
import { TextSink } from './text-sink.ts';

/** `$INSUNITS` codes. */
const INSUNITS: Record<ExportUnits, number> = { in: 1, ft: 2, mm: 4, m: 6 };

/** A DXF taking features one by one: entities become bytes as they come; header, tables and blocks (extents, layers, the models used) are written last, in front. */
export function openDxfStream(head: ExportSceneHead): SyncStreamingWriter {
  const t = new DxfTables();
  const body = new TextSink('\r\n');
  const perMetre = 1 / METRES_PER_UNIT[head.units];
  const used = new Set<string>();
  const min = [Infinity, Infinity, Infinity],
    max = [-Infinity, -Infinity, -Infinity];
  const extend = (x: number, y: number, z: number): void => {
    if (x < min[0]) min[0] = x;
    if (y < min[1]) min[1] = y;
    if (z < min[2]) min[2] = z;
    if (x > max[0]) max[0] = x;
    if (y > max[1]) max[1] = y;
    if (z > max[2]) max[2] = z;
  };
  const point = (code: number, x: number, y: number, z: number): void => {
    body.push(`${code}\r\n${num(x)}\r\n${code + 10}\r\n${num(y)}\r\n${code + 20}\r\n${num(z)}`);
    extend(x, y, z);
  };
  const entity = (type: string, layer: string, owner = t.modelSpace): string => {
    const h = t.handle();
    body.push(entityHead(type, h, owner, layer));
    return h;
  };
  const mesh = (group: ExportGroupName, m: ExportMesh): void => {
    const p = m.positions;
    for (let i = 0; i < p.length; i += 3) extend(p[i], p[i + 1], p[i + 2]);
    const v = Array.from(p, num);
    // a premium building's roof, wall and floor faces each on their own layer (surface-parts.ts)
    for (const part of surfaceParts(m)) {
      const layer = t.layer(`${group}-${safeName(part.kind)}`, kindColour(part.kind));
      const own = part.colour ? `\r\n${colourGroups(part.colour).join('\r\n')}` : '';
      faces(v, part.indices, (face) => body.push(entityHead('3DFACE', t.handle(), t.modelSpace, layer) + own, face));
    }
  };
  const polyline = (group: ExportGroupName, l: ExportPolyline): void => {
    if (l.points.length < 6) return; // a line needs two points
    const kind = typeof l.descriptor.type === 'string' ? l.descriptor.type : l.kind;
    const layer = t.layer(`${group}-${safeName(kind)}`, kindColour(kind));
    const h = entity('POLYLINE', layer);
    body.push('100', 'AcDb3dPolyline', '66', '1', '10', '0', '20', '0', '30', '0', '70', String(8 | (l.closed ? 1 : 0)));
    for (let i = 0; i < l.points.length; i += 3) {
      entity('VERTEX', layer, h);
      body.push('100', 'AcDbVertex', '100', 'AcDb3dPolylineVertex');
      point(10, l.points[i], l.points[i + 1], l.points[i + 2]);
      body.push('70', '32');
    }
    entity('SEQEND', layer, h);
  };
  const corners = new Float64Array(24);
  const insert = (group: ExportGroupName, node: ExportNode): void => {
    // the scale in metres per metre: the block is drawn in the file's units, so it is unitless
    const inst = nodeInstance(node, 'm');
    if (!inst) return; // a wire is a cable (a polyline), never a node here
    used.add(inst.model);
    const layer = t.layer(`${group}-${safeName(node.type)}`, kindColour(node.type));
    entity('INSERT', layer);
    body.push('100', 'AcDbBlockReference', '2', safeName(inst.model));
    point(10, inst.position[0], inst.position[1], inst.position[2]);
    const [sx, sy, sz] = inst.scale;
    body.push('41', num(sx), '42', num(sy), '43', num(sz), '50', num(degrees(inst.rotation)));
    body.push('1001', XDATA_APP, '1000', textValue(nodeName(node)));
    // the extents hold the placed model's box, not only its insertion point
    placeModel(modelBox(inst.model), { ...inst, scale: [sx * perMetre, sy * perMetre, sz * perMetre] }, corners);
    for (let i = 0; i < 24; i += 3) extend(corners[i], corners[i + 1], corners[i + 2]);
  };
  return {
    add(group, it) {
      if (it.kind === 'mesh') mesh(group, it.item);
      else if (it.kind === 'polyline') polyline(group, it.item);
      else insert(group, it.item);
    },
    finish(scene: ExportScene): FinishedExport {
      // the shared models, in the model table's order (stable whatever order the nodes came in)
      const order = modelKeys();
      const rank = (k: string): number => (order.includes(k) ? order.indexOf(k) : order.length);
      for (const key of [...used].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1))) {
        t.block(safeName(key), INSUNITS[scene.units], (owner) => {
          const m = sharedModel(key);
          const p = m.positions.map((c) => c * perMetre);
          const lines: string[] = [];
          faces(Array.from(p, num), m.indices, (face) => lines.push(entityHead('3DFACE', t.handle(), owner, '0'), face));
          return lines;
        });
      }
      // The note for people: one TEXT per line, going down from the origin.
      const note = t.layer('georeference', null); // readable on any background
      const g = scene.georef,
        [ox, oy] = g.placement === 'anchor' ? [0, 0] : g.originGrid;
      const size = 1 / METRES_PER_UNIT[scene.units]; // text 1 m high
      georefLines(scene).forEach((line, i) => {
        entity('TEXT', note);
        body.push('100', 'AcDbText', '10', num(ox), '20', num(oy - (i + 1) * 1.5 * size), '30', '0', '40', num(size), '1', textValue(line), '100', 'AcDbText');
      });
      if (!Number.isFinite(min[0])) min.fill(0), max.fill(0);
      const header = [
        '0',
        'SECTION',
        '2',
        'HEADER',
        '9',
        '$ACADVER',
        '1',
        'AC1018',
        '9',
        '$DWGCODEPAGE',
        '3',
        'ANSI_1252',
        '9',
        '$INSBASE',
        '10',
        '0',
        '20',
        '0',
        '30',
        '0', // inserted as a block, grid coordinates stay grid coordinates
        '9',
        '$EXTMIN',
        '10',
        num(min[0]),
        '20',
        num(min[1]),
        '30',
        num(min[2]),
        '9',
        '$EXTMAX',
        '10',
        num(max[0]),
        '20',
        num(max[1]),
        '30',
        num(max[2]),
        '9',
        '$INSUNITS',
        '70',
        String(INSUNITS[scene.units]),
        '9',
        '$MEASUREMENT',
        '70',
        scene.units === 'm' || scene.units === 'mm' ? '1' : '0',
        '9',
        '$HANDSEED',
        '5',
        t.seed(),
        '0',
        'ENDSEC',
      ];
      const comments = georefLines(scene).flatMap((l) => ['999', textValue(l)]);
      const { head: tables, tail } = t.sections();
      const file = new TextSink('\r\n');
      file.push(...comments, ...header, ...tables);
      file.append(body);
      file.push(...tail);
      return { bytes: file.take(), extension: 'dxf', contentType: 'image/vnd.dxf' };
    },
    abort() {}, // nothing outside the JavaScript heap
  };
}

export function writeDxf(scene: ExportScene): ExportFile {
  return writeThroughStream(openDxfStream(sceneHead(scene)), scene);
}

/** DXF strings: one line, ≤ 255 characters, ANSI (the header says code page 1252). */
function textValue(s: string): string {
  return s
    .replace(/©/g, '(c)')
    .replace(/[^\x20-\x7e]/g, '_')
    .slice(0, 255);
}

/** An entity's common groups: type, handle, owner, layer. */
function entityHead(type: string, handle: string, owner: string, layer: string): string {
  return `0\r\n${type}\r\n5\r\n${handle}\r\n330\r\n${owner}\r\n100\r\nAcDbEntity\r\n8\r\n${layer}`;
}

/** The AcDbFace part of each triangle's 3DFACE (the 4th corner repeats the 3rd), one by one; each vertex formatted once. */
/** `v`: the mesh's coordinates already written as numbers (num), shared by its parts. */
function faces(v: readonly string[], ix: Uint32Array, emit: (face: string) => void): void {
  for (let i = 0; i < ix.length; i += 3) {
    const a = ix[i] * 3,
      b = ix[i + 1] * 3,
      c = ix[i + 2] * 3;
    emit(
      `100\r\nAcDbFace\r\n10\r\n${v[a]}\r\n20\r\n${v[a + 1]}\r\n30\r\n${v[a + 2]}\r\n11\r\n${v[b]}\r\n21\r\n${v[b + 1]}\r\n31\r\n${v[b + 2]}` +
        `\r\n12\r\n${v[c]}\r\n22\r\n${v[c + 1]}\r\n32\r\n${v[c + 2]}\r\n13\r\n${v[c]}\r\n23\r\n${v[c + 1]}\r\n33\r\n${v[c + 2]}`,
    );
  }
}

/** Radians counter-clockwise to DXF's degrees, in [0, 360). */
function degrees(rad: number): number {
  const d = (rad * 180) / Math.PI;
  const r = d - 360 * Math.floor(d / 360);
  return r >= 360 ? 0 : r; // a turn a hair below 0 rounds to 360 above
}

const boxes = new Map<string, Float64Array>();

/** The 8 corners of a shared model's bounding box (metres). */
function modelBox(key: string): Float64Array {
  let b = boxes.get(key);
  if (!b) {
    const p = sharedModel(key).positions;
    const lo = [Infinity, Infinity, Infinity],
      hi = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i < p.length; i++) {
      lo[i % 3] = Math.min(lo[i % 3], p[i]);
      hi[i % 3] = Math.max(hi[i % 3], p[i]);
    }
    b = new Float64Array(24);
    for (let c = 0; c < 8; c++) for (let a = 0; a < 3; a++) b[c * 3 + a] = (c >> a) & 1 ? hi[a] : lo[a];
    boxes.set(key, b);
  }
  return b;
}
