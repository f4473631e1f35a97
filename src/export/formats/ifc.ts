/**
 * IFC4 writer (web-ifc, from scratch): project → site → one IfcBuilding per building holding an
 * IfcBuildingElementProxy with an IfcTriangulatedFaceSet body; ground pieces and terrain as
 * IfcGeographicElement, barriers as proxies (the kind in ObjectType), lines as IfcAnnotation,
 * nodes as placed elements without a body. Descriptors become the property set
 * `CityContext_Descriptor`. Coordinates are written as doubles, so absolute grid values stay exact.
 */
import { Handle, IFC4, IfcAPI, LogLevel } from 'web-ifc';
import type { ExportFile, ExportGroupName, ExportMesh, ExportNode, ExportPolyline, ExportScene } from '../scene.ts';
import { IfcWriter, writeIfcFrame, type IfcFrame } from './ifc-context.ts';
import { stableGlobalId } from './ifc-guid.ts';

/** The wasm module is loaded once per process (worker) and shared by every export. */
let apiReady: Promise<IfcAPI> | undefined;
function ifcApi(): Promise<IfcAPI> {
  return (apiReady ??= (async () => {
    const api = new IfcAPI();
    await api.Init(undefined, true);
    api.SetLogLevel(LogLevel.LOG_LEVEL_ERROR);
    return api;
  })());
}

/** Fallback colours when a mesh carries none (sRGB 0–1). */
const GROUP_COLOUR: Record<ExportGroupName, [number, number, number]> = {
  buildings: [0.82, 0.8, 0.76], surface: [0.55, 0.55, 0.55], barriers: [0.6, 0.5, 0.4],
  instances: [0.4, 0.55, 0.35], topography: [0.62, 0.68, 0.52], surfaceLines: [0.3, 0.3, 0.3],
};

/** Node types drawn as vegetation (IfcGeographicElement); other nodes are proxies. */
const VEGETATION = new Set(['tree', 'shrub', 'hedge', 'forest']);

export const PROPERTY_SET_NAME = 'CityContext_Descriptor';

const label = (s: string) => new IFC4.IfcLabel(s);
const guid = (key: string) => new IFC4.IfcGloballyUniqueId(stableGlobalId(key));

class IfcSceneWriter {
  private readonly styles = new Map<string, Handle<any>>();
  private readonly keys = new Map<string, number>();
  private readonly identity: Handle<any>;
  /** Elements placed directly in the site, and buildings aggregated under it. */
  private readonly inSite: Handle<any>[] = [];
  private readonly buildings: Handle<any>[] = [];

  constructor(private readonly w: IfcWriter, private readonly f: IfcFrame, private readonly scene: ExportScene) {
    const origin = w.add(new IFC4.IfcCartesianPoint([new IFC4.IfcLengthMeasure(0), new IFC4.IfcLengthMeasure(0), new IFC4.IfcLengthMeasure(0)]));
    this.identity = w.add(new IFC4.IfcAxis2Placement3D(origin, null, null));
  }

  /** A unique, stable GlobalId key even when a feature id repeats within a group. */
  private key(role: string, id: string): string {
    const k = `${this.scene.name}:${role}:${id}`, n = this.keys.get(k) ?? 0;
    this.keys.set(k, n + 1);
    return n ? `${k}#${n}` : k;
  }

  private placement(parent: Handle<any>): Handle<any> {
    return this.w.add(new IFC4.IfcLocalPlacement(parent, this.identity as any));
  }

  private style(c: [number, number, number]): Handle<any> {
    const k = c.join(',');
    let s = this.styles.get(k);
    if (!s) {
      const colour = this.w.add(new IFC4.IfcColourRgb(null, new IFC4.IfcNormalisedRatioMeasure(c[0]), new IFC4.IfcNormalisedRatioMeasure(c[1]), new IFC4.IfcNormalisedRatioMeasure(c[2])));
      const shading = this.w.add(new IFC4.IfcSurfaceStyleShading(colour, null));
      s = this.w.add(new IFC4.IfcSurfaceStyle(null, IFC4.IfcSurfaceSide.BOTH, [shading as any]));
      this.styles.set(k, s);
    }
    return s;
  }

