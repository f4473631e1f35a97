/** Credit lines of the data sources (data/README.md); a response lists those that contributed. */
export interface Attribution {
  id: string;
  name: string;
  text: string;
  license: string;
  url: string;
  required: boolean;
}

export const OSM_ATTRIBUTION: Attribution = {
  id: 'osm',
  name: 'OpenStreetMap',
  text: '© OpenStreetMap contributors',
  license: 'ODbL 1.0',
  url: 'https://www.openstreetmap.org/copyright',
  required: true,
};

export const SRTM_ATTRIBUTION: Attribution = {
  id: 'srtm',
  name: 'SRTM',
  text: 'SRTM elevation data courtesy of NASA/USGS',
  license: 'Public domain',
  url: 'https://www.usgs.gov/centers/eros/science/usgs-eros-archive-digital-elevation-shuttle-radar-topography-mission-srtm-1',
  required: false,
};
