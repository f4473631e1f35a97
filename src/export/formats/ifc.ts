/**
 * IFC4 writer: project → site → one IfcBuilding per building holding an IfcBuildingElementProxy
 * with an IfcTriangulatedFaceSet body; ground pieces and terrain as IfcGeographicElement,
 * barriers as proxies (the kind in ObjectType), lines as IfcAnnotation, nodes as placed elements
 * with a small pyramid body. Descriptors become the property set `CityContext_Descriptor`.
 * Coordinates are written as shortest round-trip doubles, so absolute grid values stay exact.
 * STEP text comes from ./ifc-step.ts (why not web-ifc's writer: see there); web-ifc reads the
 * result in the tests.
 *
 * Streaming (openIfcStream): each feature's entities are written to bytes as it arrives, so
 * neither the scene nor the file's text is held; what needs every feature (the site's
 * aggregation and containment, the project with the attribution) is written last.
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
  type FinishedExport,
} from '../scene.ts';
import type { SceneItem } from '../scene-from-tiles.ts';
import { writeThroughStream, type SyncStreamingWriter } from './stream-scene.ts';
import { writeIfcFrame, writeIfcProject, type IfcFrame } from './ifc-context.ts';
import { stableGlobalId } from './ifc-guid.ts';
import { nodeName, placedNodeMesh } from './node-models.ts';
import { kindColour } from './palette.ts';
import { NULL, StepFile, bool, enumeration, list, real, ref, str, typed, type Step } from './ifc-step.ts';

/** Node types drawn as vegetation (IfcGeographicElement); other nodes are proxies. */
const VEGETATION = new Set(['tree', 'shrub', 'hedge', 'forest']);

export const PROPERTY_SET_NAME = 'CityContext_Descriptor';

/** A descriptor value as an IFC value: text, real, boolean; lists and objects as JSON text. */
function ifcValue(v: unknown): Step | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean') return typed('IFCBOOLEAN', bool(v));
  // Always real: one property keeps one type across features.
  if (typeof v === 'number') return Number.isFinite(v) ? typed('IFCREAL', real(v)) : null;
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  // IfcLabel is limited to 255 characters; longer text is IfcText.
  return typed(s.length <= 255 ? 'IFCLABEL' : 'IFCTEXT', str(s));
}

/** x,y,z triples as a STEP list of lists. */
function pointList(p: Float64Array, closeRing = false): Step {
  const out: string[] = [];
  for (let i = 0; i < p.length; i += 3) out.push(`(${real(p[i])},${real(p[i + 1])},${real(p[i + 2])})`);
  if (closeRing && out.length) out.push(out[0]);
  return `(${out.join(',')})`;
}

class IfcSceneWriter {
  private readonly styles = new Map<string, number>();
  private readonly keys = new Map<string, number>();
  /** Elements placed directly in the site, and buildings aggregated under it. */
  private readonly inSite: number[] = [];
  private readonly buildings: number[] = [];

  constructor(
    private readonly f: StepFile,
    private readonly frame: IfcFrame,
    private readonly scene: ExportSceneHead,
  ) {}

  /** A unique, stable GlobalId even when a feature id repeats within a group. */
  private guid(role: string, id: string): Step {
    const k = `${this.scene.name}:${role}:${id}`,
      n = this.keys.get(k) ?? 0;
    this.keys.set(k, n + 1);
    return str(stableGlobalId(n ? `${k}#${n}` : k));
  }

  private placement(parent: number): number {
    return this.f.add('IFCLOCALPLACEMENT', ref(parent), ref(this.frame.identity));
  }

  private style(c: [number, number, number]): number {
    const k = c.join(',');
    let s = this.styles.get(k);
    if (s === undefined) {
      const colour = this.f.add('IFCCOLOURRGB', NULL, real(c[0]), real(c[1]), real(c[2]));
      const shading = this.f.add('IFCSURFACESTYLESHADING', ref(colour), NULL);
      s = this.f.add('IFCSURFACESTYLE', NULL, enumeration('BOTH'), list([ref(shading)]));
      this.styles.set(k, s);
    }
    return s;
  }

