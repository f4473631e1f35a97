/**
 * Everything of a 3dm file around its object table: the start section (signature, archive
 * version, comments), the properties (OpenNURBS version, application), the settings (units,
 * tolerances, the EarthAnchorPoint), the layer table, the document user text, and the end mark
 * holding the file's length. Tables come in OpenNURBS' fixed order and every one is present,
 * empty or not, as OpenNURBS writes them; only the records we fill are written, at the oldest
 * chunk version that carries them.
 */
import type { ArchiveWriter } from './rhino3dm-archive.ts';
import { ARCHIVE_VERSION, NIL_UUID, OPENNURBS_VERSION, TCODE, uuidBytes } from './rhino3dm-codes.ts';
import { writeInstanceDefinitionTable, type InstanceDefinitions } from './rhino3dm-instances.ts';
import { writeClassRecord, writeUserStrings } from './rhino3dm-objects.ts';

const LAYER_CLASS = uuidBytes('95809813-E985-11d3-BFE5-0010830122F0');
/** ON_DocumentUserStringList: the object, and the user table's plug-in id, holding document user text. */
const DOCUMENT_STRINGS = uuidBytes('06F3218E-F5EC-4f6c-B74C-14583F0ED7BC');

export interface LayerRecord {
  id: Uint8Array;
  name: string;
  /** 0–255 sRGB. */
  colour: [number, number, number];
  /** The parent layer's id (a sub-layer: `parent::name`). */
  parent?: Uint8Array;
}

/** Rhino's EarthAnchorPoint: where the model's base point lies on Earth and which model directions are north and east. */
export interface EarthAnchor {
  latitude: number;
  longitude: number;
  elevation: number;
  modelBasePoint: readonly number[];
  modelNorth: readonly number[];
  modelEast: readonly number[];
  name: string;
  description: string;
}

export interface DocumentSettings {
  /** ON::LengthUnitSystem. */
  unitSystem: number;
  metresPerUnit: number;
  absoluteTolerance: number;
  anchor: EarthAnchor;
}

/** The start section: the 32-byte signature with the archive version, then the comment block. */
export function writeStart(w: ArchiveWriter, comments: string): void {
  w.bytes(new TextEncoder().encode(`3D Geometry File Format ${String(ARCHIVE_VERSION).padStart(8)}`));
  w.chunk(TCODE.COMMENTBLOCK, () => {
    w.bytes(new TextEncoder().encode(comments));
    w.u8(0x1a); // ^Z ends the comments, as OpenNURBS writes them
    w.u8(0);
  });
}

export function writeProperties(w: ArchiveWriter, application: string): void {
  w.begin(TCODE.PROPERTIES_TABLE);
  w.short(TCODE.PROPERTIES_OPENNURBS_VERSION, OPENNURBS_VERSION);
  w.chunk(TCODE.PROPERTIES_APPLICATION, () => {
    w.version(1, 0);
    w.string(application);
    w.string(''); // URL
    w.string(''); // details
  });
  w.short(TCODE.ENDOFTABLE, 0);
  w.end();
}

/** ON_3dmUnitsAndTolerances, version 102. */
function writeUnits(w: ArchiveWriter, unitSystem: number, metresPerUnit: number, absoluteTolerance: number): void {
  w.i32(102);
  w.i32(unitSystem);
  w.f64(absoluteTolerance, Math.PI / 180, 0.01); // absolute, angle (1°), relative tolerance
  w.i32(0); // distance display: decimal
  w.i32(3); // display precision
  w.f64(metresPerUnit);
  w.string(''); // custom unit name
}

export function writeSettings(w: ArchiveWriter, s: DocumentSettings): void {
  w.begin(TCODE.SETTINGS_TABLE);
  w.chunk(TCODE.SETTINGS_UNITSANDTOLS, () => writeUnits(w, s.unitSystem, s.metresPerUnit, s.absoluteTolerance));
  // settings attributes, version 1.3: the first with the model base point and the EarthAnchorPoint
  w.begin(TCODE.SETTINGS_ATTRIBUTES);
  w.version(1, 3);
  w.f64(1); // linetype display scale
  w.u32(0xffffffff); // current plot colour: unset
  w.i32(0); // plot colour source
  w.i32(-1); // current linetype: continuous
  w.i32(0); // linetype source
  w.beginVersioned(TCODE.ANONYMOUS_CHUNK, 1, 0);
  writeUnits(w, 2, 0.001, 0.001); // page space: millimetres
  w.end();
  w.bytes(NIL_UUID); // active view
  w.f64(0, 0, 0); // model base point
  const a = s.anchor;
  w.beginVersioned(TCODE.ANONYMOUS_CHUNK, 1, 1);
  w.f64(a.latitude, a.longitude, a.elevation, ...a.modelBasePoint, ...a.modelNorth, ...a.modelEast);
  w.i32(0); // elevation above the ellipsoid
  w.bytes(NIL_UUID);
  w.string(a.name);
  w.string(a.description);
  w.string(''); // URL
  w.string(''); // URL tag
  w.end();
  w.end();
  w.short(TCODE.ENDOFTABLE, 0);
  w.end();
}

