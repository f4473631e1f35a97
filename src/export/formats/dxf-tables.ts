/**
 * The fixed part of an R2000 DXF around the entities: handles, the symbol tables (layers with
 * their colours, line types, the standard text style, the model/paper space block records), the
 * BLOCKS and OBJECTS sections. Kept apart from dxf.ts, which only draws entities.
 */

/** A few AutoCAD Colour Index entries and their RGB: layers get the nearest to their kind's colour. */
const ACI: [number, number, number, number][] = [
  [1, 255, 0, 0],
  [2, 255, 255, 0],
  [3, 0, 255, 0],
  [4, 0, 255, 255],
  [5, 0, 0, 255],
  [6, 255, 0, 255],
  [7, 255, 255, 255],
  [8, 128, 128, 128],
  [9, 192, 192, 192],
  [30, 255, 127, 0],
  [32, 165, 82, 0],
  [34, 127, 63, 0],
  [42, 204, 165, 102],
  [52, 255, 234, 170],
  [84, 76, 153, 0],
  [94, 0, 129, 0],
  [96, 0, 76, 0],
  [112, 63, 255, 127],
  [142, 0, 127, 191],
  [150, 0, 127, 255],
  [250, 51, 51, 51],
  [251, 80, 80, 80],
  [252, 105, 105, 105],
  [253, 130, 130, 130],
  [254, 190, 190, 190],
];

function nearestAci([r, g, b]: [number, number, number]): number {
  let best = 7,
    d = Infinity;
  for (const [i, ar, ag, ab] of ACI) {
    const e = (r * 255 - ar) ** 2 + (g * 255 - ag) ** 2 + (b * 255 - ab) ** 2;
    if (e < d) {
      d = e;
      best = i;
    }
  }
  return best;
}

export class DxfTables {
  private next = 1;
  private readonly layers = new Map<string, { handle: string; colour: number }>();
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

  /** Declares a layer (once) and returns its name. */
  layer(name: string, rgb: [number, number, number]): string {
    if (!this.layers.has(name)) this.layers.set(name, { handle: this.handle(), colour: nearestAci(rgb) });
    return name;
  }

