import { defineOperation } from '../../api/operation';
import { ZPhoneVerificationStarted, ZProfileUpdate, ZProfileView, ZStartPhoneVerification, ZVerifyPhone } from '../../contracts/profile';
import { getProfile } from './profile-view';
import { removePhone } from './remove-phone';
import { startPhoneVerification } from './start-phone-verification';
import { updateProfile } from './update-profile';
import { verifyPhone } from './verify-phone';

/**
 * /api/profile: name, time zone and the verified phone that sms and call deliveries use.
 * (/api/profile/storage is the attachments domain's: domains/attachments/operations.ts.)
 */
const tags = ['Profile'];
const session = { kind: 'session' } as const;

export const profileOperations = [
  defineOperation({
    method: 'get',
    path: '/api/profile',
    trpc: 'get',
    access: session,
    input: {},
    output: ZProfileView,
    docs: { operationId: 'getProfile', summary: 'The profile', tags, responses: { 200: { description: 'Name, time zone and phone' } } },
    run: ({ services, principal }) => getProfile(services, principal.user.id),
  }),
  defineOperation({
    method: 'patch',
    path: '/api/profile',
    trpc: 'update',
    access: session,
    input: { body: ZProfileUpdate },
    output: ZProfileView,
    docs: { operationId: 'updateProfile', summary: 'Update name or time zone', tags, responses: { 200: { description: 'The profile' } } },
    run: ({ services, principal }, update) => updateProfile(services, principal.user.id, update),
  }),
  defineOperation({
    method: 'post',
    path: '/api/profile/phone',
    trpc: 'startPhoneVerification',
    access: session,
    input: { body: ZStartPhoneVerification },
    output: ZPhoneVerificationStarted,
    docs: {
      operationId: 'startPhoneVerification',
      summary: 'Send a verification code to a phone',
      description: 'E.164 (spaces, dashes and brackets are dropped first). The code works 10 minutes; a new one no sooner than 60 s after the last, at most 5 per hour (429 with `Retry-After`).',
      tags,
      responses: { 200: { description: 'Code sent' }, 429: { description: 'Too soon for another code' } },
    },
    run: ({ services, principal }, { phone }) => startPhoneVerification(services, principal.user.id, phone),
  }),
  defineOperation({
    method: 'post',
    path: '/api/profile/phone/verify',
    trpc: 'verifyPhone',
    access: session,
    input: { body: ZVerifyPhone },
    output: ZProfileView,
    docs: {
      operationId: 'verifyPhone',
      summary: 'Confirm the phone with the code',
      description: 'A verified phone is what sms and call deliveries use. Five wrong codes spend the verification (422).',
      tags,
      responses: { 200: { description: 'Verified' } },
    },
    run: ({ services, principal }, { code }) => verifyPhone(services, principal.user.id, code),
  }),
  defineOperation({
    method: 'delete',
    path: '/api/profile/phone',
    trpc: 'removePhone',
    access: session,
    input: {},
    output: ZProfileView,
    docs: { operationId: 'removePhone', summary: 'Remove the phone', tags, responses: { 200: { description: 'The profile without a phone' } } },
    run: ({ services, principal }) => removePhone(services, principal.user.id),
  }),
] as const;
