/**
 * COLLADA 1.4.1 (.dae), valid against the 1.4.1 schema: `<unit meter>` and `Z_UP` from the scene,
 * one effect + material per kind (or data colour), one geometry per feature (triangles — a
 * premium building's roof, wall and floor each a `<triangles>` of its own material — or
 * linestrips for polylines), a node per group holding a node per feature named by its id (made an
 * xs:NCName: `way/1` → `way_1`; the real id and descriptor go in the node's `<extra>`).
 *
 * Street objects are instances: each shared model (node-models.ts) is one geometry in metres —
 * a tree's trunk and crown in two `<triangles>` of their own material (model-parts.ts) — and one
 * node of `<library_nodes>` (`model-<key>`); every object is a node of its group with its
 * `<translate>`, `<rotate>` about z and `<scale>` (the units included) and an `<instance_node>` of
 * its model. Coordinates are written as text with full double precision (`digits="17"`), so
 * absolute placement loses nothing, and a model's small vertices stay small: readers that hold
 * vertices in float32 keep every triangle of a bench at grid coordinates. The georeference is in
 * the asset's comments.
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
  type FinishedExport,
} from '../scene.ts';
import { materialNames, safeName } from './export-names.ts';
import { georefLines } from './georef-note.ts';
import { kindColour } from './palette.ts';
import { surfaceParts } from './surface-parts.ts';
import { num } from './text-number.ts';
import { modelParts } from './model-parts.ts';
import { nodeInstance, nodeName, sharedModel, type NodeInstance } from './node-models.ts';
import { writeThroughStream, type SyncStreamingWriter } from './stream-scene.ts';
import { TextSink } from './text-sink.ts';

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A fixed date: writers never read the clock (the download's own date is the export's). */
const DATE = '1970-01-01T00:00:00Z';

/**
 * A COLLADA file taking features one by one: geometries and each group's scene nodes become bytes
 * as they come; the asset, effects and materials (a few) are written at the end, in front.
 */
export function openDaeStream(head: ExportSceneHead): SyncStreamingWriter {
  const { materials, material } = materialNames(kindColour);
  // Each group's nodes in a sink of their own: the group's scene node must hold them together.
  const geo = new TextSink(''),
    groupNodes = new Map<ExportGroupName, TextSink>();
  for (const g of head.groups) groupNodes.set(g, new TextSink(''));
  let n = 0;
  /** A group's scene node, opened by its first feature. */
  const groupSink = (group: ExportGroupName): TextSink => {
    let nodes = groupNodes.get(group);
    if (!nodes) groupNodes.set(group, (nodes = new TextSink('')));
    if (nodes.isEmpty()) nodes.push(`<node id="group-${group}" name="${group}">`);
    return nodes;
  };
  /** `bindings`: each material symbol the primitives use, with its material. */
  const add = (
    group: ExportGroupName,
    id: string,
    source: string,
    primitive: string,
    bindings: [string, string][],
    descriptor: Record<string, unknown>,
  ): void => {
    const g = `geom${n}`,
      name = safeName(id);
    const nodes = groupSink(group);
    geo.push(`<geometry id="${g}" name="${name}"><mesh>`, source, primitive, '</mesh></geometry>\n');
    const bind = bindings.map(([symbol, mat]) => `<instance_material symbol="${symbol}" target="#mat-${mat}"/>`).join('');
    nodes.push(
      `<node id="node${n}" name="${name}"><instance_geometry url="#${g}"><bind_material><technique_common>` +
        `${bind}</technique_common></bind_material></instance_geometry>` +
        `<extra><technique profile="CityContext"><id>${esc(id)}</id><descriptor>${esc(JSON.stringify(descriptor))}</descriptor></technique></extra></node>\n`,
    );
    n++;
  };
  const mesh = (group: ExportGroupName, m: ExportMesh): void => {
    if (!m.indices.length) return; // nothing to draw
    const p = `geom${n}`;
    // a premium building's roof, wall and floor: a <triangles> each, bound to its own material (surface-parts.ts)
    const parts = surfaceParts(m);
    const symbol = (i: number) => (parts.length === 1 ? 'm' : `m${i}`);
    const triangles = parts
      .map(
        (part, i) =>
          `<triangles count="${part.indices.length / 3}" material="${symbol(i)}"><input semantic="VERTEX" source="#${p}-v" offset="0"/><p>${part.indices.join(' ')}</p></triangles>`,
      )
      .join('');
    add(
      group,
      m.id,
      positions(p, m.positions),
      triangles,
      parts.map((part, i): [string, string] => [symbol(i), material(part.kind, part.colour)]),
      m.descriptor,
    );
  };
  const models = new Set<string>();
  const node = (group: ExportGroupName, o: ExportNode): void => {
    const inst = nodeInstance(o, head.units);
    if (!inst) return; // a wire comes as its cable
    models.add(inst.model);
    const id = nodeName(o);
    groupSink(group).push(
      `<node id="node${n}" name="${safeName(id)}">${transform(inst)}<instance_node url="#model-${safeName(inst.model)}"/>` +
        `<extra><technique profile="CityContext"><id>${esc(id)}</id><type>${esc(o.type)}</type><model>${esc(inst.model)}</model>` +
        `<descriptor>${esc(JSON.stringify(o.descriptor))}</descriptor></technique></extra></node>\n`,
    );
    n++;
  };
  const polyline = (group: ExportGroupName, l: ExportPolyline): void => {
    const p = `geom${n}`,
      count = l.points.length / 3;
    if (count < 2) return;
    const ix = Array.from({ length: count }, (_, i) => i);
    if (l.closed && count > 2) ix.push(0);
    const strip = `<linestrips count="1" material="m"><input semantic="VERTEX" source="#${p}-v" offset="0"/><p>${ix.join(' ')}</p></linestrips>`;
    add(group, l.id, positions(p, l.points), strip, [['m', material(typeof l.descriptor.type === 'string' ? l.descriptor.type : l.kind)]], l.descriptor);
  };
  return {
    add(group, it) {
      if (it.kind === 'mesh') mesh(group, it.item);
      else if (it.kind === 'polyline') polyline(group, it.item);
      else node(group, it.item);
    },
    finish(scene: ExportScene): FinishedExport {
      // each model's geometry and node, once, in a fixed order (before the effects: they name its materials)
      const keys = [...models].sort();
      const modelNodes = keys.map((key) => modelNode(key, material));
      for (const key of keys) geo.push(modelGeometry(key));
      const effects = [...materials].map(
        ([name, [r, g, b]]) =>
          `<effect id="fx-${name}"><profile_COMMON><technique sid="common"><lambert><diffuse><color>${num(r)} ${num(g)} ${num(b)} 1</color></diffuse></lambert></technique></profile_COMMON></effect>`,
      );
      const mats = [...materials.keys()].map((name) => `<material id="mat-${name}" name="${name}"><instance_effect url="#fx-${name}"/></material>`);
      const file = new TextSink('\n');
      file.push(
        '<?xml version="1.0" encoding="utf-8"?>',
        '<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">',
        `<asset><contributor><authoring_tool>City Context</authoring_tool><comments>${esc(georefLines(scene).join('\n'))}</comments>` +
          `<copyright>${esc(scene.attribution.join('; '))}</copyright></contributor>` +
          `<created>${DATE}</created><modified>${DATE}</modified>` +
          `<unit name="${scene.units}" meter="${num(METRES_PER_UNIT[scene.units])}"/><up_axis>Z_UP</up_axis></asset>`,
      );
      // COLLADA libraries may come in any order but must not be empty.
      if (!geo.isEmpty()) {
        file.push('<library_geometries>');
        file.append(geo);
        file.push('</library_geometries>');
      }
      if (modelNodes.length) file.push(`<library_nodes>${modelNodes.join('\n')}</library_nodes>`);
      if (effects.length) file.push(`<library_effects>${effects.join('\n')}</library_effects>`, `<library_materials>${mats.join('\n')}</library_materials>`);
      file.push(`<library_visual_scenes><visual_scene id="scene" name="${safeName(scene.name)}">`);
      const nodes = new TextSink('');
      for (const g of groupNodes.values())
        if (!g.isEmpty()) {
          g.push('</node>\n');
          nodes.append(g);
        }
      if (n === 0) nodes.push('<node id="empty" name="empty"/>'); // a visual_scene needs a node
      file.append(nodes);
      file.push('</visual_scene></library_visual_scenes>', '<scene><instance_visual_scene url="#scene"/></scene>', '</COLLADA>');
      return { bytes: file.take(), extension: 'dae', contentType: 'model/vnd.collada+xml' };
    },
    abort() {}, // nothing outside the JavaScript heap
  };
}