  /** CLASSES, TABLES, BLOCKS and the ENTITIES section's start (head); its end, OBJECTS and EOF (tail). */
  sections(): { head: string[]; tail: string[] } {
    const h = this.h;
    const table = (name: string, handle: string, entries: string[][], extra: string[] = []): string[] => [
      '0',
      'TABLE',
      '2',
      name,
      '5',
      handle,
      '330',
      '0',
      '100',
      'AcDbSymbolTable',
      '70',
      String(entries.length),
      ...extra,
      ...entries.flat(),
      '0',
      'ENDTAB',
    ];
    const record = (type: string, handle: string, owner: string, sub: string, name: string, rest: string[]): string[] => [
      '0',
      type,
      '5',
      handle,
      '330',
      owner,
      '100',
      'AcDbSymbolTableRecord',
      '100',
      sub,
      '2',
      name,
      '70',
      '0',
      ...rest,
    ];
    const ltype = (handle: string, name: string, text: string): string[] =>
      record('LTYPE', handle, h.ltype, 'AcDbLinetypeTableRecord', name, ['3', text, '72', '65', '73', '0', '40', '0']);
    const layers = [
      record('LAYER', h.layer0, h.layer, 'AcDbLayerTableRecord', '0', ['62', '7', '6', 'Continuous']),
      ...[...this.layers].map(([name, l]) => record('LAYER', l.handle, h.layer, 'AcDbLayerTableRecord', name, ['62', String(l.colour), '6', 'Continuous'])),
    ];
    const vport = record('VPORT', h.vportActive, h.vport, 'AcDbViewportTableRecord', '*Active', [
      '10',
      '0',
      '20',
      '0',
      '11',
      '1',
      '21',
      '1',
      '12',
      '0',
      '22',
      '0',
      '13',
      '0',
      '23',
      '0',
      '14',
      '1',
      '24',
      '1',
      '15',
      '0',
      '25',
      '0',
      '16',
      '0',
      '26',
      '0',
      '36',
      '1',
      '17',
      '0',
      '27',
      '0',
      '37',
      '0',
      '40',
      '100',
      '41',
      '1',
      '42',
      '50',
      '43',
      '0',
      '44',
      '0',
      '50',
      '0',
      '51',
      '0',
      '71',
      '0',
      '72',
      '100',
      '73',
      '1',
      '74',
      '3',
      '75',
      '0',
      '76',
      '0',
      '77',
      '0',
      '78',
      '0',
    ]);
    const blockRecord = (handle: string, name: string): string[] => record('BLOCK_RECORD', handle, h.blockRecord, 'AcDbBlockTableRecord', name, []);
    const block = (begin: string, end: string, owner: string, name: string): string[] => [
      '0',
      'BLOCK',
      '5',
      begin,
      '330',
      owner,
      '100',
      'AcDbEntity',
      '8',
      '0',
      '100',
      'AcDbBlockBegin',
      '2',
      name,
      '70',
      '0',
      '10',
      '0',
      '20',
      '0',
      '30',
      '0',
      '3',
      name,
      '1',
      '',
      '0',
      'ENDBLK',
      '5',
      end,
      '330',
      owner,
      '100',
      'AcDbEntity',
      '8',
      '0',
      '100',
      'AcDbBlockEnd',
    ];
    const head = [
      '0',
      'SECTION',
      '2',
      'CLASSES',
      '0',
      'ENDSEC',
      '0',
      'SECTION',
      '2',
      'TABLES',
      ...table('VPORT', h.vport, [vport]),
      ...table('LTYPE', h.ltype, [ltype(h.byBlock, 'ByBlock', ''), ltype(h.byLayer, 'ByLayer', ''), ltype(h.continuous, 'Continuous', 'Solid line')]),
      ...table('LAYER', h.layer, layers),
      ...table('STYLE', h.style, [
        record('STYLE', h.standard, h.style, 'AcDbTextStyleTableRecord', 'Standard', [
          '40',
          '0',
          '41',
          '1',
          '50',
          '0',
          '71',
          '0',
          '42',
          '2.5',
          '3',
          'txt',
          '4',
          '',
        ]),
      ]),
      ...table('VIEW', h.view, []),
      ...table('UCS', h.ucs, []),
      ...table('APPID', h.appid, [record('APPID', h.acad, h.appid, 'AcDbRegAppTableRecord', 'ACAD', [])]),
      ...table('DIMSTYLE', h.dimstyle, [], ['100', 'AcDbDimStyleTable']),
      ...table('BLOCK_RECORD', h.blockRecord, [blockRecord(h.msRecord, '*Model_Space'), blockRecord(h.psRecord, '*Paper_Space')]),
      '0',
      'ENDSEC',
      '0',
      'SECTION',
      '2',
      'BLOCKS',
      ...block(h.msBlock, h.msEnd, h.msRecord, '*Model_Space'),
      ...block(h.psBlock, h.psEnd, h.psRecord, '*Paper_Space'),
      '0',
      'ENDSEC',
      '0',
      'SECTION',
      '2',
      'ENTITIES',
    ];
    const tail = [
      '0',
      'ENDSEC',
      '0',
      'SECTION',
      '2',
      'OBJECTS',
      '0',
      'DICTIONARY',
      '5',
      h.root,
      '330',
      '0',
      '100',
      'AcDbDictionary',
      '281',
      '1',
      '3',
      'ACAD_GROUP',
      '350',
      h.groups,
      '0',
      'DICTIONARY',
      '5',
      h.groups,
      '330',
      h.root,
      '100',
      'AcDbDictionary',
      '281',
      '1',
      '0',
      'ENDSEC',
      '0',
      'EOF',
    ];
    return { head, tail };
  }
}
