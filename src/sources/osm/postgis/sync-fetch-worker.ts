/** The helper thread of sync-fetch.ts: reads regions for a waiting thread and wakes it. */
import { type MessagePort, workerData } from 'node:worker_threads';
import { PostgisStore, type RegionRequest } from './postgis-store.ts';
import type { LonLatBBox } from '../../../osm-model/feature.ts';
import type { SyncFetchReply } from './sync-fetch.ts';

const { url, port, flag } = workerData as { url: string; port: MessagePort; flag: Int32Array };
const store = PostgisStore.open(url, 2);

port.on('message', async ({ box, request }: { box: LonLatBBox; request: RegionRequest }) => {
  let reply: SyncFetchReply;
  try {
    reply = { region: await store.fetchRegion(box, request) };
  } catch (error) {
    reply = { error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
