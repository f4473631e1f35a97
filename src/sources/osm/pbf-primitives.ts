/**
 * Decodes one OSMData block (osmformat.proto PrimitiveBlock) into nodes, ways and relations.
 * Coordinates come out as integers in 1e-7 degrees (the OSM database precision), with the
 * block's granularity and offsets applied; ids and refs are delta-decoded.
 */
import Pbf from 'pbf';
import type { OsmTags } from '../../osm-model/feature.ts';

/** All nodes of a block as parallel arrays (nodes are by far the most numerous entity). */
export interface NodeBatch {
  ids: number[];
  lat7: number[];
  lon7: number[];
  /** Tags per node, undefined for untagged nodes. */
  tags: (OsmTags | undefined)[];
}

export interface PbfWay {
  id: number;
  tags: OsmTags;
  refs: number[];
  /** Node locations stored on the way itself (the LocationsOnWays feature), same length as refs. */
  lat7?: number[];
  lon7?: number[];
}

export type PbfMemberType = 'node' | 'way' | 'relation';

export interface PbfMember {
  type: PbfMemberType;
  ref: number;
  role: string;
}

export interface PbfRelation {
  id: number;
  tags: OsmTags;
  members: PbfMember[];
}

export interface PrimitiveBlockContents {
  nodes: NodeBatch;
  ways: PbfWay[];
  relations: PbfRelation[];
}

/** Which entity kinds to decode; the others are skipped without parsing (a pass that needs only relations is fast). */
export interface DecodeSelection {
  nodes?: boolean;
  ways?: boolean;
  relations?: boolean;
}

const MEMBER_TYPES: PbfMemberType[] = ['node', 'way', 'relation'];

interface BlockContext {
  strings: string[];
  granularity: number;
  latOffset: number;
  lonOffset: number;
  /** [start, end) byte ranges of the PrimitiveGroups, read after the string table is known. */
  groups: [number, number][];
}

interface GroupState {
  ctx: BlockContext;
  select: Required<DecodeSelection>;
  out: PrimitiveBlockContents;
}

function readStringTableField(tag: number, strings: string[], pbf: Pbf): void {
  if (tag === 1) strings.push(pbf.readString());
}

function readBlockField(tag: number, ctx: BlockContext, pbf: Pbf): void {
  if (tag === 1) pbf.readMessage(readStringTableField, ctx.strings);
  else if (tag === 2) {
    const length = pbf.readVarint();
    ctx.groups.push([pbf.pos, pbf.pos + length]);
    pbf.pos += length;
  } else if (tag === 17) ctx.granularity = pbf.readVarint();
  else if (tag === 19) ctx.latOffset = pbf.readVarint(true);
  else if (tag === 20) ctx.lonOffset = pbf.readVarint(true);
}

/** Raw PBF coordinate units (granularity nanodegrees past an offset) to 1e-7 degrees. */
function toE7(raw: number, offset: number, granularity: number): number {
  return granularity === 100 && offset === 0 ? raw : Math.round((offset + granularity * raw) / 100);
}

function tagsFrom(strings: string[], keys: number[], vals: number[]): OsmTags {
  const tags: OsmTags = {};
  for (let i = 0; i < keys.length; i++) tags[strings[keys[i]]] = strings[vals[i]];
  return tags;
}

interface RawDense {
  ids: number[];
  lats: number[];
  lons: number[];
  keysVals: number[];
}

function readDenseField(tag: number, d: RawDense, pbf: Pbf): void {
  if (tag === 1) pbf.readPackedSVarint(d.ids);
  else if (tag === 8) pbf.readPackedSVarint(d.lats);
  else if (tag === 9) pbf.readPackedSVarint(d.lons);
  else if (tag === 10) pbf.readPackedVarint(d.keysVals, true);
  // tag 5 (DenseInfo: versions, timestamps, users) is skipped.
}

function addDenseNodes(d: RawDense, ctx: BlockContext, nodes: NodeBatch): void {
  const { strings, granularity, latOffset, lonOffset } = ctx;
  let id = 0,
    lat = 0,
    lon = 0,
    kv = 0;
  const hasTags = d.keysVals.length > 0;
  for (let i = 0; i < d.ids.length; i++) {
    id += d.ids[i];
    lat += d.lats[i];
    lon += d.lons[i];
    nodes.ids.push(id);
    nodes.lat7.push(toE7(lat, latOffset, granularity));
    nodes.lon7.push(toE7(lon, lonOffset, granularity));
    let tags: OsmTags | undefined;
    if (hasTags) {
      // keys_vals: (key, value) string ids per node, each node's list ended by a 0.
      while (kv < d.keysVals.length && d.keysVals[kv] !== 0) {
        tags ??= {};
        tags[strings[d.keysVals[kv]]] = strings[d.keysVals[kv + 1]];
        kv += 2;
      }
      kv++;
    }
    nodes.tags.push(tags);
  }
}

interface RawNode {
  id: number;
  keys: number[];
  vals: number[];
  lat: number;
  lon: number;
}

