import type { IndexedMesh } from './types.ts';

/**
 * Accumulates an indexed triangle mesh (z-up local metres). Vertices are welded by exact
 * coordinate so that faces built separately (walls, roof, floor) share edges and the result
 * is a closed 2-manifold whenever the faces meet exactly.
 */
export class MeshBuilder {
  private positions: number[] = [];
  private indices: number[] = [];
  private lookup = new Map<string, number>();

  /** Index of the vertex at (x, y, z), adding it when new. */
  vertex(x: number, y: number, z: number): number {
    const key = `${x},${y},${z}`;
    let index = this.lookup.get(key);
    if (index === undefined) {
      index = this.positions.length / 3;
      this.positions.push(x, y, z);
      this.lookup.set(key, index);
    }
    return index;
  }

  /** Adds triangle a→b→c (counter-clockwise seen from outside); drops it when two corners coincide. */
  triangle(a: number, b: number, c: number): void {
    if (a === b || b === c || a === c) return;
    this.indices.push(a, b, c);
  }

  /** Adds quad a→b→c→d as two triangles. */
  quad(a: number, b: number, c: number, d: number): void {
    this.triangle(a, b, c);
    this.triangle(a, c, d);
  }

  get triangleCount(): number {
    return this.indices.length / 3;
  }

  build(): IndexedMesh {
    return { positions: Float64Array.from(this.positions), indices: Uint32Array.from(this.indices) };
  }
}
