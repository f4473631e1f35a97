import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TrustedProxies, trustedProxiesFromEnv } from '../../../src/server/trusted-proxies.ts';

test('CITY_TRUSTED_PROXIES: addresses and CIDR ranges, IPv4-mapped peers matched as IPv4; none by default', () => {
  const proxies = trustedProxiesFromEnv({ CITY_TRUSTED_PROXIES: '10.0.0.0/8, 192.168.1.7, fd00::/8' });
  assert.equal(proxies.trusts('10.20.30.40'), true);
  assert.equal(proxies.trusts('::ffff:10.1.2.3'), true);
  assert.equal(proxies.trusts('192.168.1.7'), true);
  assert.equal(proxies.trusts('192.168.1.8'), false);
  assert.equal(proxies.trusts('fd12::1'), true);
  assert.equal(proxies.trusts('2001:db8::1'), false);
  assert.equal(proxies.trusts(undefined), false);
  assert.equal(trustedProxiesFromEnv({}).trusts('127.0.0.1'), false);
  assert.throws(() => new TrustedProxies(['proxy.local']), /CITY_TRUSTED_PROXIES/);
  assert.throws(() => new TrustedProxies(['10.0.0.0/33']), /prefix/);
});
