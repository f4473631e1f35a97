/**
 * classifySurfaceArea over random tags (keys and values of the area rules, placement tags, lists,
 * capitals and spaces, junk): no kind or a valid one at a priority from the table; decidedBy only
 * names tags of the area; tag order never matters; tunnels and negative layers are never ground.
 * The table case by case is in test/unit/geometry/surfaces/classify/rules.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { SURFACE_KINDS } from '../../../../../src/geometry/surfaces/types.ts';
import { SURFACE_PRIORITY, URBAN_LANDUSE_PRIORITY } from '../../../../../src/geometry/surfaces/priority.ts';
import { AREA_RULES, AREA_RULE_KEYS, classifySurfaceArea, notGroundReason } from '../../../../../src/geometry/surfaces/classify/index.ts';

const PLACEMENT_KEYS = ['layer', 'tunnel', 'bridge', 'location', 'parking', 'level', 'indoor', 'covered', 'area', 'man_made', 'name'];
const KEYS = [...new Set([...AREA_RULE_KEYS, ...PLACEMENT_KEYS])];
const RULE_VALUES = [...new Set(AREA_RULES.flatMap((r) => (r.values === '*' ? [] : [...r.values])))];
const VALUE = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...RULE_VALUES) },
  {
    weight: 2,
    arbitrary: fc.constantFrom('yes', 'no', '-1', '-2', '1', '0', 'underground', 'roof', 'surface', 'underground;indoor', '-1;0', 'coastline', 'construction'),
  },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...RULE_VALUES), fc.constantFrom(...RULE_VALUES)).map(([a, b]) => `${a};${b}`) },
  { weight: 1, arbitrary: fc.constantFrom(...RULE_VALUES).map((v) => ` ${v.toUpperCase()} `) },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
);
const KEY = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...KEYS) }, { weight: 1, arbitrary: fc.string({ maxLength: 6 }) });
const TAGS = fc.dictionary(KEY, VALUE, { maxKeys: 6 });

test('property: any tags give no kind, or a valid kind with a priority from the table', () => {
  fc.assert(
    fc.property(TAGS, (tags) => {
      const got = classifySurfaceArea(tags);
      if (got === null) return;
      assert.ok((SURFACE_KINDS as readonly string[]).includes(got.kind), got.kind);
      assert.ok(got.priority === SURFACE_PRIORITY[got.kind] || got.priority === URBAN_LANDUSE_PRIORITY, `${got.kind} at ${got.priority}`);
    }),
    { numRuns: 5000 },
  );
});

test('property: every decidedBy entry is a tag of the area, as tagged; there is always at least one', () => {
  fc.assert(
    fc.property(TAGS, (tags) => {
      const got = classifySurfaceArea(tags);
      if (got === null) return;
      const entries = Object.entries(got.decidedBy);
      assert.ok(entries.length > 0);
      for (const [k, v] of entries) {
        assert.ok(Object.hasOwn(tags, k), `${k} is not a tag of ${JSON.stringify(tags)}`);
        assert.equal(tags[k], v);
      }
    }),
    { numRuns: 5000 },
  );
});

test('property: the answer does not depend on tag order; tunnels and negative layers are never ground', () => {
  fc.assert(
    fc.property(TAGS, (tags) => {
      const reversed = Object.fromEntries(Object.entries(tags).reverse());
      assert.deepEqual(classifySurfaceArea(reversed), classifySurfaceArea(tags));
      assert.equal(classifySurfaceArea({ ...tags, tunnel: 'yes' }), null);
      assert.equal(classifySurfaceArea({ ...tags, location: 'underground' }), null);
      const buried = { ...tags, layer: '-1' };
      if (notGroundReason(buried) !== null) assert.equal(classifySurfaceArea(buried), null);
    }),
    { numRuns: 2000 },
  );
});