  /** Body of one mesh: the vertices once (doubles) and 1-based triangle indices. */
  private meshShape(mesh: ExportMesh, fallback: [number, number, number]): Handle<any> {
    const p = mesh.positions, coords: number[][] = new Array(p.length / 3);
    for (let i = 0; i < coords.length; i++) coords[i] = [p[3 * i], p[3 * i + 1], p[3 * i + 2]];
    const list = this.w.add(new IFC4.IfcCartesianPointList3D(coords as any));
    const t = mesh.indices, tris: IFC4.IfcPositiveInteger[][] = new Array(t.length / 3);
    const int = (v: number) => new IFC4.IfcPositiveInteger(v + 1);
    for (let i = 0; i < tris.length; i++) tris[i] = [int(t[3 * i]), int(t[3 * i + 1]), int(t[3 * i + 2])];
    const faces = this.w.add(new IFC4.IfcTriangulatedFaceSet(list, null, null, tris, null));
    this.w.add(new IFC4.IfcStyledItem(faces, [this.style(mesh.colour ?? fallback) as any], null));
    const rep = this.w.add(new IFC4.IfcShapeRepresentation(this.f.body, label('Body'), label('Tessellation'), [faces]));
    return this.w.add(new IFC4.IfcProductDefinitionShape(null, null, [rep]));
  }

  private properties(objects: Handle<any>[], descriptor: Record<string, unknown>, role: string, id: string, extra: Record<string, unknown> = {}): void {
    const props = Object.entries({ ...descriptor, ...extra }).flatMap(([k, v]) => {
      const value = ifcValue(v);
      return value ? [this.w.add(new IFC4.IfcPropertySingleValue(new IFC4.IfcIdentifier(k), null, value, null))] : [];
    });
    if (!props.length) return;
    const set = this.w.add(new IFC4.IfcPropertySet(guid(this.key(`pset-${role}`, id)), null, label(PROPERTY_SET_NAME), null, props));
    this.w.add(new IFC4.IfcRelDefinesByProperties(guid(this.key(`pset-rel-${role}`, id)), null, null, null, objects, set as any));
  }

  building(mesh: ExportMesh): void {
    const placement = this.placement(this.f.sitePlacement);
    const building = this.w.add(new IFC4.IfcBuilding(guid(this.key('building', mesh.id)), null, label(mesh.id), null, null, placement, null, null, IFC4.IfcElementCompositionEnum.ELEMENT, null, null, null));
    const proxy = this.w.add(new IFC4.IfcBuildingElementProxy(
      guid(this.key('building-body', mesh.id)), null, label(mesh.id), null, label(mesh.kind), this.placement(placement),
      this.meshShape(mesh, GROUP_COLOUR.buildings), null, IFC4.IfcBuildingElementProxyTypeEnum.USERDEFINED,
    ));
    this.w.add(new IFC4.IfcRelContainedInSpatialStructure(guid(this.key('building-contains', mesh.id)), null, null, null, [proxy], building));
    this.properties([building, proxy], mesh.descriptor, 'building', mesh.id);
    this.buildings.push(building);
  }

  /** Ground pieces and terrain as geographic elements, barriers and anything else as proxies. */
  element(group: ExportGroupName, mesh: ExportMesh): void {
    const gid = guid(this.key(group, mesh.id)), name = label(mesh.id), kind = label(mesh.kind);
    const placement = this.placement(this.f.sitePlacement), shape = this.meshShape(mesh, GROUP_COLOUR[group]);
    const element = group === 'topography'
      ? new IFC4.IfcGeographicElement(gid, null, name, null, kind, placement, shape, null, IFC4.IfcGeographicElementTypeEnum.TERRAIN)
      : group === 'surface'
        ? new IFC4.IfcGeographicElement(gid, null, name, null, kind, placement, shape, null, IFC4.IfcGeographicElementTypeEnum.USERDEFINED)
        : new IFC4.IfcBuildingElementProxy(gid, null, name, null, kind, placement, shape, null, IFC4.IfcBuildingElementProxyTypeEnum.USERDEFINED);
    const h = this.w.add(element);
    this.properties([h], mesh.descriptor, group, mesh.id);
    this.inSite.push(h);
  }

