/**
 * Binary PLY (little-endian): every mesh and each street object's placed model with its own vertices, each vertex
 * coloured by its feature (the data's colour, else the kind's; a premium building's roof, wall and
 * floor each by its role, their vertices repeated where they meet); polylines have no place in it.
 * Positions are doubles (`property double`), so absolute grid coordinates keep full precision.
 * PLY has no units or object names: the header comments say the units, georeference and credits;
 * named objects are OBJ's (its elements are vertices and faces only, which every reader shows).
 */
import type { ExportFile, ExportScene } from '../scene.ts';
import { georefLines } from './georef-note.ts';
import { groupMeshes } from './node-models.ts';
import { kindColour } from './palette.ts';
import { splitBySurface } from './surface-parts.ts';

export function writePly(scene: ExportScene): ExportFile {
  // a premium building's roof, wall and floor with vertices of their own, so each takes its role's colour
  const meshes = scene.groups.flatMap((g) => groupMeshes(g, scene.units)).flatMap(splitBySurface);
  const vertices = meshes.reduce((n, m) => n + m.positions.length / 3, 0);
  const faces = meshes.reduce((n, m) => n + m.indices.length / 3, 0);
  const comments = georefLines(scene).map((l) => `comment ${ascii(l)}`);
  const header = [
    'ply',
    'format binary_little_endian 1.0',
    ...comments,
    `element vertex ${vertices}`,
    'property double x',
    'property double y',
    'property double z',
    'property uchar red',
    'property uchar green',
    'property uchar blue',
    `element face ${faces}`,
    'property list uchar uint vertex_indices',
    'end_header',
    '',
  ].join('\n');
  const head = new TextEncoder().encode(header);
  const bytes = new Uint8Array(head.length + vertices * 27 + faces * 13);
  bytes.set(head);
  const view = new DataView(bytes.buffer);
  let o = head.length;
  for (const m of meshes) {
    const rgb = (m.colour ?? kindColour(m.kind)).map((c) => Math.round(Math.min(1, Math.max(0, c)) * 255));
    for (let i = 0; i < m.positions.length; i += 3) {
      view.setFloat64(o, m.positions[i], true);
      view.setFloat64(o + 8, m.positions[i + 1], true);
      view.setFloat64(o + 16, m.positions[i + 2], true);
      bytes[o + 24] = rgb[0];
      bytes[o + 25] = rgb[1];
      bytes[o + 26] = rgb[2];
      o += 27;
    }
  }
  let base = 0;
  for (const m of meshes) {
    for (let t = 0; t < m.indices.length; t += 3) {
      bytes[o] = 3;
      view.setUint32(o + 1, base + m.indices[t], true);
      view.setUint32(o + 5, base + m.indices[t + 1], true);
      view.setUint32(o + 9, base + m.indices[t + 2], true);
      o += 13;
    }
    base += m.positions.length / 3;
  }
  return { bytes, extension: 'ply', contentType: 'application/x-ply' };
}

/** Header lines are ASCII, one per comment. */
function ascii(s: string): string {
  return s.replace(/©/g, '(c)').replace(/[^\x20-\x7e]/g, '_');
}
