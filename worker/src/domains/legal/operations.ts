import { defineOperation } from '../../api/operation';
import { ZConsentHistory, ZConsents } from '../../contracts/legal';
import { AppError } from '../../lib/errors';
import { consentHistory, listConsents } from './consents';

/**
 * docs/api.md: /api/legal/* (deletions and consents). Changing a consent is composed with what other domains do
 * about it, in worker/src/wiring/set-consent.ts; the list of deletions to come reads the dead-man's switch and the
 * inactivity policy, in worker/src/wiring/scheduled-deletions.ts.
 */
export const tags = ['Legal'];

export const consentKindNotFound = () => new AppError('NOT_FOUND', 'Unknown consent kind: use messages, confessions, voice, video or guardian');

export const legalOperations = [
  defineOperation({
    method: 'get',
    path: '/api/legal/consent',
    trpc: 'consents',
    access: { kind: 'session' },
    input: {},
    output: ZConsents,
    docs: {
      operationId: 'listConsents',
      summary: 'My consents',
      description:
        'The five kinds (messages, confessions, voice, video, guardian), each with `consent` and `updated_at` (null: given at sign-up, never changed). ' +
        'Every kind is granted until you withdraw it.',
      tags,
      responses: { 200: { description: 'Consents' } },
    },
    run: ({ services, principal }) => listConsents(services, principal.user.id),
  }),
  defineOperation({
    method: 'get',
    path: '/api/legal/consent/history',
    trpc: 'consentHistory',
    access: { kind: 'session' },
    input: {},
    output: ZConsentHistory,
    docs: {
      operationId: 'consentHistory',
      summary: 'Every change of my consents',
      description: 'Newest first: `{kind, old, new, at}` for each change (a repeated withdrawal records nothing).',
      tags,
      responses: { 200: { description: 'The changes' } },
    },
    run: ({ services, principal }) => consentHistory(services, principal.user.id),
  }),
] as const;
