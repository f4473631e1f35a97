/**
 * Wavefront OBJ + MTL, delivered as ONE zip holding `<name>.obj` and `<name>.mtl` (the OBJ names
 * the MTL with `mtllib`, which every reader resolves next to it; an MTL embedded in the OBJ is
 * read by nothing). One `o` + `g` per feature named by its id (the group in a comment
 * before its features: a second `g` name splits the feature in some readers), one material per kind (or per data
 * colour; a premium building's roof, wall and floor each their own `usemtl`, surface-parts.ts), polylines (ground lines, power-line cables) as `l` elements. OBJ has no instancing: each
 * street object is its model placed (node-models.ts), its `o`/`g` named by its type and id
 * (`tree-broadleaf:node/3`, `bench:node/4`), a tree's trunk and crown in their own materials
 * (model-parts.ts). OBJ has no unit field: the header comments say the units and georeference.
 * Text, so absolute coordinates keep full double precision (a reader holding them in float32 may
 * still collapse a small object's faces at grid coordinates: docs/exports.md).
 */
import {
  sceneHead,
  type ExportFile,
  type ExportGroupName,
  type ExportMesh,
  type ExportNode,
  type ExportPolyline,
  type ExportScene,
  type ExportSceneHead,
} from '../scene.ts';
import { materialNames } from './export-names.ts';
import { georefLines } from './georef-note.ts';
import { kindColour } from './palette.ts';
import { modelParts } from './model-parts.ts';
import { surfaceParts } from './surface-parts.ts';
import { nodeInstance, nodeName, nodeTypeName, placeModel, sharedModel } from './node-models.ts';
import { writeThroughStream, type SyncStreamingWriter } from './stream-scene.ts';
import { num } from './text-number.ts';
import { TextSink } from './text-sink.ts';
import { DeflatingEntry, zip } from './zip.ts';

/**
 * An OBJ taking features one by one: its text is deflated into the zip entry ~1 MB at a time as
 * it is written (the dense 10 km² OBJ is ~15× its zip), so neither the scene nor the text is held.
 * Features come in the order they arrive; a comment names the group whenever it changes.
 */
export function openObjStream(head: ExportSceneHead): SyncStreamingWriter {
  const { materials, material } = materialNames(kindColour);
  const entry = new DeflatingEntry(`${head.name}.obj`);
  const out = new TextSink('\n', (bytes) => entry.write(bytes));
  let base = 1; // OBJ indices are 1-based and global
  let current: ExportGroupName | null = null;
  const vertices = (p: Float64Array): void => {
    for (let i = 0; i < p.length; i += 3) out.push(`v ${num(p[i])} ${num(p[i + 1])} ${num(p[i + 2])}`);
  };
  const groupComment = (group: ExportGroupName): void => {
    if (group !== current) out.push(`# group ${group}`);
    current = group;
  };
  const mesh = (group: ExportGroupName, m: ExportMesh): void => {
    groupComment(group);
    out.push(`o ${m.id}`, `g ${m.id}`);
    vertices(m.positions);
    // a premium building's roof, wall and floor each under their own usemtl (surface-parts.ts)
    for (const part of surfaceParts(m)) {
      out.push(`usemtl ${material(part.kind, part.colour)}`);
      const ix = part.indices;
      for (let t = 0; t < ix.length; t += 3) out.push(`f ${base + ix[t]} ${base + ix[t + 1]} ${base + ix[t + 2]}`);
    }
    base += m.positions.length / 3;
  };
  const node = (group: ExportGroupName, o: ExportNode): void => {
    const inst = nodeInstance(o, head.units);
    if (!inst) return; // a wire comes as its cable
    groupComment(group);
    const name = `${nodeTypeName(o, inst)}:${nodeName(o)}`;
    out.push(`o ${name}`, `g ${name}`);
    const model = sharedModel(inst.model),
      placed = new Float64Array(model.positions.length);
    placeModel(model.positions, inst, placed);
    vertices(placed);
    for (const part of modelParts(inst.model)) {
      out.push(`usemtl ${material(part.kind)}`);
      const ix = part.indices;
      for (let t = 0; t < ix.length; t += 3) out.push(`f ${base + ix[t]} ${base + ix[t + 1]} ${base + ix[t + 2]}`);
    }
    base += placed.length / 3;
  };
  const polyline = (group: ExportGroupName, l: ExportPolyline): void => {
    groupComment(group);
    const kind = typeof l.descriptor.type === 'string' ? l.descriptor.type : l.kind;
    out.push(`o ${l.id}`, `g ${l.id}`, `usemtl ${material(kind)}`);
    vertices(l.points);
    const n = l.points.length / 3,
      ix = Array.from({ length: n }, (_, i) => base + i);
    if (l.closed && n > 2) ix.push(base);
    if (n >= 2) out.push(`l ${ix.join(' ')}`);
    base += n;
  };
  return {
    add(group, it) {
      if (it.kind === 'mesh') mesh(group, it.item);
      else if (it.kind === 'polyline') polyline(group, it.item);
      else node(group, it.item);
    },
    finish(scene: ExportScene): ExportFile {
      out.flush();
      // the header names the attribution, known only now: it goes in front as a deflate segment of its own
      const header = new TextSink('\n');
      header.push(...georefLines(scene).map((l) => `# ${l}`), `mtllib ${scene.name}.mtl`);
      entry.prepend(header.bytes());
      const mtl = [`# materials of ${scene.name}.obj, one per kind`];
      for (const [name, [r, g, b]] of materials) mtl.push('', `newmtl ${name}`, `Kd ${num(r)} ${num(g)} ${num(b)}`, 'Ka 0 0 0', 'Ks 0 0 0', 'd 1', 'illum 1');
      const enc = new TextEncoder();
      const bytes = zip([entry.finish(), { name: `${scene.name}.mtl`, data: enc.encode(`${mtl.join('\n')}\n`) }]);
      return { bytes, extension: 'obj.zip', contentType: 'application/zip' };
    },
    abort() {}, // nothing outside the JavaScript heap
  };
}

export function writeObj(scene: ExportScene): ExportFile {
  return writeThroughStream(openObjStream(sceneHead(scene)), scene);
}
