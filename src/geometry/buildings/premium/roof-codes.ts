/**
 * CityGML roof type codes (the AdV/SIG3D code list most LoD2 producers use) read as the project's
 * roof names where one fits. Codes without a counterpart among the twelve (half-hipped, offset
 * mono-pitch, cone, shed, tower, mixed, other, and producer-specific codes) stay codes only.
 */
import type { RoofType } from '../../../contract/types.ts';

const ROOF_CODES: Readonly<Record<string, RoofType>> = {
  '1000': 'flat', // Flachdach
  '2100': 'skillion', // Pultdach
  '3100': 'gabled', // Satteldach
  '3200': 'hipped', // Walmdach
  '3400': 'mansard', // Mansardendach
  '3500': 'pyramidal', // Zeltdach
  '3700': 'dome', // Kuppeldach
  '3900': 'round', // Bogendach
};

/** The project's roof name for a file's roof type (a code or already a name), or null when none fits. */
export function roofTypeName(code: string | null): RoofType | null {
  if (!code) return null;
  const trimmed = code.trim();
  return ROOF_CODES[trimmed] ?? (Object.values(ROOF_CODES).includes(trimmed as RoofType) ? (trimmed as RoofType) : null);
}
