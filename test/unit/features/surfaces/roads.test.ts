/**
 * roadSurfacesForTile on made-up data: a 1.2 km viaduct of four bridge ways crosses a railway near
 * its east end; two tiles 600 m apart each read only the highways around themselves, and both must
 * give the viaduct's middle way the same deck — the one of the whole chain, clear of the railway —
 * because the store is read around the bridges until the chain is whole.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLocalFrame } from '../../../../src/frame/local-frame.ts';
import { ROAD_READ_METRES, roadSurfacesForTile } from '../../../../src/features/surfaces/roads.ts';
import type { TileContext } from '../../../../src/features/family.ts';
import type { OsmFeature } from '../../../../src/osm-model/feature.ts';
import type { BBox } from '../../../../src/geometry/types.ts';
import { deckHeight, DECK_THICKNESS } from '../../../../src/geometry/surfaces/deck-height.ts';
import { ROAD_CLEARANCE } from '../../../../src/geometry/surfaces/roads/bridge-crossings.ts';
import { memoryOsmSource } from '../../../support/fakes/osm-source.ts';

const frame = createLocalFrame(43.7, 7.4);

function line(id: string, layer: OsmFeature['layer'], tags: Record<string, string>, ...xy: number[]): OsmFeature {
  const ll: number[] = [];
  for (let i = 0; i < xy.length; i += 2) ll.push(...frame.toLonLat(xy[i], xy[i + 1]));
  return { id, layer, tags, kind: 'line', line: ll };
}

const features = [
  line('way/1', 'highway', { highway: 'primary' }, -900, 0, -600, 0),
  line('way/2', 'highway', { highway: 'primary', bridge: 'viaduct' }, -600, 0, -300, 0),
  line('way/3', 'highway', { highway: 'primary', bridge: 'viaduct' }, -300, 0, 300, 0),
  line('way/4', 'highway', { highway: 'primary', bridge: 'viaduct' }, 300, 0, 600, 0),
  line('way/5', 'highway', { highway: 'primary' }, 600, 0, 900, 0),
  line('way/6', 'railway', { railway: 'rail' }, 450, -200, 450, 200),
];

function tileAt(bbox: BBox): TileContext {
  const source = memoryOsmSource(features);
  const pad = (m: number) => {
    const [minLon, minLat] = frame.toLonLat(bbox.minX - m, bbox.minY - m);
    const [maxLon, maxLat] = frame.toLonLat(bbox.maxX + m, bbox.maxY + m);
    return { minLon, minLat, maxLon, maxLat };
  };
  return { frame, source, bbox, lonLatBBox: pad } as unknown as TileContext;
}

test('a viaduct gets the same deck in every tile, the whole chain’s, clear of a railway no tile sees', () => {
  const decks = [-500, 500].map((x0) => {
    const tile = tileAt({ minX: x0 - 200, minY: -200, maxX: x0 + 200, maxY: 200 });
    const read = tile.source.query(tile.lonLatBBox(ROAD_READ_METRES), ['highway']);
    assert.ok(!read.some((f) => f.id === (x0 < 0 ? 'way/4' : 'way/2')), 'the tile reads only the ways around it');
    const r = roadSurfacesForTile(read, tile);
    return r.centerlines.find((l) => l.descriptor.id === 'way/3')!.deck!;
  });
  assert.deepEqual(decks[0], decks[1]);
  const deck = decks[0];
  // the chain is level at the railway's clearance all along between its ramps, so the middle way is
  assert.ok(Math.abs(deckHeight(deck, 0, 0) - (ROAD_CLEARANCE + DECK_THICKNESS)) < 1e-6, `${deckHeight(deck, 0, 0)}`);
});
