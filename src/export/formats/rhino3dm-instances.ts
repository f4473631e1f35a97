/**
 * Nodes in a 3dm as Rhino blocks: one instance definition (ON_InstanceDefinition, a "block
 * definition") per shared model (./node-models.ts), whose geometry is the model's mesh stored in
 * the object table as definition geometry, and one instance reference (ON_InstanceRef, a "block
 * instance") per node placing it by a 4×4 transform: move · turn about z · scale.
 *
 * The definition's mesh is the model in the file's units (a 1 m bench is 1000 mm long in a mm
 * file), so a node at its nominal size is a block inserted at scale 1 and the transform carries
 * only the node's own size; Rhino shows the block as designed when opened in the block editor.
 * Definitions are written in the table before the object table, at `finish`, in the model
 * table's fixed order (geometry/instances/models `modelKeys`); their meshes go into the object
 * stream the first time a node uses them.
 */
import { modelKeys } from '../../geometry/instances/models/index.ts';
import type { ExportUnits } from '../scene.ts';
import { METRES_PER_UNIT } from '../scene.ts';
import type { ArchiveWriter } from './rhino3dm-archive.ts';
import { TCODE, uuidBytes, type UuidSource } from './rhino3dm-codes.ts';
import { OBJECT_TYPE, writeClassRecord, writeMeshObject, writeObject, type ObjectAttributes } from './rhino3dm-objects.ts';
import { sharedModel, type NodeInstance } from './node-models.ts';

const CLASS = {
  definition: uuidBytes('26F8BFF6-2618-417f-A158-153D64A94989'),
  reference: uuidBytes('F9CFB638-B9D4-4340-87E3-C56E7865D96A'),
};

/** ON_InstanceDefinition::IDEF_UPDATE_TYPE::Static: the geometry lives in this file. */
const STATIC_DEFINITION = 1;

/** An axis-aligned box: min x, y, z, then max x, y, z. */
export type Box = [number, number, number, number, number, number];

/** One definition: its id, its name (the model key), its geometry's object ids, its box, in file units. */
export interface InstanceDefinitionRecord {
  id: Uint8Array;
  name: string;
  objects: Uint8Array[];
  box: Box;
}

/** Box of xyz triples. */
function boxOf(p: ArrayLike<number>): Box {
  const b: Box = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
  for (let i = 0; i < p.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      if (p[i + k] < b[k]) b[k] = p[i + k];
      if (p[i + k] > b[k + 3]) b[k + 3] = p[i + k];
    }
  }
  return b;
}

/**
 * A node's transform in a file whose definitions are in its units (row by row, as ON_Xform):
 * the node's size (the model's scale without the unit factor), then its turn, then its position.
 */
export function instanceXform(inst: NodeInstance, units: ExportUnits): number[] {
  const k = METRES_PER_UNIT[units];
  const [sx, sy, sz] = inst.scale.map((s) => s * k),
    [x, y, z] = inst.position;
  const c = Math.cos(inst.rotation),
    s = Math.sin(inst.rotation);
  return [c * sx, -s * sy, 0, x, s * sx, c * sy, 0, y, 0, 0, sz, z, 0, 0, 0, 1];
}

/** The box of a definition's box carried by an affine transform (its eight corners' box). */
export function transformedBox(b: Box, m: readonly number[]): Box {
  const corners: number[] = [];
  for (const x of [b[0], b[3]])
    for (const y of [b[1], b[4]])
      for (const z of [b[2], b[5]])
        corners.push(m[0] * x + m[1] * y + m[2] * z + m[3], m[4] * x + m[5] * y + m[6] * z + m[7], m[8] * x + m[9] * y + m[10] * z + m[11]);
  return boxOf(corners);
}

/**
 * The definitions a stream has used so far. `use` returns a model's definition, writing its
 * geometry to `w` the first time (on `layer`, so definition meshes sit with the nodes' group).
 */
export class InstanceDefinitions {
  private readonly byKey = new Map<string, InstanceDefinitionRecord>();

