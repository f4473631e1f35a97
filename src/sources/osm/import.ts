/**
 * Imports an .osm.pbf extract into the SQLite OSM store in two streaming passes:
 *
 *   pass 1: nodes → location index, tagged nodes → points; multipolygon relations → remembered,
 *           with the ids of their member ways; type=building relations → remembered with their members
 *   pass 2: ways → lines/areas (and the coordinates of multipolygon member ways are kept);
 *           then the remembered relations → assembled areas; building relation members → stored with
 *           the extent of the relation's features; then every outline is grouped with its parts
 *           (import-building-groups.ts)
 *
 * Because relations are read in pass 1 and ways in pass 2, the file order of entity types does not
 * matter. Memory is the node index (16 bytes/node) plus the multipolygon members, not the file.
 *
 *   const stats = await importOsm('data/monaco/monaco.osm.pbf', 'var/osm.sqlite', { onProgress: console.log });
 */
import { basename } from 'node:path';
import { classifyLayer, OSM_LAYERS } from './layers.ts';
import { assembleMultipolygon, type MemberWay } from './multipolygon.ts';
import { NodeLocationIndex } from './node-index.ts';
import { readPbfBlocks } from './pbf-blobs.ts';
import { decodeHeaderBlock, type PbfHeader } from './pbf-header.ts';
import { decodePrimitiveBlock, type PbfRelation, type PbfWay } from './pbf-primitives.ts';
import { StoreWriter } from './store-writer.ts';
import { hasMeaningfulTags } from './tag-rules.ts';
import type { Geometry } from './geometry-codec.ts';
import type { OsmFeature, OsmLayer, OsmTags } from '../../osm-model/feature.ts';
import { wayGeometry } from './way-geometry.ts';
import { EXTENT_META } from './store-extent.ts';

export interface ImportProgress {
  pass: 1 | 2;
  /** File bytes consumed so far in this pass. */
  bytesRead: number;
  totalBytes: number;
  /** Blobs read so far in this pass. */
  blobs: number;
}

export interface ImportOptions {
  /** Called after every blob of each pass. */
  onProgress?: (progress: ImportProgress) => void;
}

export interface ImportSkipped {
  /** Tagged ways with a node that is not in the file (clipped at the extract's edge). */
  unresolvedWays: number;
  /** Points, lines or areas with too few distinct points. */
  degenerateGeometry: number;
  /** Multipolygons with a member way missing from the file. */
  incompleteRelations: number;
  /** Multipolygons whose ways do not close into rings. */
  unassembledRelations: number;
}

export interface ImportStats {
  sourceFile: string;
  /** Entities read. */
  nodes: number;
  ways: number;
  relations: number;
  features: number;
  /** type=building relations (Simple 3D Buildings) recorded in building_relations. */
  buildingRelations: number;
  /** Buildings as built: each outline with its parts, or a part standing alone. */
  buildingGroups: number;
  byLayer: Record<OsmLayer, number>;
  byKind: Record<OsmFeature['kind'], number>;
  skipped: ImportSkipped;
  /** Multipolygon rings whose role contradicted their nesting (assembled by geometry anyway). */
  roleMismatches: number;
  nodeIndexBytes: number;
  seconds: number;
  /** Peak resident set size of the process so far, in bytes. */
  peakRssBytes: number;
}

interface PendingRelation {
  id: number;
  tags: OsmTags;
  members: { ref: number; role: string }[];
}

/** A type=building relation: its way/relation members and the running extent of those in the store. */
interface BuildingRelation {
  id: string;
  members: { id: string; role: string }[];
  extent7: [number, number, number, number] | null;
}

/** Relations that describe areas. type=boundary/route/site/building relations group features mapped elsewhere. */
function isAreaRelation(r: PbfRelation): boolean {
  return r.tags.type === 'multipolygon' && hasMeaningfulTags(r.tags, ['type']);
}

function buildingRelationOf(r: PbfRelation): BuildingRelation {
  const members = r.members.filter((m) => m.type !== 'node').map((m) => ({ id: `${m.type}/${m.ref}`, role: m.role }));
  return { id: `relation/${r.id}`, members, extent7: null };
}

