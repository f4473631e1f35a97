import type { IncomingMessage, ServerResponse } from 'node:http';
import { createGzip } from 'node:zlib';
import type { Writable } from 'node:stream';
import type { AccountStore } from '../accounts/index.ts';
import { parseContextRequest } from '../contract/parse-request.ts';
import { spatialReferenceFor } from '../frame/output-frame.ts';
import { runContext, type PipelineDeps } from '../pipeline/run-context.ts';
import type { Admission } from './admission.ts';
import { parseJsonBody, readBody } from './body.ts';
import { GeometryResponseWriter } from './response-stream.ts';
import { handleExport, type ExportDeps } from './export-handler.ts';

export interface ContextDeps {
  accounts: AccountStore;
  admission: Admission;
  pipeline: PipelineDeps;
  /** Export store and link base (issue 10); without it every export is 422. */
  exports?: ExportDeps;
  maxBodyBytes: number;
  gzipLevel: number;
  log: (line: string) => void;
}

/**
 * POST /v1/context: body → key → validation → admission → reservation → tiles on the pool,
 * streamed as they finish. The reservation is committed only once the whole response has been
 * handed to the socket; any failure or disconnect releases it uncharged.
 */
export async function handleContext(req: IncomingMessage, res: ServerResponse, deps: ContextDeps): Promise<void> {
  const started = performance.now();
  const gone = new AbortController();
  res.on('close', () => { if (!res.writableFinished) gone.abort(new Error('client disconnected')); });

  const body = await readBody(req, deps.maxBodyBytes);
  const auth = deps.accounts.authenticate(req.headers.authorization);
  const request = parseContextRequest(parseJsonBody(body));
  if (request.export) return handleExport(req, res, request, auth, deps, gone.signal);

  const release = await deps.admission.acquire(gone.signal);
  try {
    const reservation = deps.accounts.reserve(auth, request.areaKm2);
    const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'x-cost-km2': reservation.costKm2.toFixed(4),
      ...(gzip ? { 'content-encoding': 'gzip', vary: 'accept-encoding' } : {}),
    });
    let out: Writable = res;
    if (gzip) {
      const z = createGzip({ level: deps.gzipLevel });
      z.pipe(res);
      out = z;
    }
    const writer = new GeometryResponseWriter(out);
    writer.begin({ origin: request.origin, spatialReference: spatialReferenceFor({ origin: request.origin, crs: request.settings.crs, upAxis: request.settings.upAxis }) });
    let summary;
    try {
      summary = await runContext(request, deps.pipeline, writer, gone.signal);
      if (gone.signal.aborted) throw gone.signal.reason;
      writer.end({ warnings: summary.warnings, attributions: summary.attributions, dataAccess: { granted: 'full', suppressedCountries: [], reason: null } });
      await finished(res);
    } catch (err) {
      reservation.release(gone.signal.aborted ? 'aborted' : 'failed');
      res.destroy(); // a cut-off stream must never parse as a smaller model
      deps.log(`context ${gone.signal.aborted ? 'aborted' : 'failed'} after ${(performance.now() - started).toFixed(0)} ms: ${(err as Error)?.message}`);
      return;
    }
    reservation.commit();
    const warned = summary.warnings.length ? ` warnings=${summary.warnings.map((w) => w.code).join(',')}` : '';
    deps.log(`context 200 ${request.areaKm2.toFixed(3)} km² tiles=${summary.tiles} ${JSON.stringify(summary.items)}${warned} ${(performance.now() - started).toFixed(0)} ms`);
  } finally {
    release();
  }
}

/** Resolves when the response has been fully handed to the socket, rejects if it closed first. */
function finished(res: ServerResponse): Promise<void> {
  if (res.writableFinished) return Promise.resolve();
  return new Promise((resolve, reject) => {
    res.once('finish', resolve);
    res.once('close', () => (res.writableFinished ? resolve() : reject(new Error('connection closed before the response finished'))));
  });
}
