/**
 * glTF 2.0 writer (issue 10), as `.glb` (binary) or `.gltf` (one JSON file whose buffer is
 * embedded as a base64 `data:` URI, so the download stays one file).
 *
 * Layout: scene → one root node `city-context` → one node per group (`buildings`, `surface`, …)
 * → one node per feature, named by its id (`way/123`), its descriptor in the node's `extras`.
 * Meshes share materials per kind and colour. Polylines are LINE_STRIP / LINE_LOOP primitives;
 * instances are nodes carrying translation, rotation about up and uniform scale, all of a type
 * sharing one pyramid mesh of the type's nominal height (the symbol of node-symbols.ts), so they
 * show where they stand; `extras.type` says what to put there instead.
 *
 * Axes: glTF is Y-up and in metres, so scene (x east, y north, z up) becomes (x, z, −y) and any
 * other scene unit is scaled back to metres. Georeference convention (scene `extras.cityContext`):
 * a glTF world point (X, Y, Z) — after the root node's translation — lies at grid easting
 * `originGrid[0] + X`, northing `originGrid[1] − Z` (metres of `crs`), height Y, in `anchor`
 * placement; in `absolute` placement the root translation already holds `originGrid`, so world
 * (X, Y, Z) is (E, h, −N) directly. Vertex data are float32 relative to the origin either way
 * (grid coordinates in float32 would be off by decimetres); the translation is a JSON double, but
 * readers that keep node transforms in float32 lose precision there too.
 */
import { Document, NodeIO, Primitive, type Buffer as GltfBuffer, type Material, type Mesh, type Node } from '@gltf-transform/core';
import { nodeSymbol } from './node-symbols.ts';
import { METRES_PER_UNIT, type ExportFile, type ExportMesh, type ExportNode, type ExportPolyline, type ExportScene } from '../scene.ts';
import { kindColour, srgbToLinear } from './palette.ts';

/** Binary glTF. */
export async function writeGlb(scene: ExportScene): Promise<ExportFile> {
  const bytes = await new NodeIO().writeBinary(buildDocument(scene));
  return { bytes, extension: 'glb', contentType: 'model/gltf-binary' };
}

/** JSON glTF with its one buffer embedded as a data URI. */
export async function writeGltf(scene: ExportScene): Promise<ExportFile> {
  const { json, resources } = await new NodeIO().writeJSON(buildDocument(scene));
  for (const buffer of json.buffers ?? []) {
    const data = buffer.uri ? resources[buffer.uri] : undefined;
    if (data) buffer.uri = `data:application/octet-stream;base64,${Buffer.from(data).toString('base64')}`;
  }
  return { bytes: new TextEncoder().encode(JSON.stringify(json)), extension: 'gltf', contentType: 'model/gltf+json' };
}

/** The glTF document of a scene (exported for tests that inspect it before serialisation). */
export function buildDocument(scene: ExportScene): Document {
  const doc = new Document();
  doc.getRoot().getAsset().generator = 'City Context';
  if (scene.attribution.length) doc.getRoot().getAsset().copyright = scene.attribution.join('; ');
  // created with the first accessor: an empty scene must not carry an empty buffer (invalid glTF)
  let created: GltfBuffer | null = null;
  const buffer = (): GltfBuffer => (created ??= doc.createBuffer());
  const f = METRES_PER_UNIT[scene.units];
  const g = scene.georef;
  // Absolute placement: vertices stay origin-relative in float32, the root node carries the grid offset.
  const offset: [number, number] = g.placement === 'absolute' ? [g.originGrid[0], g.originGrid[1]] : [0, 0];
  const root = doc.createNode('city-context');
  if (g.placement === 'absolute') root.setTranslation([offset[0] * f, 0, -offset[1] * f]);
  const gltfScene = doc.createScene(scene.name).addChild(root);
  gltfScene.setExtras({ cityContext: georefExtras(scene) });

  const materials = new Map<string, Material>();
  const material = (kind: string, colour: [number, number, number] | undefined): Material => {
    const rgb = colour ?? kindColour(kind);
    const key = `${kind}|${rgb.map((c) => c.toFixed(4)).join(',')}`;
    let m = materials.get(key);
    if (!m) {
      m = doc.createMaterial(kind).setBaseColorFactor([srgbToLinear(rgb[0]), srgbToLinear(rgb[1]), srgbToLinear(rgb[2]), 1])
        .setMetallicFactor(0).setRoughnessFactor(0.9);
      materials.set(key, m);
    }
    return m;
  };
  /** Scene xyz (units, Z up, maybe absolute) → glTF float32 metres, Y up, origin-relative. */
  const toGltf = (p: ArrayLike<number>): Float32Array => {
    const out = new Float32Array(p.length);
    for (let i = 0; i < p.length; i += 3) {
      out[i] = (p[i] - offset[0]) * f;
      out[i + 1] = p[i + 2] * f;
      out[i + 2] = -(p[i + 1] - offset[1]) * f;
    }
    return out;
  };

  // one pyramid mesh per instance type, shared by its nodes (glTF instancing), scaled by each node
  const symbols = new Map<string, Mesh>();
  const symbol = (type: string): Mesh => {
    let mesh = symbols.get(type);
    if (!mesh) {
      const unit = nodeSymbol({ type, position: [0, 0, 0], rotation: 0, scale: 1, descriptor: {} }, 'm', 0);
      const p = unit.positions, yUp = new Float32Array(p.length);
      for (let i = 0; i < p.length; i += 3) { yUp[i] = p[i]; yUp[i + 1] = p[i + 2]; yUp[i + 2] = -p[i + 1]; }
      const prim = doc.createPrimitive()
        .setAttribute('POSITION', doc.createAccessor('', buffer()).setType('VEC3').setArray(yUp))
        .setIndices(doc.createAccessor('', buffer()).setArray(new Uint32Array(unit.indices)))
        .setMaterial(material(type, undefined));
      mesh = doc.createMesh(`symbol/${type}`).addPrimitive(prim);
      symbols.set(type, mesh);
    }
    return mesh;
  };

  for (const group of scene.groups) {
    const groupNode = doc.createNode(group.name);
    root.addChild(groupNode);
    for (const m of group.meshes) {
      const node = meshNode(doc, buffer, m, toGltf, material(m.kind, m.colour));
      if (node) groupNode.addChild(node);
    }
    for (const l of group.polylines) {
      const node = lineNode(doc, buffer, l, toGltf, material(l.kind, undefined));
      if (node) groupNode.addChild(node);
    }
    for (const n of group.nodes) groupNode.addChild(instanceNode(doc, n, toGltf, symbol(n.type)));
  }
  return doc;
}

