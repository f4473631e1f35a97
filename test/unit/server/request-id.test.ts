import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { test } from 'node:test';
import { assignRequestId, requestIdOf } from '../../../src/server/request-id.ts';
import { TrustedProxies } from '../../../src/server/trusted-proxies.ts';

function exchange(peer: string, incoming?: string) {
  const headers: Record<string, string> = {};
  const req = { headers: incoming === undefined ? {} : { 'x-request-id': incoming }, socket: { remoteAddress: peer } } as unknown as IncomingMessage;
  const res = { setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = value) } as unknown as ServerResponse;
  return { req, res, headers };
}

const proxies = new TrustedProxies(['10.0.0.0/8']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test("a trusted proxy's request id is kept and echoed", () => {
  const { req, res, headers } = exchange('::ffff:10.1.2.3', 'lb-7f3a:42');
  assert.equal(assignRequestId(req, res, proxies), 'lb-7f3a:42');
  assert.equal(headers['x-request-id'], 'lb-7f3a:42');
  assert.equal(requestIdOf(req), 'lb-7f3a:42');
});

test('anyone else gets a new id, whatever they send; so does a proxy sending one that could forge a log line', () => {
  for (const [peer, sent] of [
    ['192.0.2.1', 'lb-7f3a:42'],
    ['10.0.0.1', 'two words'],
    ['10.0.0.1', '"},{"admin":true'],
    ['10.0.0.1', 'x'.repeat(129)],
    ['10.0.0.1', undefined],
  ] as const) {
    const { req, res, headers } = exchange(peer, sent);
    const id = assignRequestId(req, res, proxies);
    assert.match(id, UUID, `${peer} ${sent}`);
    assert.equal(headers['x-request-id'], id);
  }
  const { req, res } = exchange('10.0.0.1', 'lb-1');
  assert.match(assignRequestId(req, res), UUID, 'no trusted proxies configured: never kept');
});