  /** Body of one mesh: the vertices once and 1-based triangle indices, styled by its colour (else its kind's). */
  private meshShape(mesh: ExportMesh): number {
    const coords = this.f.add('IFCCARTESIANPOINTLIST3D', pointList(mesh.positions));
    const t = mesh.indices,
      tris: string[] = [];
    for (let i = 0; i < t.length; i += 3) tris.push(`(${t[i] + 1},${t[i + 1] + 1},${t[i + 2] + 1})`);
    const faces = this.f.add('IFCTRIANGULATEDFACESET', ref(coords), NULL, NULL, `(${tris.join(',')})`, NULL);
    this.f.add('IFCSTYLEDITEM', ref(faces), list([ref(this.style(mesh.colour ?? kindColour(mesh.kind)))]), NULL);
    const rep = this.f.add('IFCSHAPEREPRESENTATION', ref(this.frame.body), str('Body'), str('Tessellation'), list([ref(faces)]));
    return this.f.add('IFCPRODUCTDEFINITIONSHAPE', NULL, NULL, list([ref(rep)]));
  }

  private properties(objects: number[], descriptor: Record<string, unknown>, role: string, id: string, extra: Record<string, unknown> = {}): void {
    const props: number[] = [];
    for (const [k, v] of Object.entries({ ...descriptor, ...extra })) {
      const value = ifcValue(v);
      if (value) props.push(this.f.add('IFCPROPERTYSINGLEVALUE', str(k), NULL, value, NULL));
    }
    if (!props.length) return;
    const set = this.f.add('IFCPROPERTYSET', this.guid(`pset-${role}`, id), NULL, str(PROPERTY_SET_NAME), NULL, list(props.map(ref)));
    this.f.add('IFCRELDEFINESBYPROPERTIES', this.guid(`pset-rel-${role}`, id), NULL, NULL, NULL, list(objects.map(ref)), ref(set));
  }

  building(mesh: ExportMesh): void {
    const placement = this.placement(this.frame.sitePlacement);
    const building = this.f.add(
      'IFCBUILDING',
      this.guid('building', mesh.id),
      NULL,
      str(mesh.id),
      NULL,
      NULL,
      ref(placement),
      NULL,
      NULL,
      enumeration('ELEMENT'),
      NULL,
      NULL,
      NULL,
    );
    const shape = this.meshShape(mesh);
    const proxy = this.f.add(
      'IFCBUILDINGELEMENTPROXY',
      this.guid('building-body', mesh.id),
      NULL,
      str(mesh.id),
      NULL,
      str(mesh.kind),
      ref(this.placement(placement)),
      ref(shape),
      NULL,
      enumeration('USERDEFINED'),
    );
    this.f.add('IFCRELCONTAINEDINSPATIALSTRUCTURE', this.guid('building-contains', mesh.id), NULL, NULL, NULL, list([ref(proxy)]), ref(building));
    this.properties([building, proxy], mesh.descriptor, 'building', mesh.id);
    this.buildings.push(building);
  }

  /** Ground pieces and terrain as geographic elements, barriers and anything else as proxies. */
  element(group: ExportGroupName, mesh: ExportMesh): void {
    const shape = this.meshShape(mesh);
    const [entity, type] =
      group === 'topography'
        ? ['IFCGEOGRAPHICELEMENT', 'TERRAIN']
        : group === 'surface'
          ? ['IFCGEOGRAPHICELEMENT', 'USERDEFINED']
          : ['IFCBUILDINGELEMENTPROXY', 'USERDEFINED'];
    const h = this.f.add(
      entity,
      this.guid(group, mesh.id),
      NULL,
      str(mesh.id),
      NULL,
      str(mesh.kind),
      ref(this.placement(this.frame.sitePlacement)),
      ref(shape),
      NULL,
      enumeration(type),
    );
    this.properties([h], mesh.descriptor, group, mesh.id);
    this.inSite.push(h);
  }

