/**
 * A form generated from a JSON Schema object (the OpenAPI document's `Settings` and `Export`
 * components, as the service serves them), so the page offers exactly the fields, values, bounds
 * and defaults the API takes and never drifts from it: booleans as checkboxes, enumerations as
 * selects, lists of names as checkbox groups, numbers as number inputs, strings as text.
 */

export interface JsonSchema {
  type?: string;
  enum?: unknown[];
  items?: JsonSchema;
  default?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  $ref?: string;
}

type Value = boolean | string | number | string[];

interface Field {
  name: string;
  schema: JsonSchema;
  read(): Value | undefined;
  write(value: unknown): void;
}

export class SchemaForm {
  private readonly fields: Field[] = [];
  onChange: () => void = () => {};

  /** `only`: the fields to show, in this order (all when absent). */
  constructor(
    container: HTMLElement,
    schema: JsonSchema,
    only?: readonly string[],
    private readonly idPrefix = 'f',
  ) {
    const names = only ?? Object.keys(schema.properties ?? {});
    for (const name of names) {
      const field = schema.properties?.[name];
      if (field) this.fields.push(this.addField(container, name, field, schema.required?.includes(name) ?? false));
    }
  }

  /** The values that differ from the schema's defaults (the API fills in the rest). */
  value(): Record<string, Value> {
    const out: Record<string, Value> = {};
    for (const f of this.fields) {
      const v = f.read();
      if (v !== undefined && JSON.stringify(v) !== JSON.stringify(f.schema.default)) out[f.name] = v;
    }
    return out;
  }

  /** Sets the given fields; the others go back to their defaults. */
  setValue(values: Record<string, unknown>): void {
    for (const f of this.fields) f.write(values[f.name] ?? f.schema.default);
  }

  private addField(container: HTMLElement, name: string, schema: JsonSchema, required: boolean): Field {
    const row = document.createElement('div');
    row.className = 'field';
    row.title = schema.description ?? '';
    const label = document.createElement('label');
    label.textContent = name;
    const id = `${this.idPrefix}-${name}`;
    label.htmlFor = id;
    row.append(label);
    container.append(row);
    const changed = () => this.onChange();
    if (schema.type === 'array' && schema.items?.enum) {
      const box = document.createElement('div');
      box.className = 'choices';
      box.id = id;
      const inputs = schema.items.enum.map((option) => {
        const l = document.createElement('label');
        const input = document.createElement('input');
        input.type = 'checkbox';
        input.value = String(option);
        input.dataset.field = name;
        input.addEventListener('change', changed);
        l.append(input, ` ${String(option)}`);
        box.append(l);
        return input;
      });
      row.append(box);
      const field: Field = {
        name,
        schema,
        read: () => inputs.filter((i) => i.checked).map((i) => i.value),
        write: (v) => {
          const set = new Set(Array.isArray(v) ? v.map(String) : []);
          for (const i of inputs) i.checked = set.has(i.value);
        },
      };
      field.write(schema.default);
      return field;
    }
    if (schema.type === 'boolean') {
      const input = document.createElement('input');
      input.type = 'checkbox';
      input.id = id;
      input.addEventListener('change', changed);
      row.append(input);
      const field: Field = { name, schema, read: () => input.checked, write: (v) => (input.checked = v === true) };
      field.write(schema.default);
      return field;
    }
    if (schema.enum) {
      const select = document.createElement('select');
      select.id = id;
      if (required && schema.default === undefined) select.append(new Option('—', ''));
      for (const option of schema.enum) select.append(new Option(String(option), String(option)));
      select.addEventListener('change', changed);
      row.append(select);
      const field: Field = {
        name,
        schema,
        read: () => (select.value === '' ? undefined : select.value),
        write: (v) => (select.value = v === undefined ? '' : String(v)),
      };
      field.write(schema.default);
      return field;
    }
    const input = document.createElement('input');
    input.id = id;
    const numeric = schema.type === 'number' || schema.type === 'integer';
    input.type = numeric ? 'number' : 'text';
    if (numeric) {
      if (schema.minimum !== undefined) input.min = String(schema.minimum);
      if (schema.maximum !== undefined) input.max = String(schema.maximum);
      input.step = schema.type === 'integer' ? '1' : 'any';
    }
    input.addEventListener('change', changed);
    row.append(input);
    const field: Field = {
      name,
      schema,
      read: () => (input.value === '' ? undefined : numeric ? Number(input.value) : input.value),
      write: (v) => (input.value = v === undefined || v === null ? '' : String(v)),
    };
    field.write(schema.default);
    return field;
  }
}
