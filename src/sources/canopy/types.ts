import type { CanopyDetectTuning } from '../../geometry/canopy/types.ts';
import type { Attribution } from '../attributions.ts';
import type { GeoBox } from '../../frame/geo-box.ts';

/**
 * The canopy-source interface: canopy height models (CHMs) — heights of vegetation above the
 * ground, metres — read as rectangles of the rasters' own pixel lattices, never resampled, so that
 * a detected treetop is a measured pixel and two tiles reading around one seam see the same cells.
 */

/** A rectangle of one pixel lattice, decoded: what detection runs on. */
export interface CanopyWindow {
  /** Heights, metres, row-major from the window's first (north-west) cell; NaN = no data. */
  readonly data: Float32Array;
  readonly width: number;
  readonly height: number;
  /** Lattice column and row of the window's first cell (stable across windows: ties are broken in lattice order). */
  readonly col0: number;
  readonly row0: number;
  /** Ground size of a cell, metres (constant per lattice, so every tile detects with the same windows). */
  readonly cellSize: number;
  /** Identifies the lattice (its first source): tops of different lattices are different trees. */
  readonly latticeId: string;
  readonly attributions: readonly Attribution[];
  /** Detection tuning configured for this lattice's rasters. */
  readonly detection: CanopyDetectTuning;
  /** WGS84 lon/lat of a fractional lattice position (cell centres at integers; a window's first cell is (col0, row0)). */
  lonLatOfLattice(col: number, row: number): [number, number];
  /** The height of the cell holding (lon, lat); NaN outside the window or where there is no data. */
  valueAt(lon: number, lat: number): number;
}

export interface CanopySource {
  readonly id: string;
  /** Area covered, degrees. */
  readonly bounds: GeoBox;
  /** Largest cell side of any lattice, metres (how far around a tile to read scales with it). */
  readonly maxCellSize: number;
  readonly attributions: readonly Attribution[];
  /** Detection tuning of each lattice (for how far around a tile to read). */
  readonly detections: readonly CanopyDetectTuning[];
  /**
   * One window per lattice that has data in `bbox`, in priority order (the configuration's order):
   * where lattices overlap, the earlier one is the data.
   */
  readWindows(bbox: GeoBox, signal?: AbortSignal): Promise<CanopyWindow[]>;
  close(): Promise<void>;
}
