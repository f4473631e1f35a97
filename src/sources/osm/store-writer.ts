/**
 * Writes the OSM store: a temp file next to the target, one transaction of prepared inserts, then
 * indexes, WAL mode and an atomic rename — so a reader never opens a half-built store.
 */
import Database from 'better-sqlite3';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { encodeGeometry, type Geometry } from './geometry-codec.ts';
import { writeBuildingGroups } from './import-building-groups.ts';
import { CREATE_INDEXES, CREATE_SCHEMA, INSERT_BBOX, INSERT_BUILDING_RELATION_MEMBER, INSERT_FEATURE, layerBit } from './schema.ts';
import type { OsmLayer, OsmTags } from '../../osm-model/feature.ts';
import type { LonLatBBox } from '../../osm-model/feature.ts';
import { featureExtentOf } from './store-extent.ts';

export interface FeatureRecord {
  id: string;
  layer: OsmLayer;
  tags: OsmTags;
  geometry: Geometry;
}

/** One way/relation member of a `type=building` relation; ids as in features (`way/1`, `relation/2`). */
export interface BuildingRelationMember {
  relationId: string;
  memberId: string;
  role: string;
  /** Extent of all the relation's members in the store, [minLon, minLat, maxLon, maxLat] in 1e-7 degrees; null when none is. */
  extent7: readonly [number, number, number, number] | null;
}

export class StoreWriter {
  private readonly db: Database.Database;
  private readonly insertFeature: Database.Statement;
  private readonly insertBBox: Database.Statement;
  private readonly insertRelationMember: Database.Statement;
  private readonly tempPath: string;
  private nextFid = 1;
  private closed = false;

  constructor(private readonly targetPath: string) {
    this.tempPath = `${targetPath}.importing-${process.pid}`;
    removeDatabaseFiles(this.tempPath);
    this.db = new Database(this.tempPath);
    // Nothing to recover if the import dies: the temp file is simply thrown away.
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.pragma('cache_size = -65536');
    this.db.exec(CREATE_SCHEMA);
    this.insertFeature = this.db.prepare(INSERT_FEATURE);
    this.insertBBox = this.db.prepare(INSERT_BBOX);
    this.insertRelationMember = this.db.prepare(INSERT_BUILDING_RELATION_MEMBER);
    this.db.exec('BEGIN');
  }

  get featureCount(): number {
    return this.nextFid - 1;
  }

  /** Stores a feature; returns its bbox [minLon, minLat, maxLon, maxLat] in 1e-7 degrees. */
  insert(feature: FeatureRecord): readonly [number, number, number, number] {
    const { bytes, bbox7 } = encodeGeometry(feature.geometry);
    const fid = this.nextFid++;
    this.insertFeature.run(fid, feature.id, feature.layer, feature.geometry.kind, JSON.stringify(feature.tags), bytes);
    this.insertBBox.run(fid, bbox7[0], bbox7[2], bbox7[1], bbox7[3], layerBit(feature.layer));
    return [bbox7[0], bbox7[1], bbox7[2], bbox7[3]];
  }

  insertBuildingRelationMember(member: BuildingRelationMember): void {
    const e = member.extent7;
    this.insertRelationMember.run(member.relationId, member.memberId, member.role, e?.[0] ?? null, e?.[2] ?? null, e?.[1] ?? null, e?.[3] ?? null);
  }

  /** Groups every building outline with its parts (call once all features and relation members are in); returns the group count. */
  writeBuildingGroups(): number {
    return writeBuildingGroups(this.db);
  }

  /** The box of every feature written so far (lon/lat degrees), or null for an empty store. */
  featureExtent(): LonLatBBox | null {
    return featureExtentOf(this.db);
  }

  setMeta(key: string, value: string): void {
    this.db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(key, value);
  }

  /** Commits, indexes, switches to WAL and moves the file into place. */
  commit(): void {
    this.db.exec('COMMIT');
    this.db.exec(CREATE_INDEXES);
    this.db.exec('ANALYZE');
    this.db.pragma('journal_mode = WAL');
    this.db.close();
    this.closed = true;
    // Stale WAL/SHM files of a previous store must not be applied to the new one.
    removeDatabaseFiles(this.targetPath, ['-wal', '-shm']);
    renameSync(this.tempPath, this.targetPath);
  }

  /** Throws the half-built store away. */
  abort(): void {
    if (!this.closed) {
      this.closed = true;
      try {
        this.db.close();
      } catch {
        // already unusable; the file is removed below
      }
    }
    removeDatabaseFiles(this.tempPath);
  }
}

function removeDatabaseFiles(path: string, suffixes = ['', '-journal', '-wal', '-shm']): void {
  for (const suffix of suffixes) {
    if (existsSync(path + suffix)) rmSync(path + suffix);
  }
}
