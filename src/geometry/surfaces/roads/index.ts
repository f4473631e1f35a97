/** Roads as areas: highway centerlines → carriageways, sidewalks, paths, junctions and centerlines. */
export { roadSurfaces, TRIM_SHARE, TRIM_SHARE_DEAD_END, type RoadInput, type RoadSurfaceOptions, type RoadSurfaces } from './road-surfaces.ts';
export { roadProfile, notDrawnReason, type RoadProfile, type RoadNetwork } from './classify.ts';
export { carriagewayWidth, pathWidth, CARRIAGEWAY_CLASSES, PATH_WIDTHS, DEFAULT_SIDEWALK_WIDTH, type RoadWidth, type CarriagewayClass } from './widths.ts';
export { parseSidewalks, type Sidewalks } from './sidewalks.ts';
