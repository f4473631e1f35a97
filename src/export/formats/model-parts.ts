/**
 * A shared model as the formats with materials per model draw it (glTF primitives, COLLADA
 * `<triangles>`): its triangles split by the material they take. A tree's trunk is brown and its
 * crown the tree green, since a tree read as one green solid looks like a lollipop; every other
 * model is one part coloured by its key (palette.ts). Trees are built trunk first
 * (geometry/instances/models/trees.ts), each part a closed solid of its own, so the trunk is the
 * solid holding the first triangle and the crown (or the fronds) is everything else.
 */
import { sharedModel } from './node-models.ts';

/** Triangles of one material: `kind` is the palette's key, `indices` index the whole model's vertices. */
export interface ModelPart {
  kind: string;
  indices: Uint32Array;
}

const cache = new Map<string, ModelPart[]>();

/** The parts of the model `key`, built once per key. */
export function modelParts(key: string): ModelPart[] {
  let parts = cache.get(key);
  if (!parts) cache.set(key, (parts = splitModel(key)));
  return parts;
}

/** Palette key of a one-part model, and of a tree's crown. */
export function modelKind(key: string): string {
  return key.startsWith('tree-') ? 'tree' : key;
}

function splitModel(key: string): ModelPart[] {
  const { indices } = sharedModel(key);
  if (!key.startsWith('tree-')) return [{ kind: modelKind(key), indices }];
  const trunk = firstSolid(indices);
  const of = (keep: boolean): Uint32Array => {
    const out: number[] = [];
    for (let t = 0; t < indices.length; t += 3) if (trunk[t / 3] === keep) out.push(indices[t], indices[t + 1], indices[t + 2]);
    return Uint32Array.from(out);
  };
  const parts = [
    { kind: 'trunk', indices: of(true) },
    { kind: 'tree', indices: of(false) },
  ];
  return parts.filter((p) => p.indices.length > 0);
}

/** Per triangle, whether it belongs to the solid (triangles joined by shared vertices) of triangle 0. */
function firstSolid(indices: Uint32Array): boolean[] {
  const triangles = indices.length / 3;
  const inSolid = new Array<boolean>(triangles).fill(false);
  const reached = new Set<number>([indices[0], indices[1], indices[2]]);
  // a solid's triangles need not come in an order where each touches an earlier one: sweep until nothing joins
  for (let grown = true; grown; ) {
    grown = false;
    for (let t = 0; t < triangles; t++) {
      if (inSolid[t]) continue;
      const a = indices[t * 3],
        b = indices[t * 3 + 1],
        c = indices[t * 3 + 2];
      if (reached.has(a) || reached.has(b) || reached.has(c)) {
        inSolid[t] = grown = true;
        reached.add(a).add(b).add(c);
      }
    }
  }
  return inSolid;
}
