/**
 * Sends fuzz cases (fuzz-cases.ts) to a running service and tallies what came back. A finding is
 * a 5xx, an error answer that is not the DESIGN.md JSON body, a 200 that is not JSON, or a
 * connection closed without an answer to a request whose framing was fine.
 */
import { connect } from 'node:net';
import { Agent, request } from 'undici';
import { fuzzCases, type BodyCase, type FuzzCase, type RawCase } from './cases.ts';

export interface FuzzOptions {
  base: string;
  /** A key with a balance (valid cases are served and charged). */
  key: string;
  count: number;
  seed: number;
  /** Requests at once (default 8). */
  concurrency?: number;
  /** Server RSS in MB, sampled during the run (absent: not reported). */
  rssMb?: () => number;
  /** Called every 1000 cases. */
  progress?: (done: number) => void;
}

export interface FuzzReport {
  cases: number;
  seconds: number;
  /** Answers by HTTP status (`reset` / `closed` when there was none). */
  statuses: Record<string, number>;
  /** 5xx answers other than 503 server_busy. */
  serverErrors: number;
  busy: number;
  nonJsonErrors: number;
  /** Connections that failed on a well-framed request. */
  unexpectedResets: number;
  /** Connections closed without an answer to deliberately broken framing (allowed). */
  brokenFramingCloses: number;
  peakRssMb: number | null;
  /** The first few findings, to reproduce. */
  findings: string[];
  /** The slowest cases (ms and preview), to spot what stalls the server. */
  slowest: string[];
}

type Outcome = { status: number | 'reset' | 'closed'; finding?: string };

export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const { base, key, count, seed } = options;
  const url = new URL(base);
  const agent = new Agent({ connections: options.concurrency ?? 8, headersTimeout: 60_000, bodyTimeout: 60_000 });
  const report: FuzzReport = {
    cases: 0,
    seconds: 0,
    statuses: {},
    serverErrors: 0,
    busy: 0,
    nonJsonErrors: 0,
    unexpectedResets: 0,
    brokenFramingCloses: 0,
    peakRssMb: null,
    findings: [],
    slowest: [],
  };
  const slow: [number, string][] = [];
  const note = (c: FuzzCase, o: Outcome) => {
    report.cases++;
    report.statuses[String(o.status)] = (report.statuses[String(o.status)] ?? 0) + 1;
    if (typeof o.status === 'number' && o.status >= 500) {
      if (o.status === 503) report.busy++;
      else report.serverErrors++;
    }
    if (o.finding) {
      if (o.finding.startsWith('non-JSON')) report.nonJsonErrors++;
      else if (o.finding.startsWith('reset')) report.unexpectedResets++;
      if (report.findings.length < 20) report.findings.push(`${c.kind}/${c.family}: ${o.finding} — ${preview(c)}`);
    } else if (o.status === 'closed' || o.status === 'reset') {
      report.brokenFramingCloses++;
    }
    if (report.cases % 1000 === 0) options.progress?.(report.cases);
  };
  const sample = () => {
    if (options.rssMb) report.peakRssMb = Math.max(report.peakRssMb ?? 0, options.rssMb());
  };
  const sampler = setInterval(sample, 250);
  const started = performance.now();
  const cases = fuzzCases(seed, count);
  const worker = async () => {
    for (let next = cases.next(); !next.done; next = cases.next()) {
      const c = next.value;
      const t = performance.now();
      note(c, c.kind === 'body' ? await sendBody(agent, base, key, c) : await sendRaw(url, c));
      slow.push([performance.now() - t, `${c.kind}/${c.family} ${preview(c)}`]);
      if (slow.length > 50) slow.sort((a, b) => b[0] - a[0]).splice(5);
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency ?? 8 }, worker));
  } finally {
    clearInterval(sampler);
    sample();
    await agent.close();
  }
  report.seconds = (performance.now() - started) / 1000;
  report.slowest = slow
    .sort((a, b) => b[0] - a[0])
    .slice(0, 5)
    .map(([ms, what]) => `${ms.toFixed(0)} ms ${what}`);
  return report;
}

