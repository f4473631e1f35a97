/**
 * The import step that decides, once for the whole extract, which parts belong to which building
 * outline (Simple 3D Buildings: `type=building` relations first, else the smallest outline around
 * the part; see geometry/buildings/building-groups.ts). Tiles then read a building with all its
 * members in one indexed lookup instead of widening their queries until every outline of every
 * part is at hand — which loaded a dense downtown about five times per request.
 *
 * Memory: every building feature's decoded rings for the duration of the step (about 200 bytes a
 * building; ~200 MB for a million buildings).
 */
import type Database from 'better-sqlite3';
import { groupBuildings, isBuildingPart } from '../../geometry/buildings/building-groups.ts';
import { decodeGeometry } from './geometry-codec.ts';
import { INSERT_BUILDING_GROUP, INSERT_BUILDING_GROUP_BBOX, SELECT_BUILDING_FEATURES, SET_FEATURE_GROUP } from './schema.ts';

interface BuildingRow {
  fid: number;
  osm_id: string;
  tags: string;
  geom: Buffer;
}

/** Writes building_groups, building_groups_bbox and features.group_id; returns the number of groups. */
export function writeBuildingGroups(db: Database.Database): number {
  const rows = db.prepare(SELECT_BUILDING_FEATURES).all() as BuildingRow[];
  const memberships = new Map<string, { id: string; role: string }[]>();
  for (const m of db.prepare('SELECT member_id, relation_id, role FROM building_relations').all() as {
    member_id: string;
    relation_id: string;
    role: string;
  }[]) {
    const list = memberships.get(m.member_id);
    if (list) list.push({ id: m.relation_id, role: m.role });
    else memberships.set(m.member_id, [{ id: m.relation_id, role: m.role }]);
  }
  const items = rows.map((row) => {
    const geometry = decodeGeometry(row.geom);
    return {
      polygons: geometry.kind === 'area' ? geometry.polygons : [],
      isPart: isBuildingPart(JSON.parse(row.tags) as Record<string, string>),
      relations: memberships.get(row.osm_id) ?? [],
    };
  });
  const groups = groupBuildings(items);
  const insertGroup = db.prepare(INSERT_BUILDING_GROUP);
  const insertBBox = db.prepare(INSERT_BUILDING_GROUP_BBOX);
  const setGroup = db.prepare(SET_FEATURE_GROUP);
  groups.forEach((group, n) => {
    const gid = n + 1;
    const box = [Infinity, Infinity, -Infinity, -Infinity];
    for (const i of [group.principal, ...group.parts]) {
      setGroup.run(gid, rows[i].fid);
      for (const polygon of items[i].polygons) {
        const outer = polygon[0];
        for (let k = 0; k < outer.length; k += 2) {
          box[0] = Math.min(box[0], outer[k]);
          box[1] = Math.min(box[1], outer[k + 1]);
          box[2] = Math.max(box[2], outer[k]);
          box[3] = Math.max(box[3], outer[k + 1]);
        }
      }
    }
    insertGroup.run(gid, rows[group.principal].fid, group.rep[0], group.rep[1]);
    // Stored coordinates are whole 1e-7 degrees already; rounding keeps the box exact.
    insertBBox.run(gid, Math.round(box[0] * 1e7), Math.round(box[2] * 1e7), Math.round(box[1] * 1e7), Math.round(box[3] * 1e7));
  });
  return groups.length;
}
