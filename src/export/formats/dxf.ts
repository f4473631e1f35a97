/**
 * DXF (AutoCAD R2000, AC1015 — the oldest version with `$INSUNITS`), ASCII so absolute grid
 * coordinates keep full double precision. One layer per group and kind (`buildings-building`,
 * `surface-asphalt`, `surfaceLines-asphalt`, `instances-tree`, …) coloured from the palette;
 * triangles as 3DFACE (the 4th corner repeats the 3rd), polylines as 3D POLYLINE, node symbols
 * as 3DFACEs on their instance layer. The georeference is in 999 comments at the top and, for
 * people, as TEXT lines on layer `georeference` below the origin; `$INSBASE` stays (0, 0, 0) — the
 * origin in anchor placement, the grid's zero in absolute placement.
 */
import {
  METRES_PER_UNIT,
  sceneHead,
  type ExportFile,
  type ExportGroupName,
  type ExportMesh,
  type ExportPolyline,
  type ExportScene,
  type ExportSceneHead,
  type ExportUnits,
  type FinishedExport,
} from '../scene.ts';
import { safeName } from './export-names.ts';
import { georefLines } from './georef-note.ts';
import { kindColour } from './palette.ts';
import { num } from './text-number.ts';
import { DxfTables } from './dxf-tables.ts';
import { meshItems, writeThroughStream, type SyncStreamingWriter } from './stream-scene.ts';
import { TextSink } from './text-sink.ts';

/** `$INSUNITS` codes. */
const INSUNITS: Record<ExportUnits, number> = { in: 1, ft: 2, mm: 4, m: 6 };

/** A DXF taking features one by one: entities become bytes as they come; header and tables (extents, layers) are written last, in front. */
export function openDxfStream(head: ExportSceneHead): SyncStreamingWriter {
  const t = new DxfTables();
  const body = new TextSink('\r\n');
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
    body.push(`0\r\n${type}\r\n5\r\n${h}\r\n330\r\n${owner}\r\n100\r\nAcDbEntity\r\n8\r\n${layer}`);
    return h;
  };
  const mesh = (group: ExportGroupName, m: ExportMesh): void => {
    const layer = t.layer(`${group}-${safeName(m.kind)}`, kindColour(m.kind));
    const p = m.positions,
      ix = m.indices;
    // Each vertex is written once as text and reused by its faces (formatting dominates).
    const v = Array.from(p, num);
    for (let i = 0; i < p.length; i += 3) extend(p[i], p[i + 1], p[i + 2]);
    for (let i = 0; i < ix.length; i += 3) {
      entity('3DFACE', layer);
      const a = ix[i] * 3,
        b = ix[i + 1] * 3,
        c = ix[i + 2] * 3;
      body.push(
        `100\r\nAcDbFace\r\n10\r\n${v[a]}\r\n20\r\n${v[a + 1]}\r\n30\r\n${v[a + 2]}\r\n11\r\n${v[b]}\r\n21\r\n${v[b + 1]}\r\n31\r\n${v[b + 2]}` +
          `\r\n12\r\n${v[c]}\r\n22\r\n${v[c + 1]}\r\n32\r\n${v[c + 2]}\r\n13\r\n${v[c]}\r\n23\r\n${v[c + 1]}\r\n33\r\n${v[c + 2]}`,
      );
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
  return {
    add: meshItems(head.units, mesh, polyline),
    finish(scene: ExportScene): FinishedExport {
      // The note for people: one TEXT per line, going down from the origin.
      const note = t.layer('georeference', [1, 1, 1]);
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
        'AC1015',
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
