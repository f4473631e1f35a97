/**
 * glTF 2.0 writer, as `.glb` (binary) or `.gltf` (one JSON file whose buffer is
 * embedded as a base64 `data:` URI, so the download stays one file).
 *
 * Layout: scene → one root node `city-context` → one node per group (`buildings`, `surface`, …)
 * → one node per feature, named by its id (`way/123`), its descriptor in the node's `extras`.
 * Meshes share materials per kind and colour; a premium building's roof, wall and floor triangles
 * are primitives of their own material (surface-parts.ts). Polylines are LINE_STRIP / LINE_LOOP primitives
 * (power-line cables too: `<line id>#<span>`, kind `wire`, in the instances group). Street objects
 * are instances: each shared model (node-models.ts; trees by form, furniture by type) is one mesh
 * `model/<key>`, written once — a tree's trunk and crown two primitives of their own material
 * (model-parts.ts) — and every node is a glTF node using it, with its translation, rotation about
 * up and scale per axis, named by its source id, `extras.type`/`model`/`descriptor` saying what it is.
 *
 * Plain nodes, not EXT_mesh_gpu_instancing: every glTF reader draws nodes, while a reader without
 * the extension would draw an instanced node once (the extension's own fallback), so an optional
 * extension needs the plain nodes beside it anyway; and an instance of the extension has no name
 * nor extras, which the files need (stable names, descriptors). A node's name and transform cost
 * ~200 bytes of JSON where an instance row costs 40 binary bytes: ~0.16 MB per 1,000 objects.
 *
 * Axes: glTF is Y-up and in metres, so scene (x east, y north, z up) becomes (x, z, −y) and any
 * other scene unit is scaled back to metres. Georeference convention (scene `extras.cityContext`):
 * a glTF world point (X, Y, Z) — after the root node's translation — lies at grid easting
 * `originGrid[0] + X`, northing `originGrid[1] − Z` (metres of `crs`), height Y, in `anchor`
 * placement; in `absolute` placement the root translation already holds `originGrid`, so world
 * (X, Y, Z) is (E, h, −N) directly. Vertex data are float32 relative to the origin either way
 * (grid coordinates in float32 would be off by decimetres); the translation is a JSON double, but
 * readers that keep node transforms in float32 lose precision there too.
 *
 * Written by hand rather than with @gltf-transform/core (still our reader in tests): its property
 * graph dispatches events on every setter, ~80 µs per feature, which made a dense 10 km² GLB
 * take 1.5 s to write; this writer sizes one buffer from the scene and fills it once (gltf-buffer.ts).
 */
import { nodeInstance, nodeName, sharedModel } from './node-models.ts';
import { METRES_PER_UNIT, type ExportFile, type ExportNode, type ExportScene, type FinishedExport } from '../scene.ts';
import type { NodeInstance } from './node-models.ts';
import { joinBytes } from './text-sink.ts';
import { kindColour, srgbToLinear } from './palette.ts';
import { GltfBufferBuilder, indexBytes } from './gltf-buffer.ts';
import { modelParts } from './model-parts.ts';
import { surfaceParts } from './surface-parts.ts';

type Json = Record<string, unknown>;

/**
 * Binary glTF in pieces: 12-byte header, the JSON chunk (space-padded) and the BIN chunk's
 * header, then the buffer as it was filled, then its zero padding (no copy of the buffer).
 */
