/**
 * A small .osm.pbf writer (fileformat.proto / osmformat.proto field numbers): writes an OSMHeader
 * block (OsmSchema-V0.6 and DenseNodes required features), then zlib-compressed OSMData blocks of
 * dense nodes, then ways, then relations, each kind in id order as given, at the default
 * granularity (1e-7 degrees, no offsets). No metadata (versions, timestamps, users) and no
 * LocationsOnWays. By default each entity kind goes into one block; `blockSize` splits them into
 * blocks of at most that many entities, as real extracts do (8,000 is the customary size).
 *
 * Used for synthetic extracts: the dense-city benchmark (test/support/generators/dense-city.ts) and the tests,
 * which also use the lower-level pieces (`message`, `fileBlock`, `StringTable`, `delta`) to
 * hand-write unusual files.
 */
import { deflateSync } from 'node:zlib';
import Pbf from 'pbf';

export interface NodeInput {
  id: number;
  lon: number;
  lat: number;
  tags?: Record<string, string>;
}
export interface WayInput {
  id: number;
  tags: Record<string, string>;
  refs: number[];
}
export interface RelationInput {
  id: number;
  tags: Record<string, string>;
  members: { type: 'node' | 'way' | 'relation'; ref: number; role: string }[];
}

export interface OsmPbfData {
  nodes: NodeInput[];
  ways: WayInput[];
  relations: RelationInput[];
}

export interface WriteOsmPbfOptions {
  /** Most entities per OSMData block (default: one block per entity kind). */
  blockSize?: number;
  /** `writingprogram` of the header block. */
  writingProgram?: string;
}

/** One protobuf message. */
export function message(write: (pbf: Pbf) => void): Uint8Array {
  const pbf = new Pbf();
  write(pbf);
  return pbf.finish();
}

/** One file block: length, BlobHeader, Blob (raw, zlib, or an unsupported compression field). */
export function fileBlock(type: string, payload: Uint8Array, compression: 'raw' | 'zlib' | 'zstd' = 'zlib'): Buffer {
  const blob = message((pbf) => {
    if (compression === 'raw') pbf.writeBytesField(1, payload);
    else {
      pbf.writeVarintField(2, payload.length);
      pbf.writeBytesField(compression === 'zlib' ? 3 : 7, compression === 'zlib' ? deflateSync(payload) : payload);
    }
  });
  const header = message((pbf) => {
    pbf.writeStringField(1, type);
    pbf.writeVarintField(3, blob.length);
  });
  const length = Buffer.alloc(4);
  length.writeUInt32BE(header.length);
  return Buffer.concat([length, header, blob]);
}

/** A block's string table: index 0 is the empty string, each other string is stored once. */
export class StringTable {
  readonly strings = [''];
  private readonly ids = new Map<string, number>([['', 0]]);
  id(s: string): number {
    let i = this.ids.get(s);
    if (i === undefined) {
      i = this.strings.push(s) - 1;
      this.ids.set(s, i);
    }
    return i;
  }
}

/** Delta coding as in DenseNodes and refs: first value as is, then differences. */
export const delta = (values: number[]) => values.map((v, i) => v - (i > 0 ? values[i - 1] : 0));

function primitiveBlock(group: (pbf: Pbf, st: StringTable) => void): Uint8Array {
  const st = new StringTable();
  const body = message((pbf) => group(pbf, st));
  return message((pbf) => {
    pbf.writeMessage(1, (strings: string[], p: Pbf) => strings.forEach((s) => p.writeStringField(1, s)), st.strings);
    pbf.writeBytesField(2, body);
  });
}

const MEMBER_TYPE = { node: 0, way: 1, relation: 2 } as const;

function chunks<T>(items: T[], size: number): T[][] {
  if (items.length === 0) return [];
  if (!(size > 0) || size >= items.length) return [items];
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function nodesBlock(nodes: NodeInput[]): Buffer {
  return fileBlock(
    'OSMData',
    primitiveBlock((pbf, st) =>
      pbf.writeMessage(
        2,
        (_: null, p: Pbf) => {
          p.writePackedSVarint(1, delta(nodes.map((n) => n.id)));
          p.writePackedSVarint(8, delta(nodes.map((n) => Math.round(n.lat * 1e7))));
          p.writePackedSVarint(9, delta(nodes.map((n) => Math.round(n.lon * 1e7))));
          const kv: number[] = [];
          for (const n of nodes) {
            for (const [k, v] of Object.entries(n.tags ?? {})) kv.push(st.id(k), st.id(v));
            kv.push(0);
          }
          p.writePackedVarint(10, kv);
        },
        null,
      ),
    ),
  );
}

function waysBlock(ways: WayInput[]): Buffer {
  return fileBlock(
    'OSMData',
    primitiveBlock((pbf, st) => {
      for (const w of ways) {
        pbf.writeMessage(
          3,
          (_: null, p: Pbf) => {
            p.writeVarintField(1, w.id);
            p.writePackedVarint(
              2,
              Object.keys(w.tags).map((k) => st.id(k)),
            );
            p.writePackedVarint(
              3,
              Object.values(w.tags).map((v) => st.id(v)),
            );
            p.writePackedSVarint(8, delta(w.refs));
          },
          null,
        );
      }
    }),
  );
}

function relationsBlock(relations: RelationInput[]): Buffer {
  return fileBlock(
    'OSMData',
    primitiveBlock((pbf, st) => {
      for (const r of relations) {
        pbf.writeMessage(
          4,
          (_: null, p: Pbf) => {
            p.writeVarintField(1, r.id);
            p.writePackedVarint(
              2,
              Object.keys(r.tags).map((k) => st.id(k)),
            );
            p.writePackedVarint(
              3,
              Object.values(r.tags).map((v) => st.id(v)),
            );
            p.writePackedVarint(
              8,
              r.members.map((m) => st.id(m.role)),
            );
            p.writePackedSVarint(9, delta(r.members.map((m) => m.ref)));
            p.writePackedVarint(
              10,
              r.members.map((m) => MEMBER_TYPE[m.type]),
            );
          },
          null,
        );
      }
    }),
  );
}

/** The file bytes: header, then the node, way and relation blocks (none for an empty kind). */
export function writeOsmPbf(data: OsmPbfData, options: WriteOsmPbfOptions = {}): Buffer {
  const header = message((pbf) => {
    pbf.writeStringField(4, 'OsmSchema-V0.6');
    pbf.writeStringField(4, 'DenseNodes');
    pbf.writeStringField(16, options.writingProgram ?? 'city-context pbf-writer');
  });
  const size = options.blockSize ?? Infinity;
  return Buffer.concat([
    fileBlock('OSMHeader', header),
    ...chunks(data.nodes, size).map(nodesBlock),
    ...chunks(data.ways, size).map(waysBlock),
    ...chunks(data.relations, size).map(relationsBlock),
  ]);
}
