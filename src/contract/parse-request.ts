/**
 * The one entry point from a parsed JSON body to a validated, defaulted `ContextRequest`.
 *
 * @example
 *   const request = parseContextRequest(JSON.parse(text)); // throws ApiError (4xx) when the body breaks a rule
 */

import { ApiError, type ErrorDetail } from './errors.ts';
import { issueCode, issueExtra, issueMessage, issuePath, issueRank, issueSummary } from './issue-messages.ts';
import { RequestBodySchema } from './request-schema.ts';
import type { ContextRequest } from './types.ts';

/**
 * Validates and normalises a request body. Throws only `ApiError`, whatever the input:
 * the code of the leading problem (body shape, then polygon, origin, settings), `error` one sentence,
 * and one detail `{path, message, code, …}` per problem found.
 */
export function parseContextRequest(body: unknown): ContextRequest {
  let result: ReturnType<typeof RequestBodySchema.safeParse>;
  try {
    result = RequestBodySchema.safeParse(body, { reportInput: true });
  } catch {
    // Only exotic non-JSON values (throwing getters, proxies, absurd nesting) can get here.
    throw new ApiError('invalid_request', 'The request body could not be read as a JSON object.');
  }
  if (result.success) return result.data;

  const issues = result.error.issues;
  let lead = issues[0];
  for (const issue of issues) if (issueRank(issue) < issueRank(lead)) lead = issue;

  const details: ErrorDetail[] = issues.map((issue) => ({
    path: issuePath(issue),
    message: issueMessage(issue),
    code: issueCode(issue),
    ...issueExtra(issue),
  }));
  throw new ApiError(issueCode(lead), issueSummary(lead) ?? issueMessage(lead), details);
}
