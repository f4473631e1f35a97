/**
 * The start-up of the compiled service on a data directory whose store is already built: time
 * from spawning the process to the first answer of `/healthz` (listening) and to `/readyz` 200
 * (warm), the resident memory once warm and idle, and the peak during a ~10 km² default request
 * right after — each beside its target. A server of its own, stopped at the end.
 */
import { square } from '../../../test/support/polygons.ts';
import { buildOnce, spawnServer, waitForStatus } from '../../../test/support/service/compiled-server.ts';
import { cpuSeconds, rssMb } from '../../../test/support/service/proc.ts';
import { measure, verdict } from '../bench-server.ts';
import { readFileSync } from 'node:fs';
import { storePaths } from '../../../src/config.ts';

const TARGETS = { listenS: 2, readyS: 10, idleRssMb: 300, defaultPeakRssMb: 600 };
/** How long the warm service is left alone before its memory is read: V8 shrinks idle heaps after a few seconds. */
const IDLE_MS = 10_000;

export async function benchStartUp(label: string, dataDir: string, extract: string, square10km2: { centre: [number, number]; side: number }): Promise<void> {
  buildOnce(); // not part of the start-up
  const t0 = performance.now();
  const server = await spawnServer(dataDir, extract);
  try {
    if (!(await waitForStatus(server, '/healthz', 200, 10))) throw new Error('the service did not listen');
    const listenS = (performance.now() - t0) / 1000;
    const listenCpuS = cpuSeconds(server.pid);
    if (!(await waitForStatus(server, '/readyz', 200, 25))) throw new Error('the service did not get ready');
    const readyS = (performance.now() - t0) / 1000;
    const startCpuS = cpuSeconds(server.pid);
    const rssAtReady = rssMb(server.pid);
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const idle = rssMb(server.pid);
    console.log(
      `${label} start-up: listening ${verdict(listenS, TARGETS.listenS, 's', 2)} (${listenCpuS.toFixed(2)} CPU-s), warm (/readyz 200) ${verdict(readyS, TARGETS.readyS, 's', 1)} ` +
        `(${startCpuS.toFixed(1)} CPU-s), RSS when warm ${rssAtReady.toFixed(0)} MB, idle ${IDLE_MS / 1000} s later ${verdict(idle, TARGETS.idleRssMb, 'MB')}`,
    );
    const key = readFileSync(storePaths(dataDir).demoKey, 'utf8').trim();
    const polygon = square(square10km2.centre[0], square10km2.centre[1], square10km2.side);
    const first = await measure({ ...server, key, notePeak() {}, peakRssMb: () => 0, stop: async () => {} }, { polygon });
    console.log(
      `${label} start-up: first ~10 km² default request after it: ${(first.totalMs / 1000).toFixed(2)} s, ${first.cpuS.toFixed(2)} CPU-s, ` +
        `server peak RSS ${verdict(first.peakRssMb, TARGETS.defaultPeakRssMb, 'MB')}`,
    );
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
}
