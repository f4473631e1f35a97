/**
 * CityGML 1.0 / 2.0 buildings from a stream of XML events (citygml-reader.ts feeds it from saxes).
 * Element names are matched by local name, so the namespace prefixes and the 1.0/2.0 namespace
 * URIs do not matter. One top-level building (with its BuildingParts) is held at a time; its
 * polygons are turned into parts when it closes (citygml-polygons.ts).
 */
import { assembleBuilding } from './building-assembly.ts';
import { GmlBuildingGeometry, type GmlObject } from './citygml-polygons.ts';
import { surfaceClassCode, type ReaderCallbacks } from './source-model.ts';

const OBJECT_TYPES = new Set(['Building', 'BuildingPart']);
const POLYGON_TYPES = new Set(['Polygon', 'Triangle', 'PolygonPatch', 'Rectangle']);
/** Geometry inside these belongs to something other than the building's shell. */
const FOREIGN = new Set(['BuildingInstallation', 'IntBuildingInstallation', 'Room', 'BuildingFurniture', 'interiorRoom', 'Door', 'Window']);
const MEMBER = new Set(['cityObjectMember', 'featureMember', 'featureMembers']);
const TEXT_OF_OBJECT = new Set(['name', 'roofType', 'measuredHeight']);
const LOD_PROPERTY = /^lod([0-4])(Solid|MultiSurface|Geometry|FootPrint|RoofEdge)$/;

interface Frame {
  name: string;
  srsDimension: number | null;
  /** Index of the polygon list when a surface group with a gml:id opened. */
  groupStart?: number;
  groupId?: string;
}

interface OpenObject extends GmlObject {
  index: number;
  depth: number;
}

const localName = (qualified: string) => qualified.slice(qualified.indexOf(':') + 1);

function attribute(attributes: Record<string, string>, local: string): string | null {
  for (const [key, value] of Object.entries(attributes)) if (localName(key) === local) return value;
  return null;
}

/** A building whose references point outside it, held back until the rest of the file is searched. */
export interface DeferredBuilding {
  objects: GmlObject[];
  geometry: GmlBuildingGeometry;
  unresolved: string[];
}

export interface CityGmlHandlerOptions {
  /** Called instead of emitting a building with unresolved references (the reader resolves them in a second pass). */
  defer?: (building: DeferredBuilding) => void;
  /**
   * Second-pass mode: collect, from anywhere in the file, only the polygons and surface groups
   * whose gml:id is in this set (into `collected`); no buildings are emitted.
   */
  collect?: ReadonlySet<string>;
}

/** The items of a closed building: the building (or why it was left out), and a note on references still unresolved. */
export function buildingItems(objects: readonly GmlObject[], geometry: GmlBuildingGeometry, callbacks: Pick<ReaderCallbacks, 'item'>): void {
  const { results, unresolved } = geometry.parts(objects);
  const [root, ...descendants] = objects.map((o, i) => ({ id: o.id, result: results[i] }));
  for (const item of assembleBuilding(root, descendants)) callbacks.item(item);
  if (unresolved.length > 0) {
    const sample = [...new Set(unresolved)].slice(0, 3).join(', ');
    callbacks.item({
      kind: 'note',
      note: { id: root.id, reason: `${unresolved.length} xlink:href reference(s) to geometry found nowhere in the file left out (#${sample})` },
    });
  }
}

export class CityGmlHandler {
  private readonly stack: Frame[] = [];
  private srsName: string | null = null;
  private headerSent = false;
  private version = 'CityGML';
  private building: GmlBuildingGeometry | null = null;
  private objects: OpenObject[] = [];
  private open: OpenObject[] = [];
  private ring: number[] | null = null;
  private rings: number[][] | null = null;
  private polygonId: string | null = null;
  private text = '';
  private anonymous = 0;
  /** Open surface groups whose id is wanted (second pass): polygons inside them are collected. */
  private wantedDepth = 0;
  /** Second pass: the wanted polygons and groups found. */
  readonly collected = new GmlBuildingGeometry();

  constructor(
    private readonly callbacks: ReaderCallbacks,
    private readonly options: CityGmlHandlerOptions = {},
  ) {
    if (options.collect) this.building = this.collected;
  }

  openTag(qualified: string, attributes: Record<string, string>): void {
    const name = localName(qualified);
    const dim = attribute(attributes, 'srsDimension');
    const frame: Frame = { name, srsDimension: dim ? Number(dim) : null };
    if (this.stack.length === 0) this.version = versionOf(attributes);
    const srs = attribute(attributes, 'srsName');
    if (srs && !this.srsName) this.srsName = srs;
    const parent = this.stack.at(-1)?.name;
    const collect = this.options.collect;
    if (parent && MEMBER.has(parent) && !OBJECT_TYPES.has(name) && !collect) this.callbacks.ignored(name);
    this.stack.push(frame);
    const id = attribute(attributes, 'id');
    if (OBJECT_TYPES.has(name)) {
      if (!collect) this.openObject(name, id);
      return;
    }
    const building = this.building;
    if (!building) return;
    const href = attribute(attributes, 'href');
    if (href?.startsWith('#') && !collect) {
      const context = this.context();
      if (context && (context.lod !== null || context.cls !== 0)) building.references.push({ target: href.slice(1), ...context, owner: this.owner() });
    }
    if (POLYGON_TYPES.has(name)) {
      this.rings = [];
      this.polygonId = id;
    } else if (name === 'LinearRing') this.ring = [];
    else if (id && (!collect || collect.has(id))) {
      frame.groupStart = building.polygons.length;
      frame.groupId = id;
      if (collect) this.wantedDepth++;
    }
    this.text = '';
  }

