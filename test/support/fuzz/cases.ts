/**
 * Generated requests for `npm run fuzz`: request bodies sent as well-framed HTTP, and
 * raw byte strings that break HTTP framing on purpose. Seeded: the same seed gives the same cases.
 */
import fc from 'fast-check';
import { SPEC_SETTING_DEFAULTS } from '../arbitraries/contract.ts';

/** A well-framed POST /v1/context: any answer but a JSON 4xx/200 (or a reset) is a finding. */
export interface BodyCase {
  kind: 'body';
  family: string;
  body: string | Uint8Array;
  headers: Record<string, string>;
  key: 'valid' | 'none' | 'bad';
}
/** Raw bytes on a fresh connection. `broken`: the framing is broken on purpose, so a close without an answer is allowed. */
export interface RawCase {
  kind: 'raw';
  family: string;
  bytes: string;
  broken: boolean;
}
export type FuzzCase = BodyCase | RawCase;

const MONACO: [number, number] = [43.7335, 7.4195];

/** A closed square of about `side` metres around a point near Monaco. */
function square(dLat: number, dLon: number, side: number): [number, number][] {
  const [lat, lon] = [MONACO[0] + dLat, MONACO[1] + dLon];
  const h = side / 2 / 111_320,
    w = side / 2 / (111_320 * Math.cos((lat * Math.PI) / 180));
  return [
    [lat - h, lon - w],
    [lat - h, lon + w],
    [lat + h, lon + w],
    [lat + h, lon - w],
    [lat - h, lon - w],
  ];
}

const json = fc.jsonValue({ maxDepth: 3 });
const smallPolygon = fc
  .tuple(fc.double({ min: -0.004, max: 0.004, noNaN: true }), fc.double({ min: -0.004, max: 0.004, noNaN: true }), fc.integer({ min: 20, max: 120 }))
  .map(([a, b, side]) => square(a, b, side));
const SETTING_KEYS = Object.keys(SPEC_SETTING_DEFAULTS);
const odd = fc.oneof(json, fc.constantFrom(null, -1, 0, 1e308, -1e308, 'LOCAL', 'Z', [], {}, ['buildings', 'buildings'], ['x'], '\u0000', '\ud800'));

/** A body close to valid with one part replaced by something odd. */
const mutatedBody = fc
  .tuple(
    smallPolygon,
    fc.constantFrom('polygon', 'point', 'origin', 'setting', 'settings', 'export', 'exportField', 'root'),
    odd,
    fc.constantFrom(...SETTING_KEYS),
    fc.nat(4),
  )
  .map(([polygon, where, value, setting, point]) => {
    const body: Record<string, unknown> = { polygon, settings: { geometry: ['barriers'] } };
    if (where === 'polygon') body.polygon = value;
    else if (where === 'point') (body.polygon as unknown[])[point] = value;
    else if (where === 'origin') body.origin = value;
    else if (where === 'setting') (body.settings as Record<string, unknown>)[setting] = value;
    else if (where === 'settings') body.settings = value;
    else if (where === 'export') body.export = value;
    else if (where === 'exportField') body.export = { format: 'obj', [setting]: value };
    else return value;
    return body;
  });

const validBody = fc
  .tuple(smallPolygon, fc.constantFrom(['barriers'], ['buildings'], ['instances'], [], ['barriers', 'infrastructure']), fc.boolean())
  .map(([polygon, geometry, indexed]) => ({ polygon, settings: { geometry, indexedMeshes: indexed } }));

const listBomb = fc
  .tuple(smallPolygon, fc.integer({ min: 100, max: 300_000 }), fc.constantFrom('geometry', 'surfaceTypes'))
  .map(([polygon, n, key]) => ({ polygon, settings: { [key]: Array.from({ length: n }, (_, i) => `bad${i % 7}`) } }));

