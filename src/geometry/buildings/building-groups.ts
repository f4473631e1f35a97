import type { Ring } from '../types.ts';
import { validFootprints } from '../planar/footprint-repair.ts';
import { assignPartsToOutlines, interiorPoint } from './parts.ts';

/**
 * Simple 3D Buildings groups: each outline with the parts that belong to it, and each part that
 * belongs to no outline on its own. Decided once for a whole extract (at import time, see
 * src/sources/osm/import-building-groups.ts), so every tile and every request builds a building
 * from the same members whatever the tiling. Pure: lon/lat rings in, groups out.
 */

/** `building:part=*` (other than `no`) marks a part, whatever layer the store filed it under. */
export function isBuildingPart(tags: Record<string, string>): boolean {
  const part = tags['building:part'];
  return part !== undefined && part !== 'no';
}

export interface GroupableBuilding {
  /** Polygons as stored: each [outer, ...holes], flat [lon0, lat0, …] rings without the closing duplicate. */
  polygons: readonly (readonly number[])[][];
  isPart: boolean;
  /** The `type=building` relations listing this feature, with its role there. */
  relations: readonly { id: string; role: string }[];
}

export interface BuildingGroup {
  /** Index of the outline (or of the part standing alone) the group is built around. */
  principal: number;
  /** Indices of the principal's parts, in input order (empty for a plain building). */
  parts: number[];
  /** A point strictly inside the principal's first footprint, [lon, lat]: the group's anchor candidate. */
  rep: [number, number];
}

/**
 * Groups buildings as `assignPartsToOutlines` decides (relation first, else the smallest outline
 * containing a point of the part). Features without a usable footprint are left out. Containment
 * and area comparisons are done in one affine metric frame for the whole input (equirectangular
 * at the first coordinate): an affine map keeps "inside" and area ratios exact, so the answer is
 * the one any conformal local frame would give.
 */
export function groupBuildings(items: readonly GroupableBuilding[]): BuildingGroup[] {
  const toMetres = affineMetres(items);
  const footprints = items.map((item) =>
    item.polygons.flatMap((rings) =>
      validFootprints({
        outer: toMetres.ring(rings[0]),
        holes: rings.slice(1).map(toMetres.ring),
      }),
    ),
  );
  const outlines: number[] = [],
    parts: number[] = [];
  items.forEach((item, i) => {
    if (footprints[i].length > 0) (item.isPart ? parts : outlines).push(i);
  });
  const rolesOf = (i: number, role: string) => items[i].relations.filter((r) => r.role === role).map((r) => r.id);
  const owner = assignPartsToOutlines(
    outlines.map((i) => footprints[i]),
    parts.map((i) => footprints[i]),
    {
      outlines: outlines.map((i) => rolesOf(i, 'outline')),
      parts: parts.map((i) => rolesOf(i, 'part')),
    },
  );
  const repOf = (i: number) => toMetres.lonLat(interiorPoint(footprints[i][0]));
  const groups: BuildingGroup[] = outlines.map((i) => ({ principal: i, parts: [], rep: repOf(i) }));
  owner.forEach((o, p) => {
    if (o >= 0) groups[o].parts.push(parts[p]);
    else groups.push({ principal: parts[p], parts: [], rep: repOf(parts[p]) });
  });
  return groups;
}

/** lon/lat ↔ metres by one affine map (scale at the first coordinate's latitude). */
function affineMetres(items: readonly GroupableBuilding[]) {
  const first = items.find((i) => i.polygons.length > 0)?.polygons[0][0];
  const lon0 = first?.[0] ?? 0,
    lat0 = first?.[1] ?? 0;
  const ky = 110_574,
    kx = 111_320 * Math.cos((lat0 * Math.PI) / 180);
  return {
    ring(ring: readonly number[]): Ring {
      const out = new Array<number>(ring.length);
      for (let k = 0; k < ring.length; k += 2) {
        out[k] = (ring[k] - lon0) * kx;
        out[k + 1] = (ring[k + 1] - lat0) * ky;
      }
      return out;
    },
    lonLat([x, y]: [number, number]): [number, number] {
      return [x / kx + lon0, y / ky + lat0];
    },
  };
}
