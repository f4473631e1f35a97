/** Decodes the OSMHeader block (osmformat.proto HeaderBlock) and checks we can read the file. */
import Pbf from 'pbf';

export interface PbfHeader {
  /** Declared extent in degrees, when the writer stored one. */
  bbox: { minLon: number; minLat: number; maxLon: number; maxLat: number } | null;
  requiredFeatures: string[];
  optionalFeatures: string[];
  writingProgram: string;
  source: string;
  /** Seconds since the epoch of the replication state the extract was cut at, 0 if unknown. */
  replicationTimestamp: number;
  replicationBaseUrl: string;
}

/** Required features this reader understands; any other one makes the file unreadable for us. */
const SUPPORTED_FEATURES = new Set(['OsmSchema-V0.6', 'DenseNodes', 'LocationsOnWays']);

interface HeaderBBox {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

function readBBoxField(tag: number, box: HeaderBBox, pbf: Pbf): void {
  if (tag === 1) box.left = pbf.readSVarint();
  else if (tag === 2) box.right = pbf.readSVarint();
  else if (tag === 3) box.top = pbf.readSVarint();
  else if (tag === 4) box.bottom = pbf.readSVarint();
}

function readHeaderField(tag: number, header: PbfHeader, pbf: Pbf): void {
  if (tag === 1) {
    const box = pbf.readMessage<HeaderBBox>(readBBoxField, { left: 0, right: 0, top: 0, bottom: 0 });
    header.bbox = { minLon: box.left * 1e-9, minLat: box.bottom * 1e-9, maxLon: box.right * 1e-9, maxLat: box.top * 1e-9 };
  } else if (tag === 4) header.requiredFeatures.push(pbf.readString());
  else if (tag === 5) header.optionalFeatures.push(pbf.readString());
  else if (tag === 16) header.writingProgram = pbf.readString();
  else if (tag === 17) header.source = pbf.readString();
  else if (tag === 32) header.replicationTimestamp = pbf.readVarint();
  else if (tag === 34) header.replicationBaseUrl = pbf.readString();
}

/** Decodes a HeaderBlock; throws when the file needs a feature we cannot honour (e.g. history). */
export function decodeHeaderBlock(data: Uint8Array): PbfHeader {
  const header = new Pbf(data).readFields<PbfHeader>(readHeaderField, {
    bbox: null,
    requiredFeatures: [],
    optionalFeatures: [],
    writingProgram: '',
    source: '',
    replicationTimestamp: 0,
    replicationBaseUrl: '',
  });
  const unsupported = header.requiredFeatures.filter((f) => !SUPPORTED_FEATURES.has(f));
  if (unsupported.length > 0) throw new Error(`unsupported OSM PBF feature(s): ${unsupported.join(', ')}`);
  return header;
}
