/** The byte filter that cuts top-level members out of a JSON stream, over generated documents and chunkings. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { JsonMemberFilter } from '../../../../src/sources/premium/json-member-filter.ts';

async function filtered(text: string, drop: string[], cuts: number[]): Promise<string> {
  const filter = new JsonMemberFilter(new Set(drop));
  const bytes = Buffer.from(text, 'utf8');
  const parts: Buffer[] = [];
  filter.on('data', (b: Buffer) => parts.push(b));
  const ends = [...new Set(cuts.map((c) => Math.floor(c * bytes.length)))].sort((a, b) => a - b);
  let at = 0;
  for (const end of [...ends, bytes.length]) {
    if (end > at) filter.write(bytes.subarray(at, end));
    at = Math.max(at, end);
  }
  filter.end();
  await new Promise((resolve) => filter.on('end', resolve));
  return Buffer.concat(parts).toString('utf8');
}

const KEYS = ['CityObjects', 'vertices', 'type', 'a"b', 'x\\\\y', 'métadonnées', 'vertices2'];

test('property: dropped members read back as null, everything else unchanged, however the bytes are chunked', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.dictionary(fc.constantFrom(...KEYS), fc.jsonValue({ maxDepth: 3 })),
      fc.subarray(['CityObjects', 'vertices', 'a"b']),
      fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 }),
      fc.constantFrom(0, 2),
      async (doc, drop, cuts, indent) => {
        const text = JSON.stringify(doc, null, indent);
        const expected = Object.fromEntries(Object.entries(doc).map(([k, v]) => [k, drop.includes(k) ? null : v]));
        assert.deepEqual(JSON.parse(await filtered(text, drop, cuts)), JSON.parse(JSON.stringify(expected)));
      },
    ),
  );
});

test('nested members of the same name are kept; only the top level is cut', async () => {
  const text = '{"a":{"vertices":[1,2]},"vertices":[[1,2,3],[4,5,6]],"b":"vertices"}';
  assert.equal(await filtered(text, ['vertices'], [0.3, 0.31, 0.6]), '{"a":{"vertices":[1,2]},"vertices":null,"b":"vertices"}');
});
