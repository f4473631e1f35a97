/**
 * The frame of an IFC4 export: units, the geometric contexts, georeference (IfcMapConversion +
 * IfcProjectedCRS) and the project → site spatial root. Elements are added by ./ifc.ts.
 *
 * The model's axes are the scene's: the grid axes of `georef.crs` (x east, y grid north). So the
 * map conversion has no rotation; true north, which differs from grid north by the meridian
 * convergence, goes to the context's TrueNorth as IFC intends.
 */
import { Handle, IFC4, type IfcAPI, type IfcLineObject } from 'web-ifc';
import type { ExportScene, ExportUnits } from '../scene.ts';
import { METRES_PER_UNIT } from '../scene.ts';
import { localFrameDefinition } from '../../frame/local-frame.ts';
import { stableGlobalId } from './ifc-guid.ts';

/** Writes lines into one open model and hands back references to them. */
export class IfcWriter {
  constructor(readonly api: IfcAPI, readonly model: number) {}
  /** Writes a line whose references are all Handles (web-ifc re-writes nested objects on every use). */
  add(line: IfcLineObject): Handle<any> {
    this.api.WriteLine(this.model, line);
    return new Handle(line.expressID);
  }
}

export interface IfcFrame {
  /** 'Body' sub-context for meshes. */
  body: Handle<any>;
  /** 'Annotation' sub-context for lines. */
  annotation: Handle<any>;
  site: Handle<any>;
  sitePlacement: Handle<any>;
}

const label = (s: string) => new IFC4.IfcLabel(s);
const real = (v: number) => new IFC4.IfcReal(v);
const length = (v: number) => new IFC4.IfcLengthMeasure(v);

/** A length unit: SI (metre, millimetre) or conversion-based (feet, inches, US survey feet). */
function lengthUnit(w: IfcWriter, name: ExportUnits | 'us-ft', metre: Handle<any>): Handle<any> {
  if (name === 'm') return metre;
  if (name === 'mm') return w.add(new IFC4.IfcSIUnit(IFC4.IfcUnitEnum.LENGTHUNIT, IFC4.IfcSIPrefix.MILLI, IFC4.IfcSIUnitName.METRE));
  const factor = name === 'us-ft' ? 1200 / 3937 : METRES_PER_UNIT[name];
  const unitName = name === 'us-ft' ? 'US SURVEY FOOT' : name === 'ft' ? 'FOOT' : 'INCH';
  const dims = w.add(new IFC4.IfcDimensionalExponents(...([1, 0, 0, 0, 0, 0, 0].map((v) => new IFC4.IfcInteger(v)) as [any, any, any, any, any, any, any])));
  const measure = w.add(new IFC4.IfcMeasureWithUnit(new IFC4.IfcLengthMeasure(factor), metre as any));
  return w.add(new IFC4.IfcConversionBasedUnit(dims, IFC4.IfcUnitEnum.LENGTHUNIT, label(unitName), measure));
}

/** The CRS's own length unit and a few descriptive fields, read from its proj4 definition. */
export function crsFacts(scene: ExportScene): { name: string; proj4: string; unit: 'm' | 'ft' | 'us-ft'; metresPerUnit: number; projection?: string; zone?: string; datum?: string } {
  const g = scene.georef;
  const proj4 = g.crs === 'local' ? localFrameDefinition(g.origin.lat, g.origin.lon) : g.proj4 ?? '';
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
  const d = Math.floor(micro / 3600e6); micro -= d * 3600e6;
  const m = Math.floor(micro / 60e6); micro -= m * 60e6;
  const s = Math.floor(micro / 1e6); micro -= s * 1e6;
  return [d, m, s, micro].map((v) => sign * v);
}