class Importer {
  readonly index = new NodeLocationIndex();
  readonly pending: PendingRelation[] = [];
  readonly neededWays = new Set<number>();
  readonly memberCoords = new Map<number, number[]>();
  readonly buildingRelations: BuildingRelation[] = [];
  /** Feature id → the building relations it is a member of (to grow their extents as features are stored). */
  readonly buildingMembership = new Map<string, BuildingRelation[]>();
  header: PbfHeader | null = null;
  readonly stats: ImportStats;

  constructor(
    private readonly writer: StoreWriter,
    sourceFile: string,
  ) {
    this.stats = {
      sourceFile,
      nodes: 0,
      ways: 0,
      relations: 0,
      features: 0,
      buildingRelations: 0,
      buildingGroups: 0,
      byLayer: Object.fromEntries(OSM_LAYERS.map((l) => [l, 0])) as Record<OsmLayer, number>,
      byKind: { point: 0, line: 0, area: 0 },
      skipped: { unresolvedWays: 0, degenerateGeometry: 0, incompleteRelations: 0, unassembledRelations: 0 },
      roleMismatches: 0,
      nodeIndexBytes: 0,
      seconds: 0,
      peakRssBytes: 0,
    };
  }

  emit(id: string, tags: OsmTags, geometry: Geometry): void {
    const layer = classifyLayer(tags, geometry.kind);
    const bbox7 = this.writer.insert({ id, layer, tags, geometry });
    for (const rel of this.buildingMembership.get(id) ?? []) {
      const e = rel.extent7;
      if (!e) rel.extent7 = [bbox7[0], bbox7[1], bbox7[2], bbox7[3]];
      else {
        e[0] = Math.min(e[0], bbox7[0]);
        e[1] = Math.min(e[1], bbox7[1]);
        e[2] = Math.max(e[2], bbox7[2]);
        e[3] = Math.max(e[3], bbox7[3]);
      }
    }
    this.stats.features++;
    this.stats.byLayer[layer]++;
    this.stats.byKind[geometry.kind]++;
  }

  pass1Block(data: Uint8Array): void {
    const { nodes, relations } = decodePrimitiveBlock(data, { nodes: true, ways: false, relations: true });
    for (let i = 0; i < nodes.ids.length; i++) {
      this.index.add(nodes.ids[i], nodes.lat7[i], nodes.lon7[i]);
      const tags = nodes.tags[i];
      if (tags && hasMeaningfulTags(tags)) {
        this.emit(`node/${nodes.ids[i]}`, tags, { kind: 'point', point: [nodes.lon7[i] / 1e7, nodes.lat7[i] / 1e7] });
      }
    }
    this.stats.nodes += nodes.ids.length;
    this.stats.relations += relations.length;
    for (const r of relations) {
      if (r.tags.type === 'building') this.rememberBuildingRelation(buildingRelationOf(r));
      if (!isAreaRelation(r)) continue;
      const members = r.members.filter((m) => m.type === 'way').map((m) => ({ ref: m.ref, role: m.role }));
      for (const m of members) this.neededWays.add(m.ref);
      this.pending.push({ id: r.id, tags: r.tags, members });
    }
  }

  /** Members are stored only now; relation and way features are emitted later, in pass 2. */
  rememberBuildingRelation(rel: BuildingRelation): void {
    this.buildingRelations.push(rel);
    for (const m of rel.members) {
      const of = this.buildingMembership.get(m.id);
      if (!of) this.buildingMembership.set(m.id, [rel]);
      else if (!of.includes(rel)) of.push(rel);
    }
  }

  finishBuildingRelations(): void {
    for (const rel of this.buildingRelations) {
      for (const m of rel.members) this.writer.insertBuildingRelationMember({ relationId: rel.id, memberId: m.id, role: m.role, extent7: rel.extent7 });
    }
    this.stats.buildingRelations = this.buildingRelations.length;
  }

  /** Flat lon/lat degrees of a way, or null when a node is missing. */
  wayCoords(way: PbfWay): number[] | null {
    const coords = new Array<number>(way.refs.length * 2);
    if (way.lat7 && way.lon7) {
      for (let i = 0; i < way.refs.length; i++) {
        coords[2 * i] = way.lon7[i] / 1e7;
        coords[2 * i + 1] = way.lat7[i] / 1e7;
      }
      return coords;
    }
    for (let i = 0; i < way.refs.length; i++) {
      const at = this.index.find(way.refs[i]);
      if (at < 0) return null;
      coords[2 * i] = this.index.lon7(at) / 1e7;
      coords[2 * i + 1] = this.index.lat7(at) / 1e7;
    }
    return coords;
  }

