/**
 * The object-table records of a 3dm file: a mesh, a polyline curve or a point, each with its
 * attributes (id, layer, name, object colour) and the feature's descriptor as user strings
 * (ON_UserStringList user data on the attributes, Rhino's Attribute User Text).
 *
 * Each class record is written at the oldest chunk version that carries what we need: OpenNURBS
 * readers take every older minor version and default the fields it lacks. The mesh is the
 * exception, version 3.8, the first with its own chunk of double-precision vertices, which keep
 * absolute grid coordinates exact (the float vertices OpenNURBS also requires are those rounded,
 * exactly as it checks them on reading).
 */
import type { ArchiveWriter } from './rhino3dm-archive.ts';
import { ARCHIVE_VERSION, NIL_UUID, OPENNURBS_VERSION, TCODE, UNSET_VALUE, uuidBytes } from './rhino3dm-codes.ts';

const CLASS = {
  mesh: uuidBytes('4ED7D4E4-E947-11d3-BFE5-0010830122F0'),
  polyline: uuidBytes('4ED7D4E6-E947-11d3-BFE5-0010830122F0'),
  point: uuidBytes('C3101A1D-F157-11d3-BFE7-0010830122F0'),
  userStrings: uuidBytes('CE28DE29-F4C5-4faa-A50A-C3A6849B6329'),
};

/** The application id OpenNURBS' own user data carries (a user data record needs a non-nil one). */
const OPENNURBS_APP = uuidBytes('17B3ECDA-17BA-4e45-9E67-A2B8D9BE520D');

/** ON::object_type of each record. */
export const OBJECT_TYPE = { point: 1, curve: 4, mesh: 32, instanceReference: 4096 } as const;

/** What an object record says besides its geometry. */
export interface ObjectAttributes {
  id: Uint8Array;
  layer: number;
  name: string;
  /** 0–255 sRGB: the object's own colour, else it takes its layer's. */
  colour?: [number, number, number];
  /** User strings in order (keys unique). */
  strings: [string, string][];
  /**
   * Geometry of an instance definition (ON::idef_object): drawn only through the instance
   * references, in their colour when it has none of its own (colour "by parent").
   */
  definitionGeometry?: boolean;
}

/** An OpenNURBS object (ON_BinaryArchive::WriteObject): class id, class data, user data, end mark. */
export function writeClassRecord(w: ArchiveWriter, classId: Uint8Array, data: () => void, userData?: () => void): void {
  w.begin(TCODE.OPENNURBS_CLASS);
  w.chunk(TCODE.OPENNURBS_CLASS_UUID, () => w.bytes(classId));
  w.chunk(TCODE.OPENNURBS_CLASS_DATA, data);
  userData?.();
  w.short(TCODE.OPENNURBS_CLASS_END, 0);
  w.end();
}

/** An ON_UserStringList as a piece of user data on the object being written. */
export function writeUserStrings(w: ArchiveWriter, strings: [string, string][]): void {
  w.begin(TCODE.OPENNURBS_CLASS_USERDATA);
  w.version(2, 2);
  w.chunk(TCODE.OPENNURBS_CLASS_USERDATA_HEADER, () => {
    w.bytes(CLASS.userStrings); // the user data's class
    w.bytes(CLASS.userStrings); // its item id
    w.i32(1); // copy count
    w.identity();
    w.bytes(OPENNURBS_APP);
    w.bool(false); // not "unknown" user data
    w.i32(ARCHIVE_VERSION);
    w.i32(OPENNURBS_VERSION);
  });
  w.begin(TCODE.ANONYMOUS_CHUNK);
  w.beginVersioned(TCODE.ANONYMOUS_CHUNK, 1, 0);
  w.i32(strings.length);
  for (const [key, value] of strings) {
    w.beginVersioned(TCODE.ANONYMOUS_CHUNK, 1, 0);
    w.string(key);
    w.string(value);
    w.end();
  }
  w.end();
  w.end();
  w.end();
}

