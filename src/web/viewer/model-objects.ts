/**
 * Three.js objects for the items of a response: the meshes of a group merged into one
 * geometry per batch (one draw call, vertex colours from the exports' palette, triangle ranges
 * kept to find the feature under the pointer), nodes as instanced simple shapes sized from their
 * descriptor or type, elevation maps as height grids, polylines as line segments. Every object
 * carries `userData` (ModelUserData) that stats and picking read.
 */
import * as THREE from 'three';
import { kindColour, srgbToLinear } from '../../export/formats/palette.ts';
import { NOMINAL_HEIGHT } from '../../geometry/instances/catalogue.ts';

export type Descriptor = Record<string, unknown> & { type?: string; id?: string };

export interface ModelUserData {
  /** The response group (its `type`). */
  group: string;
  kind: 'meshes' | 'nodes' | 'terrain' | 'lines';
  /** One descriptor per feature drawn (per instance for nodes). */
  features: Descriptor[];
  /** meshes: the first triangle of each feature, then the total. */
  triangleStarts?: Uint32Array;
  /** nodes: false for the second part of a two-part shape (a tree's trunk), so nodes count once. */
  countsNodes?: boolean;
}

/** Turns output-frame coordinates into the viewer's: y up, metres near the origin. */
export interface Frame {
  zUp: boolean;
  /** Subtracted from x and from the horizontal "north" coordinate (projected CRS: large numbers). */
  offset: [number, number] | null;
}

const MESH_MATERIAL = new THREE.MeshLambertMaterial({ vertexColors: true, side: THREE.DoubleSide });
const NODE_MATERIALS = new Map<string, THREE.MeshLambertMaterial>();

function colourOf(type: string | undefined): [number, number, number] {
  return kindColour(type ?? '');
}

/** Vertex colours are linear in three.js; the palette is sRGB. */
function linearColourOf(type: string | undefined): [number, number, number] {
  const [r, g, b] = colourOf(type);
  return [srgbToLinear(r), srgbToLinear(g), srgbToLinear(b)];
}

/** Sets `frame.offset` from the first coordinate seen when the numbers are too large for float32 (UTM, EPSG:3857). */
function ensureOffset(frame: Frame, x: number, north: number): void {
  if (frame.offset) return;
  frame.offset = Math.abs(x) > 1e5 || Math.abs(north) > 1e5 ? [x, north] : [0, 0];
}

/** Output-frame point → viewer [x, y up, z south]. */
function toViewer(frame: Frame, x: number, y: number, z: number): [number, number, number] {
  // y up: (east, up, south); z up: (east, north, up)
  const north = frame.zUp ? y : -z;
  ensureOffset(frame, x, north);
  const [ox, on] = frame.offset!;
  return frame.zUp ? [x - ox, z, -(y - on)] : [x - ox, y, -(north - on)];
}

/** One merged mesh for a batch of response meshes (flat triangle lists, or indexed with `indices`). */
export function meshBatch(group: string, meshes: { vertices: number[]; indices?: number[]; descriptor: Descriptor }[], frame: Frame): THREE.Mesh {
  let triangles = 0;
  for (const m of meshes) triangles += m.indices ? m.indices.length / 3 : m.vertices.length / 9;
  const positions = new Float32Array(triangles * 9);
  const colours = new Float32Array(triangles * 9);
  const starts = new Uint32Array(meshes.length + 1);
  let t = 0;
  meshes.forEach((m, k) => {
    starts[k] = t;
    const [r, g, b] = linearColourOf(m.descriptor?.type);
    const count = m.indices ? m.indices.length : m.vertices.length / 3;
    for (let i = 0; i < count; i++) {
      const v = m.indices ? m.indices[i] : i;
      const p = toViewer(frame, m.vertices[v * 3], m.vertices[v * 3 + 1], m.vertices[v * 3 + 2]);
      const o = (t * 3 + i) * 3;
      positions[o] = p[0];
      positions[o + 1] = p[1];
      positions[o + 2] = p[2];
      colours[o] = r;
      colours[o + 1] = g;
      colours[o + 2] = b;
    }
    t += count / 3;
  });
  starts[meshes.length] = t;
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(positions, 3));
  geometry.setAttribute('color', new THREE.BufferAttribute(colours, 3));
  geometry.computeVertexNormals();
  geometry.computeBoundingSphere();
  const mesh = new THREE.Mesh(geometry, MESH_MATERIAL);
  mesh.userData = { group, kind: 'meshes', features: meshes.map((m) => m.descriptor), triangleStarts: starts } satisfies ModelUserData;
  return mesh;
}