  constructor(
    private readonly ids: UuidSource,
    private readonly units: ExportUnits,
  ) {}

  use(w: ArchiveWriter, key: string, layer: number): InstanceDefinitionRecord {
    let def = this.byKey.get(key);
    if (def) return def;
    const model = sharedModel(key),
      k = 1 / METRES_PER_UNIT[this.units];
    const positions = model.positions.map((v) => v * k);
    const attributes: ObjectAttributes = { id: this.ids.next(`block-geometry:${key}`), layer, name: key, strings: [['model', key]], definitionGeometry: true };
    writeMeshObject(w, attributes, positions, model.indices);
    def = { id: this.ids.next(`block:${key}`), name: key, objects: [attributes.id], box: boxOf(positions) };
    this.byKey.set(key, def);
    return def;
  }

  /** The definitions used, in the model table's order (the same whatever order the tiles came in). */
  records(): InstanceDefinitionRecord[] {
    const order = new Map(modelKeys().map((key, i) => [key, i]));
    return [...this.byKey.values()].sort((a, b) => (order.get(a.name) ?? Infinity) - (order.get(b.name) ?? Infinity) || (a.name < b.name ? -1 : 1));
  }
}

/** ON_InstanceRef, version 1.0: the definition's id, the transform, the box it covers. */
export function writeInstanceReferenceObject(w: ArchiveWriter, a: ObjectAttributes, definition: InstanceDefinitionRecord, xform: readonly number[]): void {
  writeObject(w, OBJECT_TYPE.instanceReference, CLASS.reference, a, () => {
    w.version(1, 0);
    w.bytes(definition.id);
    w.f64(...xform);
    w.f64(...transformedBox(definition.box, xform));
  });
}

/** ON_UnitSystem: unit system, metres per unit, custom unit name. */
function writeUnitSystem(w: ArchiveWriter, system: number, metresPerUnit: number): void {
  w.beginVersioned(TCODE.ANONYMOUS_CHUNK, 1, 0);
  w.i32(system);
  w.f64(metresPerUnit);
  w.string('');
  w.end();
}

/** ON_InstanceDefinition as Rhino 6 and later write it: a static definition (geometry in this file). */
function writeDefinition(w: ArchiveWriter, index: number, d: InstanceDefinitionRecord, units: { system: number; metresPerUnit: number }): void {
  w.begin(TCODE.INSTANCE_DEFINITION_RECORD);
  writeClassRecord(w, CLASS.definition, () => {
    w.beginVersioned(TCODE.ANONYMOUS_CHUNK, 1, 0);
    // model component attributes: each item after a status byte (0 not written, 1 written)
    w.beginVersioned(TCODE.MODEL_ATTRIBUTES_CHUNK, 1, 0);
    w.u8(0); // serial numbers
    w.u8(1);
    w.bytes(d.id);
    w.u8(0); // component type
    w.u8(1);
    w.i32(index);
    w.u8(1);
    w.string(d.name);
    w.end();
    w.i32(STATIC_DEFINITION);
    writeUnitSystem(w, units.system, units.metresPerUnit);
    w.string(''); // description
    w.string(''); // URL
    w.string(''); // URL tag
    w.f64(...d.box);
    w.bool(true); // the geometry's object ids follow
    w.i32(d.objects.length);
    for (const id of d.objects) w.bytes(id);
    w.bool(false); // not linked to another file
    w.end();
  });
  w.end();
}

/** The instance definition table (empty when the scene has no nodes); definitions in the document's units. */
export function writeInstanceDefinitionTable(
  w: ArchiveWriter,
  definitions: InstanceDefinitions | null,
  units: { system: number; metresPerUnit: number },
): void {
  w.begin(TCODE.INSTANCE_DEFINITION_TABLE);
  definitions?.records().forEach((d, i) => writeDefinition(w, i, d, units));
  w.short(TCODE.ENDOFTABLE, 0);
  w.end();
}