type ToGltf = (p: ArrayLike<number>) => Float32Array;
type LazyBuffer = () => GltfBuffer;

function meshNode(doc: Document, buffer: LazyBuffer, m: ExportMesh, toGltf: ToGltf, mat: Material): Node | null {
  if (m.indices.length < 3 || m.positions.length < 9) return null;
  // every setter is an event through the whole property graph: as few as possible per feature
  const position = doc.createAccessor('', buffer()).setType('VEC3').setArray(toGltf(m.positions));
  const indices = doc.createAccessor('', buffer()).setArray(new Uint32Array(m.indices)); // SCALAR by default
  const prim = doc.createPrimitive().setAttribute('POSITION', position).setIndices(indices).setMaterial(mat);
  const mesh = doc.createMesh(m.id).addPrimitive(prim);
  return doc.createNode(m.id).setMesh(mesh).setExtras({ kind: m.kind, descriptor: m.descriptor });
}

function lineNode(doc: Document, buffer: LazyBuffer, l: ExportPolyline, toGltf: ToGltf, mat: Material): Node | null {
  if (l.points.length < 6) return null;
  const position = doc.createAccessor('', buffer()).setType('VEC3').setArray(toGltf(l.points));
  const prim = doc.createPrimitive().setAttribute('POSITION', position).setMaterial(mat)
    .setMode(l.closed ? Primitive.Mode.LINE_LOOP : Primitive.Mode.LINE_STRIP);
  const mesh = doc.createMesh(l.id).addPrimitive(prim);
  return doc.createNode(l.id).setMesh(mesh).setExtras({ kind: l.kind, descriptor: l.descriptor });
}

/** Counter-clockwise about Z up is counter-clockwise about glTF's +Y (east turns towards north = −Z). */
function instanceNode(doc: Document, n: ExportNode, toGltf: ToGltf, mesh: Mesh): Node {
  const [x, y, z] = toGltf(n.position);
  const half = n.rotation / 2;
  const id = typeof n.descriptor.id === 'string' ? n.descriptor.id : n.type;
  return doc.createNode(id)
    .setTranslation([x, y, z])
    .setRotation([0, Math.sin(half), 0, Math.cos(half)])
    .setScale([n.scale, n.scale, n.scale])
    .setMesh(mesh)
    .setExtras({ type: n.type, descriptor: n.descriptor });
}

/** The georeference convention of the module comment, in the scene's `extras.cityContext`. */
function georefExtras(scene: ExportScene): Record<string, unknown> {
  const g = scene.georef, f = METRES_PER_UNIT[scene.units];
  return {
    georeference: {
      crs: g.crs === 'local' ? 'local' : `EPSG:${g.crs}`,
      ...(g.proj4 ? { proj4: g.proj4 } : {}),
      origin: { lat: g.origin.lat, lon: g.origin.lon },
      originGrid: [g.originGrid[0] * f, g.originGrid[1] * f],
      gridConvergence: g.gridConvergence,
      placement: g.placement,
      units: 'm',
      convention: g.placement === 'absolute'
        ? 'glTF world (X, Y, Z) = (easting, height, -northing) in crs metres; the root node translation holds originGrid'
        : 'glTF world (X, Y, Z) = (easting - originGrid[0], height, originGrid[1] - northing) in crs metres',
    },
    attribution: scene.attribution,
  };
}
