/**
 * `npm start`: runs the service on the embedded Monaco sample with no configuration.
 * Environment: HOST, PORT, CITY_DATA_DIR and the CITY_* settings in src/config.ts.
 *
 * Listens before anything else is loaded (server/early-listener.ts): the service's own code is
 * imported after, and the warm-up runs behind the listening server (`GET /readyz`).
 */
import { listenEarly, listenAddressFromEnv, listenFailure } from './server/early-listener.ts';
import { httpLimitsFromEnv } from './server/http-limits.ts';
import { trustedProxiesFromEnv } from './server/trusted-proxies.ts';

const early = await (async () => {
  try {
    const address = listenAddressFromEnv(process.env);
    return await listenEarly(address, httpLimitsFromEnv(process.env), trustedProxiesFromEnv(process.env)).catch((err: NodeJS.ErrnoException) => {
      throw new Error(listenFailure(err, address));
    });
  } catch (err) {
    // Before any of the service's code is loaded: one line an operator can act on, not a stack.
    console.error(`City Context cannot start: ${(err as Error).message}`);
    process.exit(1);
  }
})();
const { loadConfig, storePaths } = await import('./config.ts');
const { startService } = await import('./service.ts');
const { lineLogger } = await import('./server/log-line.ts');
const config = loadConfig();
const log = lineLogger(config.logFormat);
const service = await startService(config, log, early);
const keyFile = storePaths(config.dataDir).demoKey;
if (service.demo) {
  log(`Created a demo account with a development key (shown once, also saved to ${keyFile}):\n  ${service.demo.key}`);
}
log(`City Context listening on ${service.url} (data in ${config.dataDir}, ${config.workers} workers); warming up, GET /readyz says when done`);
log(`Try it:\n  curl -s ${service.url}/v1/context -H "Authorization: Bearer $(cat ${keyFile})" -H 'content-type: application/json' \\
    -d '{"polygon":[[43.7325,7.4165],[43.7325,7.4215],[43.7365,7.4215],[43.7365,7.4165],[43.7325,7.4165]],"settings":{"geometry":["buildings"]}}'`);
service.ready.catch((err: Error) => {
  console.error(`Start-up failed: ${err.stack ?? err.message}`);
  process.exit(1);
});

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    log(`${signal}: closing… (requests in progress get ${config.shutdownGraceMs} ms to finish)`);
    service.shutdown(config.shutdownGraceMs).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