/** ON_3dmObjectAttributes, version 2.0: only the items that differ from the defaults, each after its item number. */
function writeAttributes(w: ArchiveWriter, a: ObjectAttributes): void {
  w.begin(TCODE.OBJECT_RECORD_ATTRIBUTES);
  w.version(2, 0);
  w.bytes(a.id);
  w.i32(a.layer);
  if (a.name) {
    w.u8(1);
    w.string(a.name);
  }
  if (a.colour) {
    w.u8(6);
    w.colour(...a.colour);
  }
  if (a.definitionGeometry) {
    w.u8(12); // mode:
    w.u8(3); // instance definition geometry
  }
  if (a.colour || a.definitionGeometry) {
    w.u8(13); // colour source:
    w.u8(a.colour ? 1 : 3); // from the object, else from the parent (the instance reference)
  }
  w.u8(0);
  w.end();
  if (!a.strings.length) return;
  w.begin(TCODE.OBJECT_RECORD_ATTRIBUTES_USERDATA);
  writeUserStrings(w, a.strings);
  w.short(TCODE.OPENNURBS_CLASS_END, 0);
  w.end();
}

/** An object record: its type, the class record of its geometry, its attributes. */
export function writeObject(w: ArchiveWriter, type: number, classId: Uint8Array, a: ObjectAttributes, data: () => void): void {
  w.begin(TCODE.OBJECT_RECORD);
  w.short(TCODE.OBJECT_RECORD_TYPE, type);
  writeClassRecord(w, classId, data);
  writeAttributes(w, a);
  w.short(TCODE.OBJECT_RECORD_END, 0);
  w.end();
}

/** Unit vertex normals: each triangle's area-weighted normal summed at its corners (Rhino's own would be computed on load). */
export function vertexNormals(
  p: Float64Array,
  t: Uint32Array,
  out: Float32Array = new Float32Array(p.length),
  sum: Float64Array = new Float64Array(p.length),
): Float32Array {
  sum.fill(0);
  for (let i = 0; i < t.length; i += 3) {
    const a = 3 * t[i],
      b = 3 * t[i + 1],
      c = 3 * t[i + 2];
    const ux = p[b] - p[a],
      uy = p[b + 1] - p[a + 1],
      uz = p[b + 2] - p[a + 2];
    const vx = p[c] - p[a],
      vy = p[c + 1] - p[a + 1],
      vz = p[c + 2] - p[a + 2];
    const nx = uy * vz - uz * vy,
      ny = uz * vx - ux * vz,
      nz = ux * vy - uy * vx;
    (sum[a] += nx), (sum[a + 1] += ny), (sum[a + 2] += nz);
    (sum[b] += nx), (sum[b + 1] += ny), (sum[b + 2] += nz);
    (sum[c] += nx), (sum[c + 1] += ny), (sum[c + 2] += nz);
  }
  for (let i = 0; i < p.length; i += 3) {
    const l = Math.hypot(sum[i], sum[i + 1], sum[i + 2]);
    if (l > 0) {
      out[i] = sum[i] / l;
      out[i + 1] = sum[i + 1] / l;
      out[i + 2] = sum[i + 2] / l;
    } else (out[i] = out[i + 1] = 0), (out[i + 2] = 1); // a vertex of degenerate triangles only
  }
  return out;
}

/** Arrays reused from mesh to mesh (a dense export writes ~15 000): each is consumed before the next use. */
class Scratch {
  private f32 = new Float32Array(0);
  private f64 = new Float64Array(0);
  private raw = new ArrayBuffer(0);

  floats(n: number): Float32Array {
    if (this.f32.length < n) this.f32 = new Float32Array(Math.max(n, 2 * this.f32.length));
    return this.f32.subarray(0, n);
  }

  doubles(n: number): Float64Array {
    if (this.f64.length < n) this.f64 = new Float64Array(Math.max(n, 2 * this.f64.length));
    return this.f64.subarray(0, n);
  }

  /** `n` unsigned integers of `size` bytes each. */
  ints(n: number, size: 1 | 2 | 4): Uint8Array | Uint16Array | Uint32Array {
    if (this.raw.byteLength < n * size) this.raw = new ArrayBuffer(Math.max(n * size, 2 * this.raw.byteLength));
    return size === 1 ? new Uint8Array(this.raw, 0, n) : size === 2 ? new Uint16Array(this.raw, 0, n) : new Uint32Array(this.raw, 0, n);
  }
}

