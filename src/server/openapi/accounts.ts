/** The account routes' part of /openapi.json (the schemas come from src/contract/accounts.ts). */
import { ACCOUNT_PATHS } from '../../contract/accounts.js'

type Json = Record<string, any>
const openApiPath = (p: string) => p.replace(/:([a-z]+)/g, '{$1}')

/** The server's builders: bodies with their examples, responses with their headers. */
export interface AccountOpenApiHelpers {
  /** A success response; `headers` false for routes without rate limits (open and admin routes). */
  ok: (schemaId: string, description: string, status?: string, headers?: boolean) => Json
  errors: (...statuses: number[]) => Json
  /** A JSON request or response body of a contract schema, with its example. */
  body: (schemaId: string) => Json
}

export function accountPaths({ ok, errors, body: content }: AccountOpenApiHelpers): Json {
  const admin = [{ adminToken: [] }]
  const body = (id: string) => ({ required: true, content: content(id) })
  return {
    [ACCOUNT_PATHS.deviceCode]: {
      post: {
        tags: ['accounts'],
        operationId: 'startDeviceLogin',
        security: [],
        summary: 'Start `sitehealth login` (RFC 8628 device authorization request)',
        description:
          'Returns a device code for the CLI and a short user code the signed-in user approves at `verification_uri` in the dashboard. No authentication.',
        requestBody: body('DeviceCodeRequest'),
        responses: { ...ok('DeviceCode', 'The codes.', '200', false), ...errors(400, 429, 500) },
      },
    },
    [ACCOUNT_PATHS.deviceToken]: {
      post: {
        tags: ['accounts'],
        operationId: 'pollDeviceLogin',
        security: [],
        summary: 'Collect the approved key (RFC 8628 device access token request)',
        description:
          'Poll every `interval` seconds. Until approved: 400 with code `authorization_pending`; too fast: `slow_down`; denied: `access_denied`; expired or already collected: `expired_token`. Once approved, the new key is returned once.',
        requestBody: body('DeviceTokenRequest'),
        responses: {
          ...ok('KeyCreated', 'The new key (shown once).', '200', false),
          ...errors(400, 500),
          '400': {
            ...errors(400)['400'],
            description:
              'Not (yet) approved. Codes: authorization_pending, slow_down, access_denied, expired_token, invalid_url.',
          },
        },
      },
    },
    [ACCOUNT_PATHS.revokeSelf]: {
      post: {
        tags: ['accounts'],
        operationId: 'revokeOwnKey',
        summary: 'Revoke the calling key (`sitehealth logout`)',
        security: [{ apiKey: [] }],
        responses: { ...ok('KeyRevoked', 'Revoked.'), ...errors(401, 500) },
      },
    },
    [ACCOUNT_PATHS.adminUsers]: {
      post: {
        tags: ['admin'],
        operationId: 'createAccount',
        summary: 'Create a dashboard account; returns a one-time set-password link',
        security: admin,
        requestBody: body('UserCreateRequest'),
        responses: { ...ok('UserCreated', 'The account.', '201', false), ...errors(400, 401, 500) },
      },
      get: {
        tags: ['admin'],
        operationId: 'listAccounts',
        summary: 'List dashboard accounts',
        security: admin,
        responses: { ...ok('UserList', 'All accounts.', '200', false), ...errors(401, 500) },
      },
    },
    [openApiPath(ACCOUNT_PATHS.adminUserDisable)]: {
      post: {
        tags: ['admin'],
        operationId: 'disableAccount',
        summary: 'Disable an account (by user id or email): sessions end, keys are revoked',
        security: admin,
        parameters: [{ name: 'user', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { ...ok('AccountInfo', 'The account.', '200', false), ...errors(401, 404, 500) },
      },
    },
    [ACCOUNT_PATHS.adminInvites]: {
      post: {
        tags: ['admin'],
        operationId: 'createInvite',
        summary: 'Create a one-time invite link (7 days)',
        security: admin,
        requestBody: body('InviteCreateRequest'),
        responses: { ...ok('InviteCreated', 'The link.', '201', false), ...errors(400, 401, 500) },
      },
    },
  }
}
