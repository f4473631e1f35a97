/**
 * Writes one GLB per roof shape, each showing the roof on an L-shaped, a rectangular and a square footprint,
 * plus `all.glb` with every shape in a grid, so a person can look at every roof in any glTF viewer.
 *
 *   node --import tsx scripts/gallery/gallery.ts [outDir]     (default ./gallery, git-ignored)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Document, NodeIO } from '@gltf-transform/core';
import type { Mesh, Material, Node } from '@gltf-transform/core';
import { buildBuildingPart } from '../../src/geometry/buildings/build-part.ts';
import type { BuiltPart } from '../../src/geometry/buildings/build-part.ts';
import { ROOF_SHAPES, type RoofShape } from '../../src/geometry/buildings/roofs/types.ts';
import { loadRoofs } from '../../src/geometry/buildings/roofs/index.ts';
import { normalizeFootprint } from '../../src/geometry/ring.ts';
import type { Footprint, IndexedMesh } from '../../src/geometry/types.ts';

const WALL_TOP = 6;
/** Roof height per shape: onions and domes are usually taller than wide, the rest 4 m. */
const ROOF_HEIGHT: Partial<Record<RoofShape, number>> = { onion: 9, dome: 5 };

const FOOTPRINTS: Record<string, Footprint> = {
  L: { outer: [0, 0, 14, 0, 14, 6, 6, 6, 6, 14, 0, 14], holes: [] },
  rectangle: { outer: [0, 0, 12, 0, 12, 7, 0, 7], holes: [] },
  // A small square tower, where domes, onions and pyramids look the way they usually stand.
  tower: { outer: [0, 0, 6, 0, 6, 6, 0, 6], holes: [] },
};

const COLOURS = {
  wall: [0.86, 0.82, 0.72, 1],
  roof: [0.66, 0.27, 0.2, 1],
  floor: [0.4, 0.4, 0.4, 1],
} as const;

type Part = keyof typeof COLOURS;

/** Splits a building mesh into wall, roof and floor triangles with flat normals, converted to glTF's y-up axes. */
function splitForDisplay(mesh: IndexedMesh, wallTopZ: number): Record<Part, { positions: number[]; normals: number[] }> {
  const out: Record<Part, { positions: number[]; normals: number[] }> = {
    wall: { positions: [], normals: [] },
    roof: { positions: [], normals: [] },
    floor: { positions: [], normals: [] },
  };
  const p = mesh.positions;
  for (let t = 0; t < mesh.indices.length; t += 3) {
    const v = [0, 1, 2].map((k) => mesh.indices[t + k]);
    const [a, b, c] = v.map((i) => [p[3 * i], p[3 * i + 1], p[3 * i + 2]]);
    const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]],
      w = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    const n = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
    const len = Math.hypot(n[0], n[1], n[2]) || 1;
    const nz = n[2] / len;
    const minZ = Math.min(a[2], b[2], c[2]);
    const part: Part = nz < -0.99 && minZ < wallTopZ - 1e-6 ? 'floor' : minZ >= wallTopZ - 1e-6 && Math.abs(nz) > 0.02 ? 'roof' : 'wall';
    for (const q of [a, b, c]) {
      out[part].positions.push(q[0], q[2], -q[1]);
      out[part].normals.push(n[0] / len, n[2] / len, -n[1] / len);
    }
  }
  return out;
}

function addMesh(doc: Document, materials: Record<Part, Material>, part: BuiltPart, name: string): Mesh {
  const buffer = doc.getRoot().listBuffers()[0];
  const mesh = doc.createMesh(name);
  const pieces = splitForDisplay(part.mesh, WALL_TOP);
  for (const key of Object.keys(pieces) as Part[]) {
    const { positions, normals } = pieces[key];
    if (positions.length === 0) continue;
    const prim = doc
      .createPrimitive()
      .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(new Float32Array(positions)).setBuffer(buffer))
      .setAttribute('NORMAL', doc.createAccessor().setType('VEC3').setArray(new Float32Array(normals)).setBuffer(buffer))
      .setMaterial(materials[key]);
    mesh.addPrimitive(prim);
  }
  return mesh;
}

function newDocument(): { doc: Document; materials: Record<Part, Material>; scene: ReturnType<Document['createScene']> } {
  const doc = new Document();
  doc.createBuffer();
  const materials = Object.fromEntries(
    (Object.keys(COLOURS) as Part[]).map((k) => [
      k,
      doc
        .createMaterial(k)
        .setBaseColorFactor([...COLOURS[k]])
        .setRoughnessFactor(0.9)
        .setMetallicFactor(0),
    ]),
  ) as Record<Part, Material>;
  return { doc, materials, scene: doc.createScene('gallery') };
}

function place(doc: Document, mesh: Mesh, x: number, z: number, name: string): Node {
  return doc.createNode(name).setMesh(mesh).setTranslation([x, 0, z]);
}

async function main(): Promise<void> {
  const outDir = process.argv[2] ?? 'gallery';
  mkdirSync(outDir, { recursive: true });
  await loadRoofs();
  const io = new NodeIO();
  const all = newDocument();
  const lines: string[] = [];
  for (const [index, shape] of ROOF_SHAPES.entries()) {
    const one = newDocument();
    let offset = 0;
    for (const [fpName, raw] of Object.entries(FOOTPRINTS)) {
      const footprint = normalizeFootprint(raw)!;
      const part = buildBuildingPart(footprint, {
        baseZ: 0,
        wallTopZ: WALL_TOP,
        roof: { shape: shape as RoofShape, height: ROOF_HEIGHT[shape as RoofShape] ?? 4 },
      });
      lines.push(`${shape.padEnd(17)} ${fpName.padEnd(10)} ${part.roofStrategy}${part.roofFallback ? `  (fallback: ${part.roofFallback})` : ''}`);
      one.scene.addChild(place(one.doc, addMesh(one.doc, one.materials, part, `${shape}-${fpName}`), offset, 0, `${shape}-${fpName}`));
      const col = index % 4,
        row = Math.floor(index / 4);
      all.scene.addChild(place(all.doc, addMesh(all.doc, all.materials, part, `${shape}-${fpName}`), col * 56 + offset, row * 24, `${shape}-${fpName}`));
      offset += 18;
    }
    writeFileSync(join(outDir, `${shape}.glb`), await io.writeBinary(one.doc));
  }
  writeFileSync(join(outDir, 'all.glb'), await io.writeBinary(all.doc));
  console.log(lines.join('\n'));
  console.log(`wrote ${ROOF_SHAPES.length + 1} GLB files to ${outDir}`);
}

await main();