  /** A draped line as an annotation with a 3D indexed polycurve (closed rings repeat the first point). */
  polyline(line: ExportPolyline): void {
    const coords = this.f.add('IFCCARTESIANPOINTLIST3D', pointList(line.points, line.closed));
    const curve = this.f.add('IFCINDEXEDPOLYCURVE', ref(coords), NULL, bool(false));
    const rep = this.f.add('IFCSHAPEREPRESENTATION', ref(this.frame.annotation), str('Annotation'), str('Curve3D'), list([ref(curve)]));
    const shape = this.f.add('IFCPRODUCTDEFINITIONSHAPE', NULL, NULL, list([ref(rep)]));
    const h = this.f.add(
      'IFCANNOTATION',
      this.guid(`line-${line.kind}`, line.id),
      NULL,
      str(line.id),
      NULL,
      str(line.kind),
      ref(this.placement(this.frame.sitePlacement)),
      ref(shape),
    );
    this.properties([h], line.descriptor, `line-${line.kind}`, line.id);
    this.inSite.push(h);
  }

  /**
   * A node: its own placement (position, rotation about Z) and a body in that frame, the shared
   * pyramid symbol of the mesh-only formats (height from type and scale); rotation and scale are
   * also properties, for a script that swaps in a real family.
   */
  node(node: ExportNode, index: number): void {
    const id = nodeName(node);
    const body = placedNodeMesh({ ...node, position: [0, 0, 0], rotation: 0 }, this.scene.units);
    if (!body) return;
    const at = this.f.add('IFCCARTESIANPOINT', list(node.position.map(real)));
    const z = this.f.add('IFCDIRECTION', list([real(0), real(0), real(1)]));
    const x = this.f.add('IFCDIRECTION', list([real(Math.cos(node.rotation)), real(Math.sin(node.rotation)), real(0)]));
    const placement = this.f.add('IFCLOCALPLACEMENT', ref(this.frame.sitePlacement), ref(this.f.add('IFCAXIS2PLACEMENT3D', ref(at), ref(z), ref(x))));
    const [entity, type] = VEGETATION.has(node.type) ? ['IFCGEOGRAPHICELEMENT', 'USERDEFINED'] : ['IFCBUILDINGELEMENTPROXY', 'USERDEFINED'];
    const h = this.f.add(
      entity,
      this.guid('node', id),
      NULL,
      str(id),
      NULL,
      str(node.type),
      ref(placement),
      ref(this.meshShape(body)),
      NULL,
      enumeration(type),
    );
    this.properties([h], node.descriptor, 'node', id, { rotation: node.rotation, scale: node.scale });
    this.inSite.push(h);
  }

  /** Hangs buildings and loose elements from the site (one relationship each, as viewers expect). */
  finish(attribution: string[]): void {
    writeIfcProject(this.f, this.frame, this.scene.name, attribution);
    if (this.buildings.length)
      this.f.add('IFCRELAGGREGATES', this.guid('site-buildings', ''), NULL, NULL, NULL, ref(this.frame.site), list(this.buildings.map(ref)));
    if (this.inSite.length)
      this.f.add('IFCRELCONTAINEDINSPATIALSTRUCTURE', this.guid('site-contains', ''), NULL, NULL, NULL, list(this.inSite.map(ref)), ref(this.frame.site));
  }
}

/** An IFC file taking features one by one as the tiles' chunks are parsed. */
export function openIfcStream(head: ExportSceneHead): SyncStreamingWriter {
  const f = new StepFile();
  const out = new IfcSceneWriter(f, writeIfcFrame(f, head), head);
  const nodes = new Map<ExportGroupName, number>(); // a node's index within its group names it when it has no id
  return {
    add(group: ExportGroupName, it: SceneItem) {
      if (it.kind === 'mesh') {
        if (group === 'buildings') out.building(it.item);
        else out.element(group, it.item);
      } else if (it.kind === 'polyline') out.polyline(it.item);
      else {
        const n = nodes.get(group) ?? 0;
        nodes.set(group, n + 1);
        out.node(it.item, n);
      }
    },
    finish(scene: ExportScene): FinishedExport {
      out.finish(scene.attribution);
      const bytes = f.toPieces({
        name: `${scene.name}.ifc`,
        description: 'ViewDefinition [ReferenceView_V1.2]',
        organisations: scene.attribution,
        schema: 'IFC4',
      });
      return { bytes, extension: 'ifc', contentType: 'application/x-step' };
    },
    abort() {}, // nothing outside the JavaScript heap: the bytes go with the stream
  };
}

export function writeIfc(scene: ExportScene): ExportFile {
  return writeThroughStream(openIfcStream(sceneHead(scene)), scene);
}
