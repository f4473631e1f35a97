/**
 * Nodes (trees, benches, poles, …) in IFC as typed, mapped instances. Each model the export uses
 * becomes one type object carrying the model's body once, as an IfcRepresentationMap (an
 * IfcTriangulatedFaceSet at the model's reference size, in the file's units); each node an
 * occurrence of the type's class whose body is an IfcMappedItem of that map, scaled per axis by an
 * IfcCartesianTransformationOperator3DnonUniform and set in place (position, turn about z) by its
 * own IfcLocalPlacement. One IfcRelDefinesByType per type relates it to all its occurrences, and
 * the project declares the types (IfcRelDeclares), so a designer swaps every broadleaf tree or
 * every bench by editing one type.
 *
 * Classes (IFC4 has no tree, pole or crane entity; docs/exports.md): vegetation is
 * IfcGeographicElement(Type); street furniture IfcFurniture(Type) (IfcFurnishingElement itself is
 * deprecated for instantiation in IFC4); street lamps IfcLightFixture(Type); hydrants
 * IfcFireSuppressionTerminal(Type) FIREHYDRANT; everything else (poles, towers, cranes, turbines,
 * statues, shelters, flagpoles) IfcBuildingElementProxy(Type). Types other than the predefined
 * ones are USERDEFINED with the model's name as ElementType.
 */
import type { ExportNode, ExportUnits } from '../scene.ts';
import { METRES_PER_UNIT } from '../scene.ts';
import type { IfcFrame } from './ifc-context.ts';
import { NULL, enumeration, list, pointList, real, ref, str, type Step, type StepFile } from './ifc-step.ts';
import { nodeInstance, sharedModel } from './node-models.ts';
import { kindColour } from './palette.ts';

/** The IFC4 entities of a node type's type object and occurrences, and the type's PredefinedType. */
export interface IfcNodeClass {
  type: string;
  occurrence: string;
  predefined: string;
}

const GEOGRAPHIC: IfcNodeClass = { type: 'IFCGEOGRAPHICELEMENTTYPE', occurrence: 'IFCGEOGRAPHICELEMENT', predefined: 'USERDEFINED' };
const furniture = (predefined: string): IfcNodeClass => ({ type: 'IFCFURNITURETYPE', occurrence: 'IFCFURNITURE', predefined });
const PROXY: IfcNodeClass = { type: 'IFCBUILDINGELEMENTPROXYTYPE', occurrence: 'IFCBUILDINGELEMENTPROXY', predefined: 'USERDEFINED' };

const CLASSES: Readonly<Record<string, IfcNodeClass>> = {
  tree: GEOGRAPHIC,
  shrubbery: GEOGRAPHIC,
  bench: furniture('USERDEFINED'),
  picnicTable: furniture('TABLE'),
  wasteBasket: furniture('USERDEFINED'),
  postBox: furniture('USERDEFINED'),
  bicycleParking: furniture('USERDEFINED'),
  drinkingWater: furniture('USERDEFINED'),
  adColumn: furniture('USERDEFINED'),
  streetLamp: { type: 'IFCLIGHTFIXTURETYPE', occurrence: 'IFCLIGHTFIXTURE', predefined: 'USERDEFINED' },
  hydrant: { type: 'IFCFIRESUPPRESSIONTERMINALTYPE', occurrence: 'IFCFIRESUPPRESSIONTERMINAL', predefined: 'FIREHYDRANT' },
};

/** The IFC classes a node type is written with (a proxy when IFC4 has nothing closer). */
export function ifcNodeClass(nodeType: string): IfcNodeClass {
  return CLASSES[nodeType] ?? PROXY;
}

/**
 * The type a node belongs to: its model's key when the model is the type's own (`bench`, or a tree
 * form `tree-conifer`), else its node type, so towers drawn by the stand-in post are not typed as
 * post boxes and get their own type to swap.
 */
export function ifcTypeName(nodeType: string, model: string): string {
  return model === nodeType || model.startsWith(`${nodeType}-`) ? model : nodeType;
}

interface WrittenType {
  entity: number;
  map: number;
  occurrences: number[];
}

/** Writes node occurrences and, on first use, their types; `finish` relates them. */
export class IfcInstances {
  private readonly types = new Map<string, WrittenType>();
  /** Bodies already written, by type and scale: nodes of one size share one (IfcProductDefinitionShape may serve many products). */
  private readonly shapes = new Map<string, number>();
  private up = 0;

  constructor(
    private readonly f: StepFile,
    private readonly frame: IfcFrame,
    private readonly units: ExportUnits,
    private readonly guid: (role: string, id: string) => Step,
    private readonly style: (colour: [number, number, number]) => number,
  ) {}

