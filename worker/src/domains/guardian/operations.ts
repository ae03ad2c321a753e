import { z } from 'zod';
import { ZIdParam } from '../../contracts/ids';
import { defineOperation } from '../../api/operation';
import {
  ZAssignGuardianInput,
  ZGuardedOwnerView,
  ZGuardianAnswerBody,
  ZGuardianSettings,
  ZGuardianView,
  ZInvitationAnswer,
  ZInvitationToken,
  ZLadderAnswerResult,
  ZLadderView,
  ZUpdateGuardianSettingsInput,
  MAX_GUARDIANS,
  MAX_INVITATIONS_PER_DAY,
} from '../../contracts/guardian';
import { answerAsGuardian } from './answer-guardian';
import { getGuardianSettings, updateGuardianSettings } from './guardian-settings';
import { answerInvitation, resignGuardianship } from './guardian-side';
import { guardianNotFound } from './ladder-records';
import { getLadderView, listGuardedOwners } from './ladder-view';
import { assignGuardian, listGuardians, revokeGuardian } from './manage-guardians';

/**
 * /api/guardian/* (docs/api.md: POST /guardian/assign {email, consent}; the ladder in
 * docs/decisions/guardian-ladder.md). Signed-in people only: the owner's side (assign, list, revoke,
 * settings, ladder) and the guardian's side (accept / decline by token, the owners who chose me, answer,
 * resign). An executor's system reports with an API key: POST /api/death-verification/report.
 */
const tags = ['Guardians'];
const session = { kind: 'session' } as const;
const notYours = { description: 'Guardian not found (or not yours)' };

