import assert from 'node:assert/strict';
import { test } from 'node:test';
import { writeDxf } from '../../../../src/export/formats/dxf.ts';
import { kindColour } from '../../../../src/export/formats/palette.ts';
import type { ExportMesh, ExportScene } from '../../../../src/export/scene.ts';
import { BARRIER_DEFAULTS } from '../../../../src/geometry/barriers/defaults.ts';
import { CABLE_SEGMENTS, cablePoints, SAG_SHARE } from '../../../../src/geometry/instances/models/cable.ts';
import { SURFACE_KINDS } from '../../../../src/geometry/surfaces/types.ts';
import { writeTemp } from '../../../support/checks/export-readers.ts';
import { readDxf } from '../../../support/checks/dxf-reader.ts';
import { boxMesh, quadMesh, sampleScene } from '../../../support/scenes/export-scenes.ts';

const bytes = (rgb: readonly number[]): number[] => rgb.map((c) => Math.round(c * 255));
/** ACI colours a reader without true colour shows as grey: white/black, the two greys, the grey ramp. */
const GREY_ACI = new Set([7, 8, 9, 250, 251, 252, 253, 254, 255]);
/** The ground kinds that are vegetation: green in every program. */
const GREEN_GROUND = ['grass', 'manicuredGrass', 'garden', 'pitch', 'forest', 'shrubbery'];
const isGreen = ([r, g, b]: number[]): boolean => g > r && g > b;

const from = [0, 0, 10],
  to = [40, 0, 12];
const brick: [number, number, number] = [0.7, 0.2, 0.1];

/** Every ground kind, the terrain, every barrier kind, two buildings (one with a colour of its own) and a power-line cable. */
function everyKind(): ExportScene {
  const barrierKinds = [...new Set(BARRIER_DEFAULTS.map((b) => b.kind))];
  const coloured: ExportMesh = { ...boxMesh('way/9', 'building', 20, 0, 0, 30, 10, 12), colour: brick };
  return {
    ...sampleScene({ units: 'm' }),
    groups: [
      { name: 'buildings', meshes: [boxMesh('way/8', 'building', 0, 0, 0, 10, 10, 9), coloured], polylines: [], nodes: [] },
      { name: 'surface', meshes: SURFACE_KINDS.map((k, i) => quadMesh(`way/${100 + i}`, k, i * 10, -20, i * 10 + 9, -11, 0)), polylines: [], nodes: [] },
      { name: 'barriers', meshes: barrierKinds.map((k, i) => boxMesh(`way/${200 + i}`, k, i * 5, -40, 0, i * 5 + 1, -39, 1.5)), polylines: [], nodes: [] },
      { name: 'topography', meshes: [quadMesh('terrain/0', 'terrain', -100, -100, 100, 100, -0.1)], polylines: [], nodes: [] },
      {
        name: 'instances',
        meshes: [],
        nodes: [],
        polylines: [
          { id: 'way/7#0', kind: 'wire', points: cablePoints(from, to), closed: false, descriptor: { type: 'wire', id: 'way/7', span: 0, from, to } },
        ],
      },
    ],
  };
}

test('DXF true colours: every layer carries its kind’s palette colour (420) beside an ACI of the same hue; green ground and hedges are green for readers of either; a colour from the data rides on its faces', () => {
  const scene = everyKind();
  const [r] = readDxf([writeTemp(writeDxf(scene))]);
  assert.deepEqual([r.errors, r.fixes, r.version], [0, 0, 'AC1018']);
  const layers = scene.groups.flatMap((g) => [...g.meshes, ...g.polylines].map((m) => [`${g.name}-${m.kind}`, m.kind] as const));
  assert.equal(layers.length, 2 + SURFACE_KINDS.length + new Set(BARRIER_DEFAULTS.map((b) => b.kind)).size + 2);
  for (const [layer, kind] of layers) {
    const [aci, rgb] = r.layerColours[layer] ?? [];
    assert.deepEqual(rgb, bytes(kindColour(kind)), `${layer}: true colour`);
    assert.ok(aci && aci >= 1 && aci <= 255, `${layer}: ACI ${aci}`);
  }
  for (const layer of [...GREEN_GROUND.map((k) => `surface-${k}`), 'topography-terrain', 'barriers-hedge']) {
    const [aci, rgb, aciRgb] = r.layerColours[layer];
    assert.ok(isGreen(rgb!), `${layer}: ${rgb} is green`);
    assert.ok(!GREY_ACI.has(aci) && isGreen(aciRgb!), `${layer}: ACI ${aci} (${aciRgb}) is a green, not a grey`);
  }
  // the georeference note is ACI 7 without a true colour: white on dark screens, black on paper
  assert.deepEqual(r.layerColours.georeference.slice(0, 2), [7, null]);
  // only the building with building:colour carries a colour of its own; the rest draw ByLayer
  assert.deepEqual(Object.keys(r.ownColours), ['buildings-building']);
  assert.equal(r.ownColours['buildings-building'].length, 1);
  const [aci, rgb] = r.ownColours['buildings-building'][0];
  assert.deepEqual(rgb, bytes(brick));
  // ACI 10–249 run through 24 hues 15° apart, ten shades each: brick is a red (0°) or a red-orange (15°)
  assert.ok([0, 1].includes(Math.floor((aci - 10) / 10)), `brick: ACI ${aci} is a red`);
});

test('DXF cables: a power-line span is a 3D POLYLINE on `instances-wire`, the catenary point for point, sagging below its chord', () => {
  const [r] = readDxf([writeTemp(writeDxf(everyKind()))]);
  assert.deepEqual(
    r.polylines.filter(([layer]) => layer === 'instances-wire'),
    [['instances-wire', true, CABLE_SEGMENTS + 1]],
  );
  assert.deepEqual(r.wires, [[...cablePoints(from, to)]]);
  const mid = r.wires[0].slice((CABLE_SEGMENTS / 2) * 3, (CABLE_SEGMENTS / 2) * 3 + 3);
  assert.ok(Math.abs((from[2] + to[2]) / 2 - mid[2] - SAG_SHARE * 40) < 1e-9, `sags ${SAG_SHARE * 40} m at mid-span: ${mid}`);
  assert.deepEqual(r.layerColours['instances-wire'][1], bytes(kindColour('wire')));
});
