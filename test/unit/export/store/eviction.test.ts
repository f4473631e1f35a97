import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { planRoom, roomFor, type SizedEntry } from '../../../../src/export/store/eviction.ts';

const NOW = 1_000_000;
const caps = (maxBytes: number, accountMaxBytes = maxBytes) => ({ maxBytes, accountMaxBytes });

test('planRoom: expired files first, then the owner’s own oldest; another account’s live file never', () => {
  const e: SizedEntry[] = [
    { token: 'a1', size: 5, createdAt: 1, owner: 'A', expiresAt: NOW + 10 },
    { token: 'b1', size: 5, createdAt: 2, owner: 'B', expiresAt: NOW + 20 },
    { token: 'b2', size: 5, createdAt: 3, owner: 'B', expiresAt: NOW + 30 },
    { token: 'x', size: 5, createdAt: 0, owner: 'A', expiresAt: NOW - 1 },
  ];
  // B's third file under a 15-byte cap: B's oldest goes, A's older one stays
  assert.deepEqual(planRoom(e, caps(15), 5, 'B', NOW), { evict: ['x', 'b1'], fits: true, nextExpiry: null });
  // A's file under the same cap: B's files are not A's to evict, and A's own is not enough
  assert.deepEqual(planRoom(e, caps(15), 10, 'A', NOW), { evict: ['x', 'a1'], fits: false, nextExpiry: NOW + 20 });
  // a quota per account: B may hold 8 bytes, so both its files go for a new 5
  assert.deepEqual(planRoom(e, caps(100, 8), 5, 'B', NOW).evict, ['x', 'b1', 'b2']);
  assert.equal(roomFor(e, caps(15), 'A', NOW), 5);
  assert.equal(roomFor(e, caps(15), 'C', NOW), 0);
  assert.equal(roomFor(e, caps(100, 8), 'C', NOW), 8);
});

test('planRoom (property): never evicts another owner’s live file; when it fits, the owner’s quota and the cap hold', () => {
  const entry = fc.record({
    token: fc.uuid(),
    size: fc.integer({ min: 0, max: 50 }),
    createdAt: fc.integer({ min: 0, max: 100 }),
    owner: fc.constantFrom('A', 'B', 'C', ''),
    expiresAt: fc.option(fc.integer({ min: NOW - 50, max: NOW + 50 }), { nil: undefined }),
  });
  fc.assert(
    fc.property(
      fc.uniqueArray(entry, { selector: (e) => e.token, maxLength: 20 }),
      fc.integer({ min: 1, max: 300 }),
      fc.integer({ min: 1, max: 300 }),
      fc.integer({ min: 0, max: 60 }),
      fc.constantFrom('A', 'B', ''),
      (entries, maxBytes, accountMax, incoming, owner) => {
        const c = caps(maxBytes, Math.min(maxBytes, accountMax));
        const plan = planRoom(entries, c, incoming, owner, NOW);
        const gone = new Set(plan.evict);
        const live = (x: SizedEntry) => x.expiresAt === undefined || x.expiresAt > NOW;
        for (const x of entries) if (gone.has(x.token) && live(x)) assert.equal(x.owner, owner, 'only the owner’s own live files');
        const kept = entries.filter((x) => !gone.has(x.token));
        const total = kept.reduce((n, x) => n + x.size, incoming);
        const own = kept.filter((x) => x.owner === owner).reduce((n, x) => n + x.size, incoming);
        if (plan.fits) assert.ok(total <= c.maxBytes && own <= c.accountMaxBytes);
        else assert.ok(incoming > roomFor(entries, c, owner, NOW), 'refused only when the others leave too little room');
      },
    ),
  );
});