export const guardianOperations = [
  defineOperation({
    method: 'post',
    path: '/api/guardian/assign',
    trpc: 'assign',
    access: session,
    input: { body: ZAssignGuardianInput },
    output: ZGuardianView,
    status: 201,
    docs: {
      operationId: 'assignGuardian',
      limits: [
        { what: 'invited or active guardians', max: MAX_GUARDIANS, per: 'account', refusal: 403 },
        { what: 'guardian invitations', max: MAX_INVITATIONS_PER_DAY, per: '24 hours', refusal: 429 },
      ],
      summary: 'Invite a guardian',
      description:
        'Emails `email` an invitation with a single-use accept link (`/guardian/accept/{token}`); the answer is the same whether or not the address has an account. ' +
        '`consent` must be true (you confirm the person agreed to be asked about you).',
      tags,
      responses: {
        201: { description: 'The guardian, `invited`' },
        403: { description: 'You already have 5 guardians (invited or active), or your guardian consent is withdrawn' },
        409: { description: 'This address is already invited or your guardian, or `idempotency_key` was already used with another input' },
        422: { description: 'consent is not true, the email is invalid, or it is your own' },
        429: { description: 'More than 20 invitations in 24 hours' },
      },
    },
    run: ({ services, principal }, input) => assignGuardian(services, principal.user, input),
  }),
  defineOperation({
    method: 'get',
    path: '/api/guardian/list',
    trpc: 'list',
    access: session,
    input: {},
    output: z.array(ZGuardianView),
    docs: {
      operationId: 'listGuardians',
      summary: 'My guardians',
      description: 'Newest first, with their states.',
      tags,
      responses: { 200: { description: 'Guardians' } },
    },
    run: ({ services, principal }) => listGuardians(services, principal.user.id),
  }),
  defineOperation({
    method: 'delete',
    path: '/api/guardian/{id}',
    trpc: 'revoke',
    access: session,
    input: { params: ZIdParam },
    output: ZGuardianView,
    notFound: guardianNotFound,
    docs: {
      operationId: 'revokeGuardian',
      summary: 'Revoke a guardian',
      description: 'Withdraws an invitation or removes a guardian; their earlier votes stop counting towards a quorum.',
      tags,
      responses: { 200: { description: 'The guardian, `revoked`' }, 404: notYours, 409: { description: 'Already declined, revoked or resigned' } },
    },
    run: ({ services, principal }, { id }) => revokeGuardian(services, principal.user.id, id),
  }),
  defineOperation({
    method: 'get',
    path: '/api/guardian/settings',
    trpc: 'settings',
    access: session,
    input: {},
    output: ZGuardianSettings,
    docs: {
      operationId: 'guardianSettings',
      summary: 'Ladder settings',
      description: 'Quorum (default 1), veto window in hours (default 72), and after how many missed check-ins guardians are asked (default 1).',
      tags,
      responses: { 200: { description: 'Settings' } },
    },
    run: ({ services, principal }) => getGuardianSettings(services, principal.user.id),
  }),
  defineOperation({
    method: 'put',
    path: '/api/guardian/settings',
    trpc: 'updateSettings',
    access: session,
    input: { body: ZUpdateGuardianSettingsInput },
    output: ZGuardianSettings,
    docs: {
      operationId: 'updateGuardianSettings',
      summary: 'Change ladder settings',
      description:
        '`quorum` 1–5 and at most your invited or active guardians; `veto_window_hours` 24–720; `ask_after_misses` 1–100. Any subset; a running veto window keeps its end.',
      tags,
      responses: { 200: { description: 'The settings now' }, 422: { description: 'A value out of range' } },
    },
    run: ({ services, principal }, input) => updateGuardianSettings(services, principal.user.id, input),
  }),
  defineOperation({
    method: 'get',
    path: '/api/guardian/ladder',
    trpc: 'ladder',
    access: session,
    input: {},
    output: ZLadderView,
    docs: {
      operationId: 'guardianLadder',
      summary: 'Where my ladder stands',
      description:
        'The stage (watching → missed → reported → veto_window / on_hold → confirmed), the open report, what happens next and when, what a confirmation would set going, and the last 50 steps.',
      tags,
      responses: { 200: { description: 'The ladder' } },
    },
    run: ({ services, principal }) => getLadderView(services, principal.user),
  }),
  defineOperation({
    method: 'post',
    path: '/api/guardian/accept',
    trpc: 'accept',
    access: session,
    input: { body: ZInvitationToken },
    output: ZInvitationAnswer,
    docs: {
      operationId: 'acceptGuardianInvitation',
      summary: 'Accept an invitation',
      description: 'With the token of the emailed link. The token is the proof: the account you sign in with need not have the invited address.',
      tags,
      responses: {
        200: { description: 'You are now a guardian' },
        404: { description: 'The link is invalid, or already answered or withdrawn' },
        409: { description: 'You already guard this person' },
        422: { description: 'The invitation is your own' },
      },
    },
    run: ({ services, principal }, { token }) => answerInvitation(services, principal.user, token, true),
  }),
  defineOperation({
    method: 'post',
    path: '/api/guardian/decline',
    trpc: 'decline',
    access: session,
    input: { body: ZInvitationToken },
    output: ZInvitationAnswer,
    docs: {
      operationId: 'declineGuardianInvitation',
      summary: 'Decline an invitation',
      tags,
      responses: {
        200: { description: 'Declined' },
        404: { description: 'The link is invalid, or already answered or withdrawn' },
        422: { description: 'The invitation is your own' },
      },
    },
    run: ({ services, principal }, { token }) => answerInvitation(services, principal.user, token, false),
  }),
  defineOperation({
    method: 'get',
    path: '/api/guardian/owners',
    trpc: 'owners',
    access: session,
    input: {},
    output: z.array(ZGuardedOwnerView),
    docs: {
      operationId: 'guardedOwners',
      summary: 'People who chose me',
      description: 'Each person you guard, with their ladder state and your answers: never their messages, files, recipients or activity.',
      tags,
      responses: { 200: { description: 'People you guard' } },
    },
    run: ({ services, principal }) => listGuardedOwners(services, principal.user),
  }),
  defineOperation({
    method: 'post',
    path: '/api/guardian/{id}/answer',
    trpc: 'answer',
    access: session,
    input: { params: ZIdParam, body: ZGuardianAnswerBody },
    output: ZLadderAnswerResult,
    notFound: guardianNotFound,
    docs: {
      operationId: 'answerAsGuardian',
      summary: 'Answer "Have you heard from them?"',
      description:
        '`{answer: "fine"}` asks them to check in; `{answer: "hold", days: 1–30}` pauses what is set to go after their death; `{answer: "report_death"}` reports it (only after they missed a check-in). ' +
        '`id` is your guardianship (from GET /api/guardian/owners).',
      tags,
      responses: {
        200: { description: 'Recorded' },
        403: { description: 'You are no longer an active guardian (revoked, declined or resigned), or (report_death) they withdrew their guardian consent' },
        404: notYours,
        409: { description: 'They have not missed a check-in (report), the death is already confirmed, or holds reached 30 days' },
        422: { description: 'Unknown answer or days out of range' },
      },
    },
    run: ({ services, principal }, { id, ...body }) => answerAsGuardian(services, principal.user, id, body),
  }),
  defineOperation({
    method: 'post',
    path: '/api/guardian/{id}/resign',
    trpc: 'resign',
    access: session,
    input: { params: ZIdParam },
    output: ZInvitationAnswer,
    notFound: guardianNotFound,
    docs: {
      operationId: 'resignAsGuardian',
      summary: 'Stop being a guardian',
      tags,
      responses: { 200: { description: 'Resigned; the person is told' }, 404: notYours, 409: { description: 'Not an active guardian' } },
    },
    run: ({ services, principal }, { id }) => resignGuardianship(services, principal.user, id),
  }),
] as const;
