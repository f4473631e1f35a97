/** Worker for test/full-gc.test.ts: makes garbage, collects it, posts how many heap bytes that freed. */
import { getHeapStatistics } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { collectAllGarbage } from '../../src/pipeline/full-gc.ts';

let junk: unknown[] | null = Array.from({ length: 300_000 }, (_, i) => ({ i, s: `item ${i}` }));
const before = getHeapStatistics().used_heap_size;
junk = null;
collectAllGarbage();
parentPort!.postMessage({ freed: before - getHeapStatistics().used_heap_size, junk });
