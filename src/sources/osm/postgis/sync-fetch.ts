/**
 * A synchronous read of the PostGIS store, for the rare read a tile makes outside the box it
 * fetched first (snapshot.ts). pg only speaks asynchronously, so a helper thread holds its own
 * connection and does the read while this thread waits on a shared flag (Atomics.wait), then takes
 * the answer off the port at once (receiveMessageOnPort). Blocking is fine here: a tile worker has
 * nothing else to do while its tile waits for data. Never use it on the main thread.
 */
import { MessageChannel, type MessagePort as NodePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import type { LonLatBBox } from '../../../osm-model/feature.ts';
import type { Region, RegionRequest } from './postgis-store.ts';

/** How long a read may take before the tile fails rather than hang. */
const FETCH_TIMEOUT_MS = 60_000;

const EXT = import.meta.url.endsWith('.ts') ? '.ts' : '.js';

export interface SyncFetchReply {
  region?: Region;
  error?: string;
}

export class SyncFetcher {
  private readonly worker: Worker;
  private readonly port: NodePort;
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));

  constructor(url: string) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(new URL(`./sync-fetch-worker${EXT}`, import.meta.url), {
      workerData: { url, port: port2, flag: this.flag },
      transferList: [port2],
    });
    this.worker.unref();
    port1.unref();
  }

  fetch(box: LonLatBBox, request: RegionRequest): Region {
    Atomics.store(this.flag, 0, 0);
    this.port.postMessage({ box, request });
    if (Atomics.wait(this.flag, 0, 0, FETCH_TIMEOUT_MS) === 'timed-out') throw new Error(`OSM store on PostGIS: no answer within ${FETCH_TIMEOUT_MS / 1000} s`);
    const message = receiveMessageOnPort(this.port);
    const reply = message?.message as SyncFetchReply | undefined;
    if (!reply?.region) throw new Error(`OSM store on PostGIS: ${reply?.error ?? 'no reply'}`);
    return reply.region;
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
