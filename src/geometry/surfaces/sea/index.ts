/** The sea from `natural=coastline` ways, per tile square (see sea-areas.ts). */
export { seaAreas, seaAreasDecided, SEA_AREAS_DEFAULTS, type SeaAreasOptions } from './sea-areas.ts';
export { joinCoastlines, extendOpenEnds, type Coastline, type CoastChain } from './chains.ts';
export { nearestBoxPoint, nearestCoastSide, mappedOnly, type SegmentFilter } from './nearest-side.ts';
