import type { IncomingMessage, ServerResponse } from 'node:http';
import { createGzip } from 'node:zlib';
import type { Writable } from 'node:stream';
import type { AccountStore } from '../accounts/index.ts';
import { parseContextRequest } from '../contract/parse-request.ts';
import { spatialReferenceFor } from '../frame/output-frame.ts';
import { runRequest, type PipelineDeps, type RunSummary } from '../pipeline/run-request.ts';
import { noSourceDataWarning } from '../pipeline/data-coverage.ts';
import type { Admission } from './admission.ts';
import { parseJsonBody, readBody, requireJsonContentType, type BodyBudget } from './body.ts';
import { AnswerBacklog } from './answer-backlog.ts';
import { holdClosingConnection, watchDelivery, watchSlowReader } from './delivery.ts';
import type { HttpLimits } from './http-limits.ts';
import { GeometryResponseWriter } from './response-stream.ts';
import { handleExport, type ExportDeps } from './export-handler.ts';
import type { Readiness } from './readiness.ts';
import { requestPremiumAccess } from './request-premium-access.ts';
import type { TrustedProxies } from './trusted-proxies.ts';
import { noteRequest } from './access-log.ts';
import { metered } from './metered-reservation.ts';
import type { ServiceMetrics } from './metrics.ts';

export interface ContextDeps {
  accounts: AccountStore;
  admission: Admission;
  pipeline: PipelineDeps;
  /** Export store and link base; without it every export is 422. */
  exports?: ExportDeps;
  maxBodyBytes: number;
  gzipLevel: number;
  log: (line: string) => void;
  /** Slow-reader and delivery limits; createApp fills in the defaults. */
  limits?: Partial<HttpLimits>;
  /** The service's start-up: a request waits for the store and the workers (createApp fills it in). */
  readiness: Readiness;
  /** The reverse proxies in front (trusted-proxies.ts); absent: none. */
  trustedProxies?: TrustedProxies;
  /** Counts what is reserved and charged (createApp fills it in). */
  metrics?: ServiceMetrics;
}

/**
 * POST /v1/context: key → content type → can the account pay at all → body → validation → admission
 * → reservation → tiles on the pool, streamed as they finish. Everything a client can be refused
 * for without its body is checked before the body is read, so a refused upload costs no parsing
 * (docs/operations.md "Limits and abuse"). The reservation is committed just before the last bytes
 * of the answer are written (all before them taken by the kernel) and taken back if they do not
 * get out or the connection is reset right after; any earlier failure, disconnect or stalled
 * reader releases it uncharged.
 */
