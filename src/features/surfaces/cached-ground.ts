import { clipAreas } from '../../geometry/crop/clip-areas.ts';
import { cropPolygon } from '../../geometry/crop/crop-polygon.ts';
import type { SpecDefaults } from '../../geometry/buildings/building-spec.ts';
import type { SurfaceArea } from '../../geometry/surfaces/types.ts';
import type { GroundCacheStore } from '../../sources/ground-cache/store.ts';
import type { OsmSource } from '../../sources/osm/types.ts';
import type { LonLatBBox } from '../../osm-model/feature.ts';
import type { TileContext } from '../family.ts';
import { cellSquare, cellFrame, cellsMeeting, type GroundCell } from './ground-cells.ts';
import { cellPiecesIn, decodeGroundCell, encodeGroundCell, type StoredGroundCell } from './ground-cell-codec.ts';
import { groundPieces, squareRing } from './ground-pieces.ts';

/**
 * The version of the rules that make the ground. Part of every cached cell's generation: raise it
 * with any change to what the ground family builds, or requests get cells made by the old rules.
 * test/unit/features/surfaces/ground-rules-version.test.ts pins the bytes of one Monaco cell and
 * fails when the ground changes while this number does not.
 */
export const GROUND_RULES_VERSION = 1;

/**
 * Decoded cells kept per thread: a cell is read by the (up to four) tiles of a request it meets,
 * which come a row of tiles apart (two rows of a 10 km² request's cells).
 */
const DECODED_CELLS = 24;
/** Per cache file (a thread has one; tests open several). */
const decodedBy = new WeakMap<GroundCacheStore, Map<string, StoredGroundCell>>();

function decodedOf(cache: GroundCacheStore): Map<string, StoredGroundCell> {
  let map = decodedBy.get(cache);
  if (!map) {
    map = new Map();
    decodedBy.set(cache, map);
  }
  return map;
}

/**
 * The tile's ground from the ground cache (docs/ground.md "The ground cache"): the pieces of the
 * fixed cells that meet the tile's square, built once per cell and kept, moved into the request's
 * frame and cut to the square. Undefined when the store cannot name its version (nothing to key
 * the cells by), or when a cell is missing and `fill` is off. Only for ground without terrain:
 * with terrain the decks' heights and landings depend on the request's elevation grid (the caller
 * builds that ground itself).
 */
export function cachedGroundPieces(
  tile: TileContext,
  buildings: SpecDefaults,
  cache: GroundCacheStore,
  fill: boolean,
  lap: (stage: string) => void,
): { pieces: SurfaceArea[]; seaUndecided: boolean } | undefined {
  const generation = groundGeneration(tile.source, buildings);
  if (!generation) return undefined;
  const box = tile.lonLatBBox(1);
  const square = cropPolygon(squareRing(tile.bbox));
  const cells = cellsMeeting(box);
  const missing = cells.filter((cell) => !keptCell(generation, cell, cache));
  if (missing.length > 0) {
    if (!fill) return undefined;
    lap('surfaceCells');
    buildMissingCells(tile.source, missing, generation, buildings, cache);
    lap('surfaceCellBuild');
  }
  const pieces: SurfaceArea[] = [];
  let seaUndecided = false;
  for (const cell of cells) {
    const stored = storedCell(tile, cell, generation, buildings, cache, lap);
    seaUndecided ||= stored.seaUndecided;
    for (const p of clipAreas(cellPiecesIn(stored, tile.frame, box), square, false)) pieces.push(p);
  }
  lap('surfaceCells');
  return { pieces, seaUndecided };
}

/**
 * Everything a cell's ground depends on besides its place: the store's data, these rules and the
 * request's building defaults (they decide which buildings stand on the ground and are cut out).
 * Undefined when the store cannot name its data's version.
 */
export function groundGeneration(source: OsmSource, buildings: SpecDefaults): string | undefined {
  const version = source.version?.();
  if (!version) return undefined;
  return `${version}|ground rules ${GROUND_RULES_VERSION}|${buildings.defaultLevels},${buildings.defaultLevelHeight},${buildings.defaultRoofType}`;
}

