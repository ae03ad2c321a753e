import { ZProfileUpdate, ZStartPhoneVerification, ZVerifyPhone } from '../../contracts/profile';
import type { RouteDoc } from '../route-doc';
import { ZPhoneVerificationStarted, ZProfileView } from '../schemas';

const tags = ['Profile'];

/** /api/profile/* (domains/profile/rest.ts); /api/profile/storage is declared in domains/attachments/operations.ts. */
export const routes: RouteDoc[] = [
  {
    method: 'get',
    path: '/api/profile',
    operationId: 'getProfile',
    summary: 'The profile',
    tags,
    auth: 'session',
    responses: { 200: { description: 'Name, time zone and phone', schema: ZProfileView } },
  },
  {
    method: 'patch',
    path: '/api/profile',
    operationId: 'updateProfile',
    summary: 'Update name or time zone',
    tags,
    auth: 'session',
    request: { body: ZProfileUpdate },
    responses: { 200: { description: 'The profile', schema: ZProfileView } },
  },
  {
    method: 'post',
    path: '/api/profile/phone',
    operationId: 'startPhoneVerification',
    summary: 'Send a verification code to a phone',
    description: 'E.164 (spaces, dashes and brackets are dropped first). The code works 10 minutes; a new one no sooner than 60 s after the last, at most 5 per hour (429 with `Retry-After`).',
    tags,
    auth: 'session',
    request: { body: ZStartPhoneVerification },
    responses: {
      200: { description: 'Code sent', schema: ZPhoneVerificationStarted },
      429: { description: 'Too soon for another code' },
    },
  },
  {
    method: 'post',
    path: '/api/profile/phone/verify',
    operationId: 'verifyPhone',
    summary: 'Confirm the phone with the code',
    description: 'A verified phone is what sms and call deliveries use. Five wrong codes spend the verification (422).',
    tags,
    auth: 'session',
    request: { body: ZVerifyPhone },
    responses: { 200: { description: 'Verified', schema: ZProfileView } },
  },
  {
    method: 'delete',
    path: '/api/profile/phone',
    operationId: 'removePhone',
    summary: 'Remove the phone',
    tags,
    auth: 'session',
    responses: { 200: { description: 'The profile without a phone', schema: ZProfileView } },
  },
];
