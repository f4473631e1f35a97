import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { createApp } from '../../src/server/app.ts';
import type { ContextDeps } from '../../src/server/context-handler.ts';

test('a client that goes away mid-body is logged as one short abort line, not as an internal error', async () => {
  const lines: string[] = [];
  const requestLines: string[] = [];
  let logged!: () => void;
  const seen = new Promise<void>((resolve) => {
    logged = resolve;
  });
  // The body is never complete, so nothing past reading it (admission, pool) is reached; the key is checked before it.
  const accounts = { authenticate: () => ({ keyId: 1, accountId: 1, kind: 'production' }), assertCanPay: () => {} };
  const deps = {
    accounts,
    maxBodyBytes: 1 << 20,
    gzipLevel: 1,
    log: (line: string) => {
      // the request's own JSON line (access-log.ts) comes apart from the abort line
      if (line.startsWith('{')) return requestLines.push(line);
      lines.push(line);
      logged();
    },
  } as unknown as ContextDeps;
  const server = createApp(deps);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    await once(socket, 'connect');
    socket.write('POST /v1/context HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"polygon":');
    await new Promise((r) => setTimeout(r, 50));
    socket.destroy();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      seen,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('nothing logged')), 5000);
      }),
    ]);
    clearTimeout(timer);
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(lines[0], /^POST \/v1\/context aborted by the client/);
    assert.doesNotMatch(lines[0], /internal error|\n| {4}at /);
    for (let i = 0; requestLines.length === 0 && i < 500; i++) await new Promise((r) => setTimeout(r, 10));
    const entry = JSON.parse(requestLines[0]);
    assert.deepEqual([entry.route, entry.status, entry.complete, entry.code, entry.accountId], ['/v1/context', 0, false, 'incomplete', 1]);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