  pass2Block(data: Uint8Array): void {
    const { ways } = decodePrimitiveBlock(data, { nodes: false, ways: true, relations: false });
    this.stats.ways += ways.length;
    for (const way of ways) {
      const isMember = this.neededWays.has(way.id);
      const isFeature = hasMeaningfulTags(way.tags);
      if (!isMember && !isFeature) continue;
      const coords = this.wayCoords(way);
      if (!coords) {
        if (isFeature) this.stats.skipped.unresolvedWays++;
        continue;
      }
      if (isMember) this.memberCoords.set(way.id, coords);
      if (!isFeature) continue;
      const closed = way.refs.length > 1 && way.refs[0] === way.refs[way.refs.length - 1];
      const geometry = wayGeometry(coords, closed, way.tags);
      if (geometry) this.emit(`way/${way.id}`, way.tags, geometry);
      else this.stats.skipped.degenerateGeometry++;
    }
  }

  finishRelations(): void {
    for (const rel of this.pending) {
      const members: MemberWay[] = [];
      let complete = true;
      for (const m of rel.members) {
        const coords = this.memberCoords.get(m.ref);
        if (!coords) {
          complete = false;
          break;
        }
        members.push({ role: m.role, coords });
      }
      if (!complete) {
        this.stats.skipped.incompleteRelations++;
        continue;
      }
      const result = assembleMultipolygon(members);
      if (!result.ok) {
        if (result.reason === 'open_ring') this.stats.skipped.unassembledRelations++;
        else this.stats.skipped.degenerateGeometry++;
        continue;
      }
      this.stats.roleMismatches += result.roleMismatches;
      this.emit(`relation/${rel.id}`, rel.tags, { kind: 'area', polygons: result.polygons });
    }
  }
}

/** Builds the store at `dbPath` from `pbfPath`; the previous store stays in place until the new one is complete. */
export async function importOsm(pbfPath: string, dbPath: string, options: ImportOptions = {}): Promise<ImportStats> {
  const started = performance.now();
  const writer = new StoreWriter(dbPath);
  const importer = new Importer(writer, basename(pbfPath));
  try {
    for (const pass of [1, 2] as const) {
      let blobs = 0;
      for await (const block of readPbfBlocks(pbfPath)) {
        blobs++;
        if (block.type === 'OSMHeader' && pass === 1) importer.header = decodeHeaderBlock(block.data);
        else if (block.type === 'OSMData') {
          if (pass === 1) importer.pass1Block(block.data);
          else importer.pass2Block(block.data);
        }
        options.onProgress?.({ pass, bytesRead: block.bytesRead, totalBytes: block.totalBytes, blobs });
      }
      if (pass === 1) importer.index.finish();
    }
    importer.finishRelations();
    importer.finishBuildingRelations();
    importer.stats.buildingGroups = writer.writeBuildingGroups();
    const stats = importer.stats;
    stats.nodeIndexBytes = importer.index.byteLength;
    stats.seconds = (performance.now() - started) / 1000;
    stats.peakRssBytes = process.resourceUsage().maxRSS * 1024;
    const header = importer.header;
    writer.setMeta('source_file', stats.sourceFile);
    writer.setMeta('imported_at', new Date().toISOString());
    if (header?.replicationTimestamp) writer.setMeta('data_timestamp', new Date(header.replicationTimestamp * 1000).toISOString());
    if (header?.writingProgram) writer.setMeta('writing_program', header.writingProgram);
    writer.setMeta('import_stats', JSON.stringify(stats));
    // what the store covers: the extract's declared bounds when its header has them, else the box of its features
    const extent = header?.bbox ?? writer.featureExtent();
    if (extent) writer.setMeta(EXTENT_META, JSON.stringify({ ...extent, from: header?.bbox ? 'header' : 'features' }));
    writer.commit();
    return stats;
  } catch (error) {
    writer.abort();
    throw error;
  }
}
