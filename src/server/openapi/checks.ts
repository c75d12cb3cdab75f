/** /openapi.json, the checks area: run a check, the credit balance, recent and saved checks. */
import { MAX_BATCH_BODY_BYTES, MAX_BATCH_CHECKS, MAX_URL_LENGTH, PATHS } from '../../contract/routes.js'
import { type DocLimits, type Json, body, errors, ok } from './helpers.js'

export function checkPaths(limits: DocLimits): Json {
  const key = [{ apiKey: [] }]
  const run = {
    summary: 'Run and save a check',
    description: `Runs a live health check of a public http or https URL (at most ${MAX_URL_LENGTH} characters; no other body field is accepted), saves the result and consumes 1 credit. Invalid or blocked URLs (400), failed checks (502), requests without credits (402) and runs refused while the server is busy (503) cost nothing. Limits on this server: ${limits.runLimit} runs per ${limits.runWindowSec} s per key, shared with the other run route; at most ${limits.failureLimit} failed checks per ${limits.failureWindowSec} s per key (then 429); at most ${limits.maxConcurrentChecks} checks in flight on the server and ${limits.maxConcurrentChecksPerUser} per user (past that a run waits briefly, then 503).`,
    security: key,
    requestBody: { required: true, content: body('RunRequest') },
    responses: {
      ...ok('RunResult', 'The check result; the check is saved and 1 credit consumed.'),
      ...errors(400, 401, 402, 429, 500, 502, 503),
    },
  }
  return {
    [PATHS.run]: { post: { ...run, tags: ['checks'], operationId: 'runCheck' } },
    [PATHS.runAlias]: {
      post: {
        ...run,
        tags: ['checks'],
        operationId: 'runCheckAlias',
        summary: 'Run and save a check (alias)',
      },
    },
    [PATHS.runBatch]: {
      post: {
        tags: ['checks'],
        operationId: 'runCheckBatch',
        summary: 'Run and save up to 100 checks in one request',
        description: `For CI (\`sitehealth test\`): up to ${MAX_BATCH_CHECKS} checks, each as the run route takes it, in one request that counts once against the run limit (${limits.runLimit} per ${limits.runWindowSec} s per key, shared with the run routes). Each check is charged, budgeted and refused as on the run route; the server runs them at most ${limits.maxConcurrentChecksPerUser} at a time (your check slots). The answer lists one result per check in the order asked: its run result, or its error envelope. The request fails as a whole only when it is not valid (400), not authenticated (401) or over the run limit (429). Bodies up to ${MAX_BATCH_BODY_BYTES / 1024} KiB.`,
        security: key,
        requestBody: { required: true, content: body('RunBatchRequest') },
        responses: {
          ...ok('RunBatchResult', 'One result per check, in order; each saved check consumed 1 credit.'),
          ...errors(400, 401, 429, 500, 503),
        },
      },
    },
    [PATHS.credits]: {
      get: {
        tags: ['credits'],
        operationId: 'getCredits',
        summary: 'Credit balance',
        security: key,
        responses: { ...ok('CreditBalance', 'The balance.'), ...errors(401, 429, 500) },
      },
    },
    [PATHS.recent]: {
      get: {
        tags: ['checks'],
        operationId: 'listRecentChecks',
        summary: 'Recent saved checks, newest first',
        description:
          'Cursor paging: pass `next_cursor` as `cursor` to get the next, older page; it is null on the last page.',
        security: key,
        parameters: [
          {
            name: 'limit',
            in: 'query',
            required: false,
            description: 'Page size.',
            schema: { type: 'integer', enum: [10, 25, 50], default: 10 },
            example: 25,
          },
          {
            name: 'cursor',
            in: 'query',
            required: false,
            description: '`next_cursor` of the previous page.',
            schema: { type: 'string', format: 'date-time' },
            example: '2026-11-23T09:01:52.087Z',
          },
        ],
        responses: { ...ok('RecentChecks', 'One page of checks.'), ...errors(400, 401, 429, 500) },
      },
    },
    '/api/public/v1/checks/{id}': {
      get: {
        tags: ['checks'],
        operationId: 'getCheck',
        summary: 'One saved check',
        security: key,
        parameters: [
          {
            name: 'id',
            in: 'path',
            required: true,
            schema: { type: 'string', format: 'uuid' },
            example: '0193a5c4-8f2e-7b1a-9c3d-2e4f5a6b7c8d',
          },
        ],
        responses: { ...ok('SavedCheck', 'The saved check.'), ...errors(400, 401, 404, 429, 500) },
      },
    },
  }
}