/**
 * Builds every cell meeting `box` that the cache does not hold yet (the ground cache filled ahead
 * of requests: `city-context bake-ground`). Calls `progress` after each cell with the cells done
 * and the total; returns the number built.
 */
export function bakeGroundCells(
  source: OsmSource,
  cache: GroundCacheStore,
  buildings: SpecDefaults,
  box: LonLatBBox,
  progress: (done: number, total: number) => void = () => {},
): number {
  const generation = groundGeneration(source, buildings);
  if (!generation) throw new Error('the OSM source cannot name the version of its data: there is nothing to key its ground by');
  const cells = cellsMeeting(box);
  let built = 0;
  cells.forEach((cell, n) => {
    if (!cache.has(generation, cell.i, cell.j)) {
      cache.put(generation, cell.i, cell.j, buildCell(source, cell, buildings));
      built++;
    }
    progress(n + 1, cells.length);
  });
  return built;
}

/** A claim on a cell being built lapses after this long (its builder died); a cell takes ~0.1–1 s. */
const CLAIM_TTL_MS = 60_000;
/** How long a worker waits for cells others are building before it builds them itself. */
const WAIT_FOR_OTHERS_MS = 30_000;
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Builds the missing cells this thread can claim; then waits for those another thread is building
 * (a tile worker has nothing else to do meanwhile, and building them too would double the work of
 * a cold request), building any still missing after WAIT_FOR_OTHERS_MS itself.
 */
function buildMissingCells(source: OsmSource, missing: GroundCell[], generation: string, buildings: SpecDefaults, cache: GroundCacheStore): void {
  let pending = missing;
  const started = Date.now();
  while (pending.length > 0) {
    const waiting: GroundCell[] = [];
    for (const cell of pending) {
      if (cache.has(generation, cell.i, cell.j)) continue;
      if (!cache.claim(generation, cell.i, cell.j, CLAIM_TTL_MS)) {
        waiting.push(cell);
        continue;
      }
      try {
        cache.put(generation, cell.i, cell.j, buildCell(source, cell, buildings));
      } finally {
        cache.release(generation, cell.i, cell.j);
      }
    }
    if (waiting.length === 0) return;
    if (Date.now() - started > WAIT_FOR_OTHERS_MS) {
      for (const cell of waiting) if (!cache.has(generation, cell.i, cell.j)) cache.put(generation, cell.i, cell.j, buildCell(source, cell, buildings));
      return;
    }
    Atomics.wait(pause, 0, 0, 10);
    pending = waiting;
  }
}

/** Whether the cell is kept (decoded here, or in the file). */
function keptCell(generation: string, cell: GroundCell, cache: GroundCacheStore): boolean {
  return decodedOf(cache).has(`${generation}|${cell.i},${cell.j}`) || cache.has(generation, cell.i, cell.j);
}

function storedCell(
  tile: TileContext,
  cell: GroundCell,
  generation: string,
  buildings: SpecDefaults,
  cache: GroundCacheStore,
  lap: (stage: string) => void,
): StoredGroundCell {
  const key = `${generation}|${cell.i},${cell.j}`;
  const decoded = decodedOf(cache);
  let stored = decoded.get(key);
  if (stored) {
    // most recently used last
    decoded.delete(key);
    decoded.set(key, stored);
    return stored;
  }
  const bytes = cache.get(generation, cell.i, cell.j);
  if (bytes) stored = decodeGroundCell(bytes);
  else {
    // kept a moment ago (buildMissingCells, or a neighbour tile), evicted since: built again here
    lap('surfaceCells');
    const built = buildCell(tile.source, cell, buildings);
    lap('surfaceCellBuild');
    cache.put(generation, cell.i, cell.j, built);
    stored = decodeGroundCell(built);
  }
  decoded.set(key, stored);
  if (decoded.size > DECODED_CELLS) decoded.delete(decoded.keys().next().value!);
  return stored;
}

/** A cell's ground, built as a tile of its own in its own frame and cut to its outline, encoded. */
export function buildCell(source: OsmSource, cell: GroundCell, buildings: SpecDefaults): Uint8Array {
  const square = cellSquare(source, cell);
  const ground = groundPieces(square, buildings);
  return encodeGroundCell(clipAreas(ground.pieces, square.outline, false), cellFrame(cell), ground.seaUndecided);
}