/** The feature a picked triangle belongs to. */
export function featureAtTriangle(data: ModelUserData, triangle: number): Descriptor | null {
  const starts = data.triangleStarts;
  if (!starts) return data.features[0] ?? null;
  let lo = 0,
    hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= triangle) lo = mid;
    else hi = mid - 1;
  }
  return data.features[lo] ?? null;
}

export interface ResponseNode {
  type: string;
  x: number;
  y: number;
  z: number;
  rotation: number;
  scale: number;
  descriptor: Descriptor;
}

/** A simple shape per node type, 1 m tall at the origin, standing on y = 0. */
function shapeFor(type: string): THREE.BufferGeometry[] {
  switch (type) {
    case 'tree':
      // trunk (lower third), crown (a sphere above it); scaled per instance
      return [new THREE.CylinderGeometry(0.04, 0.05, 0.4, 6).translate(0, 0.2, 0), new THREE.IcosahedronGeometry(0.5, 1).translate(0, 0.5, 0)];
    case 'shrubbery':
      return [new THREE.IcosahedronGeometry(0.5, 0).translate(0, 0.5, 0)];
    case 'utilityPole':
    case 'streetLamp':
    case 'flagpole':
    case 'transmissionTower':
    case 'towerCrane':
    case 'windTurbine':
      return [new THREE.CylinderGeometry(0.015, 0.025, 1, 6).translate(0, 0.5, 0)];
    case 'bench':
    case 'picnicTable':
      return [new THREE.BoxGeometry(1.8, 1, 0.6).translate(0, 0.5, 0)];
    case 'busStop':
      return [new THREE.BoxGeometry(1.5, 1, 0.6).translate(0, 0.5, 0)];
    default:
      return [new THREE.CylinderGeometry(0.2, 0.2, 1, 8).translate(0, 0.5, 0)];
  }
}

function nodeMaterial(kind: string): THREE.MeshLambertMaterial {
  let m = NODE_MATERIALS.get(kind);
  if (!m) NODE_MATERIALS.set(kind, (m = new THREE.MeshLambertMaterial({ color: new THREE.Color().setRGB(...colourOf(kind), THREE.SRGBColorSpace) })));
  return m;
}

/** Metres: a tree's own height and crown, else the type's nominal height × scale. */
function nodeSize(node: ResponseNode): { height: number; width: number } {
  const d = node.descriptor ?? {};
  const nominal = (NOMINAL_HEIGHT as Record<string, number>)[node.type] ?? 1;
  const height = typeof d.height === 'number' ? d.height : nominal * (node.scale || 1);
  const crown = typeof d.crownDiameter === 'number' ? d.crownDiameter : node.type === 'tree' ? height * 0.6 : height;
  return { height, width: node.type === 'tree' || node.type === 'shrubbery' ? crown : height };
}

