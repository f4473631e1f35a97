import type { IndexedMesh } from './types.ts';

/**
 * Accumulates an indexed triangle mesh (z-up local metres). Vertices are welded by exact
 * coordinate so that faces built separately (walls, roof, floor) share edges and the result
 * is a closed 2-manifold whenever the faces meet exactly.
 *
 * Hot path of every building: positions and indices grow in typed arrays and the weld table is
 * an open-addressing hash over the coordinates' bits (no string keys, no per-vertex objects),
 * which took string-keyed Map lookups and their garbage out of the top of the profile.
 */
export class MeshBuilder {
  private positions = new Float64Array(96);
  private indices = new Uint32Array(192);
  private vertexCount = 0;
  private indexCount = 0;
  /** Vertex index + 1 per slot, 0 = empty; size a power of two, at most half full. */
  private table = new Int32Array(64);

  /** Empties the builder for reuse (scratch welders: typed-array allocation is what costs in a hot loop). */
  reset(): this {
    if (this.table.length > 4096) this.table = new Int32Array(64);
    else if (this.vertexCount > 0) this.table.fill(0);
    this.vertexCount = 0;
    this.indexCount = 0;
    return this;
  }

  get size(): number {
    return this.vertexCount;
  }

  /** Index of the vertex at (x, y, z), adding it when new. */
  vertex(x: number, y: number, z: number): number {
    // -0 and 0 are one point (as the string keys this replaces had it).
    x += 0;
    y += 0;
    z += 0;
    const mask = this.table.length - 1;
    let slot = hash3(x, y, z) & mask;
    const p = this.positions;
    for (;;) {
      const entry = this.table[slot];
      if (entry === 0) break;
      const i = 3 * (entry - 1);
      if (p[i] === x && p[i + 1] === y && p[i + 2] === z) return entry - 1;
      slot = (slot + 1) & mask;
    }
    const index = this.vertexCount++;
    if (3 * this.vertexCount > this.positions.length) this.positions = grow(this.positions, 3 * this.vertexCount);
    this.positions[3 * index] = x;
    this.positions[3 * index + 1] = y;
    this.positions[3 * index + 2] = z;
    this.table[slot] = index + 1;
    if (2 * this.vertexCount > this.table.length) this.rehash();
    return index;
  }

  /** Adds triangle a→b→c (counter-clockwise seen from outside); drops it when two corners coincide. */
  triangle(a: number, b: number, c: number): void {
    if (a === b || b === c || a === c) return;
    if (this.indexCount + 3 > this.indices.length) this.indices = grow(this.indices, this.indexCount + 3);
    const idx = this.indices;
    idx[this.indexCount++] = a;
    idx[this.indexCount++] = b;
    idx[this.indexCount++] = c;
  }

  /** Adds quad a→b→c→d as two triangles. */
  quad(a: number, b: number, c: number, d: number): void {
    this.triangle(a, b, c);
    this.triangle(a, c, d);
  }

  get triangleCount(): number {
    return this.indexCount / 3;
  }

  build(): IndexedMesh {
    return { positions: this.positions.slice(0, 3 * this.vertexCount), indices: this.indices.slice(0, this.indexCount) };
  }

  private rehash(): void {
    const table = new Int32Array(this.table.length * 2);
    const mask = table.length - 1,
      p = this.positions;
    for (let v = 0; v < this.vertexCount; v++) {
      let slot = hash3(p[3 * v], p[3 * v + 1], p[3 * v + 2]) & mask;
      while (table[slot] !== 0) slot = (slot + 1) & mask;
      table[slot] = v + 1;
    }
    this.table = table;
  }
}

const bits = new Float64Array(1);
const words = new Int32Array(bits.buffer);

/** A 32-bit hash of three doubles' bit patterns (equal numbers, equal hash; 0 and -0 are folded by the caller). */
export function hash3(x: number, y: number, z: number): number {
  let h = 0x811c9dc5;
  bits[0] = x;
  h = Math.imul(h ^ words[0], 0x01000193);
  h = Math.imul(h ^ words[1], 0x01000193);
  bits[0] = y;
  h = Math.imul(h ^ words[0], 0x01000193);
  h = Math.imul(h ^ words[1], 0x01000193);
  bits[0] = z;
  h = Math.imul(h ^ words[0], 0x01000193);
  h = Math.imul(h ^ words[1], 0x01000193);
  return (h ^ (h >>> 15)) >>> 0;
}

function grow<T extends Float64Array | Uint32Array>(array: T, needed: number): T {
  const next = new (array.constructor as new (n: number) => T)(Math.max(needed, array.length * 2));
  next.set(array);
  return next;
}

/** Concatenates meshes without welding (pieces may overlap; their vertices stay their own). */
export function concatMeshes(meshes: readonly IndexedMesh[]): IndexedMesh {
  let nv = 0,
    ni = 0;
  for (const m of meshes) {
    nv += m.positions.length;
    ni += m.indices.length;
  }
  const positions = new Float64Array(nv),
    indices = new Uint32Array(ni);
  let pv = 0,
    pi = 0;
  for (const m of meshes) {
    positions.set(m.positions, pv);
    const base = pv / 3;
    for (let k = 0; k < m.indices.length; k++) indices[pi + k] = m.indices[k] + base;
    pv += m.positions.length;
    pi += m.indices.length;
  }
  return { positions, indices };
}
