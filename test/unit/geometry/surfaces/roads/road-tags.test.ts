/**
 * Road tags → widths, sidewalks, kinds (src/geometry/surfaces/roads/widths.ts, sidewalks.ts,
 * classify.ts): table values, tag precedence, units, and properties over random tags.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  carriagewayWidth,
  CARRIAGEWAY_CLASSES,
  isOneWay,
  parseLanes,
  parseWidth,
  pathWidth,
  PATH_WIDTHS,
  taggedLanes,
} from '../../../../../src/geometry/surfaces/roads/widths.ts';
import { parseSidewalks } from '../../../../../src/geometry/surfaces/roads/sidewalks.ts';
import { notDrawnReason, roadProfile } from '../../../../../src/geometry/surfaces/roads/classify.ts';

const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9, `${a} ≠ ${b}`);

test('widths: the class defaults come from lane widths of real streets', () => {
  close(carriagewayWidth('residential', {}).width, 6.0);
  close(carriagewayWidth('residential', { oneway: 'yes' }).width, 3.0);
  close(carriagewayWidth('primary', {}).width, 2 * 3.25 + 1.0);
  close(carriagewayWidth('motorway', {}).width, 2 * 3.5 + 3.0); // one-way by default
  close(carriagewayWidth('motorway', { oneway: 'no' }).width, 4 * 3.5 + 3.0);
  close(carriagewayWidth('service', {}).width, 5.5);
  close(carriagewayWidth('service', { service: 'driveway' }).width, 3.0);
  close(carriagewayWidth('living_street', {}).width, 5.5);
  close(carriagewayWidth('track', {}).width, 3.0);
  assert.equal(carriagewayWidth('residential', {}).source, 'default');
});

test('widths: width tag (with units) beats lanes, which beat the default', () => {
  close(carriagewayWidth('primary', { width: '9', lanes: '4' }).width, 9);
  assert.equal(carriagewayWidth('primary', { width: '9', lanes: '4' }).source, 'width');
  close(carriagewayWidth('primary', { width: '30 ft' }).width, 30 * 0.3048);
  close(carriagewayWidth('primary', { width: "12'" }).width, 12 * 0.3048);
  close(carriagewayWidth('primary', { width: '7,5 m' }).width, 7.5);
  close(carriagewayWidth('primary', { 'width:carriageway': '8', width: '12' }).width, 8);
  close(carriagewayWidth('primary', { lanes: '4' }).width, 4 * 3.25 + 1.0);
  close(carriagewayWidth('tertiary', { 'lanes:forward': '2', 'lanes:backward': '1' }).width, 3 * 3.0 + 0.5);
  close(carriagewayWidth('residential', { lanes: '2;3' }).width, 9);
  // typos and absurd values fall through to the next evidence
  close(carriagewayWidth('residential', { width: '500' }).width, 6);
  close(carriagewayWidth('residential', { width: 'wide' }).width, 6);
  close(carriagewayWidth('residential', { lanes: '0' }).width, 6);
});

test('widths: painted cycle lanes and parking lanes widen the carriageway', () => {
  close(carriagewayWidth('residential', { 'cycleway:both': 'lane' }).width, 6 + 2 * 1.5);
  close(carriagewayWidth('residential', { cycleway: 'track' }).width, 6);
  close(carriagewayWidth('residential', { 'parking:lane:both': 'parallel' }).width, 6 + 4);
  close(carriagewayWidth('residential', { 'parking:right': 'lane', 'parking:right:orientation': 'diagonal' }).width, 6 + 4.5);
  close(carriagewayWidth('residential', { 'parking:both': 'street_side' }).width, 6);
});

test('widths: paths and parsers', () => {
  close(pathWidth('footway', {}).width, 2);
  close(pathWidth('path', {}).width, 1.5);
  close(pathWidth('pedestrian', {}).width, 5);
  close(pathWidth('steps', { width: '3.5' }).width, 3.5);
  assert.equal(parseLanes('2'), 2);
  assert.equal(parseLanes('x'), null);
  assert.equal(parseLanes('2;a'), null);
  assert.equal(parseWidth('0.1'), null);
  assert.equal(taggedLanes({ 'lanes:forward': '2' }), 2);
  assert.equal(isOneWay({ junction: 'roundabout' }), true);
  assert.equal(isOneWay({ highway: 'motorway', oneway: 'no' }), false);
  assert.equal(isOneWay({ oneway: '-1' }), true);
});

test('widths: every class and path value gives a positive width, one-way never wider', () => {
  const classes = Object.keys(CARRIAGEWAY_CLASSES);
  fc.assert(
    fc.property(
      fc.constantFrom(...classes),
      fc.record(
        {
          lanes: fc.option(fc.integer({ min: -1, max: 20 }).map(String), { nil: undefined }),
          width: fc.option(fc.double({ min: -5, max: 80, noNaN: true }).map(String), { nil: undefined }),
        },
        { requiredKeys: [] },
      ),
      (cls, raw) => {
        const tags: Record<string, string> = {};
        for (const [k, v] of Object.entries(raw)) if (v !== undefined) tags[k] = v;
        const two = carriagewayWidth(cls, tags).width,
          one = carriagewayWidth(cls, { ...tags, oneway: 'yes' }).width;
        assert.ok(two > 0 && Number.isFinite(two));
        assert.ok(one <= two + 1e-9);
      },
    ),
  );
  for (const p of Object.keys(PATH_WIDTHS)) assert.ok(pathWidth(p, {}).width > 0);
});

test('sidewalks: both, one side, separate, none and widths', () => {
  assert.deepEqual(parseSidewalks({ sidewalk: 'both' }), { left: 2, right: 2 });
  assert.deepEqual(parseSidewalks({ sidewalk: 'yes' }), { left: 2, right: 2 });
  assert.deepEqual(parseSidewalks({ sidewalk: 'left' }), { left: 2, right: 0 });
  assert.deepEqual(parseSidewalks({ sidewalk: 'right' }), { left: 0, right: 2 });
  assert.deepEqual(parseSidewalks({ sidewalk: 'separate' }), { left: 0, right: 0 });
  assert.deepEqual(parseSidewalks({ sidewalk: 'no' }), { left: 0, right: 0 });
  assert.deepEqual(parseSidewalks({ sidewalk: 'none' }), { left: 0, right: 0 });
  assert.deepEqual(parseSidewalks({}), { left: 0, right: 0 });
  assert.deepEqual(parseSidewalks({ 'sidewalk:both': 'yes', 'sidewalk:right': 'separate' }), { left: 2, right: 0 });
  assert.deepEqual(parseSidewalks({ sidewalk: 'both', 'sidewalk:left': 'no' }), { left: 0, right: 2 });
  assert.deepEqual(parseSidewalks({ 'sidewalk:left': 'yes', 'sidewalk:left:width': '3.5' }), { left: 3.5, right: 0 });
  assert.deepEqual(parseSidewalks({ sidewalk: 'both', 'sidewalk:both:width': '1.5', 'sidewalk:right:width': '2.5' }), { left: 1.5, right: 2.5 });
  assert.deepEqual(parseSidewalks({ sidewalk: 'both', 'sidewalk:width': "5'" }), { left: 5 * 0.3048, right: 5 * 0.3048 });
});

test('classify: kinds, networks and what is not drawn', () => {
  assert.equal(roadProfile({ highway: 'residential' })?.kind, 'asphalt');
  assert.equal(roadProfile({ highway: 'residential', surface: 'sett' })?.kind, 'asphalt');
  assert.equal(roadProfile({ highway: 'residential', surface: 'gravel' })?.kind, 'sand');
  assert.equal(roadProfile({ highway: 'track' })?.kind, 'sand');
  assert.equal(roadProfile({ highway: 'track', tracktype: 'grade1' })?.kind, 'asphalt');
  assert.equal(roadProfile({ highway: 'track', tracktype: 'grade5' })?.kind, 'grass');
  assert.equal(roadProfile({ highway: 'track', surface: 'grass' })?.kind, 'grass');
  assert.equal(roadProfile({ highway: 'footway' })?.kind, 'pavement');
  assert.equal(roadProfile({ highway: 'path', surface: 'dirt' })?.kind, 'sand');
  assert.equal(roadProfile({ highway: 'path', surface: 'fine_gravel' })?.kind, 'pavement');
  assert.equal(roadProfile({ highway: 'footway' })?.network, 'path');
  assert.equal(roadProfile({ highway: 'primary' })?.network, 'road');
  assert.equal(roadProfile({ highway: 'raceway' })?.network, null);
  const site = roadProfile({ highway: 'construction', construction: 'primary' });
  assert.equal(site?.kind, 'construction');
  close(site!.width, carriagewayWidth('primary', {}).width);
  assert.equal(roadProfile({ highway: 'primary', bridge: 'viaduct' })?.bridge, true);
  assert.equal(roadProfile({ highway: 'primary', bridge: 'no' })?.bridge, false);
  assert.equal(roadProfile({ highway: 'primary', layer: '-1' })?.layer, -1);
  for (const tags of [
    { highway: 'proposed' } as Record<string, string>,
    { highway: 'abandoned' },
    { highway: 'razed' },
    { highway: 'disused' },
    { highway: 'corridor' },
    { highway: 'primary', tunnel: 'yes' },
    { highway: 'footway', tunnel: 'building_passage' },
    { highway: 'service', covered: 'yes' },
    { highway: 'pedestrian', area: 'yes' },
    { highway: 'bus_stop' },
    { highway: 'whatever' },
    { highway: 'footway', indoor: 'yes' },
  ]) {
    assert.equal(roadProfile(tags), null, JSON.stringify(tags));
  }
  assert.equal(notDrawnReason({ highway: 'primary', tunnel: 'yes' }), 'tunnel');
  assert.equal(notDrawnReason({ highway: 'primary', tunnel: 'no' }), null);
  assert.equal(roadProfile({ highway: 'primary', tunnel: 'no', covered: 'no' })?.kind, 'asphalt');
});