async function sendBody(agent: Agent, base: string, key: string, c: BodyCase): Promise<Outcome> {
  const auth = c.key === 'valid' ? { authorization: `Bearer ${key}` } : c.key === 'bad' ? { authorization: 'Bearer cc_live_notakey' } : {};
  try {
    const res = await request(`${base}/v1/context`, { dispatcher: agent, method: 'POST', headers: { ...c.headers, ...auth }, body: c.body });
    const text = await res.body.text();
    const encoded = res.headers['content-encoding'] !== undefined;
    if (res.statusCode >= 400) return { status: res.statusCode, finding: errorBodyProblem(text, String(res.headers['content-type'] ?? '')) };
    if (!encoded && !isJson(text)) return { status: res.statusCode, finding: `non-JSON ${res.statusCode} body (${text.length} bytes)` };
    return { status: res.statusCode };
  } catch (err) {
    return { status: 'reset', finding: `reset: ${(err as Error).message}` };
  }
}

/** One raw request on a fresh connection; the first answer is checked, the rest ignored. */
function sendRaw(url: URL, c: RawCase): Promise<Outcome> {
  return new Promise((resolve) => {
    const head = c.bytes.startsWith('HEAD ');
    const socket = connect(Number(url.port), url.hostname);
    let buffer = Buffer.alloc(0);
    let settled = false;
    const done = (o: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(o);
    };
    const noAnswer = (how: 'reset' | 'closed', why: string): Outcome =>
      c.broken ? { status: how } : { status: how, finding: `reset: ${why} without an answer` };
    const timer = setTimeout(() => done(noAnswer('closed', 'no answer within 3 s')), 3000);
    socket.on('error', (err) => done(answerIn(buffer, true, head) ?? noAnswer('reset', err.message)));
    socket.on('close', () => done(answerIn(buffer, true, head) ?? noAnswer('closed', 'closed')));
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      const o = answerIn(buffer, false, head);
      if (o) done(o);
    });
    socket.on('connect', () => socket.write(c.bytes));
  });
}

/** The first complete final answer in `buffer` (or, at the end of the stream, whatever is there). */
function answerIn(buffer: Buffer, ended: boolean, head = false): Outcome | null {
  let text = buffer.toString('latin1');
  while (/^HTTP\/1\.1 1\d\d /.test(text) && text.includes('\r\n\r\n')) text = text.slice(text.indexOf('\r\n\r\n') + 4);
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const lines = text.slice(0, end);
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines)?.[1]);
  if (!Number.isFinite(status)) return { status: 0, finding: `non-JSON: not an HTTP answer: ${JSON.stringify(lines.slice(0, 60))}` };
  const type = /\r\ncontent-type: *([^\r\n]+)/i.exec(lines)?.[1] ?? '';
  if (head) return { status, finding: status >= 400 && !/application\/json/.test(type) ? `non-JSON error: content-type ${JSON.stringify(type)}` : undefined };
  const length = Number(/\r\ncontent-length: *(\d+)/i.exec(lines)?.[1] ?? NaN);
  const body = text.slice(end + 4);
  if (Number.isFinite(length) && Buffer.byteLength(body, 'latin1') < length && !ended) return null;
  if (!Number.isFinite(length) && !ended && status >= 400) return null;
  if (status < 400) return { status };
  return { status, finding: errorBodyProblem(Number.isFinite(length) ? body.slice(0, length) : body, type) };
}

/** Why an error answer is not the DESIGN.md body, or undefined when it is. */
function errorBodyProblem(text: string, type: string): string | undefined {
  if (!/application\/json/.test(type)) return `non-JSON error: content-type ${JSON.stringify(type)}`;
  try {
    const b = JSON.parse(text);
    if (typeof b.error === 'string' && typeof b.code === 'string' && Array.isArray(b.details)) return undefined;
  } catch {
    /* below */
  }
  return `non-JSON error body: ${JSON.stringify(text.slice(0, 80))}`;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function preview(c: FuzzCase): string {
  const raw = c.kind === 'raw' ? c.bytes : typeof c.body === 'string' ? c.body : Buffer.from(c.body).toString('latin1');
  return JSON.stringify(raw.slice(0, 100));
}
