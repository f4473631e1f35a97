/**
 * The fixed part of an R2004 DXF around the entities: handles, the symbol tables (layers with
 * their colours, line types, the standard text style, the application that names XDATA, a block
 * record per block), the BLOCKS section (model and paper space, then the shared models drawn
 * once each) and the OBJECTS section. Kept apart from dxf.ts, which draws the entities.
 */
import { colourGroups } from './dxf-colour.ts';
import type { Rgb } from './palette.ts';

/** The application name of our XDATA (a node's stable name on its INSERT). */
export const XDATA_APP = 'CITY_CONTEXT';

/** Fixed group lines written as one space-separated string (codes and values without spaces). */
const groups = (s: string): string[] => s.split(' ');

interface Block {
  name: string;
  record: string;
  begin: string;
  end: string;
  /** Block insertion units (the `$INSUNITS` code the block is drawn in). */
  units: number;
  entities: string[];
}

export class DxfTables {
  private next = 1;
  private readonly layers = new Map<string, { handle: string; colour: Rgb | null }>();
  private readonly blocks: Block[] = [];
  private readonly h: Record<string, string> = {};
  /** Owner (330) of model-space entities: the *Model_Space block record. */
  readonly modelSpace: string;

  constructor() {
    for (const k of [
      'vport',
      'vportActive',
      'ltype',
      'byBlock',
      'byLayer',
      'continuous',
      'layer',
      'layer0',
      'style',
      'standard',
      'view',
      'ucs',
      'appid',
      'acad',
      'dimstyle',
      'blockRecord',
      'msRecord',
      'psRecord',
      'msBlock',
      'msEnd',
      'psBlock',
      'psEnd',
      'root',
      'groups',
      'ours',
    ])
      this.h[k] = this.handle();
    this.modelSpace = this.h.msRecord;
  }

  handle(): string {
    return (this.next++).toString(16).toUpperCase();
  }

  /** The next free handle, for `$HANDSEED`: call after the last entity. */
  seed(): string {
    return this.next.toString(16).toUpperCase();
  }

  /** Declares a layer (once) and returns its name; `null` colours it ACI 7, white on dark backgrounds and black on light ones. */
  layer(name: string, rgb: Rgb | null): string {
    if (!this.layers.has(name)) this.layers.set(name, { handle: this.handle(), colour: rgb });
    return name;
  }

  /**
   * Defines a block: its record and its entities, which `draw` returns as DXF lines given the
   * owner (330) they must name. Blocks are written in the order they are defined.
   */
  block(name: string, units: number, draw: (owner: string) => string[]): void {
    const record = this.handle(),
      begin = this.handle(),
      end = this.handle();
    this.blocks.push({ name, record, begin, end, units, entities: draw(record) });
  }

