import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hasKindColour, kindColour } from '../../../../src/export/formats/palette.ts';
import { BARRIER_DEFAULTS } from '../../../../src/geometry/barriers/defaults.ts';
import { NOMINAL_HEIGHT } from '../../../../src/geometry/instances/catalogue.ts';
import { modelKeys } from '../../../../src/geometry/instances/models/index.ts';
import { SURFACE_KINDS } from '../../../../src/geometry/surfaces/types.ts';

/** Every kind the pipeline hands the writers: mesh types, node types, model keys, linework kinds. */
const EMITTED = [
  'building',
  'terrain',
  ...SURFACE_KINDS,
  ...BARRIER_DEFAULTS.map((b) => b.kind),
  ...Object.keys(NOMINAL_HEIGHT),
  ...modelKeys(),
  'centerline',
  'outline',
];

test('the palette has a colour of its own for every kind the pipeline emits (surface, barrier and node kinds, every shared model), each a valid sRGB', () => {
  const missing = EMITTED.filter((k) => !hasKindColour(k));
  assert.deepEqual(missing, [], 'kinds drawn in the grey of unknown kinds');
  for (const k of EMITTED) assert.ok(kindColour(k).every((c) => c >= 0 && c <= 1) && kindColour(k).length === 3, k);
  assert.equal(hasKindColour('noSuchKind'), false);
  assert.deepEqual(kindColour('noSuchKind'), [0.6, 0.6, 0.6]);
});

test('vegetation is green in the palette (hedges included), water blue, so every writer draws them so', () => {
  const green = ['grass', 'manicuredGrass', 'garden', 'pitch', 'forest', 'shrubbery', 'hedge', 'tree', ...modelKeys().filter((k) => k.startsWith('tree-'))];
  for (const k of green) {
    const [r, g, b] = kindColour(k);
    assert.ok(g > r && g > b, `${k}: ${kindColour(k)} is green`);
  }
  const [r, g, b] = kindColour('water');
  assert.ok(b > r && b > g, 'water is blue');
});
