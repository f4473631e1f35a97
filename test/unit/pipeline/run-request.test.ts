/**
 * runRequest hands tiles to its sink as they finish, or — for a sink that asks for order (the
 * exports) — in the plan's task order, whatever order they finish in. Nine 100 m tiles are built
 * in this thread (from an empty source: each tile's own result buffer tells which tile a chunk came
 * from); the stand-in pool lets them finish in reverse order.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Piscina } from 'piscina';
import { parseContextRequest } from '../../../src/contract/parse-request.ts';
import { createLocalFrame } from '../../../src/frame/local-frame.ts';
import type { GroupSink } from '../../../src/pipeline/group-sink.ts';
import { runRequest, type PipelineDeps } from '../../../src/pipeline/run-request.ts';
import type { TileTask } from '../../../src/plan/plan-request.ts';
import type { TileResult } from '../../../src/plan/tile-result.ts';
import { buildTile } from '../../../src/tile/build-tile.ts';
import { registerOsmSource } from '../../../src/tile/osm-sources.ts';
import { memoryOsmSource } from '../../support/fakes/osm-source.ts';

const ORIGIN: [number, number] = [43.7, 7.3];
const frame = createLocalFrame(...ORIGIN);

/** The order the sink got each tile's buildings in (task indices), and the order the tiles finished in. */
async function run(ordered: boolean): Promise<{ received: number[]; finished: number[] }> {
  const path = `run-request-order#${Math.random()}`;
  registerOsmSource(path, memoryOsmSource([]));
  const ring = [
    [-150, -150],
    [150, -150],
    [150, 150],
    [-150, 150],
    [-150, -150],
  ].map(([x, y]) => {
    const [lon, lat] = frame.toLonLat(x, y);
    return [lat, lon];
  });
  const req = parseContextRequest({ polygon: ring, origin: ORIGIN, settings: { geometry: ['buildings'] } });
  // every tile waits for the tiles planned after it: they finish last to first
  const gates = new Map<TileTask['key'], { promise: Promise<void>; open: () => void }>();
  const gate = (key: TileTask['key']) => {
    let g = gates.get(key);
    if (!g) {
      let open!: () => void;
      const promise = new Promise<void>((r) => (open = r));
      gates.set(key, (g = { promise, open }));
    }
    return g;
  };
  const finished: number[] = [];
  const bytes = new Map<Uint8Array, number>();
  const pool = {
    run: async (task: TileTask): Promise<TileResult> => {
      const n = task.taskKeys.indexOf(task.key);
      const result = await buildTile(task);
      if (n + 1 < task.taskKeys.length) await gate(task.taskKeys[n + 1]).promise;
      finished.push(n);
      bytes.set(result.groups.buildings.json, n);
      gate(task.key).open();
      return result;
    },
  } as unknown as Piscina;
  const deps: PipelineDeps = { pool, storePath: path, tileSize: 100 };
  const received: number[] = [];
  const sink: GroupSink = {
    ordered,
    declare() {},
    chunk: (key, json) => {
      if (key === 'buildings') received.push(bytes.get(json)!);
    },
    done() {},
  };
  await runRequest(req, deps, sink, new AbortController().signal);
  return { received, finished };
}

test('an ordered sink gets the tiles in task order although they finish last to first; an unordered one as they finish', async () => {
  const ordered = await run(true);
  assert.ok(ordered.finished.length >= 9, `${ordered.finished.length} tiles`);
  assert.deepEqual(
    ordered.finished,
    [...ordered.finished].sort((a, b) => b - a),
    'the tiles finished last to first',
  );
  assert.deepEqual(
    ordered.received,
    [...ordered.received].sort((a, b) => a - b),
  );
  assert.equal(ordered.received.length, ordered.finished.length);
  const unordered = await run(false);
  assert.deepEqual(unordered.received, unordered.finished);
});
