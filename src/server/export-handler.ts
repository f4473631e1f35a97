/**
 * POST /v1/context with `export` (docs/exports.md): checks → admission → reservation → tiles and
 * writer on the pool → export store → 200 `{downloadUrl, spatialReference}`. Charged like a
 * geometry request: committed just before the answer is written, refunded if it does not get out
 * or the connection is reset right after; a failed export releases the reservation uncharged.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { AccountStore, AuthContext } from '../accounts/index.ts';
import { ApiError } from '../contract/errors.ts';
import type { ContextRequest } from '../contract/types.ts';
import { prepareExport, runExport } from '../export/run-export.ts';
import { buildAndStore } from '../export/store-export.ts';
import { noSourceDataWarning } from '../pipeline/data-coverage.ts';
import type { ExportStore, StoredExport } from '../export/store/types.ts';
import type { PipelineDeps } from '../pipeline/run-request.ts';
import type { Admission } from './admission.ts';
import type { Readiness } from './readiness.ts';
import { holdClosingConnection, sendAndConfirm, watchDelivery } from './delivery.ts';
import { HTTP_LIMIT_DEFAULTS, type HttpLimits } from './http-limits.ts';
import { publicOrigin } from './public-origin.ts';
import { requestPremiumAccess } from './request-premium-access.ts';
import { sendJson } from './send.ts';
import type { TrustedProxies } from './trusted-proxies.ts';
import { metered } from './metered-reservation.ts';
import type { ServiceMetrics } from './metrics.ts';

/** Where finished files go and how their links are spelled. */
export interface ExportDeps {
  store: ExportStore;
  /** e.g. `https://context.example.com`; without it, see public-origin.ts. */
  publicBaseUrl?: string | null;
}

export interface ExportHandlerDeps {
  accounts: AccountStore;
  admission: Admission;
  pipeline: PipelineDeps;
  /** Absent when the server has no export store: every export is then 422. */
  exports?: ExportDeps;
  log: (line: string) => void;
  limits?: Partial<HttpLimits>;
  readiness: Readiness;
  /** Proxies whose `X-Forwarded-Host`/`-Proto` links may follow (absent: none). */
  trustedProxies?: TrustedProxies;
  /** Counts what is reserved and charged (absent: not counted). */
  metrics?: ServiceMetrics;
}

export async function handleExport(
  req: IncomingMessage,
  res: ServerResponse,
  request: ContextRequest,
  auth: AuthContext,
  deps: ExportHandlerDeps,
  gone: AbortSignal,
): Promise<void> {
  const started = performance.now();
  const plan = prepareExport(request);
  const exports = deps.exports;
  if (!exports)
    throw new ApiError('format_unavailable', 'Exports are not configured on this server (it has no export store); omit "export" to receive JSON geometry.');

  // a store that cannot take the file now is known before any work or waiting: 507 with the reason
  const owner = String(auth.accountId);
  await exports.store.checkRoom(owner);
  const deliveryWindowMs = deps.limits?.deliveryWindowMs ?? HTTP_LIMIT_DEFAULTS.deliveryWindowMs;
  const release = await deps.admission.acquire(gone, { areaKm2: request.areaKm2, export: true });
  try {
    await deps.readiness.untilServable();
    const premium = await requestPremiumAccess(request, auth, deps.accounts, deps.pipeline.premiumStorePath);
    // a polygon outside the OSM data is not empty where a premium dataset the caller may use covers it
    const unpaid = await noSourceDataWarning(request, deps.pipeline, premium.allowed); // an empty file is not charged
    const reservation = metered(await deps.accounts.reserve(auth, request.areaKm2, { free: unpaid !== null }), deps.metrics);
    let stored: StoredExport;
    let socket: Socket | null = null;
    try {
      const built = await buildAndStore(exports.store, owner, () => runExport(request, plan, deps.pipeline, gone, { premiumDatasets: premium.allowed }));
      const result = built.result;
      stored = built.stored;
      deps.metrics?.exportStored(stored.size);
      release(true);
      if (gone.aborted) throw gone.reason;
      const downloadUrl = `${publicOrigin(req, { publicBaseUrl: exports.publicBaseUrl, trustedProxies: deps.trustedProxies })}/v1/exports/${stored.token}/${encodeURIComponent(stored.name)}`;
      const warnings = [...(unpaid ? [unpaid] : []), ...result.summary.warnings];
      // Charged before the link is written: a crash after the client has its link must not leave it
      // free; if the answer does not get out, the charge is refunded below.
      await reservation.commit();
      socket = res.socket;
      holdClosingConnection(res, deliveryWindowMs);
      await sendAndConfirm(res, () =>
        sendJson(
          res,
          200,
          { downloadUrl, spatialReference: plan.spatialReference, warnings, dataAccess: premium.dataAccess },
          { 'x-cost-km2': reservation.costKm2.toFixed(4) },
        ),
      );
    } catch (err) {
      // not charged yet: released; charged already (the answer did not get out): refunded
      try {
        if (!(await reservation.release(gone.aborted ? 'aborted' : 'failed'))) await reservation.refund();
      } catch (lost) {
        // the accounts store is unreachable: the hold is left to this node's stale sweep
        deps.log(`export: the reservation could not be released now (${(lost as Error).message})`);
      }
      deps.log(`export ${plan.format} ${gone.aborted ? 'aborted' : 'failed'} after ${(performance.now() - started).toFixed(0)} ms: ${(err as Error)?.message}`);
      if (!gone.aborted) throw err; // the error body; a client that left gets nothing
      res.destroy();
      return;
    }
    watchDelivery(socket, deliveryWindowMs, (err) => {
      void reservation.refund().then(
        (refunded) => refunded && deps.log(`export refunded: the connection failed right after the answer (${err.message})`),
        (failed) => deps.log(`export refund failed: ${(failed as Error).message}`),
      );
    });
    deps.log(`export 200 ${plan.format} ${request.areaKm2.toFixed(3)} km² ${stored.size} bytes ${(performance.now() - started).toFixed(0)} ms`);
  } finally {
    release();
  }
}
