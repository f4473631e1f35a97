/**
 * Street furniture and trees (issue 9) for `npm run bench`: over a server started by the caller,
 * the ~10 km² square with `geometry: ['instances']` alone (flat) and with `projectToTopography`
 * (nodes on the terrain), each warmed up once and timed warm (median of `runs`), with the
 * server's CPU-seconds and peak RSS. Nothing here asserts.
 */
import { benchGroupAloneAndOnTerrain } from '../bench-server.ts';
import type { CompiledServer } from '../../../test/support/service/compiled-server.ts';

/** Times the instances requests on `server` and prints them. */
export async function benchInstanceRequests(label: string, server: CompiledServer, c: { centre: [number, number]; side: number }, runs: number): Promise<void> {
  await benchGroupAloneAndOnTerrain(label, server, c, runs, 'instances', 'instances (street furniture and trees)');
}