const scratch = new Scratch();
const EMPTY = new Uint8Array(0);
/** Empty float boxes (minimum above maximum) of the vertices, the normals (xyz) and the texture coordinates (uv). */
const EMPTY_BOXES = new Float32Array([1, 1, 1, -1, -1, -1, 1, 1, 1, -1, -1, -1, 1, 1, -1, -1]);
const UNSET_INTERVALS = new Float64Array(8).fill(UNSET_VALUE);

/** ON_Mesh, version 3.8, of triangles (stored as quads whose last two corners are the same). */
function writeMeshData(w: ArchiveWriter, p: Float64Array, t: Uint32Array, normals: boolean): void {
  const vcount = p.length / 3,
    fcount = t.length / 3;
  w.version(3, 8);
  w.i32(vcount);
  w.i32(fcount);
  w.bytes(UNSET_INTERVALS); // texture and surface domains
  w.f64(0, 0); // surface scale
  w.bytes(EMPTY_BOXES);
  w.i32(-1); // closed: unknown
  w.u8(0); // no mesh parameters
  w.u8(0), w.u8(0), w.u8(0), w.u8(0); // no curvature statistics
  // face corner indices in the narrowest integer that holds every vertex index
  const size = vcount < 256 ? 1 : vcount < 65536 ? 2 : 4;
  w.i32(size);
  const faces = scratch.ints(4 * fcount, size);
  for (let f = 0, i = 0; i < t.length; i += 3, f += 4) {
    faces[f] = t[i];
    faces[f + 1] = t[i + 1];
    faces[f + 2] = faces[f + 3] = t[i + 2];
  }
  w.bytes(faces);
  if (vcount > 0) {
    const floats = scratch.floats(p.length);
    floats.set(p);
    w.compressed(floats); // float vertices: OpenNURBS requires them beside the doubles
    w.compressed(normals ? vertexNormals(p, t, floats, scratch.doubles(p.length)) : EMPTY);
    w.compressed(EMPTY); // texture coordinates
    w.compressed(EMPTY); // curvatures
    w.compressed(EMPTY); // vertex colours
  }
  w.i32(0); // packed texture not rotated
  w.bytes(NIL_UUID); // texture mapping id
  if (vcount > 0) w.compressed(EMPTY); // surface parameters
  // the texture mapping tag (version 1.1): none, identity transform
  w.beginVersioned(TCODE.ANONYMOUS_CHUNK, 1, 1);
  w.bytes(NIL_UUID);
  w.u32(0);
  w.identity();
  w.i32(0);
  w.end();
  w.u8(0), w.u8(0), w.u8(0); // manifold, oriented, solid: unknown
  w.bool(false); // no n-gons
  w.bool(true); // double-precision vertices follow
  w.beginVersioned(TCODE.ANONYMOUS_CHUNK, 1, 0);
  w.u32(vcount);
  if (vcount > 0) w.compressed(p);
  w.end();
  w.bytes(UNSET_INTERVALS.subarray(0, 6)); // vertex box: computed on reading
}

export function writeMeshObject(w: ArchiveWriter, a: ObjectAttributes, positions: Float64Array, indices: Uint32Array, normals = true): void {
  writeObject(w, OBJECT_TYPE.mesh, CLASS.mesh, a, () => writeMeshData(w, positions, indices, normals));
}

/** ON_PolylineCurve, version 1.0: the points, their parameters 0, 1, 2, …, dimension 3. */
export function writePolylineObject(w: ArchiveWriter, a: ObjectAttributes, points: Float64Array, closed: boolean): void {
  writeObject(w, OBJECT_TYPE.curve, CLASS.polyline, a, () => {
    const n = points.length / 3,
      count = n + (closed && n ? 1 : 0);
    w.version(1, 0);
    w.i32(count);
    w.bytes(points);
    if (count > n) w.f64(points[0], points[1], points[2]);
    w.i32(count);
    for (let i = 0; i < count; i++) w.f64(i);
    w.i32(3);
  });
}

/** ON_Point, version 1.0. */
export function writePointObject(w: ArchiveWriter, a: ObjectAttributes, point: readonly [number, number, number]): void {
  writeObject(w, OBJECT_TYPE.point, CLASS.point, a, () => {
    w.version(1, 0);
    w.f64(...point);
  });
}