function readNodeField(tag: number, n: RawNode, pbf: Pbf): void {
  if (tag === 1) n.id = pbf.readSVarint();
  else if (tag === 2) pbf.readPackedVarint(n.keys);
  else if (tag === 3) pbf.readPackedVarint(n.vals);
  else if (tag === 8) n.lat = pbf.readSVarint();
  else if (tag === 9) n.lon = pbf.readSVarint();
}

interface RawWay {
  id: number;
  keys: number[];
  vals: number[];
  refs: number[];
  lats: number[];
  lons: number[];
}

function readWayField(tag: number, w: RawWay, pbf: Pbf): void {
  if (tag === 1) w.id = pbf.readVarint(true);
  else if (tag === 2) pbf.readPackedVarint(w.keys);
  else if (tag === 3) pbf.readPackedVarint(w.vals);
  else if (tag === 8) pbf.readPackedSVarint(w.refs);
  else if (tag === 9) pbf.readPackedSVarint(w.lats);
  else if (tag === 10) pbf.readPackedSVarint(w.lons);
}

function deltaDecode(values: number[]): number[] {
  for (let i = 1; i < values.length; i++) values[i] += values[i - 1];
  return values;
}

function toWay(w: RawWay, ctx: BlockContext): PbfWay {
  const way: PbfWay = { id: w.id, tags: tagsFrom(ctx.strings, w.keys, w.vals), refs: deltaDecode(w.refs) };
  if (w.lats.length === w.refs.length && w.lons.length === w.refs.length && w.refs.length > 0) {
    way.lat7 = deltaDecode(w.lats).map((v) => toE7(v, ctx.latOffset, ctx.granularity));
    way.lon7 = deltaDecode(w.lons).map((v) => toE7(v, ctx.lonOffset, ctx.granularity));
  }
  return way;
}

interface RawRelation {
  id: number;
  keys: number[];
  vals: number[];
  roles: number[];
  memids: number[];
  types: number[];
}

function readRelationField(tag: number, r: RawRelation, pbf: Pbf): void {
  if (tag === 1) r.id = pbf.readVarint(true);
  else if (tag === 2) pbf.readPackedVarint(r.keys);
  else if (tag === 3) pbf.readPackedVarint(r.vals);
  else if (tag === 8) pbf.readPackedVarint(r.roles, true);
  else if (tag === 9) pbf.readPackedSVarint(r.memids);
  else if (tag === 10) pbf.readPackedVarint(r.types);
}

function toRelation(r: RawRelation, ctx: BlockContext): PbfRelation {
  const refs = deltaDecode(r.memids);
  const members: PbfMember[] = refs.map((ref, i) => ({
    type: MEMBER_TYPES[r.types[i] ?? 0] ?? 'node',
    ref,
    role: ctx.strings[r.roles[i] ?? 0] ?? '',
  }));
  return { id: r.id, tags: tagsFrom(ctx.strings, r.keys, r.vals), members };
}

function readGroupField(tag: number, s: GroupState, pbf: Pbf): void {
  const { ctx, select, out } = s;
  if (tag === 2 && select.nodes) {
    const dense = pbf.readMessage<RawDense>(readDenseField, { ids: [], lats: [], lons: [], keysVals: [] });
    addDenseNodes(dense, ctx, out.nodes);
  } else if (tag === 1 && select.nodes) {
    const n = pbf.readMessage<RawNode>(readNodeField, { id: 0, keys: [], vals: [], lat: 0, lon: 0 });
    out.nodes.ids.push(n.id);
    out.nodes.lat7.push(toE7(n.lat, ctx.latOffset, ctx.granularity));
    out.nodes.lon7.push(toE7(n.lon, ctx.lonOffset, ctx.granularity));
    out.nodes.tags.push(n.keys.length > 0 ? tagsFrom(ctx.strings, n.keys, n.vals) : undefined);
  } else if (tag === 3 && select.ways) {
    const w = pbf.readMessage<RawWay>(readWayField, { id: 0, keys: [], vals: [], refs: [], lats: [], lons: [] });
    out.ways.push(toWay(w, ctx));
  } else if (tag === 4 && select.relations) {
    const r = pbf.readMessage<RawRelation>(readRelationField, { id: 0, keys: [], vals: [], roles: [], memids: [], types: [] });
    out.relations.push(toRelation(r, ctx));
  }
  // tag 5 (ChangeSet) and unselected kinds are skipped by readFields.
}

/** Decodes a PrimitiveBlock payload (already decompressed). */
export function decodePrimitiveBlock(data: Uint8Array, selection: DecodeSelection = {}): PrimitiveBlockContents {
  const select: Required<DecodeSelection> = { nodes: true, ways: true, relations: true, ...selection };
  const pbf = new Pbf(data);
  // First pass over the block: string table, granularity and group positions (fields may come in any order).
  const ctx = pbf.readFields<BlockContext>(readBlockField, { strings: [], granularity: 100, latOffset: 0, lonOffset: 0, groups: [] });
  const out: PrimitiveBlockContents = { nodes: { ids: [], lat7: [], lon7: [], tags: [] }, ways: [], relations: [] };
  const state: GroupState = { ctx, select, out };
  for (const [start, end] of ctx.groups) {
    pbf.pos = start;
    pbf.readFields(readGroupField, state, end);
  }
  return out;
}