/** Units, contexts, georeference, project and site; returns what elements hang from. */
export function writeIfcFrame(w: IfcWriter, scene: ExportScene): IfcFrame {
  const g = scene.georef;
  const metre = w.add(new IFC4.IfcSIUnit(IFC4.IfcUnitEnum.LENGTHUNIT, null, IFC4.IfcSIUnitName.METRE));
  const units = w.add(new IFC4.IfcUnitAssignment([
    lengthUnit(w, scene.units, metre) as any,
    w.add(new IFC4.IfcSIUnit(IFC4.IfcUnitEnum.AREAUNIT, null, IFC4.IfcSIUnitName.SQUARE_METRE)) as any,
    w.add(new IFC4.IfcSIUnit(IFC4.IfcUnitEnum.VOLUMEUNIT, null, IFC4.IfcSIUnitName.CUBIC_METRE)) as any,
    w.add(new IFC4.IfcSIUnit(IFC4.IfcUnitEnum.PLANEANGLEUNIT, null, IFC4.IfcSIUnitName.RADIAN)) as any,
  ]));

  const origin = w.add(new IFC4.IfcCartesianPoint([length(0), length(0), length(0)]));
  const world = w.add(new IFC4.IfcAxis2Placement3D(origin, null, null));
  // True north in model (grid) axes: grid north is true north turned by γ counter-clockwise.
  const γ = g.gridConvergence;
  const trueNorth = w.add(new IFC4.IfcDirection([real(Math.sin(γ)), real(Math.cos(γ))]));
  const context = w.add(new IFC4.IfcGeometricRepresentationContext(label('3D'), label('Model'), new IFC4.IfcDimensionCount(3), real(1e-5), world as any, trueNorth));
  const body = w.add(new IFC4.IfcGeometricRepresentationSubContext(label('Body'), label('Model'), context, null, IFC4.IfcGeometricProjectionEnum.MODEL_VIEW, null));
  const annotation = w.add(new IFC4.IfcGeometricRepresentationSubContext(label('Annotation'), label('Model'), context, null, IFC4.IfcGeometricProjectionEnum.MODEL_VIEW, null));

  // Map conversion: E = Scale·x + Eastings (map units). Anchor: the origin's grid position; absolute: coordinates already are grid.
  const crs = crsFacts(scene);
  const scale = METRES_PER_UNIT[scene.units] / crs.metresPerUnit;
  const [e0, n0] = g.placement === 'anchor' ? g.originGrid : [0, 0];
  const mapUnit = lengthUnit(w, crs.unit, metre);
  const projected = w.add(new IFC4.IfcProjectedCRS(
    label(crs.name), new IFC4.IfcText(crs.proj4),
    crs.datum ? new IFC4.IfcIdentifier(crs.datum) : null, null,
    crs.projection ? new IFC4.IfcIdentifier(crs.projection) : null,
    crs.zone ? new IFC4.IfcIdentifier(crs.zone) : null, mapUnit,
  ));
  w.add(new IFC4.IfcMapConversion(context as any, projected, length(e0 * scale), length(n0 * scale), length(0), real(1), real(0), real(scale)));

  const project = w.add(new IFC4.IfcProject(
    new IFC4.IfcGloballyUniqueId(stableGlobalId(`project:${scene.name}`)), null, label(scene.name),
    new IFC4.IfcText(scene.attribution.join('; ')), null, null, null, [context], units,
  ));
  const sitePlacement = w.add(new IFC4.IfcLocalPlacement(null, w.add(new IFC4.IfcAxis2Placement3D(origin, null, null)) as any));
  const site = w.add(new IFC4.IfcSite(
    new IFC4.IfcGloballyUniqueId(stableGlobalId(`site:${scene.name}`)), null, label('Site'), null, null, sitePlacement, null, null,
    IFC4.IfcElementCompositionEnum.ELEMENT,
    new IFC4.IfcCompoundPlaneAngleMeasure(compoundAngle(g.origin.lat)), new IFC4.IfcCompoundPlaneAngleMeasure(compoundAngle(g.origin.lon)),
    length(0), null, null,
  ));
  w.add(new IFC4.IfcRelAggregates(new IFC4.IfcGloballyUniqueId(stableGlobalId(`project-site:${scene.name}`)), null, null, null, project, [site]));
  return { body, annotation, site, sitePlacement };
}