export function glbPieces(scene: ExportScene): FinishedExport {
  const { json, bin } = buildGltf(scene);
  const text = new TextEncoder().encode(JSON.stringify(json));
  const jsonLength = (text.length + 3) & ~3;
  const binLength = bin.length ? (bin.length + 3) & ~3 : 0;
  const total = 12 + 8 + jsonLength + (binLength ? 8 + binLength : 0);
  const head = new Uint8Array(20 + jsonLength + (binLength ? 8 : 0));
  const view = new DataView(head.buffer);
  view.setUint32(0, 0x46546c67, true); // "glTF"
  view.setUint32(4, 2, true);
  view.setUint32(8, total, true);
  view.setUint32(12, jsonLength, true);
  view.setUint32(16, 0x4e4f534a, true); // "JSON"
  head.set(text, 20);
  head.fill(0x20, 20 + text.length, 20 + jsonLength);
  if (!binLength) return { bytes: head, extension: 'glb', contentType: 'model/gltf-binary' };
  view.setUint32(20 + jsonLength, binLength, true);
  view.setUint32(20 + jsonLength + 4, 0x004e4942, true); // "BIN\0"
  return { bytes: [head, bin, new Uint8Array(binLength - bin.length)], extension: 'glb', contentType: 'model/gltf-binary' };
}

/**
 * JSON glTF with its one buffer embedded as a data URI, in pieces: the JSON around the URI and
 * the base64 ~1 MB at a time, so neither the base64 text nor the whole JSON is one string.
 */
export function gltfPieces(scene: ExportScene): FinishedExport {
  const { json, bin } = buildGltf(scene);
  const buffers = json.buffers as Json[] | undefined;
  const file = { extension: 'gltf', contentType: 'model/gltf+json' };
  if (!buffers?.length) return { ...file, bytes: new TextEncoder().encode(JSON.stringify(json)) };
  buffers[0].uri = URI_MARK;
  // `buffers` is the document's last key: the last mark is the URI, whatever a descriptor holds
  const text = JSON.stringify(json),
    at = text.lastIndexOf(URI_MARK);
  const pieces = [Buffer.from(`${text.slice(0, at)}data:application/octet-stream;base64,`)];
  const step = 3 << 18; // a multiple of 3: the pieces' base64 joins without padding in between
  for (let o = 0; o < bin.length; o += step) {
    pieces.push(Buffer.from(Buffer.from(bin.buffer, bin.byteOffset + o, Math.min(step, bin.length - o)).toString('base64'), 'latin1'));
  }
  pieces.push(Buffer.from(text.slice(at + URI_MARK.length)));
  return { ...file, bytes: pieces };
}

const URI_MARK = '@city-context-buffer-uri@';

/** Binary glTF in one piece. */
export function writeGlb(scene: ExportScene): ExportFile {
  return whole(glbPieces(scene));
}

/** JSON glTF with its buffer as a data URI, in one piece. */
export function writeGltf(scene: ExportScene): ExportFile {
  return whole(gltfPieces(scene));
}

function whole(f: FinishedExport): ExportFile {
  return { ...f, bytes: Array.isArray(f.bytes) ? joinBytes(f.bytes) : f.bytes };
}