export async function handleContext(req: IncomingMessage, res: ServerResponse, deps: ContextDeps & { limits: HttpLimits; bodies: BodyBudget }): Promise<void> {
  const started = performance.now();
  const gone = new AbortController();
  // Only a 'finish' event counts: after a destroy, Node may report writableFinished with bytes unsent.
  let delivered = false;
  res.once('finish', () => {
    delivered = true;
  });
  res.on('close', () => {
    if (!delivered) gone.abort(new Error('client disconnected'));
  });

  const auth = await deps.accounts.authenticate(req.headers.authorization);
  noteRequest(req, { accountId: auth.accountId });
  requireJsonContentType(req);
  await deps.accounts.assertCanPay(auth);
  const body = await readBody(req, deps.maxBodyBytes, deps.limits.maxDrainBytes, deps.bodies);
  const request = parseContextRequest(parseJsonBody(body));
  noteRequest(req, { areaKm2: Number(request.areaKm2.toFixed(6)), groups: request.settings.geometry, format: request.export?.format });
  if (request.export) return handleExport(req, res, request, auth, deps, gone.signal);

  const release = await deps.admission.acquire(gone.signal, { areaKm2: request.areaKm2, export: false });
  try {
    await deps.readiness.untilServable();
    // no source has data for what it asks: an empty answer, recorded at cost 0, that says why
    const premium = await requestPremiumAccess(request, auth, deps.accounts, deps.pipeline.premiumStorePath);
    // a polygon outside the OSM data is not empty where a premium dataset the caller may use covers it
    const unpaid = await noSourceDataWarning(request, deps.pipeline, premium.allowed);
    const reservation = metered(await deps.accounts.reserve(auth, request.areaKm2, { free: unpaid !== null }), deps.metrics);
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
    const socket = res.socket;
    holdClosingConnection(res, deps.limits.deliveryWindowMs);
    const slow = watchSlowReader(res, deps.limits.slowReaderTimeoutMs, () =>
      deps.log(`context cut: the client read nothing for ${deps.limits.slowReaderTimeoutMs} ms`),
    );
    const backlog = new AnswerBacklog(out === res ? [res] : [out, res], deps.limits.maxAnswerBufferBytes);
    const writer = new GeometryResponseWriter(out, backlog);
    writer.begin({
      origin: request.origin,
      spatialReference: spatialReferenceFor({ origin: request.origin, crs: request.settings.crs, upAxis: request.settings.upAxis }),
    });
    let summary: RunSummary;
    try {
      summary = await runRequest(request, deps.pipeline, writer, gone.signal, { premiumDatasets: premium.allowed });
      if (gone.signal.aborted) throw gone.signal.reason;
      // The work is done: the slot goes to the next request now, not when this client has read it all
      // (a slow reader must not hold a slot; its reservation stays until the answer is delivered).
      release(true);
      // Charged before the bytes that complete the document are written, once all before them were
      // taken by the kernel: a crash from here on cannot hand out a whole answer for free, nor charge
      // for more than its tail; a failure from here on refunds.
      await backlog.drained();
      if (gone.signal.aborted || slow.cut) throw new Error('the client went away before the end of the answer');
      await reservation.commit();
      writer.end({
        warnings: [...(unpaid ? [unpaid] : []), ...summary.warnings],
        attributions: summary.attributions,
        dataAccess: premium.dataAccess,
      });
      await finished(res);
      slow.stop();
      if (slow.cut) throw new Error('the client stopped reading');
    } catch (err) {
      const clientGone = gone.signal.aborted || slow.cut;
      // not charged yet: released; charged already (the end of the answer did not get out): refunded
      try {
        if (!(await reservation.release(clientGone ? 'aborted' : 'failed'))) await reservation.refund();
      } catch (lost) {
        // the accounts store is unreachable: the hold is left to this node's stale sweep
        deps.log(`context: the reservation could not be released now (${(lost as Error).message})`);
      }
      res.destroy(); // a cut-off stream must never parse as a smaller model
      deps.log(`context ${clientGone ? 'aborted' : 'failed'} after ${(performance.now() - started).toFixed(0)} ms: ${(err as Error)?.message}`);
      return;
    }
    watchDelivery(socket, deps.limits.deliveryWindowMs, (err) => {
      void reservation.refund().then(
        (refunded) => refunded && deps.log(`context refunded: the connection failed right after the last byte (${err.message})`),
        (failed) => deps.log(`context refund failed: ${(failed as Error).message}`),
      );
    });
    const warned = summary.warnings.length ? ` warnings=${summary.warnings.map((w) => w.code).join(',')}` : '';
    deps.log(
      `context 200 ${request.areaKm2.toFixed(3)} km² tiles=${summary.tiles} ${JSON.stringify(summary.items)}${warned} ${(performance.now() - started).toFixed(0)} ms`,
    );
  } finally {
    release();
  }
}

/** Resolves when the response has been fully handed to the socket ('finish'), rejects if it closed first. */
function finished(res: ServerResponse): Promise<void> {
  if (res.writableFinished && !res.destroyed) return Promise.resolve();
  return new Promise((resolve, reject) => {
    res.once('finish', resolve);
    res.once('close', () => reject(new Error('connection closed before the response finished')));
  });
}
