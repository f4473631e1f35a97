/**
 * A minimal .osm.pbf writer for synthetic test extracts (fileformat.proto / osmformat.proto field
 * numbers, as in test/osm-pbf.test.ts): one zlib block each of dense nodes, ways and relations,
 * default granularity (1e-7 degrees).
 */
import { deflateSync } from 'node:zlib';
import Pbf from 'pbf';

export interface NodeInput { id: number; lon: number; lat: number; tags?: Record<string, string> }
export interface WayInput { id: number; tags: Record<string, string>; refs: number[] }
export interface RelationInput {
  id: number;
  tags: Record<string, string>;
  members: { type: 'node' | 'way' | 'relation'; ref: number; role: string }[];
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

/** The file bytes: header, then one block per non-empty entity kind. */
export function writeOsmPbf(data: { nodes: NodeInput[]; ways: WayInput[]; relations: RelationInput[] }): Buffer {
  const header = message((pbf) => {
    pbf.writeStringField(4, 'OsmSchema-V0.6');
    pbf.writeStringField(4, 'DenseNodes');
    pbf.writeStringField(16, 'osm-pbf-writer (test)');
  });
  const blocks = [fileBlock('OSMHeader', header)];
  if (data.nodes.length > 0) {
    blocks.push(fileBlock('OSMData', primitiveBlock((pbf, st) =>
      pbf.writeMessage(2, (_: null, p: Pbf) => {
        p.writePackedSVarint(1, delta(data.nodes.map((n) => n.id)));
        p.writePackedSVarint(8, delta(data.nodes.map((n) => Math.round(n.lat * 1e7))));
        p.writePackedSVarint(9, delta(data.nodes.map((n) => Math.round(n.lon * 1e7))));
        const kv: number[] = [];
        for (const n of data.nodes) {
          for (const [k, v] of Object.entries(n.tags ?? {})) kv.push(st.id(k), st.id(v));
          kv.push(0);
        }
        p.writePackedVarint(10, kv);
      }, null))));
  }
  if (data.ways.length > 0) {
    blocks.push(fileBlock('OSMData', primitiveBlock((pbf, st) => {
      for (const w of data.ways) {
        pbf.writeMessage(3, (_: null, p: Pbf) => {
          p.writeVarintField(1, w.id);
          p.writePackedVarint(2, Object.keys(w.tags).map((k) => st.id(k)));
          p.writePackedVarint(3, Object.values(w.tags).map((v) => st.id(v)));
          p.writePackedSVarint(8, delta(w.refs));
        }, null);
      }
    })));
  }
  if (data.relations.length > 0) {
    blocks.push(fileBlock('OSMData', primitiveBlock((pbf, st) => {
      for (const r of data.relations) {
        pbf.writeMessage(4, (_: null, p: Pbf) => {
          p.writeVarintField(1, r.id);
          p.writePackedVarint(2, Object.keys(r.tags).map((k) => st.id(k)));
          p.writePackedVarint(3, Object.values(r.tags).map((v) => st.id(v)));
          p.writePackedVarint(8, r.members.map((m) => st.id(m.role)));
          p.writePackedSVarint(9, delta(r.members.map((m) => m.ref)));
          p.writePackedVarint(10, r.members.map((m) => MEMBER_TYPE[m.type]));
        }, null);
      }
    })));
  }
  return Buffer.concat(blocks);
}
