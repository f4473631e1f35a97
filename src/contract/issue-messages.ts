/**
 * Turns zod issues into the contract's words: a stable error code and one human sentence per issue,
 * naming the field by its JSON path (e.g. `settings.upAxis must be one of "Y", "Z", not "y".`).
 */

import type { z } from 'zod';
import type { ErrorCode } from './errors.ts';
import type { RuleIssueParams } from './request-schema.ts';

type Issue = z.core.$ZodIssue;
type Key = string | number;

/** The path as JSON-friendly keys (zod allows symbols; JSON bodies never produce them). */
export function issuePath(issue: Issue): Key[] {
  return issue.path.map((key) => (typeof key === 'symbol' ? String(key) : key));
}

/** The code a rule put on the issue, or one derived from where the issue is. */
export function issueCode(issue: Issue): ErrorCode {
  const rule = ruleParams(issue);
  if (rule) return rule.apiCode;
  const [head, ...rest] = issue.path;
  if (head === 'polygon') return rest.length === 0 ? 'invalid_request' : 'invalid_coordinate';
  if (head === 'origin') return 'invalid_coordinate';
  // A settings or export object of the wrong type is a body-level problem; a bad field inside it is a bad setting.
  if ((head === 'settings' || head === 'export') && rest.length > 0) return 'invalid_setting';
  return 'invalid_request';
}

/**
 * Which issue leads when there are several: problems with the body itself first, then the polygon,
 * the origin, and the settings/export fields.
 */
export function issueRank(issue: Issue): number {
  const head = issue.path[0];
  if (head === undefined) return 0;
  if (head === 'polygon') return 1;
  if (head === 'origin') return 2;
  return issue.path.length === 1 ? 0 : 3;
}

/** The summary sentence of a rule violation, when the issue came from one. */
export function issueSummary(issue: Issue): string | undefined {
  return ruleParams(issue)?.summary;
}

/** Detail fields a rule attached (e.g. areaKm2). */
export function issueExtra(issue: Issue): Record<string, unknown> {
  return ruleParams(issue)?.extra ?? {};
}

/** One sentence about one issue. */
export function issueMessage(issue: Issue): string {
  if (issue.code === 'custom' || issue.code === 'invalid_format') return sentence(issue.message);
  const path = issuePath(issue);
  const where = path.length === 0 ? 'The request body' : formatPath(path);
  const input = 'input' in issue ? issue.input : undefined;
  switch (issue.code) {
    case 'invalid_type':
      if (input === undefined && path.length > 0) return `${where} is required.`;
      if (path.length === 0) return `The request body must be a JSON object, not ${describeValue(input)}.`;
      return `${where} must be ${expectedKind(issue.expected)}, not ${describeValue(input)}.`;
    case 'invalid_value':
      if (input === undefined) return `${where} is required.`;
      return `${where} must be ${issue.values.length === 1 ? '' : 'one of '}${issue.values.map((v) => JSON.stringify(v)).join(', ')}, not ${describeValue(input)}.`;
    case 'too_small':
      return issue.origin === 'array'
        ? `${where} must have at least ${issue.minimum} item${Number(issue.minimum) === 1 ? '' : 's'}.`
        : `${where} must be ${issue.inclusive ? 'at least' : 'greater than'} ${issue.minimum}, not ${describeValue(input)}.`;
    case 'too_big':
      return issue.origin === 'array'
        ? `${where} must have at most ${issue.maximum} items.`
        : `${where} must be ${issue.inclusive ? 'at most' : 'less than'} ${issue.maximum}, not ${describeValue(input)}.`;
    case 'not_multiple_of':
      return `${where} must be a multiple of ${issue.divisor}.`;
    default:
      return `${where} is not valid.`;
  }
}

/** `settings.geometry[2]`, `export.crs`. */
export function formatPath(path: readonly Key[]): string {
  let text = '';
  for (const key of path) text += typeof key === 'number' ? `[${key}]` : text === '' ? key : `.${key}`;
  return text;
}

function ruleParams(issue: Issue): RuleIssueParams | undefined {
  if (issue.code !== 'custom') return undefined;
  const params = issue.params as Partial<RuleIssueParams> | undefined;
  return params && typeof params.apiCode === 'string' && typeof params.summary === 'string'
    ? { apiCode: params.apiCode, summary: params.summary, extra: params.extra ?? {} }
    : undefined;
}

function expectedKind(expected: string): string {
  switch (expected) {
    case 'int':
      return 'a whole number';
    case 'array':
    case 'object':
      return `an ${expected}`;
    case 'tuple':
      return 'an array';
    default:
      return `a ${expected}`;
  }
}

/** A short description of a received value, never echoing more than a few dozen characters. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
    case 'number':
      return String(value);
    case 'boolean':
      return String(value);
    case 'object':
      return 'an object';
    default:
      return `a ${typeof value}`;
  }
}

function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