  /** A node's occurrence, named `name`; null for a node without a model (a wire). */
  occurrence(node: ExportNode, name: string): number | null {
    // in metres, the operator's scale is the model's own, free of the file's unit (the map is in file units)
    const inst = nodeInstance(node, 'm');
    if (!inst) return null;
    const typeName = ifcTypeName(node.type, inst.model);
    const cls = ifcNodeClass(node.type);
    const type = this.type(typeName, cls, inst.model, node.type);
    const shape = this.shape(typeName, type.map, inst.scale);
    const h = this.f.add(cls.occurrence, this.guid('node', name), NULL, str(name), NULL, str(node.type), ref(this.placement(node)), ref(shape), NULL, NULL);
    type.occurrences.push(h);
    return h;
  }

  /** The node's own placement in the site: its position, and its turn about z as the x axis. */
  private placement(node: ExportNode): number {
    const f = this.f;
    if (!this.up) this.up = f.add('IFCDIRECTION', list([real(0), real(0), real(1)]));
    const at = f.add('IFCCARTESIANPOINT', list(node.position.map(real)));
    const x = f.add('IFCDIRECTION', list([real(Math.cos(node.rotation)), real(Math.sin(node.rotation)), real(0)]));
    return f.add('IFCLOCALPLACEMENT', ref(this.frame.sitePlacement), ref(f.add('IFCAXIS2PLACEMENT3D', ref(at), ref(this.up), ref(x))));
  }

  /** The type object with its representation map: the model's faces at reference size, in the file's units, coloured by the node type. */
  private type(name: string, cls: IfcNodeClass, model: string, nodeType: string): WrittenType {
    const known = this.types.get(name);
    if (known) return known;
    const f = this.f,
      mesh = sharedModel(model);
    const coords = f.add('IFCCARTESIANPOINTLIST3D', pointList(mesh.positions, false, 1 / METRES_PER_UNIT[this.units]));
    const t = mesh.indices,
      tris: string[] = [];
    for (let i = 0; i < t.length; i += 3) tris.push(`(${t[i] + 1},${t[i + 1] + 1},${t[i + 2] + 1})`);
    const faces = f.add('IFCTRIANGULATEDFACESET', ref(coords), NULL, NULL, `(${tris.join(',')})`, NULL);
    f.add('IFCSTYLEDITEM', ref(faces), list([ref(this.style(kindColour(nodeType)))]), NULL);
    const body = f.add('IFCSHAPEREPRESENTATION', ref(this.frame.body), str('Body'), str('Tessellation'), list([ref(faces)]));
    const map = f.add('IFCREPRESENTATIONMAP', ref(this.frame.identity), ref(body));
    // IfcFurnitureType alone has AssemblyPlace before its PredefinedType
    const tail = cls.type === 'IFCFURNITURETYPE' ? [enumeration('NOTDEFINED'), enumeration(cls.predefined)] : [enumeration(cls.predefined)];
    const entity = f.add(cls.type, this.guid('type', name), NULL, str(name), NULL, NULL, NULL, list([ref(map)]), NULL, str(name), ...tail);
    const written = { entity, map, occurrences: [] };
    this.types.set(name, written);
    return written;
  }

  /** An occurrence's body: the type's map through a per-axis scale, in the occurrence's own placement. */
  private shape(typeName: string, map: number, scale: [number, number, number]): number {
    const key = `${typeName}|${scale.join(',')}`;
    let shape = this.shapes.get(key);
    if (shape === undefined) {
      const f = this.f;
      const [sx, sy, sz] = scale.map(real);
      const operator = f.add('IFCCARTESIANTRANSFORMATIONOPERATOR3DNONUNIFORM', NULL, NULL, ref(this.frame.origin), sx, NULL, sy, sz);
      const item = f.add('IFCMAPPEDITEM', ref(map), ref(operator));
      const rep = f.add('IFCSHAPEREPRESENTATION', ref(this.frame.body), str('Body'), str('MappedRepresentation'), list([ref(item)]));
      shape = f.add('IFCPRODUCTDEFINITIONSHAPE', NULL, NULL, list([ref(rep)]));
      this.shapes.set(key, shape);
    }
    return shape;
  }

  /** Each type related to its occurrences, and the types declared in the project. */
  finish(): void {
    const declared: number[] = [];
    for (const [name, type] of this.types) {
      this.f.add('IFCRELDEFINESBYTYPE', this.guid('type-occurrences', name), NULL, NULL, NULL, list(type.occurrences.map(ref)), ref(type.entity));
      declared.push(type.entity);
    }
    if (declared.length) this.f.add('IFCRELDECLARES', this.guid('project-types', ''), NULL, NULL, NULL, ref(this.frame.project), list(declared.map(ref)));
  }
}
