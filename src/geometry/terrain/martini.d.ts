/** Types for @mapbox/martini 0.2 (the package ships none). */
declare module '@mapbox/martini' {
  export interface MartiniTile {
    terrain: Float32Array;
    /** Per grid point: the largest error of the triangles split at it (mutable; see terrain-mesh.ts). */
    errors: Float32Array;
    update(): void;
    getMesh(maxError?: number): { vertices: Uint16Array; triangles: Uint32Array };
  }
  export default class Martini {
    constructor(gridSize?: number);
    gridSize: number;
    createTile(terrain: Float32Array): MartiniTile;
  }
}
