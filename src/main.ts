/**
 * `npm start`: runs the service on the embedded Monaco sample with no configuration.
 * Environment: HOST, PORT, CITY_DATA_DIR and the CITY_* settings in src/config.ts.
 */
import { loadConfig, storePaths } from './config.ts';
import { startService } from './service.ts';

const config = loadConfig();
const service = await startService(config);
const keyFile = storePaths(config.dataDir).demoKey;
if (service.demo) {
  console.log(`Created a demo account with a development key (shown once, also saved to ${keyFile}):\n  ${service.demo.key}`);
}
console.log(`City Context listening on ${service.url} (data in ${config.dataDir}, ${config.workers} workers)`);
console.log(`Try it:\n  curl -s ${service.url}/v1/context -H "Authorization: Bearer $(cat ${keyFile})" -H 'content-type: application/json' \\
    -d '{"polygon":[[43.7325,7.4165],[43.7325,7.4215],[43.7365,7.4215],[43.7365,7.4165],[43.7325,7.4165]],"settings":{"geometry":["buildings"]}}'`);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    console.log(`${signal}: closing…`);
    service.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
