/**
 * CityJSONSeq (`.city.jsonl`, `.jsonl`): a CityJSON header line (transform, metadata), then one
 * CityJSONFeature per line with its own vertices; a feature's `id` names its root object and the
 * other objects are its parts. One line is in memory at a time.
 */
import { createReadStream, statSync } from 'node:fs';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import { cityObjectPart, isBuildingType, type CityJsonObject, type VertexLookup } from './cityjson-object.ts';
import { referenceSystemOf, transformOf } from './cityjson-reader.ts';
import { assembleBuilding, type AssemblyInput } from './building-assembly.ts';
import { PremiumImportError } from './import-error.ts';
import type { ReaderCallbacks, ReaderItem } from './source-model.ts';
import type { Transform } from './vertex-file.ts';

interface CityJsonFeature {
  type: string;
  id?: string;
  CityObjects?: Record<string, CityJsonObject>;
  vertices?: number[][];
}

/** The items of one feature: its root building (or the buildings among its objects without a parent) with parts. */
export function featureItems(feature: CityJsonFeature, transform: Transform | null, ignored: (type: string) => void): ReaderItem[] {
  if (feature.type !== 'CityJSONFeature') throw new Error(`expected a CityJSONFeature, found type ${JSON.stringify(feature.type)}`);
  const objects = feature.CityObjects ?? {};
  const vertices = feature.vertices ?? [];
  const vertexAt: VertexLookup = (i) => {
    const v = vertices[i];
    if (!v || v.length < 3) throw new Error(`vertex index ${i} out of range (the feature has ${vertices.length} vertices)`);
    return transform
      ? [
          v[0] * transform.scale[0] + transform.translate[0],
          v[1] * transform.scale[1] + transform.translate[1],
          v[2] * transform.scale[2] + transform.translate[2],
        ]
      : [v[0], v[1], v[2]];
  };
  const inputs = new Map<string, AssemblyInput & { parent: string | null }>();
  for (const [id, object] of Object.entries(objects)) {
    if (!isBuildingType(object.type)) {
      ignored(object.type);
      continue;
    }
    try {
      inputs.set(id, { id, parent: object.parents?.[0] ?? null, result: cityObjectPart(id, object, vertexAt) });
    } catch (error) {
      throw new Error(`CityObject "${id}": ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const rootOf = (id: string): string => {
    const seen = new Set<string>();
    let at = id;
    for (let p = inputs.get(at)?.parent; p && inputs.has(p) && !seen.has(p); p = inputs.get(at)?.parent) {
      seen.add(at);
      at = p;
    }
    return at;
  };
  const groups = new Map<string, AssemblyInput[]>();
  for (const id of inputs.keys()) {
    const root = rootOf(id);
    if (!groups.has(root)) groups.set(root, []);
    if (root !== id) groups.get(root)!.push(inputs.get(id)!);
  }
  return [...groups].flatMap(([root, descendants]) => assembleBuilding(inputs.get(root)!, descendants));
}

export async function readCityJsonSeq(path: string, callbacks: ReaderCallbacks): Promise<void> {
  const file = basename(path);
  const totalBytes = statSync(path).size;
  const stream = createReadStream(path);
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let lineNo = 0,
    bytesRead = 0,
    transform: Transform | null = null,
    sawHeader = false;
  try {
    for await (const raw of lines) {
      lineNo++;
      const line = lineNo === 1 ? raw.replace(/^\uFEFF/, '') : raw;
      bytesRead += Buffer.byteLength(raw) + 1;
      if (line.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        throw new PremiumImportError(file, `line ${lineNo}`, `malformed JSON: ${error instanceof Error ? error.message : String(error)} (truncated?)`);
      }
      const record = value as { type?: unknown; version?: unknown; metadata?: unknown; transform?: unknown };
      if (!sawHeader) {
        if (record.type !== 'CityJSON') throw new PremiumImportError(file, `line ${lineNo}`, 'the first line must be the CityJSON header of the sequence');
        sawHeader = true;
        if (record.transform !== undefined) {
          transform = transformOf(record.transform);
          if (!transform) throw new PremiumImportError(file, `line ${lineNo}`, 'transform needs scale and translate, three numbers each');
        }
        callbacks.header({ crs: referenceSystemOf(record.metadata), format: `CityJSONSeq ${String(record.version)}` });
        continue;
      }
      let items: ReaderItem[];
      try {
        items = featureItems(value as CityJsonFeature, transform, callbacks.ignored);
      } catch (error) {
        throw new PremiumImportError(file, `line ${lineNo}`, error instanceof Error ? error.message : String(error));
      }
      for (const item of items) callbacks.item(item);
      callbacks.progress?.({ pass: 1, passes: 1, bytesRead: Math.min(bytesRead, totalBytes), totalBytes });
    }
    if (!sawHeader) throw new PremiumImportError(file, null, 'empty file: no CityJSON header line');
  } finally {
    lines.close();
    stream.destroy();
  }
}
