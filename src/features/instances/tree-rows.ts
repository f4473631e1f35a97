import { fineUnit, hashString, unit } from '../../geometry/trees/hash.ts';
import { parseTreeKind } from '../../geometry/trees/tags/leaf.ts';
import { parseLength } from '../../osm-model/tag-values/index.ts';
import { surveyedRank } from '../../geometry/trees/tree-cap.ts';
import { TREE_ROW_SPACING, treeRowPositions } from '../../geometry/trees/tree-row.ts';
import { projectFlat } from '../../frame/local-frame.ts';
import type { OsmFeature } from '../../osm-model/feature.ts';
import type { InstanceTile, Placed } from './context.ts';
import { vegetation } from './tree-nodes.ts';

/**
 * `natural=tree_row`: trees spaced along the row (tree-row.ts; `spacing`-less rows every 8 m, both
 * ends planted). Positions are laid out in the fixed frame of the row's first vertex, so every
 * request places them alike; each tree is one node, returned by the tile that owns it.
 */
export function treeRowLonLats(f: OsmFeature, t: InstanceTile): [number, number][] {
  if (f.kind !== 'line' || !f.line || f.tags.natural !== 'tree_row') return [];
  const site = t.siteAt(f.line[0], f.line[1]);
  const spacing = parseLength(f.tags.spacing ?? f.tags['tree_row:spacing'], 100) ?? TREE_ROW_SPACING;
  return treeRowPositions(projectFlat(site.frame, f.line), Math.max(1, spacing)).map(([x, y]) => site.frame.toLonLat(x, y));
}

export function tileTreeRows(t: InstanceTile): Placed[] {
  const out: Placed[] = [];
  for (const f of t.features) {
    const trees = treeRowLonLats(f, t);
    trees.forEach(([lon, lat], n) => {
      const [x, y] = t.tile.frame.toLocal(lon, lat);
      if (!t.takes(x, y) || t.inBuilding(lon, lat)) return;
      const key = `${f.id}#${n}`;
      const v = vegetation('tree', f.tags);
      const descriptor = { type: 'tree', id: f.id, source: 'osm', row: n, ...v.fields, ...parseTreeKind(f.tags) };
      const h = hashString(key);
      const node = { type: 'tree' as const, x, y, z: t.groundAt(x, y), rotation: unit(h) * 2 * Math.PI, scale: v.scale, descriptor };
      out.push({ node, rank: surveyedRank(fineUnit(h, hashString(key, 7))) });
    });
  }
  return out;
}