  onText(text: string): void {
    const top = this.stack.at(-1)?.name;
    if (top === 'posList' || top === 'pos' || top === 'coordinates' || (top && TEXT_OF_OBJECT.has(top))) this.text += text;
  }

  closeTag(): void {
    const frame = this.stack.pop();
    if (!frame) return;
    const name = frame.name;
    const building = this.building;
    if (OBJECT_TYPES.has(name)) {
      if (!this.options.collect) this.closeObject();
      return;
    }
    if (!building) return;
    const object = this.open.at(-1);
    const parentName = this.stack.at(-1)?.name;
    if (object && parentName && OBJECT_TYPES.has(parentName) && TEXT_OF_OBJECT.has(name)) {
      const value = this.text.trim();
      if (name === 'name' && value && object.name === null) object.name = value;
      else if (name === 'roofType' && value) object.roofType = value;
      else if (name === 'measuredHeight' && Number.isFinite(Number.parseFloat(value))) object.measuredHeight = Number.parseFloat(value);
    } else if ((name === 'posList' || name === 'pos' || name === 'coordinates') && this.ring) {
      const values = this.text
        .trim()
        .split(/[\s,]+/)
        .filter(Boolean)
        .map(Number);
      if (values.some((v) => !Number.isFinite(v))) throw new Error(`${name} holds something that is not a number`);
      const dim = name === 'coordinates' ? 3 : (frame.srsDimension ?? this.inheritedDimension());
      for (let i = 0; i + dim <= values.length; i += dim) this.ring.push(values[i], values[i + 1], dim >= 3 ? values[i + 2] : 0);
    } else if (name === 'LinearRing' && this.ring && this.rings) {
      const ring = dropClosingPoint(this.ring);
      if (this.stack.some((f) => f.name === 'exterior' || f.name === 'outerBoundaryIs')) this.rings.unshift(ring);
      else this.rings.push(ring);
      this.ring = null;
    } else if (POLYGON_TYPES.has(name) && this.rings) {
      const context = this.context();
      const collect = this.options.collect;
      const wanted = !collect || this.wantedDepth > 0 || (this.polygonId !== null && collect.has(this.polygonId));
      if (context && wanted && this.rings.length > 0) building.addPolygon({ id: this.polygonId, rings: this.rings, ...context, owner: this.owner() });
      this.rings = null;
    } else if (frame.groupId !== undefined && frame.groupStart !== undefined) {
      building.groups.set(frame.groupId, [frame.groupStart, building.polygons.length]);
      if (this.options.collect) this.wantedDepth--;
    }
    this.text = '';
  }

  /** Call after the last event: a file without buildings still says what it is. */
  end(): void {
    this.sendHeader();
  }

  private sendHeader(): void {
    if (this.headerSent) return;
    this.headerSent = true;
    this.callbacks.header({ crs: this.srsName, format: this.version });
  }

  private inheritedDimension(): number {
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const d = this.stack[i].srsDimension;
      if (d) return d;
    }
    return 3;
  }

  private owner(): number {
    return this.open.at(-1)?.index ?? 0;
  }

  /** LoD and semantic class of where the reading is; null inside something that is not the building's shell. */
  private context(): { lod: number | null; cls: number } | null {
    let lod: number | null = null,
      cls = 0;
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const name = this.stack[i].name;
      if (OBJECT_TYPES.has(name)) break;
      if (FOREIGN.has(name)) return null;
      const m: RegExpExecArray | null = lod === null ? LOD_PROPERTY.exec(name) : null;
      if (m) {
        lod = Number(m[1]);
        if (m[2] === 'FootPrint') cls ||= surfaceClassCode('GroundSurface');
        if (m[2] === 'RoofEdge') cls ||= surfaceClassCode('RoofSurface');
      }
      if (cls === 0) cls = surfaceClassCode(name);
    }
    return { lod, cls };
  }

  private openObject(name: string, id: string | null): void {
    if (name === 'Building' && this.open.length === 0) {
      this.building = new GmlBuildingGeometry();
      this.objects = [];
    }
    if (!this.building) return; // a BuildingPart outside any Building: not a building of its own
    const object: OpenObject = {
      id: id ?? `${name}_${++this.anonymous}`,
      name: null,
      roofType: null,
      measuredHeight: null,
      index: this.objects.length,
      depth: this.stack.length,
    };
    this.objects.push(object);
    this.open.push(object);
  }

  private closeObject(): void {
    this.open.pop();
    if (this.open.length > 0 || !this.building) return;
    this.sendHeader();
    const building = this.building;
    const objects = this.objects.map(({ id, name, roofType, measuredHeight }) => ({ id, name, roofType, measuredHeight }));
    const unresolved = this.options.defer ? building.references.filter((r) => !building.resolve(r.target)).map((r) => r.target) : [];
    if (unresolved.length > 0) this.options.defer?.({ objects, geometry: building, unresolved: [...new Set(unresolved)] });
    else buildingItems(objects, building, this.callbacks);
    this.building = null;
    this.objects = [];
  }
}

function versionOf(attributes: Record<string, string>): string {
  const uris = Object.values(attributes).join(' ');
  if (uris.includes('citygml/2.0')) return 'CityGML 2.0';
  if (uris.includes('citygml/1.0')) return 'CityGML 1.0';
  if (uris.includes('citygml/3.0')) return 'CityGML 3.0';
  return 'CityGML';
}

function dropClosingPoint(ring: number[]): number[] {
  const n = ring.length;
  if (n >= 6 && ring[0] === ring[n - 3] && ring[1] === ring[n - 2] && ring[2] === ring[n - 1]) return ring.slice(0, n - 3);
  return ring;
}
