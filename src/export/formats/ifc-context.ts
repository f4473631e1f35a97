/**
 * The frame of an IFC4 export: units, the geometric contexts, georeference (IfcMapConversion +
 * IfcProjectedCRS) and the project → site spatial root. Elements are added by ./ifc.ts.
 *
 * The model's axes are the scene's: the grid axes of `georef.crs` (x east, y grid north). So the
 * map conversion has no rotation; true north, which differs from grid north by the meridian
 * convergence, goes to the context's TrueNorth as IFC intends.
 */
import type { ExportSceneHead, ExportUnits } from '../scene.ts';
import { METRES_PER_UNIT } from '../scene.ts';
import { localFrameDefinition } from '../../frame/local-frame.ts';
import { stableGlobalId } from './ifc-guid.ts';
import { DERIVED, NULL, type StepFile, enumeration, int, list, real, ref, str, typed } from './ifc-step.ts';

export interface IfcFrame {
  /** 'Body' sub-context for meshes. */
  body: number;
  /** 'Annotation' sub-context for lines. */
  annotation: number;
  /** 'Axis' sub-context for the centre curves of linear elements (cables). */
  axis: number;
  site: number;
  sitePlacement: number;
  /** An IfcAxis2Placement3D at 0,0,0 every identity placement shares. */
  identity: number;
  /** The IfcCartesianPoint 0,0,0 (its location), for the mapped items' operators. */
  origin: number;
  /** The IfcProject's number: its line, which carries the attribution, is written last (writeIfcProject). */
  project: number;
  context: number;
  units: number;
}

const siUnit = (f: StepFile, type: string, prefix: string | null, name: string) =>
  f.add('IFCSIUNIT', DERIVED, enumeration(type), prefix ? enumeration(prefix) : NULL, enumeration(name));

/** A length unit: SI (metre, millimetre) or conversion-based (feet, inches, US survey feet). */
function lengthUnit(f: StepFile, name: ExportUnits | 'us-ft', metre: number): number {
  if (name === 'm') return metre;
  if (name === 'mm') return siUnit(f, 'LENGTHUNIT', 'MILLI', 'METRE');
  const factor = name === 'us-ft' ? 1200 / 3937 : METRES_PER_UNIT[name];
  const unitName = name === 'us-ft' ? 'US SURVEY FOOT' : name === 'ft' ? 'FOOT' : 'INCH';
  const dims = f.add('IFCDIMENSIONALEXPONENTS', '1', '0', '0', '0', '0', '0', '0');
  const measure = f.add('IFCMEASUREWITHUNIT', typed('IFCLENGTHMEASURE', real(factor)), ref(metre));
  return f.add('IFCCONVERSIONBASEDUNIT', ref(dims), enumeration('LENGTHUNIT'), str(unitName), ref(measure));
}

/** The CRS's own length unit and a few descriptive fields, read from its proj4 definition. */
export function crsFacts(scene: Pick<ExportSceneHead, 'georef'>): {
  name: string;
  proj4: string;
  unit: 'm' | 'ft' | 'us-ft';
  metresPerUnit: number;
  projection?: string;
  zone?: string;
  datum?: string;
} {
  const g = scene.georef;
  const proj4 = g.crs === 'local' ? localFrameDefinition(g.origin.lat, g.origin.lon) : (g.proj4 ?? '');
  const param = (k: string) => proj4.match(new RegExp(`\\+${k}=(\\S+)`))?.[1];
  const toMeter = Number(param('to_meter'));
  const units = param('units');
  const unit = units === 'us-ft' || Math.abs(toMeter - 1200 / 3937) < 1e-12 ? 'us-ft' : units === 'ft' || Math.abs(toMeter - 0.3048) < 1e-12 ? 'ft' : 'm';
  const metresPerUnit = unit === 'us-ft' ? 1200 / 3937 : unit === 'ft' ? 0.3048 : 1;
  const name = g.crs === 'local' ? `City Context local TM ${g.origin.lat}N ${g.origin.lon}E` : `EPSG:${g.crs}`;
  return { name, proj4, unit, metresPerUnit, projection: param('proj'), zone: param('zone'), datum: param('datum') ?? param('ellps') };
}

