/** /openapi.json, the admin area: key issuance and credit grants, behind the admin token. */
import { PATHS } from '../../contract/routes.js'
import { type Json, body, errorsOf, ok } from './helpers.js'

export function adminPaths(): Json {
  const admin = [{ adminToken: [] }]
  return {
    [PATHS.adminKeys]: {
      post: {
        tags: ['admin'],
        operationId: 'createKey',
        summary: 'Create an API key (the secret is shown once)',
        security: admin,
        requestBody: { required: true, content: body('KeyCreateRequest') },
        responses: {
          ...ok('KeyCreated', 'The new key.', '201', false),
          ...errorsOf('admin', 400, 401, 429, 500),
        },
      },
      get: {
        tags: ['admin'],
        operationId: 'listKeys',
        summary: 'List API keys (never the secrets)',
        security: admin,
        responses: { ...ok('KeyList', 'All keys.', '200', false), ...errorsOf('admin', 401, 429, 500) },
      },
    },
    '/api/admin/v1/keys/{id}/revoke': {
      post: {
        tags: ['admin'],
        operationId: 'revokeKey',
        summary: 'Revoke an API key',
        security: admin,
        parameters: [
          {
            name: 'id',
            in: 'path',
            required: true,
            schema: { type: 'string' },
            example: '5f0c2b9e-3d41-4a8e-9b7a-6c1d2e3f4a5b',
          },
        ],
        responses: {
          ...ok('KeyRevoked', 'Revoked.', '200', false),
          ...errorsOf('admin', 401, 404, 429, 500),
        },
      },
    },
    '/api/admin/v1/users/{user}/credits': {
      post: {
        tags: ['admin'],
        operationId: 'grantCredits',
        summary: 'Grant credits to a user',
        security: admin,
        parameters: [
          {
            name: 'user',
            in: 'path',
            required: true,
            description:
              'User id (1-64 letters, digits, dots, dashes or underscores), or the email of a dashboard account (its user is credited; 404 when no account has it).',
            schema: { type: 'string', pattern: '^(?:[A-Za-z0-9._-]{1,64}|[^\\s/@]{1,64}@[^\\s/@]{1,253})$' },
            example: 'acme',
          },
        ],
        requestBody: { required: true, content: body('CreditGrantRequest') },
        responses: {
          ...ok('CreditGrantResult', 'The new balance.', '200', false),
          ...errorsOf('admin', 400, 401, 404, 429, 500),
        },
      },
    },
  }
}
