/**
 * `GET /docs`: the service's OpenAPI description (GET /v1/openapi.json) rendered as a readable page
 * — operations with their parameters and answers, then every schema as a table of fields — by this
 * small renderer, so it works offline. Text goes in through textContent only.
 */

interface Schema {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  default?: unknown;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  $ref?: string;
  anyOf?: Schema[];
  oneOf?: Schema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
}

interface Operation {
  summary?: string;
  description?: string;
  operationId?: string;
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
}

interface OpenApi {
  info?: { title?: string; version?: string; description?: string };
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  e.append(...children);
  return e;
}

/** Backticks as code; everything else as text. */
function prose(text: string | undefined): Node[] {
  if (!text) return [];
  return text.split(/(`[^`]+`)/).map((part) => (part.startsWith('`') && part.endsWith('`') ? el('code', part.slice(1, -1)) : document.createTextNode(part)));
}

function refLink(ref: string): HTMLAnchorElement {
  const name = ref.split('/').pop() ?? ref;
  const a = el('a', name);
  a.href = `#schema-${name}`;
  return a;
}

/** A short type expression: `string`, `number (0–200)`, `array of Mesh`, `one of a | b`. */
function typeOf(s: Schema | undefined): (Node | string)[] {
  if (!s) return ['any'];
  if (s.$ref) return [refLink(s.$ref)];
  if (s.enum) return [s.enum.map((v) => JSON.stringify(v)).join(' | ')];
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return alternatives.flatMap((a, i) => [...(i ? [' or '] : []), ...typeOf(a)]);
  if (s.type === 'array') return ['array of ', ...typeOf(s.items)];
  const bounds: string[] = [];
  if (s.minimum !== undefined) bounds.push(`≥ ${s.minimum}`);
  if (s.exclusiveMinimum !== undefined) bounds.push(`> ${s.exclusiveMinimum}`);
  if (s.maximum !== undefined) bounds.push(`≤ ${s.maximum}`);
  if (s.pattern) bounds.push(`pattern ${s.pattern}`);
  const type = Array.isArray(s.type) ? s.type.join(' | ') : (s.type ?? 'any');
  return [bounds.length ? `${type} (${bounds.join(', ')})` : type];
}

function schemaTable(s: Schema): HTMLElement {
  if (!s.properties) return el('p', ...typeOf(s), ' — ', ...prose(s.description));
  const table = el('table', el('tr', el('th', 'field'), el('th', 'type'), el('th', 'default'), el('th', 'description')));
  for (const [name, field] of Object.entries(s.properties)) {
    const required = s.required?.includes(name) ? ' (required)' : '';
    table.append(
      el(
        'tr',
        el('td', el('code', name), required),
        el('td', ...typeOf(field)),
        el('td', field.default === undefined ? '' : JSON.stringify(field.default)),
        el('td', ...prose(field.description)),
      ),
    );
  }
  return table;
}

function operation(path: string, method: string, op: Operation): HTMLElement {
  const box = el('div', el('h3', el('span', method), el('code', path)));
  box.className = 'op';
  (box.querySelector('span') as HTMLElement).className = 'method';
  box.append(el('p', ...prose(op.summary)), el('p', ...prose(op.description)));
  if (op.parameters?.length) {
    const table = el('table', el('tr', el('th', 'parameter'), el('th', 'in'), el('th', 'type'), el('th', 'description')));
    for (const p of op.parameters)
      table.append(el('tr', el('td', el('code', p.name)), el('td', p.in), el('td', ...typeOf(p.schema)), el('td', ...prose(p.description))));
    box.append(table);
  }
  for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) box.append(el('p', 'Request body (', type, '): ', ...typeOf(media.schema)));
  const responses = el('table', el('tr', el('th', 'status'), el('th', 'answer')));
  for (const [status, r] of Object.entries(op.responses ?? {})) {
    const schemas = Object.values(r.content ?? {}).flatMap((m) => (m.schema ? [' — ', ...typeOf(m.schema)] : []));
    responses.append(el('tr', el('td', status), el('td', ...prose(r.description), ...schemas)));
  }
  box.append(responses);
  return box;
}

async function render(): Promise<void> {
  const root = document.getElementById('docs')!;
  const doc = (await (await fetch('/v1/openapi.json')).json()) as OpenApi;
  root.replaceChildren(el('h1', doc.info?.title ?? 'API', ' ', el('small', doc.info?.version ?? '')), el('p', ...prose(doc.info?.description)));
  const raw = el('a', 'the OpenAPI document as JSON');
  raw.href = '/v1/openapi.json';
  root.append(el('p', 'This page shows ', raw, '. ', el('a', 'Back to the map')));
  (root.lastElementChild!.lastElementChild as HTMLAnchorElement).href = '/';
  root.append(el('h2', 'Operations'));
  for (const [path, methods] of Object.entries(doc.paths ?? {})) for (const [method, op] of Object.entries(methods)) root.append(operation(path, method, op));
  root.append(el('h2', 'Schemas'));
  for (const [name, s] of Object.entries(doc.components?.schemas ?? {})) {
    const h = el('h3', name);
    h.id = `schema-${name}`;
    root.append(h, el('p', ...prose(s.description)), schemaTable(s));
  }
}

render().catch((err) => {
  document.getElementById('docs')!.textContent = `Could not load the API description: ${String(err)}`;
});
