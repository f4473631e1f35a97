import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gateSpan, type HostWay } from '../../../../src/geometry/barriers/gate-nodes.ts';
import { parseGateNodeTags } from '../../../../src/geometry/barriers/tags/index.ts';

const road = (tags: Record<string, string>): HostWay => ({ id: 'way/1', tags: { highway: 'service', ...tags }, points: [0, -10, 0, 0, 0, 10], closed: false });
const fence: HostWay = { id: 'way/2', tags: { barrier: 'fence' }, points: [-10, 0, 0, 0, 10, 0], closed: false };

test('a gate node on a road spans across it: its own width, else the road width, else the table', () => {
  const own = gateSpan(0, 0, { barrier: 'gate', width: '4' }, [road({ width: '6' })], 2.5)!;
  assert.deepEqual([own.span, own.spanSource, own.on], [4, 'tag', 'way/1']);
  assert.deepEqual(own.line.points, [2, 0, -2, 0]); // across the road (north), 4 m
  assert.equal(gateSpan(0, 0, { barrier: 'gate' }, [road({ width: '6' })], 2.5)!.span, 6);
  const fallback = gateSpan(0, 0, { barrier: 'lift_gate' }, [road({})], 3.5)!;
  assert.deepEqual([fallback.span, fallback.spanSource], [3.5, 'default']);
});

test('a gate node in a fence lies along the fence, also where a path crosses it', () => {
  const g = gateSpan(0, 0, { barrier: 'gate' }, [road({}), fence], 2)!;
  assert.deepEqual([g.on, g.line.points], ['way/2', [-1, 0, 1, 0]]);
});

test('a gate node on no way (or only near one) is not built', () => {
  assert.equal(gateSpan(0.5, 0, { barrier: 'gate' }, [road({})], 2), null);
  assert.equal(gateSpan(0, 0, { barrier: 'gate' }, [], 2), null);
});

test('gate node tags: the node width is the opening, not the leaf thickness; other nodes are no gates', () => {
  const t = parseGateNodeTags({ barrier: 'gate', width: '4', material: 'metal' })!;
  assert.deepEqual([t.kind, t.width, t.height, t.material, t.span], ['gate', 0.08, 1.5, 'metal', 2.5]);
  assert.equal(parseGateNodeTags({ barrier: 'swing_gate' })!.kind, 'lift_gate');
  assert.equal(parseGateNodeTags({ barrier: 'bollard' }), null);
});