/** Instanced shapes for a batch of nodes: one InstancedMesh per type and shape part. */
export function nodeBatch(group: string, nodes: ResponseNode[], frame: Frame): THREE.InstancedMesh[] {
  const byType = new Map<string, ResponseNode[]>();
  for (const n of nodes) {
    const list = byType.get(n.type);
    if (list) list.push(n);
    else byType.set(n.type, [n]);
  }
  const out: THREE.InstancedMesh[] = [];
  const m = new THREE.Matrix4(),
    q = new THREE.Quaternion(),
    s = new THREE.Vector3(),
    p = new THREE.Vector3(),
    up = new THREE.Vector3(0, 1, 0);
  for (const [type, list] of byType) {
    const parts = shapeFor(type);
    parts.forEach((geometry, part) => {
      // a tree's trunk is brown, its crown the tree's colour
      const material = nodeMaterial(parts.length > 1 && part === 0 ? 'trunk' : type);
      const mesh = new THREE.InstancedMesh(geometry, material, list.length);
      list.forEach((node, i) => {
        const { height, width } = nodeSize(node);
        const [x, y, z] = toViewer(frame, node.x, node.y, node.z);
        p.set(x, y, z);
        q.setFromAxisAngle(up, node.rotation || 0);
        // a tree's trunk keeps its own thickness ratio; the crown takes the crown diameter
        const w = type === 'tree' && part === 0 ? Math.max(height * 0.6, 1) : width;
        s.set(w, height, w);
        mesh.setMatrixAt(i, m.compose(p, q, s));
      });
      mesh.computeBoundingSphere();
      mesh.userData = {
        group,
        kind: 'nodes',
        features: list.map((n) => ({ ...n.descriptor, type: n.type })),
        countsNodes: part === parts.length - 1,
      } satisfies ModelUserData;
      out.push(mesh);
    });
  }
  return out;
}

export interface ElevationMap {
  elevationMap: number[];
  info: { terrainSize: number; segmentsCount: number; moveVector: { x: number; y: number } };
}

/** A height grid: PlaneGeometry laid flat, heights as y (first row north, as the API orders them). */
export function elevationMesh(group: string, map: ElevationMap, frame: Frame): THREE.Mesh {
  const { terrainSize, segmentsCount, moveVector } = map.info;
  const geometry = new THREE.PlaneGeometry(terrainSize, terrainSize, segmentsCount, segmentsCount).rotateX(-Math.PI / 2);
  const pos = geometry.getAttribute('position') as THREE.BufferAttribute;
  for (let i = 0; i < pos.count; i++) pos.setY(i, map.elevationMap[i] ?? 0);
  ensureOffset(frame, moveVector.x, moveVector.y); // maps may come before any mesh
  const [ox, on] = frame.offset!;
  geometry.translate(moveVector.x - ox, 0, -(moveVector.y - on));
  geometry.computeVertexNormals();
  geometry.computeBoundingSphere();
  const [r, g, b] = colourOf('terrain');
  const mesh = new THREE.Mesh(geometry, new THREE.MeshLambertMaterial({ color: new THREE.Color().setRGB(r, g, b, THREE.SRGBColorSpace) }));
  mesh.userData = { group, kind: 'terrain', features: [{ type: 'terrain', ...map.info }] } satisfies ModelUserData;
  return mesh;
}

/** Polylines (surface linework) as one LineSegments object per batch. */
export function lineBatch(group: string, lines: { vertices: number[]; closed: boolean; descriptor: Descriptor }[], frame: Frame): THREE.LineSegments {
  const points: number[] = [];
  const colours: number[] = [];
  for (const line of lines) {
    const n = line.vertices.length / 3;
    const colour = linearColourOf(String(line.descriptor?.kind ?? 'centerline'));
    const end = line.closed ? n : n - 1;
    for (let i = 0; i < end; i++) {
      const j = (i + 1) % n;
      points.push(...toViewer(frame, line.vertices[i * 3], line.vertices[i * 3 + 1], line.vertices[i * 3 + 2] + (frame.zUp ? 0.05 : 0)));
      points.push(...toViewer(frame, line.vertices[j * 3], line.vertices[j * 3 + 1], line.vertices[j * 3 + 2]));
      colours.push(...colour, ...colour);
    }
  }
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.Float32BufferAttribute(points, 3));
  geometry.setAttribute('color', new THREE.Float32BufferAttribute(colours, 3));
  const object = new THREE.LineSegments(geometry, new THREE.LineBasicMaterial({ vertexColors: true }));
  object.userData = { group, kind: 'lines', features: lines.map((l) => l.descriptor) } satisfies ModelUserData;
  return object;
}
