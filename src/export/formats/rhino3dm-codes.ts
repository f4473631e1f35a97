/**
 * The numbers a 3dm file is made of: typecodes of the chunks we write (OpenNURBS
 * opennurbs_3dm.h), the archive and OpenNURBS versions stamped in it, OpenNURBS' "unset" double,
 * and UUIDs in the archive's byte order (class ids, object and layer ids derived from their names).
 */
import { createHash } from 'node:crypto';

/** Typecodes written (OpenNURBS opennurbs_3dm.h). */
export const TCODE = {
  COMMENTBLOCK: 0x00000001,
  ENDOFFILE: 0x00007fff,
  ENDOFTABLE: 0xffffffff,
  ANONYMOUS_CHUNK: 0x40008000,
  MODEL_ATTRIBUTES_CHUNK: 0x40008002,
  PROPERTIES_TABLE: 0x10000014,
  PROPERTIES_OPENNURBS_VERSION: 0xa0000026,
  PROPERTIES_APPLICATION: 0x20008024,
  SETTINGS_TABLE: 0x10000015,
  SETTINGS_UNITSANDTOLS: 0x20008031,
  SETTINGS_ATTRIBUTES: 0x20008134,
  BITMAP_TABLE: 0x10000016,
  TEXTURE_MAPPING_TABLE: 0x10000025,
  MATERIAL_TABLE: 0x10000010,
  LINETYPE_TABLE: 0x10000023,
  LAYER_TABLE: 0x10000011,
  LAYER_RECORD: 0x20008050,
  GROUP_TABLE: 0x10000018,
  FONT_TABLE: 0x10000019,
  DIMSTYLE_TABLE: 0x10000020,
  LIGHT_TABLE: 0x10000012,
  HATCHPATTERN_TABLE: 0x10000022,
  INSTANCE_DEFINITION_TABLE: 0x10000021,
  INSTANCE_DEFINITION_RECORD: 0x20008076,
  OBJECT_TABLE: 0x10000013,
  OBJECT_RECORD: 0x20008070,
  OBJECT_RECORD_TYPE: 0x82000071,
  OBJECT_RECORD_ATTRIBUTES: 0x02008072,
  OBJECT_RECORD_ATTRIBUTES_USERDATA: 0x02000073,
  OBJECT_RECORD_END: 0x8200007f,
  HISTORYRECORD_TABLE: 0x10000026,
  USER_TABLE: 0x10000017,
  USER_TABLE_UUID: 0x20008080,
  USER_TABLE_RECORD_HEADER: 0x20008082,
  USER_RECORD: 0x20000081,
  OPENNURBS_CLASS: 0x00027ffa,
  OPENNURBS_CLASS_UUID: 0x0002fffb,
  OPENNURBS_CLASS_DATA: 0x0002fffc,
  OPENNURBS_CLASS_USERDATA: 0x00027ffd,
  OPENNURBS_CLASS_USERDATA_HEADER: 0x0002fff9,
  OPENNURBS_CLASS_END: 0x80027fff,
} as const;

/** Archive version written: 70, a Rhino 7 file (Rhino 7 and 8 open it; Rhino reads its own and older versions only). */
export const ARCHIVE_VERSION = 70;

/**
 * The OpenNURBS version stamped in the file (properties table, user data headers): the one
 * rhino3dm 8 stamps in the version-70 files it writes. Readers gate old-file workarounds on it,
 * so it must be recent.
 */
export const OPENNURBS_VERSION = 2425133316;

/** ON_UNSET_VALUE: OpenNURBS' "no value" double (unset intervals and bounding boxes). */
export const UNSET_VALUE = -1.23432101234321e308;

/** A UUID in the archive's byte order (Data1, Data2, Data3 little-endian, then Data4 as is), from its text form. */
export function uuidBytes(text: string): Uint8Array {
  const h = text.replace(/-/g, '');
  if (!/^[0-9a-fA-F]{32}$/.test(h)) throw new Error(`not a UUID: ${text}`);
  const b = Uint8Array.from(h.match(/../g)!, (x) => parseInt(x, 16));
  return Uint8Array.of(b[3], b[2], b[1], b[0], b[5], b[4], b[7], b[6], ...b.subarray(8));
}

export const NIL_UUID = new Uint8Array(16);

/**
 * UUIDs derived from a key (an object's name, a layer's path), so the same scene always gives the
 * same ids and the same bytes, and a feature keeps its id from one export to the next: SHA-1 of
 * the key and how many times it came before (names repeat: a ground area cut by tiles), as an
 * RFC 4122 version-5-style id.
 */
export class UuidSource {
  private readonly seen = new Map<string, number>();

  next(key: string): Uint8Array {
    const n = this.seen.get(key) ?? 0;
    this.seen.set(key, n + 1);
    const id = new Uint8Array(createHash('sha1').update(`${key}\u0000${n}`).digest().subarray(0, 16));
    id[7] = (id[7] & 0x0f) | 0x50; // version 5 (Data3 is stored little-endian)
    id[8] = (id[8] & 0x3f) | 0x80; // RFC 4122 variant
    return id;
  }
}