/** The glTF JSON document and its binary buffer (exported for tests that inspect the document). */
export function buildGltf(scene: ExportScene): { json: Json; bin: Uint8Array } {
  const f = METRES_PER_UNIT[scene.units];
  const g = scene.georef;
  // Absolute placement: vertices stay origin-relative in float32, the root node carries the grid offset.
  const ox = g.placement === 'absolute' ? g.originGrid[0] : 0,
    oy = g.placement === 'absolute' ? g.originGrid[1] : 0;
  /** Scene xyz (units, Z up, maybe absolute) → glTF float32 metres, Y up, origin-relative. */
  const toGltf = (p: ArrayLike<number>, i: number, out: Float32Array, o: number): void => {
    out[o] = (p[i] - ox) * f;
    out[o + 1] = p[i + 2] * f;
    out[o + 2] = -(p[i + 1] - oy) * f;
  };
  /** The shared models are built in metres at the origin, Z up: only the axes turn. */
  const modelToGltf = (p: ArrayLike<number>, i: number, out: Float32Array, o: number): void => {
    out[o] = p[i];
    out[o + 1] = p[i + 2];
    out[o + 2] = -p[i + 1];
  };
  /**
   * A node as a glTF node using its model's mesh: translation (a JSON double, origin-relative like
   * the vertices), turn about up, scale per axis. Node TRS applies scale, then rotation, then
   * translation, as placeModel (node-models.ts) does in the scene's frame.
   */
  const instanceNode = (n: ExportNode, inst: NodeInstance): Json => {
    const [x, y, z] = n.position;
    // counter-clockwise about Z up is counter-clockwise about glTF's +Y (east turns towards north = −Z)
    const half = n.rotation / 2;
    return {
      name: nodeName(n),
      mesh: modelMeshIndex.get(inst.model),
      translation: [(x - ox) * f, z * f, -(y - oy) * f],
      rotation: [0, Math.sin(half), 0, Math.cos(half)],
      // model x, y, z (z up) are glTF x, −z, y; the scale already holds the scene's units per metre
      scale: [inst.scale[0] * f, inst.scale[2] * f, inst.scale[1] * f],
      extras: { type: n.type, model: inst.model, descriptor: n.descriptor },
    };
  };

  const instanceOf = new Map<ExportNode, NodeInstance>();
  for (const gr of scene.groups)
    for (const n of gr.nodes) {
      const inst = nodeInstance(n, scene.units);
      if (inst) instanceOf.set(n, inst);
    }
  const modelKeys = [...new Set([...instanceOf.values()].map((i) => i.model))].sort();
  const buffer = new GltfBufferBuilder(...bufferSize(scene, modelKeys));

  const materials: Json[] = [];
  const materialIndex = new Map<string, number>();
  const material = (kind: string, colour: [number, number, number] | undefined): number => {
    const rgb = colour ?? kindColour(kind);
    const key = `${kind}|${rgb[0].toFixed(4)},${rgb[1].toFixed(4)},${rgb[2].toFixed(4)}`;
    let m = materialIndex.get(key);
    if (m === undefined) {
      m =
        materials.push({
          name: kind,
          pbrMetallicRoughness: {
            baseColorFactor: [srgbToLinear(rgb[0]), srgbToLinear(rgb[1]), srgbToLinear(rgb[2]), 1],
            metallicFactor: 0,
            roughnessFactor: 0.9,
          },
        }) - 1;
      materialIndex.set(key, m);
    }
    return m;
  };

  const meshes: Json[] = [];
  const nodes: Json[] = [{ name: 'city-context' }];
  if (g.placement === 'absolute') nodes[0].translation = [ox * f, 0, -oy * f];
  // One mesh per model, written once: its vertices shared by its parts (a tree's trunk and crown).
  const modelMeshIndex = new Map<string, number>();
  for (const key of modelKeys) {
    const model = sharedModel(key),
      vertices = model.positions.length / 3;
    const position = buffer.positions(model.positions, vertices, modelToGltf);
    const primitives = modelParts(key).map((part) => ({
      attributes: { POSITION: position },
      indices: buffer.indices(part.indices, vertices),
      material: material(part.kind, undefined),
    }));
    modelMeshIndex.set(key, meshes.push({ name: `model/${key}`, primitives }) - 1);
  }

  const groupNodes: number[] = [];
  for (const group of scene.groups) {
    const children: number[] = [];
    for (const m of group.meshes) {
      if (!drawable(m.positions, m.indices)) continue;
      const vertices = m.positions.length / 3;
      const position = buffer.positions(m.positions, vertices, toGltf);
      // one primitive per surface role (a premium building's roof and walls), all on the mesh's one POSITION
      const primitives = surfaceParts(m).map((part) => ({
        attributes: { POSITION: position },
        indices: buffer.indices(part.indices, vertices),
        material: material(part.kind, part.colour),
      }));
      const mesh = meshes.push({ name: m.id, primitives }) - 1;
      children.push(nodes.push({ name: m.id, mesh, extras: { kind: m.kind, descriptor: m.descriptor } }) - 1);
    }
    for (const l of group.polylines) {
      if (l.points.length < 6) continue;
      const position = buffer.positions(l.points, l.points.length / 3, toGltf);
      const mode = l.closed ? 2 : 3; // LINE_LOOP, LINE_STRIP
      const mesh = meshes.push({ name: l.id, primitives: [{ attributes: { POSITION: position }, material: material(l.kind, undefined), mode }] }) - 1;
      children.push(nodes.push({ name: l.id, mesh, extras: { kind: l.kind, descriptor: cableEnds(l.descriptor, f) } }) - 1);
    }
    for (const n of group.nodes) {
      const inst = instanceOf.get(n);
      if (!inst) continue;
      children.push(nodes.push(instanceNode(n, inst)) - 1);
    }
    groupNodes.push(nodes.push(children.length ? { name: group.name, children } : { name: group.name }) - 1);
  }
  if (groupNodes.length) nodes[0].children = groupNodes;

  const { bytes, bufferViews } = buffer.finish();
  const asset: Json = { version: '2.0', generator: 'City Context' };
  if (scene.attribution.length) asset.copyright = scene.attribution.join('; ');
  const json: Json = { asset, scene: 0, scenes: [{ name: scene.name, nodes: [0], extras: { cityContext: georefExtras(scene) } }], nodes };
  if (meshes.length) json.meshes = meshes;
  if (materials.length) json.materials = materials;
  // an empty scene must not carry an empty buffer (invalid glTF)
  if (bytes.length) Object.assign(json, { accessors: buffer.accessors, bufferViews, buffers: [{ byteLength: bytes.length }] });
  return { json, bin: bytes };
}

