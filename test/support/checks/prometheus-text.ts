/**
 * A strict reader of the Prometheus text exposition format (version 0.0.4): every line is a
 * `# HELP`, a `# TYPE` or a sample of a family declared before it; names, label syntax, escapes
 * and values are checked, a histogram's buckets must be cumulative and end in `+Inf` equal to its
 * `_count`. Throws on the first line that is not so. For the tests of GET /metrics.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help: string;
  samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const SUFFIXES: Record<Family['type'], string[]> = {
  counter: [''],
  gauge: [''],
  untyped: [''],
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
};

export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const lines = text.split('\n');
  if (lines.at(-1) !== '') throw new Error('the exposition must end with a newline');
  lines.pop();
  lines.forEach((line, n) => {
    const where = `line ${n + 1}: ${line}`;
    if (line === '') return;
    if (line.startsWith('#')) {
      const m = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line);
      if (!m) {
        if (/^# (HELP|TYPE) /.test(line)) throw new Error(`malformed ${where}`);
        return; // a comment
      }
      const [, kind, name, rest] = m;
      if (!NAME.test(name)) throw new Error(`bad metric name, ${where}`);
      const family = families.get(name) ?? { name, type: 'untyped' as const, help: '', samples: [] };
      if (kind === 'HELP') family.help = rest;
      else {
        if (!TYPES.has(rest)) throw new Error(`unknown type, ${where}`);
        if (family.samples.length) throw new Error(`TYPE after samples, ${where}`);
        family.type = rest as Family['type'];
      }
      families.set(name, family);
      return;
    }
    const sample = parseSample(line, where);
    const family = familyOf(sample.name, families);
    if (!family) throw new Error(`sample of an undeclared family, ${where}`);
    family.samples.push(sample);
  });
  for (const family of families.values()) if (family.type === 'histogram') checkHistogram(family);
  return families;
}

function familyOf(sampleName: string, families: Map<string, Family>): Family | undefined {
  for (const [name, family] of families) {
    if (SUFFIXES[family.type].some((suffix) => sampleName === name + suffix)) return family;
  }
  return undefined;
}

function parseSample(line: string, where: string): Sample {
  const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})? (\S+)( -?\d+)?$/.exec(line);
  if (!m) throw new Error(`malformed sample, ${where}`);
  const labels: Record<string, string> = {};
  if (m[2]) {
    let rest = m[2].slice(1, -1);
    while (rest.length > 0) {
      const l = /^([^=]+)="((?:[^"\\\n]|\\[\\"n])*)"(,?)/.exec(rest);
      if (!l || !LABEL_NAME.test(l[1])) throw new Error(`malformed labels, ${where}`);
      if (l[1] in labels) throw new Error(`label ${l[1]} twice, ${where}`);
      labels[l[1]] = l[2].replace(/\\(["\\n])/g, (_, c: string) => (c === 'n' ? '\n' : c));
      rest = rest.slice(l[0].length);
      if (!l[3] && rest.length > 0) throw new Error(`labels not separated by commas, ${where}`);
    }
  }
  // Prometheus reads values with Go's ParseFloat: NaN and Inf in any case (prom-client writes `Nan`)
  const raw = m[3];
  if (!/^([-+]?inf|nan|[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?)$/i.test(raw)) throw new Error(`bad value, ${where}`);
  const special = raw.toLowerCase();
  const value = special === 'nan' ? NaN : special.endsWith('inf') ? (special.startsWith('-') ? -Infinity : Infinity) : Number(raw);
  return { name: m[1], labels, value };
}

function checkHistogram(family: Family): void {
  const series = new Map<string, { buckets: [number, number][]; count?: number }>();
  for (const s of family.samples) {
    const { le, ...rest } = s.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    const entry = series.get(key) ?? { buckets: [] };
    series.set(key, entry);
    if (s.name.endsWith('_bucket')) {
      if (le === undefined) throw new Error(`${family.name}: a bucket without le`);
      entry.buckets.push([le === '+Inf' ? Infinity : Number(le), s.value]);
    } else if (s.name.endsWith('_count')) entry.count = s.value;
  }
  for (const [key, { buckets, count }] of series) {
    for (let i = 1; i < buckets.length; i++) {
      if (!(buckets[i][0] > buckets[i - 1][0]) || buckets[i][1] < buckets[i - 1][1]) throw new Error(`${family.name} ${key}: buckets not cumulative`);
    }
    const last = buckets.at(-1);
    if (!last || last[0] !== Infinity || last[1] !== count) throw new Error(`${family.name} ${key}: the +Inf bucket must equal _count`);
  }
}