export function writeDae(scene: ExportScene): ExportFile {
  return writeThroughStream(openDaeStream(sceneHead(scene)), scene);
}

/** The position source and `<vertices>` of one geometry. */
function positions(id: string, p: Float64Array): string {
  const values = Array.from(p, num).join(' ');
  return (
    `<source id="${id}-p"><float_array id="${id}-a" count="${p.length}" digits="17">${values}</float_array>` +
    `<technique_common><accessor source="#${id}-a" count="${p.length / 3}" stride="3"><param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/></accessor></technique_common></source>` +
    `<vertices id="${id}-v"><input semantic="POSITION" source="#${id}-p"/></vertices>`
  );
}

/** A node's placement as COLLADA transforms, applied right to left: scale, turn about z, move. */
function transform(inst: NodeInstance): string {
  const [x, y, z] = inst.position,
    [sx, sy, sz] = inst.scale;
  return `<translate>${num(x)} ${num(y)} ${num(z)}</translate><rotate>0 0 1 ${num((inst.rotation * 180) / Math.PI)}</rotate><scale>${num(sx)} ${num(sy)} ${num(sz)}</scale>`;
}

/** A model's geometry: its vertices (metres, z up) once, a `<triangles>` per part with the part's material symbol. */
function modelGeometry(key: string): string {
  const id = `model-geom-${safeName(key)}`;
  const triangles = modelParts(key).map(
    (part) =>
      `<triangles count="${part.indices.length / 3}" material="${safeName(part.kind)}"><input semantic="VERTEX" source="#${id}-v" offset="0"/><p>${part.indices.join(' ')}</p></triangles>`,
  );
  return `<geometry id="${id}" name="${safeName(key)}"><mesh>${positions(id, sharedModel(key).positions)}${triangles.join('')}</mesh></geometry>\n`;
}

/** The library node of a model: its geometry with each part's symbol bound to the part's material. */
function modelNode(key: string, material: (kind: string) => string): string {
  const bind = modelParts(key)
    .map((part) => `<instance_material symbol="${safeName(part.kind)}" target="#mat-${material(part.kind)}"/>`)
    .join('');
  return (
    `<node id="model-${safeName(key)}" name="${safeName(key)}"><instance_geometry url="#model-geom-${safeName(key)}">` +
    `<bind_material><technique_common>${bind}</technique_common></bind_material></instance_geometry></node>`
  );
}