/** Degrees → IFC compound angle [deg, min, sec, millionths of a second], all with the sign of the angle. */
export function compoundAngle(deg: number): number[] {
  const sign = deg < 0 ? -1 : 1;
  let micro = Math.round(Math.abs(deg) * 3600e6);
  const d = Math.floor(micro / 3600e6);
  micro -= d * 3600e6;
  const m = Math.floor(micro / 60e6);
  micro -= m * 60e6;
  const s = Math.floor(micro / 1e6);
  micro -= s * 1e6;
  return [d, m, s, micro].map((v) => sign * v);
}

/** Units, contexts, georeference and site (the project's line comes last); returns what elements hang from. */
export function writeIfcFrame(f: StepFile, scene: ExportSceneHead): IfcFrame {
  const g = scene.georef;
  const metre = siUnit(f, 'LENGTHUNIT', null, 'METRE');
  const units = f.add(
    'IFCUNITASSIGNMENT',
    list(
      [
        lengthUnit(f, scene.units, metre),
        siUnit(f, 'AREAUNIT', null, 'SQUARE_METRE'),
        siUnit(f, 'VOLUMEUNIT', null, 'CUBIC_METRE'),
        siUnit(f, 'PLANEANGLEUNIT', null, 'RADIAN'),
      ].map(ref),
    ),
  );

  const origin = f.add('IFCCARTESIANPOINT', list([real(0), real(0), real(0)]));
  const identity = f.add('IFCAXIS2PLACEMENT3D', ref(origin), NULL, NULL);
  // True north in model (grid) axes: grid north is true north turned by γ counter-clockwise.
  const γ = g.gridConvergence;
  const trueNorth = f.add('IFCDIRECTION', list([real(Math.sin(γ)), real(Math.cos(γ))]));
  const context = f.add('IFCGEOMETRICREPRESENTATIONCONTEXT', str('3D'), str('Model'), int(3), real(1e-5), ref(identity), ref(trueNorth));
  const sub = (id: string, view: string) =>
    f.add('IFCGEOMETRICREPRESENTATIONSUBCONTEXT', str(id), str('Model'), DERIVED, DERIVED, DERIVED, DERIVED, ref(context), NULL, enumeration(view), NULL);
  const body = sub('Body', 'MODEL_VIEW'),
    annotation = sub('Annotation', 'MODEL_VIEW'),
    axis = sub('Axis', 'GRAPH_VIEW');

  // Map conversion: E = Scale·x + Eastings (map units). Anchor: the origin's grid position; absolute: coordinates already are grid.
  const crs = crsFacts(scene);
  const scale = METRES_PER_UNIT[scene.units] / crs.metresPerUnit;
  const [e0, n0] = g.placement === 'anchor' ? g.originGrid : [0, 0];
  const mapUnit = lengthUnit(f, crs.unit, metre);
  const optional = (v: string | undefined) => (v ? str(v) : NULL);
  const projected = f.add(
    'IFCPROJECTEDCRS',
    str(crs.name),
    str(crs.proj4),
    optional(crs.datum),
    NULL,
    optional(crs.projection),
    optional(crs.zone),
    ref(mapUnit),
  );
  f.add('IFCMAPCONVERSION', ref(context), ref(projected), real(e0 * scale), real(n0 * scale), real(0), real(1), real(0), real(scale));

  const project = f.reserve();
  const sitePlacement = f.add('IFCLOCALPLACEMENT', NULL, ref(identity));
  const angle = (deg: number) => list(compoundAngle(deg).map(int));
  const site = f.add(
    'IFCSITE',
    str(stableGlobalId(`site:${scene.name}`)),
    NULL,
    str('Site'),
    NULL,
    NULL,
    ref(sitePlacement),
    NULL,
    NULL,
    enumeration('ELEMENT'),
    angle(g.origin.lat),
    angle(g.origin.lon),
    real(0),
    NULL,
    NULL,
  );
  f.add('IFCRELAGGREGATES', str(stableGlobalId(`project-site:${scene.name}`)), NULL, NULL, NULL, ref(project), list([ref(site)]));
  return { body, annotation, axis, site, sitePlacement, identity, origin, project, context, units };
}

/** The project's line: its description is the attribution, known once every tile is in. */
export function writeIfcProject(f: StepFile, frame: IfcFrame, name: string, attribution: string[]): void {
  f.set(
    frame.project,
    'IFCPROJECT',
    str(stableGlobalId(`project:${name}`)),
    NULL,
    str(name),
    str(attribution.join('; ')),
    NULL,
    NULL,
    NULL,
    list([ref(frame.context)]),
    ref(frame.units),
  );
}
