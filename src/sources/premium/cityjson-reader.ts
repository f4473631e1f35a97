/**
 * Single-file CityJSON (1.0, 1.1, 2.0), read in two streaming passes because `vertices`,
 * `transform` and `metadata` may come after `CityObjects`:
 *
 *   pass 1: vertices → a temporary float64 file (vertex-file.ts); transform, metadata, version, type
 *   pass 2: CityObjects one at a time → parts in a temporary SQLite database (part-staging.ts);
 *           then each root building with its parts, in file order
 *
 * Each pass has the other's big member cut out of the byte stream before tokenizing, so each part
 * of the file is tokenized (and checked) once.
 *
 * Memory holds one CityObject and the vertex span it uses, whatever the file size.
 */
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { chooseGeometry, cityObjectPart, isBuildingType, vertexRange, type CityJsonObject } from './cityjson-object.ts';
import { assembleBuilding } from './building-assembly.ts';
import { PremiumImportError } from './import-error.ts';
import { JsonWalkError, walkJsonTopLevel } from './json-tokens.ts';
import { PartStaging } from './part-staging.ts';
import type { ReaderCallbacks } from './source-model.ts';
import { VertexFile, type Transform } from './vertex-file.ts';

/** The CRS name of CityJSON metadata: 1.0 `referenceSystem` (a URN), 1.1/2.0 a URL; some writers use `crs`. */
export function referenceSystemOf(metadata: unknown): string | null {
  if (!metadata || typeof metadata !== 'object') return null;
  const m = metadata as Record<string, unknown>;
  const value = m.referenceSystem ?? m.crs;
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return `EPSG:${value}`;
  return null;
}

export function transformOf(value: unknown): Transform | null {
  const t = value as { scale?: unknown; translate?: unknown } | null;
  const ok = (v: unknown): v is [number, number, number] => Array.isArray(v) && v.length === 3 && v.every((n) => typeof n === 'number' && Number.isFinite(n));
  if (!t || !ok(t.scale) || !ok(t.translate)) return null;
  return { scale: t.scale, translate: t.translate };
}

export async function readCityJson(path: string, callbacks: ReaderCallbacks): Promise<void> {
  const file = basename(path);
  const vertices = new VertexFile();
  const staging = new PartStaging();
  const passError = (error: unknown, pass: number): never => {
    if (error instanceof PremiumImportError) throw error;
    if (error instanceof JsonWalkError && error.cause instanceof PremiumImportError) throw error.cause;
    const line = error instanceof JsonWalkError ? `pass ${pass}, line ${error.line}` : `pass ${pass}`;
    throw new PremiumImportError(file, line, error instanceof Error ? error.message : String(error));
  };
  try {
    let type: unknown = null,
      version: unknown = null,
      metadata: unknown = null,
      transform: unknown;
    await walkJsonTopLevel(
      path,
      {
        mode: (key) => (key === 'vertices' ? 'numbers' : ['type', 'version', 'metadata', 'transform'].includes(key) ? 'assemble' : 'skip'),
        value: (key, value) => {
          if (key === 'type') type = value;
          else if (key === 'version') version = value;
          else if (key === 'metadata') metadata = value;
          else transform = value;
        },
        number: (_key, value) => vertices.push(value),
      },
      (p) => callbacks.progress?.({ pass: 1, passes: 2, ...p }),
      ['CityObjects'],
    ).catch((error: unknown) => passError(error, 1));
    if (type !== 'CityJSON') throw new PremiumImportError(file, null, `not a CityJSON file (type ${JSON.stringify(type)})`);
    if (!vertices.finish()) throw new PremiumImportError(file, 'vertices', 'the vertex list is not made of x, y, z triplets');
    if (transform !== undefined) {
      vertices.transform = transformOf(transform);
      if (!vertices.transform) throw new PremiumImportError(file, 'transform', 'transform needs scale and translate, three numbers each');
    }
    callbacks.header({ crs: referenceSystemOf(metadata), format: `CityJSON ${String(version)}` });

    const lookup = (i: number) => vertices.at(i);
    await walkJsonTopLevel(
      path,
      {
        mode: (key) => (key === 'CityObjects' ? 'members' : 'skip'),
        memberType: (_key, _id, type) => {
          if (isBuildingType(type)) return true;
          callbacks.ignored(type);
          return false;
        },
        member: (_key, id, value) => {
          const object = value as CityJsonObject;
          if (!object || typeof object !== 'object' || typeof object.type !== 'string') {
            throw new PremiumImportError(file, `CityObject "${id}"`, 'not an object with a type');
          }
          if (!isBuildingType(object.type)) return callbacks.ignored(object.type);
          try {
            const chosen = chooseGeometry(object.geometry);
            const range = chosen && vertexRange(chosen.geometry);
            if (range) vertices.load(range[0], range[1]);
            staging.add(id, object.parents?.[0] ?? null, cityObjectPart(id, object, lookup));
          } catch (error) {
            throw new PremiumImportError(file, `CityObject "${id}"`, error instanceof Error ? error.message : String(error));
          }
        },
      },
      (p) => callbacks.progress?.({ pass: 2, passes: 2, ...p }),
      ['vertices'],
    ).catch((error: unknown) => passError(error, 2));
    // the buildings are written only now, after both passes: keep the progress moving meanwhile
    const size = statSync(path).size;
    let groups = 0;
    for (const { root, descendants } of staging.groups()) {
      for (const item of assembleBuilding(root, descendants)) callbacks.item(item);
      if (++groups % 500 === 0) callbacks.progress?.({ pass: 2, passes: 2, bytesRead: size, totalBytes: size });
    }
  } finally {
    staging.close();
    vertices.close();
  }
}
