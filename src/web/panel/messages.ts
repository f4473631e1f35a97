/**
 * What the answer says besides geometry: warnings, data access, the credit lines (always shown,
 * as the data licences require), and a feature's descriptor with a link to its OSM object.
 */
import type { ModelMeta } from '../viewer/model-loader.ts';
import type { Descriptor } from '../viewer/model-objects.ts';

export const BASE_CREDIT = '© OpenStreetMap contributors (ODbL)';

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (className) e.className = className;
  return e;
}

export function showMeta(warnings: HTMLElement, credits: HTMLElement, meta: ModelMeta | null): void {
  warnings.replaceChildren();
  if (meta) {
    for (const w of meta.warnings ?? []) warnings.append(el('div', `${w.code}: ${w.message}`, 'warning'));
    const access = meta.dataAccess as { granted?: string; reason?: string | null } | undefined;
    if (access) warnings.append(el('div', `Data access: ${access.granted ?? '?'}${access.reason ? ` (${access.reason})` : ''}`, 'access'));
  }
  const lines = meta?.attributions?.length ? meta.attributions : [{ text: BASE_CREDIT }];
  credits.replaceChildren(...lines.map((a) => el('span', a.text)));
}

/** The OSM page of an id such as `way/123` (null for ids that are not OSM objects: fill/…, canopy/…, premium ids). */
export function osmLink(id: unknown): string | null {
  return typeof id === 'string' && /^(node|way|relation)\/\d+$/.test(id) ? `https://www.openstreetmap.org/${id}` : null;
}

const FIRST = ['type', 'id', 'source', 'height', 'minHeight', 'levels', 'heightSource', 'roofType', 'roofHeight', 'crownDiameter', 'dataNotes'];

export function showDescriptor(box: HTMLElement, descriptor: Descriptor | null, group: string | null): void {
  box.replaceChildren();
  box.hidden = descriptor === null;
  if (!descriptor) return;
  const close = el('button', '×', 'close');
  close.addEventListener('click', () => showDescriptor(box, null, null));
  box.append(close, el('div', group ?? '', 'group'));
  const table = el('table');
  const keys = [...FIRST.filter((k) => k in descriptor), ...Object.keys(descriptor).filter((k) => !FIRST.includes(k))];
  for (const key of keys) {
    const value = descriptor[key];
    const row = el('tr');
    row.append(el('th', key));
    const cell = el('td');
    const link = key === 'id' ? osmLink(value) : null;
    if (link) {
      // opens OpenStreetMap only when the user follows it; rel keeps this page out of it
      const a = el('a', String(value));
      a.href = link;
      a.target = '_blank';
      a.rel = 'noopener noreferrer';
      cell.append(a);
    } else cell.textContent = typeof value === 'object' ? JSON.stringify(value) : String(value);
    if (key === 'id') cell.dataset.featureId = String(value);
    row.append(cell);
    table.append(row);
  }
  box.append(table);
}
