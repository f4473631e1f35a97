/**
 * A building read from a file, in WGS84: every surface reprojected (heights kept as the file has
 * them), its footprint, height range and the descriptor fields the store keeps beside the blobs.
 */
import { footprintOf } from './footprint.ts';
import type { SourceCrs } from './crs.ts';
import type { Lod, SourceBuilding } from './source-model.ts';
import type { LonLatPolygons, StoredSurface } from './surface-codec.ts';

export interface PartDescriptor {
  id: string;
  lod: Lod;
  roofType: string | null;
  measuredHeight: number | null;
  name: string | null;
}

export interface BuildingRecord {
  id: string;
  name: string | null;
  /** The lowest LoD among its parts (a building is only as detailed as its coarsest part). */
  lod: Lod;
  roofType: string | null;
  measuredHeight: number | null;
  parts: PartDescriptor[];
  /** First point of the first surface, the origin of the blobs' offsets. */
  origin: [number, number];
  surfaces: StoredSurface[];
  footprint: LonLatPolygons;
  minZ: number;
  maxZ: number;
  /** [minLon, minLat, maxLon, maxLat] of every point. */
  bbox: [number, number, number, number];
}

/** Null when the building has no surface left with three points (the caller reports it). */
export function buildingRecord(building: SourceBuilding, crs: SourceCrs): BuildingRecord | null {
  const surfaces: StoredSurface[] = [];
  let minZ = Infinity,
    maxZ = -Infinity;
  const bbox: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  building.parts.forEach((part, p) => {
    for (const surface of part.surfaces) {
      const rings = surface.rings.map((ring) => {
        const out = new Array<number>(ring.length);
        for (let i = 0; i < ring.length; i += 3) {
          const [lon, lat] = crs.toLonLat(ring[i], ring[i + 1]);
          const z = ring[i + 2];
          if (!Number.isFinite(lon) || !Number.isFinite(lat) || !Number.isFinite(z)) {
            throw new Error(`a point of ${part.id} (${ring[i]}, ${ring[i + 1]}, ${z}) does not convert from ${crs.label} to lon/lat`);
          }
          out[i] = lon;
          out[i + 1] = lat;
          out[i + 2] = z;
          if (z < minZ) minZ = z;
          if (z > maxZ) maxZ = z;
          if (lon < bbox[0]) bbox[0] = lon;
          if (lat < bbox[1]) bbox[1] = lat;
          if (lon > bbox[2]) bbox[2] = lon;
          if (lat > bbox[3]) bbox[3] = lat;
        }
        return out;
      });
      if (rings[0].length >= 9) surfaces.push({ cls: surface.cls, part: p, rings });
    }
  });
  if (surfaces.length === 0) return null;
  const origin: [number, number] = [surfaces[0].rings[0][0], surfaces[0].rings[0][1]];
  const footprint = footprintOf(
    surfaces.map((s) => s.rings),
    origin,
  );
  if (footprint.length === 0) return null;
  const parts = building.parts.map((p) => ({ id: p.id, lod: p.lod, roofType: p.roofType, measuredHeight: p.measuredHeight, name: p.name }));
  return {
    id: building.id,
    name: building.name ?? parts.find((p) => p.name)?.name ?? null,
    lod: Math.min(...parts.map((p) => p.lod)) as Lod,
    roofType: building.roofType ?? (parts.length === 1 ? parts[0].roofType : null),
    measuredHeight: building.measuredHeight ?? (parts.length === 1 ? parts[0].measuredHeight : null),
    parts,
    origin,
    surfaces,
    footprint,
    minZ,
    maxZ,
    bbox,
  };
}