function drawable(positions: Float64Array, indices: Uint32Array): boolean {
  return indices.length >= 3 && positions.length >= 9;
}

/** Floats of every POSITION and bytes of every index run the scene will write (each model once, an index run per part). */
function bufferSize(scene: ExportScene, modelKeys: readonly string[]): [number, number] {
  let floats = 0,
    indexByteLength = 0;
  const add = (positions: Float64Array, indices: Uint32Array | null): void => {
    floats += positions.length;
    if (indices) indexByteLength += indexBytes(indices.length, positions.length / 3);
  };
  for (const key of modelKeys) {
    const vertices = sharedModel(key).positions;
    floats += vertices.length;
    for (const part of modelParts(key)) indexByteLength += indexBytes(part.indices.length, vertices.length / 3);
  }
  for (const group of scene.groups) {
    for (const m of group.meshes) {
      if (!drawable(m.positions, m.indices)) continue;
      add(m.positions, null);
      for (const part of surfaceParts(m)) indexByteLength += indexBytes(part.indices.length, m.positions.length / 3);
    }
    for (const l of group.polylines) if (l.points.length >= 6) add(l.points, null);
  }
  return [floats, indexByteLength];
}

/**
 * A cable's descriptor with its ends (`from`, `to`: scene points, Z up) as glTF world points — (x, z, −y)
 * in metres, the root translation included — so the extras speak the file's own frame.
 */
function cableEnds(d: Record<string, unknown>, f: number): Record<string, unknown> {
  const world = (p: unknown) => (Array.isArray(p) && p.length === 3 ? [p[0] * f, p[2] * f, -p[1] * f] : p);
  return d.from === undefined && d.to === undefined ? d : { ...d, from: world(d.from), to: world(d.to) };
}

/** The georeference convention of the module comment, in the scene's `extras.cityContext`. */
function georefExtras(scene: ExportScene): Json {
  const g = scene.georef,
    f = METRES_PER_UNIT[scene.units];
  return {
    georeference: {
      crs: g.crs === 'local' ? 'local' : `EPSG:${g.crs}`,
      ...(g.proj4 ? { proj4: g.proj4 } : {}),
      origin: { lat: g.origin.lat, lon: g.origin.lon },
      originGrid: [g.originGrid[0] * f, g.originGrid[1] * f],
      gridConvergence: g.gridConvergence,
      placement: g.placement,
      units: 'm',
      convention:
        g.placement === 'absolute'
          ? 'glTF world (X, Y, Z) = (easting, height, -northing) in crs metres; the root node translation holds originGrid'
          : 'glTF world (X, Y, Z) = (easting - originGrid[0], height, originGrid[1] - northing) in crs metres',
    },
    attribution: scene.attribution,
  };
}
