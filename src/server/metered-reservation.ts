import { costM2ForArea, type Reservation } from '../accounts/index.ts';
import type { ServiceMetrics } from './metrics.ts';

/**
 * `reservation`, with what it reserves, charges, releases and refunds counted in `metrics`
 * (km² by ledger event). Counted in the handler's process, where the ledger call returned true,
 * so a row settled by another process is not counted twice.
 */
export function metered(reservation: Reservation, metrics: ServiceMetrics | undefined): Reservation {
  if (!metrics) return reservation;
  // The hold is the usual cost even for a free request; the charge is what the commit takes.
  const held = costM2ForArea(reservation.areaKm2) / 1e6;
  metrics.km2('reserved', held);
  const commit = reservation.commit.bind(reservation);
  const release = reservation.release.bind(reservation);
  const refund = reservation.refund.bind(reservation);
  let charged = false;
  return Object.assign(reservation, {
    async commit(): Promise<boolean> {
      const done = await commit();
      if (done) {
        charged = true;
        metrics.km2('charged', reservation.costKm2);
      }
      return done;
    },
    async release(status?: Parameters<Reservation['release']>[0]): Promise<boolean> {
      const done = await release(status);
      if (done) metrics.km2('released', held);
      return done;
    },
    async refund(): Promise<boolean> {
      const done = await refund();
      if (done && charged) metrics.km2('refunded', reservation.costKm2);
      return done;
    },
  });
}