  /** A draped line as an annotation with a 3D indexed polycurve (closed rings repeat the first point). */
  polyline(line: ExportPolyline): void {
    const p = line.points, coords: number[][] = [];
    for (let i = 0; i < p.length; i += 3) coords.push([p[i], p[i + 1], p[i + 2]]);
    if (line.closed && coords.length) coords.push(coords[0]);
    const curve = this.w.add(new IFC4.IfcIndexedPolyCurve(this.w.add(new IFC4.IfcCartesianPointList3D(coords as any)), null, new IFC4.IfcBoolean(false)));
    const rep = this.w.add(new IFC4.IfcShapeRepresentation(this.f.annotation, label('Annotation'), label('Curve3D'), [curve]));
    const shape = this.w.add(new IFC4.IfcProductDefinitionShape(null, null, [rep]));
    const h = this.w.add(new IFC4.IfcAnnotation(guid(this.key(`line-${line.kind}`, line.id)), null, label(line.id), null, label(line.kind), this.placement(this.f.sitePlacement), shape));
    this.properties([h], line.descriptor, `line-${line.kind}`, line.id);
    this.inSite.push(h);
  }

  /** A node: its own placement (position, rotation about Z) and type, no body; scale goes to the properties. */
  node(node: ExportNode, index: number): void {
    const id = typeof node.descriptor.id === 'string' ? node.descriptor.id : `${node.type}/${index}`;
    const at = this.w.add(new IFC4.IfcCartesianPoint(node.position.map((v) => new IFC4.IfcLengthMeasure(v))));
    const z = this.w.add(new IFC4.IfcDirection([new IFC4.IfcReal(0), new IFC4.IfcReal(0), new IFC4.IfcReal(1)]));
    const x = this.w.add(new IFC4.IfcDirection([new IFC4.IfcReal(Math.cos(node.rotation)), new IFC4.IfcReal(Math.sin(node.rotation)), new IFC4.IfcReal(0)]));
    const placement = this.w.add(new IFC4.IfcLocalPlacement(this.f.sitePlacement, this.w.add(new IFC4.IfcAxis2Placement3D(at, z, x)) as any));
    const gid = guid(this.key('node', id)), name = label(id), kind = label(node.type);
    const element = VEGETATION.has(node.type)
      ? new IFC4.IfcGeographicElement(gid, null, name, null, kind, placement, null, null, IFC4.IfcGeographicElementTypeEnum.USERDEFINED)
      : new IFC4.IfcBuildingElementProxy(gid, null, name, null, kind, placement, null, null, IFC4.IfcBuildingElementProxyTypeEnum.USERDEFINED);
    const h = this.w.add(element);
    this.properties([h], node.descriptor, 'node', id, { rotation: node.rotation, scale: node.scale });
    this.inSite.push(h);
  }

  /** Hangs buildings and loose elements from the site (one relationship each, as viewers expect). */
  finish(): void {
    if (this.buildings.length) this.w.add(new IFC4.IfcRelAggregates(guid(this.key('site-buildings', '')), null, null, null, this.f.site, this.buildings));
    if (this.inSite.length) this.w.add(new IFC4.IfcRelContainedInSpatialStructure(guid(this.key('site-contains', '')), null, null, null, this.inSite, this.f.site));
  }
}

/** A descriptor value as an IFC value: text, real, boolean; lists and objects as JSON text. */
function ifcValue(v: unknown): any {
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean') return new IFC4.IfcBoolean(v);
  if (typeof v === 'number') return Number.isFinite(v) ? new IFC4.IfcReal(v) : null; // always real: one property keeps one type across features
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  // IfcLabel is limited to 255 characters; longer text is IfcText.
  return s.length <= 255 ? new IFC4.IfcLabel(s) : new IFC4.IfcText(s);
}

export async function writeIfc(scene: ExportScene): Promise<ExportFile> {
  const api = await ifcApi();
  const model = api.CreateModel({ schema: 'IFC4', name: `${scene.name}.ifc`, description: ['ViewDefinition [ReferenceView_V1.2]'], organizations: scene.attribution });
  try {
    const w = new IfcWriter(api, model);
    const out = new IfcSceneWriter(w, writeIfcFrame(w, scene), scene);
    for (const group of scene.groups) {
      for (const mesh of group.meshes) {
        if (group.name === 'buildings') out.building(mesh);
        else out.element(group.name, mesh);
      }
      for (const line of group.polylines) out.polyline(line);
      group.nodes.forEach((node, i) => out.node(node, i));
    }
    out.finish();
    return { bytes: api.SaveModel(model), extension: 'ifc', contentType: 'application/x-step' };
  } finally {
    api.CloseModel(model);
  }
}
