import { defineOperation } from '../../api/operation';
import { ZLoginResult } from '../../contracts/auth';
import { ZCheckInResult } from '../../contracts/canary';
import { ZPasskey, ZPasskeyAssertionInput, ZPasskeyChallenge, ZPasskeyIdParam, ZPasskeyList, ZRegisterPasskeyInput } from '../../contracts/passkeys';
import { ZOk } from '../../contracts/transport';
import {
  checkInOptions,
  checkInWithPasskey,
  deletePasskey,
  listPasskeys,
  registerPasskey,
  registrationOptions,
  signInOptions,
  signInWithPasskey,
  PASSKEYS_MAX,
} from './passkeys';

/** docs/api.md "Passkeys": make and remove passkeys, sign in and check in with one (docs/decisions/passkeys.md). */
const tags = ['Passkeys'];
const challenge409 = { 409: { description: 'The challenge expired (five minutes) or was already answered' } };

export const passkeyOperations = [
  defineOperation({
    method: 'post',
    path: '/api/passkeys/registration-options',
    trpc: 'registrationOptions',
    access: { kind: 'session' },
    input: {},
    output: ZPasskeyChallenge,
    docs: {
      operationId: 'passkeyRegistrationOptions',
      summary: 'Start making a passkey',
      description: 'Options for `navigator.credentials.create()` (a discoverable credential, user verification required) and the id of their challenge.',
      tags,
      responses: { 200: { description: 'The options' } },
    },
    run: ({ services, principal }) => registrationOptions(services, principal.user),
  }),
  defineOperation({
    method: 'post',
    path: '/api/passkeys',
    trpc: 'register',
    access: { kind: 'session' },
    input: { body: ZRegisterPasskeyInput },
    output: ZPasskey,
    status: 201,
    docs: {
      operationId: 'registerPasskey',
      limits: [{ what: 'passkeys', max: PASSKEYS_MAX, per: 'account', refusal: 409 }],
      summary: 'Keep a passkey',
      description: "The browser's answer to the registration options, with a name for the passkey. Only its public key is stored.",
      tags,
      responses: {
        201: { description: 'The passkey' },
        409: { description: 'The challenge expired or was answered, the passkey is already registered, or the account holds 20' },
        422: { description: 'The answer does not verify' },
      },
    },
    run: ({ services, principal }, input) => registerPasskey(services, principal.user.id, input),
  }),
  defineOperation({
    method: 'get',
    path: '/api/passkeys',
    trpc: 'list',
    access: { kind: 'session' },
    input: {},
    output: ZPasskeyList,
    docs: { operationId: 'listPasskeys', summary: 'My passkeys', tags, responses: { 200: { description: 'Oldest first' } } },
    run: ({ services, principal }) => listPasskeys(services, principal.user.id),
  }),
  defineOperation({
    method: 'delete',
    path: '/api/passkeys/{id}',
    trpc: 'remove',
    access: { kind: 'session' },
    input: { params: ZPasskeyIdParam },
    output: ZOk,
    docs: {
      operationId: 'deletePasskey',
      summary: 'Remove a passkey',
      description: 'It no longer signs in or checks in. (Remove it from the device too.)',
      tags,
      responses: { 200: { description: 'Removed' }, 404: { description: 'Passkey not found (or not yours)' } },
    },
    run: ({ services, principal }, { id }) => deletePasskey(services, principal.user.id, id),
  }),
  defineOperation({
    method: 'post',
    path: '/api/auth/passkey/options',
    trpc: 'signInOptions',
    access: { kind: 'public' },
    input: {},
    output: ZPasskeyChallenge,
    docs: {
      operationId: 'passkeySignInOptions',
      summary: 'Start signing in with a passkey',
      description: 'Options for `navigator.credentials.get()`: any passkey of this site; the passkey names its account.',
      tags,
      responses: { 200: { description: 'The options' } },
    },
    run: ({ services }) => signInOptions(services),
  }),
  defineOperation({
    method: 'post',
    path: '/api/auth/passkey',
    trpc: 'signIn',
    access: { kind: 'public' },
    input: { body: ZPasskeyAssertionInput },
    output: ZLoginResult,
    docs: {
      operationId: 'signInWithPasskey',
      summary: 'Sign in with a passkey',
      description: "The browser's answer to the sign-in options. Returns a session token, as a password sign-in does.",
      tags,
      responses: { 200: { description: 'A session' }, 401: { description: 'Unknown passkey, or the answer does not verify' }, ...challenge409 },
    },
    run: ({ services }, input) => signInWithPasskey(services, input),
  }),
  defineOperation({
    method: 'post',
    path: '/api/canary/checkin/passkey/options',
    trpc: 'checkInOptions',
    access: { kind: 'session' },
    input: {},
    output: ZPasskeyChallenge,
    docs: {
      operationId: 'passkeyCheckInOptions',
      summary: 'Start a check-in with a passkey',
      description: 'Options for `navigator.credentials.get()` limited to your own passkeys.',
      tags,
      responses: { 200: { description: 'The options' }, 404: { description: 'You have no passkey yet' } },
    },
    run: ({ services, principal }) => checkInOptions(services, principal.user.id),
  }),
  defineOperation({
    method: 'post',
    path: '/api/canary/checkin/passkey',
    trpc: 'checkIn',
    access: { kind: 'session' },
    input: { body: ZPasskeyAssertionInput },
    output: ZCheckInResult,
    docs: {
      operationId: 'checkInWithPasskey',
      summary: 'Check in with a passkey',
      description:
        'Checks in every canary of yours, as the Heartbeat does, proven by your passkey (source `passkey`): a script holding your session cannot do it.',
      tags,
      responses: { 200: { description: 'Checked in' }, 401: { description: 'Not your passkey, or the answer does not verify' }, ...challenge409 },
    },
    run: ({ services, principal }, input) => checkInWithPasskey(services, principal.user.id, input),
  }),
] as const;
