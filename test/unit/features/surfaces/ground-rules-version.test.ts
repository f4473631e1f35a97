/**
 * Cached ground is keyed by GROUND_RULES_VERSION (features/surfaces/cached-ground.ts): when what the
 * ground family builds changes, the version must change too, or a service keeps serving cells made
 * by the old rules. This test pins the bytes of one cell of the Monaco sample built by today's
 * rules: it fails when they change while the version does not.
 *
 * When it fails after an intended change to the ground: raise GROUND_RULES_VERSION and set PINNED
 * below to the version and the digest the failure prints.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../../../src/config.ts';
import { buildCell, GROUND_RULES_VERSION } from '../../../../src/features/surfaces/cached-ground.ts';
import { GROUND_CELL_DEGREES } from '../../../../src/features/surfaces/ground-cells.ts';
import { loadRoofs } from '../../../../src/geometry/buildings/roofs/index.ts';
import { importOsm } from '../../../../src/sources/osm/import.ts';
import { OsmStore } from '../../../../src/sources/osm/store.ts';

const PINNED = { version: 1, digest: 'eacd3518fe2b455b' };

/** The cell over the harbour's west quay and the old town's slope: roads, junctions, filler, water, buildings. */
const CELL = { i: Math.floor(7.4215 / GROUND_CELL_DEGREES), j: Math.floor(43.7335 / GROUND_CELL_DEGREES) };

let store: OsmStore;

before(async () => {
  await loadRoofs();
  const path = join(mkdtempSync(join(tmpdir(), 'cc-ground-rules-')), 'osm.sqlite');
  await importOsm(join(REPO_ROOT, 'data/monaco/monaco.osm.pbf'), path);
  store = OsmStore.open(path);
});

test('the ground of a pinned cell is what the pinned rules version built', () => {
  const bytes = buildCell(store, CELL, { defaultLevels: 1, defaultLevelHeight: 4, defaultRoofType: 'flat' });
  assert.ok(bytes.length > 50_000, `${bytes.length} bytes: the cell holds real ground`);
  const digest = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  assert.deepEqual(
    { version: GROUND_RULES_VERSION, digest },
    PINNED,
    `the ground of cell ${CELL.i},${CELL.j} changed: if the ground family's output changed on purpose, raise GROUND_RULES_VERSION and pin {version, digest} as printed`,
  );
});
