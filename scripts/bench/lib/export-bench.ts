/**
 * Exports for `npm run bench`: over a server started by the caller, the ~10 km² square as the
 * default JSON request and as an export in each registered format (same groups), warm (median of
 * `runs`), with the server's CPU-seconds and peak RSS, the file's size, and the targets: GLB ≤ 1.3 ×
 * the JSON request's time and < 2 × its server CPU, every format ≤ 3 s, RSS ≤ 700 MB. Nothing asserts.
 */
import { request } from 'undici';
import { EXPORT_WRITERS } from '../../../src/export/formats/index.ts';
import { figures, size, verdict, warmMedian } from '../bench-server.ts';
import { square } from '../../../test/support/polygons.ts';
import type { CompiledServer } from '../../../test/support/service/compiled-server.ts';

export interface ExportBenchCase {
  centre: [number, number];
  /** Side of the square, metres. */
  side: number;
}

const TARGETS = { totalMs: 3000, peakRssMb: 700 };
/** The GLB export of the default request against the JSON request: wall time, and server CPU (an export must not double it). */
const GLB_OVER_JSON = { time: 1.3, cpu: 2 };

/** One more export, to learn the file's size from its link. */
export async function fileSize(server: CompiledServer, body: unknown): Promise<number> {
  const res = await request(`${server.base}/v1/context`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await res.body.json()) as { downloadUrl: string };
  const head = await request(answer.downloadUrl, { method: 'HEAD' });
  await head.body.dump();
  return Number(head.headers['content-length']);
}

/** Times the JSON request and each format's export on `server` and prints them. */
export async function benchExportRequests(
  label: string,
  server: CompiledServer,
  c: ExportBenchCase,
  runs: number,
  formats = Object.keys(EXPORT_WRITERS),
): Promise<void> {
  const polygon = square(c.centre[0], c.centre[1], c.side);
  const json = await warmMedian(server, { polygon }, runs);
  console.log(`${label} ~10 km² default groups as JSON, warm (median of ${runs}): ${figures(json)}`);
  for (const format of formats) {
    const body = { polygon, export: { format } };
    const m = await warmMedian(server, body, runs);
    const ratio = m.totalMs / json.totalMs,
      cpu = m.cpuS / json.cpuS;
    const glb =
      format === 'glb'
        ? ` [× JSON: time ${verdict(ratio, GLB_OVER_JSON.time, '×', 2)}, CPU ${verdict(cpu, GLB_OVER_JSON.cpu, '×', 2)}]`
        : ` [× JSON: time ${ratio.toFixed(2)}, CPU ${cpu.toFixed(2)}]`;
    console.log(`${label} ~10 km² export ${format}, warm (median of ${runs}): ${figures(m, TARGETS)}${glb}, file ${size(await fileSize(server, body))}`);
  }
}