  /** CLASSES, TABLES, BLOCKS and the ENTITIES section's start (head); its end, OBJECTS and EOF (tail). */
  sections(): { head: string[]; tail: string[] } {
    const h = this.h;
    const table = (name: string, handle: string, entries: string[][], extra: string[] = []): string[] => [
      ...groups(`0 TABLE 2 ${name} 5 ${handle} 330 0 100 AcDbSymbolTable 70`),
      String(entries.length),
      ...extra,
      ...entries.flat(),
      '0',
      'ENDTAB',
    ];
    const record = (type: string, handle: string, owner: string, sub: string, name: string, rest: string[], flags = '0'): string[] => [
      ...groups(`0 ${type} 5 ${handle} 330 ${owner} 100 AcDbSymbolTableRecord 100 ${sub} 2`),
      name,
      '70',
      flags,
      ...rest,
    ];
    const ltype = (handle: string, name: string, text: string): string[] =>
      record('LTYPE', handle, h.ltype, 'AcDbLinetypeTableRecord', name, ['3', text, ...groups('72 65 73 0 40 0')]);
    const layers = [
      record('LAYER', h.layer0, h.layer, 'AcDbLayerTableRecord', '0', groups('62 7 6 Continuous')),
      ...[...this.layers].map(([name, l]) =>
        record('LAYER', l.handle, h.layer, 'AcDbLayerTableRecord', name, [...(l.colour ? colourGroups(l.colour) : ['62', '7']), '6', 'Continuous']),
      ),
    ];
    const vport = record(
      'VPORT',
      h.vportActive,
      h.vport,
      'AcDbViewportTableRecord',
      '*Active',
      groups(
        '10 0 20 0 11 1 21 1 12 0 22 0 13 0 23 0 14 1 24 1 15 0 25 0 16 0 26 0 36 1 17 0 27 0 37 0 ' +
          '40 100 41 1 42 50 43 0 44 0 50 0 51 0 71 0 72 100 73 1 74 3 75 0 76 0 77 0 78 0',
      ),
    );
    // A block record's 70 is the block's insertion units (0 = unitless for the two spaces).
    const blockRecord = (handle: string, name: string, units = 0): string[] =>
      record('BLOCK_RECORD', handle, h.blockRecord, 'AcDbBlockTableRecord', name, [], String(units));
    const block = (begin: string, end: string, owner: string, name: string, entities: string[] = []): string[] => [
      ...groups(`0 BLOCK 5 ${begin} 330 ${owner} 100 AcDbEntity 8 0 100 AcDbBlockBegin 2`),
      name,
      ...groups('70 0 10 0 20 0 30 0 3'),
      name,
      '1',
      '',
      ...entities,
      ...groups(`0 ENDBLK 5 ${end} 330 ${owner} 100 AcDbEntity 8 0 100 AcDbBlockEnd`),
    ];
    const head = [
      ...groups('0 SECTION 2 CLASSES 0 ENDSEC 0 SECTION 2 TABLES'),
      ...table('VPORT', h.vport, [vport]),
      ...table('LTYPE', h.ltype, [ltype(h.byBlock, 'ByBlock', ''), ltype(h.byLayer, 'ByLayer', ''), ltype(h.continuous, 'Continuous', 'Solid line')]),
      ...table('LAYER', h.layer, layers),
      ...table('STYLE', h.style, [
        record('STYLE', h.standard, h.style, 'AcDbTextStyleTableRecord', 'Standard', [...groups('40 0 41 1 50 0 71 0 42 2.5 3 txt 4'), '']),
      ]),
      ...table('VIEW', h.view, []),
      ...table('UCS', h.ucs, []),
      ...table('APPID', h.appid, [
        record('APPID', h.acad, h.appid, 'AcDbRegAppTableRecord', 'ACAD', []),
        record('APPID', h.ours, h.appid, 'AcDbRegAppTableRecord', XDATA_APP, []),
      ]),
      ...table('DIMSTYLE', h.dimstyle, [], ['100', 'AcDbDimStyleTable']),
      ...table('BLOCK_RECORD', h.blockRecord, [
        blockRecord(h.msRecord, '*Model_Space'),
        blockRecord(h.psRecord, '*Paper_Space'),
        ...this.blocks.map((b) => blockRecord(b.record, b.name, b.units)),
      ]),
      ...groups('0 ENDSEC 0 SECTION 2 BLOCKS'),
      ...block(h.msBlock, h.msEnd, h.msRecord, '*Model_Space'),
      ...block(h.psBlock, h.psEnd, h.psRecord, '*Paper_Space'),
      ...this.blocks.flatMap((b) => block(b.begin, b.end, b.record, b.name, b.entities)),
      ...groups('0 ENDSEC 0 SECTION 2 ENTITIES'),
    ];
    const tail = [
      ...groups(`0 ENDSEC 0 SECTION 2 OBJECTS 0 DICTIONARY 5 ${h.root} 330 0 100 AcDbDictionary 281 1 3 ACAD_GROUP 350 ${h.groups}`),
      ...groups(`0 DICTIONARY 5 ${h.groups} 330 ${h.root} 100 AcDbDictionary 281 1 0 ENDSEC 0 EOF`),
    ];
    return { head, tail };
  }
}
