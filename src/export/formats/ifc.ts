/**
 * IFC4 writer: project → site → one IfcBuilding per building holding an IfcBuildingElementProxy
 * with an IfcTriangulatedFaceSet body (a premium building part: an IfcRoof, an IfcWall, an IfcSlab
 * base slab and a proxy for the rest, one per surface role, surface-parts.ts); ground pieces and terrain as IfcGeographicElement,
 * barriers as proxies (the kind in ObjectType), ground lines as IfcAnnotation, power-line cables
 * as IfcCableSegment (axis curve and a thin swept body), nodes as typed instances of their shared
 * models (./ifc-instances.ts). Descriptors become the property set `CityContext_Descriptor`.
 * Coordinates are written as shortest round-trip doubles, so absolute grid values stay exact.
 * STEP text comes from ./ifc-step.ts (why not web-ifc's writer: see there); web-ifc reads the
 * result in the tests.
 *
 * Streaming (openIfcStream): each feature's entities are written to bytes as it arrives, so
 * neither the scene nor the file's text is held; what needs every feature (the site's
 * aggregation and containment, the types' relations, the project with the attribution) is
 * written last.
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
import type { SceneItem } from '../scene-from-tiles.ts';
import { writeThroughStream, type SyncStreamingWriter } from './stream-scene.ts';
import { writeIfcFrame, writeIfcProject, type IfcFrame } from './ifc-context.ts';
import { stableGlobalId } from './ifc-guid.ts';
import { IfcInstances } from './ifc-instances.ts';
import { nodeName } from './node-models.ts';
import { kindColour } from './palette.ts';
import { compactPart, partDescriptor, surfaceParts, type SurfaceRole } from './surface-parts.ts';
import { NULL, StepFile, bool, enumeration, list, pointList, real, ref, str, typed, type Step } from './ifc-step.ts';

/**
 * Radius of a cable's swept body, metres: a 30 mm conductor, within the 10–40 mm of overhead
 * lines' aluminium-steel conductors, so the body is the real thing rather than a drawing aid.
 */
export const CABLE_RADIUS = 0.015;

export const PROPERTY_SET_NAME = 'CityContext_Descriptor';

/** The IFC4 element and predefined type of each surface role of a premium building part. */
export const ROLE_ENTITIES: Readonly<Record<SurfaceRole, [string, string]>> = {
  roof: ['IFCROOF', 'NOTDEFINED'],
  wall: ['IFCWALL', 'NOTDEFINED'],
  floor: ['IFCSLAB', 'BASESLAB'],
  other: ['IFCBUILDINGELEMENTPROXY', 'USERDEFINED'],
};

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

class IfcSceneWriter {
  private readonly styles = new Map<string, number>();
  private readonly keys = new Map<string, number>();
  /** Elements placed directly in the site, and buildings aggregated under it. */
  private readonly inSite: number[] = [];
  private readonly buildings: number[] = [];
  private readonly instances: IfcInstances;