const pathological = fc.oneof(
  fc.integer({ min: 10, max: 200_000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
  fc.integer({ min: 10, max: 100_000 }).map((n) => `{"polygon":${'['.repeat(n)}`),
  fc
    .integer({ min: 1000, max: 20_000 })
    .map((n) => JSON.stringify({ polygon: Array.from({ length: n }, (_, i) => [43.73 + (i % 97) * 1e-4, 7.41 + (i % 89) * 1e-4]) })),
  fc.constantFrom(
    '',
    ' ',
    'null',
    '[]',
    '{}',
    '"x"',
    '1e999',
    '{"polygon":null}',
    '\uFEFF{}',
    '{"__proto__":{"polygon":1}}',
    '{"constructor":{"prototype":{}}}',
  ),
);

const bodyText = fc.oneof(
  { weight: 30, arbitrary: mutatedBody.map((b) => JSON.stringify(b) ?? 'undefined') },
  { weight: 10, arbitrary: json.map((b) => JSON.stringify(b)) },
  {
    weight: 8,
    arbitrary: fc.tuple(mutatedBody, fc.nat()).map(([b, cut]) => {
      const t = JSON.stringify(b) ?? '';
      return t.slice(0, cut % (t.length + 1));
    }),
  },
  { weight: 5, arbitrary: fc.string({ maxLength: 200 }) },
  { weight: 3, arbitrary: pathological },
  { weight: 1, arbitrary: listBomb.map((b) => JSON.stringify(b)) },
  { weight: 2, arbitrary: validBody.map((b) => JSON.stringify(b)) },
);

const bodyCase: fc.Arbitrary<BodyCase> = fc
  .tuple(
    fc.oneof(
      { weight: 12, arbitrary: bodyText.map((body) => ({ family: 'text', body: body as string | Uint8Array })) },
      { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((body) => ({ family: 'bytes', body: body as string | Uint8Array })) },
    ),
    fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'application/geo+json', ''),
    fc.constantFrom<'valid' | 'none' | 'bad'>('valid', 'valid', 'valid', 'valid', 'valid', 'valid', 'none', 'bad'),
    fc.constantFrom('', 'gzip', 'br', 'gzip, deflate, br'),
  )
  .map(([{ family, body }, type, key, enc]) => ({
    kind: 'body' as const,
    family: `${family}${type === 'application/json' ? '' : `/${type || 'no-type'}`}${key === 'valid' ? '' : `/key-${key}`}`,
    body,
    headers: { ...(type ? { 'content-type': type } : {}), ...(enc ? { 'accept-encoding': enc } : {}) },
    key,
  }));

const CRLF = '\r\n';
const rawCase: fc.Arbitrary<RawCase> = fc
  .oneof(
    fc.string({ maxLength: 80 }).map((line) => ({ family: 'request-line', bytes: `${line}${CRLF}${CRLF}`, broken: true })),
    fc
      .constantFrom('GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'CONNECT', 'PROPFIND', 'BREW')
      .map((m) => ({ family: 'method', bytes: `${m} /v1/context HTTP/1.1${CRLF}Host: x${CRLF}Content-Length: 0${CRLF}${CRLF}`, broken: false })),
    fc.string({ maxLength: 60 }).map((p) => ({ family: 'path', bytes: `GET /${encodeURI(p)} HTTP/1.1${CRLF}Host: x${CRLF}${CRLF}`, broken: false })),
    fc
      .constantFrom(
        `POST /v1/context HTTP/1.1${CRLF}Host: x${CRLF}Content-Length: 5${CRLF}Content-Length: 6${CRLF}${CRLF}hello`,
        `POST /v1/context HTTP/1.1${CRLF}Host: x${CRLF}Content-Length: 5${CRLF}Transfer-Encoding: chunked${CRLF}${CRLF}0${CRLF}${CRLF}`,
        `POST /v1/context HTTP/1.1${CRLF}Host: x${CRLF}Transfer-Encoding: chunked${CRLF}${CRLF}zz${CRLF}hello${CRLF}`,
        `POST /v1/context HTTP/1.1${CRLF}Host: x${CRLF}Content-Length: -1${CRLF}${CRLF}`,
        `POST /v1/context HTTP/1.1${CRLF}Host: x${CRLF}Content-Length: abc${CRLF}${CRLF}`,
        `GET /healthz HTTP/1.1${CRLF}Host: x${CRLF}Bad Header${CRLF}${CRLF}`,
        `GET /healthz HTTP/1.1${CRLF}Host: x${CRLF}X: a\u0000b${CRLF}${CRLF}`,
        `GET /healthz HTTP/1.1${CRLF}Host: x${CRLF} folded${CRLF}${CRLF}`,
        `GET /healthz HTTP/9.9${CRLF}${CRLF}`,
        `PRI * HTTP/2.0${CRLF}${CRLF}SM${CRLF}${CRLF}`,
        `GET /healthz HTTP/1.1${CRLF}Host: x${CRLF}X-Big: ${'a'.repeat(70_000)}${CRLF}${CRLF}`,
      )
      .map((bytes) => ({ family: 'framing', bytes, broken: true })),
    fc
      .constantFrom(
        `GET /healthz HTTP/1.0${CRLF}${CRLF}`,
        `GET /healthz HTTP/1.1\nHost: x\n\n`,
        `GET http://example.com/healthz HTTP/1.1${CRLF}Host: x${CRLF}${CRLF}`,
        `GET /healthz HTTP/1.1${CRLF}Host: x${CRLF}${CRLF}GET /v1/openapi.json HTTP/1.1${CRLF}Host: x${CRLF}Connection: close${CRLF}${CRLF}`,
        `HEAD /v1/context HTTP/1.1${CRLF}Host: x${CRLF}${CRLF}`,
        `POST /v1/context HTTP/1.1${CRLF}Host: x${CRLF}Expect: 100-continue${CRLF}Content-Length: 2${CRLF}${CRLF}{}`,
      )
      .map((bytes) => ({ family: 'odd-but-valid', bytes, broken: false })),
  )
  .map((c) => ({ kind: 'raw' as const, ...c }));

/** 9 in 10 cases are bodies, 1 in 10 raw requests. */
const fuzzCase: fc.Arbitrary<FuzzCase> = fc.oneof({ weight: 9, arbitrary: bodyCase }, { weight: 1, arbitrary: rawCase });

/** `count` cases from `seed`, generated in batches as they are consumed. */
export function* fuzzCases(seed: number, count: number): Generator<FuzzCase> {
  const batch = 500;
  for (let done = 0, b = 0; done < count; b++) {
    const n = Math.min(batch, count - done);
    for (const c of fc.sample(fuzzCase, { seed: seed + b, numRuns: n })) yield c;
    done += n;
  }
}