function emptyTable(w: ArchiveWriter, tcode: number): void {
  w.begin(tcode);
  w.short(TCODE.ENDOFTABLE, 0);
  w.end();
}

/** ON_Layer, version 1.6: the first with a parent layer id. */
function writeLayer(w: ArchiveWriter, index: number, l: LayerRecord): void {
  w.begin(TCODE.LAYER_RECORD);
  writeClassRecord(w, LAYER_CLASS, () => {
    w.version(1, 6);
    w.i32(0); // mode: normal
    w.i32(index);
    w.i32(-1); // IGES level
    w.i32(-1); // render material: default
    w.i32(0); // obsolete
    w.colour(...l.colour);
    w.i16(0), w.i16(0), w.f64(0, 1); // obsolete line style
    w.string(l.name);
    w.bool(true); // visible
    w.i32(-1); // linetype: continuous
    w.u32(0xffffffff); // plot colour: unset
    w.f64(0); // plot weight: default
    w.bool(false); // locked
    w.bytes(l.id);
    w.bytes(l.parent ?? NIL_UUID);
    w.bool(true); // expanded in the layer panel
  });
  w.end();
}

/** Every table before the object table, the layers in index order, then the nodes' instance definitions. */
export function writeTablesBeforeObjects(
  w: ArchiveWriter,
  settings: DocumentSettings,
  layers: readonly LayerRecord[],
  definitions: InstanceDefinitions | null = null,
): void {
  writeSettings(w, settings);
  emptyTable(w, TCODE.BITMAP_TABLE);
  emptyTable(w, TCODE.TEXTURE_MAPPING_TABLE);
  emptyTable(w, TCODE.MATERIAL_TABLE);
  emptyTable(w, TCODE.LINETYPE_TABLE);
  w.begin(TCODE.LAYER_TABLE);
  layers.forEach((l, i) => writeLayer(w, i, l));
  w.short(TCODE.ENDOFTABLE, 0);
  w.end();
  for (const t of [TCODE.GROUP_TABLE, TCODE.FONT_TABLE, TCODE.DIMSTYLE_TABLE, TCODE.LIGHT_TABLE, TCODE.HATCHPATTERN_TABLE]) emptyTable(w, t);
  writeInstanceDefinitionTable(w, definitions, { system: settings.unitSystem, metresPerUnit: settings.metresPerUnit });
}

/**
 * The object table's header, written apart from its records (they stream out as features come):
 * its length covers the records' `recordBytes` and the end-of-table mark `writeTablesAfterObjects` starts with.
 */
export function writeObjectTableHead(w: ArchiveWriter, recordBytes: number): void {
  w.u32(TCODE.OBJECT_TABLE);
  w.i64(recordBytes + 12);
}

/** Document user text: a user table holding an ON_DocumentUserStringList whose user data are the strings. */
function writeDocumentStrings(w: ArchiveWriter, strings: [string, string][]): void {
  w.begin(TCODE.USER_TABLE);
  w.begin(TCODE.USER_TABLE_UUID);
  w.bytes(DOCUMENT_STRINGS);
  w.beginVersioned(TCODE.USER_TABLE_RECORD_HEADER, 1, 0);
  w.bool(false); // not "unknown" user data
  w.i32(ARCHIVE_VERSION);
  w.i32(OPENNURBS_VERSION);
  w.end();
  w.end();
  w.begin(TCODE.USER_RECORD);
  writeClassRecord(
    w,
    DOCUMENT_STRINGS,
    () => w.u8(1),
    () => writeUserStrings(w, strings),
  );
  w.end();
  w.short(TCODE.ENDOFTABLE, 0);
  w.end();
}

/** Everything after the object table; `end` closes the file once its length is known. */
export function writeTablesAfterObjects(w: ArchiveWriter, documentStrings: [string, string][]): void {
  w.short(TCODE.ENDOFTABLE, 0); // of the object table
  emptyTable(w, TCODE.HISTORYRECORD_TABLE);
  writeDocumentStrings(w, documentStrings);
}

/** Bytes of the end-of-file mark. */
export const END_OF_FILE_LENGTH = 20;

/** The end-of-file mark: the file's whole length, this mark included. */
export function writeEndOfFile(w: ArchiveWriter, bytesBefore: number): void {
  w.u32(TCODE.ENDOFFILE);
  w.i64(8);
  w.i64(bytesBefore + END_OF_FILE_LENGTH);
}
