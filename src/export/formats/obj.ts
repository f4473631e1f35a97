/**
 * Wavefront OBJ + MTL, delivered as ONE zip holding `<name>.obj` and `<name>.mtl` (the OBJ names
 * the MTL with `mtllib`, which every reader resolves next to it; an MTL embedded in the OBJ is
 * read by nothing). One `o` + `g` per feature named by its id (the group in a comment
 * before its features: a second `g` name splits the feature in some readers), one material per kind (or per data
 * colour), node symbols as features of `instances`, polylines as `l` elements. OBJ has no unit
 * field: the header comments say the units and georeference. Text, so absolute coordinates keep
 * full double precision.
 */
import type { ExportFile, ExportMesh, ExportScene } from '../scene.ts';
import { materialNames } from './export-names.ts';
import { georefLines } from './georef-note.ts';
import { groupMeshes } from './node-symbols.ts';
import { kindColour } from './palette.ts';
import { num } from './text-number.ts';
import { TextSink } from './text-sink.ts';
import { zip } from './zip.ts';


export function writeObj(scene: ExportScene): ExportFile {
  const { materials, material } = materialNames(kindColour);
  const out = new TextSink('\n');
  out.push(...georefLines(scene).map((l) => `# ${l}`), `mtllib ${scene.name}.mtl`);
  let base = 1; // OBJ indices are 1-based and global
  const vertices = (p: Float64Array): void => {
    for (let i = 0; i < p.length; i += 3) out.push(`v ${num(p[i])} ${num(p[i + 1])} ${num(p[i + 2])}`);
  };
  for (const group of scene.groups) {
    out.push(`# group ${group.name}`);
    const meshes: ExportMesh[] = groupMeshes(group, scene.units);
    for (const m of meshes) {
      out.push(`o ${m.id}`, `g ${m.id}`, `usemtl ${material(m.kind, m.colour)}`);
      vertices(m.positions);
      for (let t = 0; t < m.indices.length; t += 3) out.push(`f ${base + m.indices[t]} ${base + m.indices[t + 1]} ${base + m.indices[t + 2]}`);
      base += m.positions.length / 3;
    }
    for (const l of group.polylines) {
      const kind = typeof l.descriptor.type === 'string' ? l.descriptor.type : l.kind;
      out.push(`o ${l.id}`, `g ${l.id}`, `usemtl ${material(kind)}`);
      vertices(l.points);
      const n = l.points.length / 3, ix = Array.from({ length: n }, (_, i) => base + i);
      if (l.closed && n > 2) ix.push(base);
      if (n >= 2) out.push(`l ${ix.join(' ')}`);
      base += n;
    }
  }
  const mtl = [`# materials of ${scene.name}.obj, one per kind`];
  for (const [name, [r, g, b]] of materials) mtl.push('', `newmtl ${name}`, `Kd ${num(r)} ${num(g)} ${num(b)}`, 'Ka 0 0 0', 'Ks 0 0 0', 'd 1', 'illum 1');
  const enc = new TextEncoder();
  const bytes = zip([
    { name: `${scene.name}.obj`, data: out.bytes() },
    { name: `${scene.name}.mtl`, data: enc.encode(`${mtl.join('\n')}\n`) },
  ]);
  return { bytes, extension: 'obj.zip', contentType: 'application/zip' };
}