  constructor(
    private readonly f: StepFile,
    private readonly frame: IfcFrame,
    private readonly scene: ExportSceneHead,
  ) {
    this.instances = new IfcInstances(
      f,
      frame,
      scene.units,
      (role, id) => this.guid(role, id),
      (c) => this.style(c),
    );
  }

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
  private meshShape(mesh: Pick<ExportMesh, 'positions' | 'indices' | 'kind' | 'colour'>): number {
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
    const parts = surfaceParts(mesh);
    if (parts.length === 1 && parts[0].role === null) {
      const proxy = this.f.add(
        'IFCBUILDINGELEMENTPROXY',
        this.guid('building-body', mesh.id),
        NULL,
        str(mesh.id),
        NULL,
        str(mesh.kind),
        ref(this.placement(placement)),
        ref(this.meshShape(mesh)),
        NULL,
        enumeration('USERDEFINED'),
      );
      this.f.add('IFCRELCONTAINEDINSPATIALSTRUCTURE', this.guid('building-contains', mesh.id), NULL, NULL, NULL, list([ref(proxy)]), ref(building));
      this.properties([building, proxy], mesh.descriptor, 'building', mesh.id);
    } else {
      // a premium building part: its roof an IfcRoof, its walls an IfcWall, its floor an IfcSlab
      // (base slab), the rest a proxy — each styled by its role, with the descriptor and its role
      const elements = parts.map((part) => {
        const [entity, type] = ROLE_ENTITIES[part.role!];
        const h = this.f.add(
          entity,
          this.guid(`building-${part.role}`, mesh.id),
          NULL,
          str(`${mesh.id}#${part.role}`),
          NULL,
          str(part.kind),
          ref(this.placement(placement)),
          ref(this.meshShape({ ...compactPart(mesh.positions, part.indices), kind: part.kind })),
          NULL,
          enumeration(type),
        );
        this.properties([h], partDescriptor(mesh.descriptor, part.role), `building-${part.role}`, mesh.id);
        return h;
      });
      this.f.add('IFCRELCONTAINEDINSPATIALSTRUCTURE', this.guid('building-contains', mesh.id), NULL, NULL, NULL, list(elements.map(ref)), ref(building));
      this.properties([building], partDescriptor(mesh.descriptor, null), 'building', mesh.id);
    }
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

  /** A draped line as an annotation with a 3D indexed polycurve (closed rings repeat the first point); a wire span as a cable. */
  polyline(line: ExportPolyline): void {
    if (line.kind === 'wire') {
      this.cable(line);
      return;
    }
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
   * A power line's span as an IfcCableSegment (CONDUCTORSEGMENT: one conductor): its catenary as
   * the 'Axis' curve, and as 'Body' a disk of CABLE_RADIUS swept along it, which the BIM tools
   * that draw bodies only (most of them) show.
   */
  private cable(line: ExportPolyline): void {
    const coords = this.f.add('IFCCARTESIANPOINTLIST3D', pointList(line.points));
    const curve = this.f.add('IFCINDEXEDPOLYCURVE', ref(coords), NULL, bool(false));
    const axis = this.f.add('IFCSHAPEREPRESENTATION', ref(this.frame.axis), str('Axis'), str('Curve3D'), list([ref(curve)]));
    const disk = this.f.add('IFCSWEPTDISKSOLID', ref(curve), real(CABLE_RADIUS / METRES_PER_UNIT[this.scene.units]), NULL, NULL, NULL);
    this.f.add('IFCSTYLEDITEM', ref(disk), list([ref(this.style(kindColour(line.kind)))]), NULL);
    const body = this.f.add('IFCSHAPEREPRESENTATION', ref(this.frame.body), str('Body'), str('AdvancedSweptSolid'), list([ref(disk)]));
    const shape = this.f.add('IFCPRODUCTDEFINITIONSHAPE', NULL, NULL, list([ref(axis), ref(body)]));
    const h = this.f.add(
      'IFCCABLESEGMENT',
      this.guid('cable', line.id),
      NULL,
      str(line.id),
      NULL,
      str(line.kind),
      ref(this.placement(this.frame.sitePlacement)),
      ref(shape),
      NULL,
      enumeration('CONDUCTORSEGMENT'),
    );
    this.properties([h], line.descriptor, 'cable', line.id);
    this.inSite.push(h);
  }

  /**
   * A node: an occurrence of its model's type (./ifc-instances.ts), named by its source id or
   * position; rotation and scale are also properties, for a script that reads them.
   */
  node(node: ExportNode): void {
    const id = nodeName(node);
    const h = this.instances.occurrence(node, id);
    if (h === null) return;
    this.properties([h], node.descriptor, 'node', id, { rotation: node.rotation, scale: node.scale });
    this.inSite.push(h);
  }

  /** Hangs buildings and loose elements from the site (one relationship each, as viewers expect). */
  finish(attribution: string[]): void {
    writeIfcProject(this.f, this.frame, this.scene.name, attribution);
    this.instances.finish();
    if (this.buildings.length)
      this.f.add('IFCRELAGGREGATES', this.guid('site-buildings', ''), NULL, NULL, NULL, ref(this.frame.site), list(this.buildings.map(ref)));
    if (this.inSite.length)
      this.f.add('IFCRELCONTAINEDINSPATIALSTRUCTURE', this.guid('site-contains', ''), NULL, NULL, NULL, list(this.inSite.map(ref)), ref(this.frame.site));
  }
}

export interface IfcOptions {
  /** ISO 8601 date-time for the header's FILE_NAME; default a fixed one (ifc-step.ts FIXED_TIMESTAMP), so repeated exports are identical. */
  timestamp?: string;
}

/** An IFC file taking features one by one as the tiles' chunks are parsed. */
export function openIfcStream(head: ExportSceneHead, options: IfcOptions = {}): SyncStreamingWriter {
  const f = new StepFile();
  const out = new IfcSceneWriter(f, writeIfcFrame(f, head), head);
  return {
    add(group: ExportGroupName, it: SceneItem) {
      if (it.kind === 'mesh') {
        if (group === 'buildings') out.building(it.item);
        else out.element(group, it.item);
      } else if (it.kind === 'polyline') out.polyline(it.item);
      else out.node(it.item);
    },
    finish(scene: ExportScene): FinishedExport {
      out.finish(scene.attribution);
      const bytes = f.toPieces({
        name: `${scene.name}.ifc`,
        timestamp: options.timestamp,
        description: 'ViewDefinition [ReferenceView_V1.2]',
        organisations: scene.attribution,
        schema: 'IFC4',
      });
      return { bytes, extension: 'ifc', contentType: 'application/x-step' };
    },
    abort() {}, // nothing outside the JavaScript heap: the bytes go with the stream
  };
}

export function writeIfc(scene: ExportScene, options: IfcOptions = {}): ExportFile {
  return writeThroughStream(openIfcStream(sceneHead(scene), options), scene);
}
