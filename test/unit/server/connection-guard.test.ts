import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addressKey } from '../../../src/server/connection-guard.ts';

test('connections count per IPv4 address and per IPv6 /64, however the address is written', () => {
  assert.equal(addressKey('192.0.2.1'), '192.0.2.1');
  assert.equal(addressKey('::ffff:192.0.2.1'), '192.0.2.1');
  assert.equal(addressKey('2001:db8:1:2::1'), addressKey('2001:0db8:0001:0002:ffff:1:2:3'));
  assert.notEqual(addressKey('2001:db8:1:2::1'), addressKey('2001:db8:1:3::1'));
  assert.equal(addressKey('::1'), '0:0:0:0::/64');
  assert.equal(addressKey('fe80::1%eth0'), 'fe80:0:0:0::/64');
});
