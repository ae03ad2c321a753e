import { defineOperation } from '../../api/operation';
import {
  ZChangePassword,
  ZLoginInput,
  ZLoginResult,
  ZMe,
  ZPasswordResetConfirm,
  ZPasswordResetInspect,
  ZPasswordResetInspection,
  ZPasswordResetRequest,
  ZRegisterInput,
  ZReplaceRecoveryKey,
} from '../../contracts/auth';
import { ZKeyBundleView } from '../../contracts/e2ee';
import { ZOk } from '../../contracts/transport';
import { changePassword } from './change-password';
import { loginUser } from './login-user';
import { confirmPasswordReset, inspectPasswordReset, requestPasswordReset } from './password-reset';
import { registerUser } from './register-user';
import { replaceRecoveryKey } from './replace-recovery-key';
import { revokeSession } from './sessions';
import { toMe } from './user-profile';

/** docs/api.md: /api/auth/* (Google sign-in, two browser redirects, stays in rest.ts). */
const tags = ['Accounts'];

export const authOperations = [
  defineOperation({
    method: 'post',
    path: '/api/auth/register',
    trpc: 'register',
    access: { kind: 'public' },
    input: { body: ZRegisterInput },
    output: ZMe,
    status: 201,
    docs: {
      operationId: 'register',
      summary: 'Create an account',
      description:
        'Each `data_policy_region` accepts only its own `legal_jurisdiction`: `US-HIPAA` needs a US state code, `EU-GDPR` an EU member state, `INTL-General` anything up to 100 characters (or nothing). A blank jurisdiction counts as absent. Common passwords are refused (422).',
      tags,
      responses: {
        201: { description: 'The new account (sign in next)' },
        409: { description: 'An account with this email already exists' },
      },
    },
    run: ({ services }, input) => registerUser(services, input),
  }),
  defineOperation({
    method: 'post',
    path: '/api/auth/login',
    trpc: 'login',
    access: { kind: 'public' },
    input: { body: ZLoginInput },
    output: ZLoginResult,
    docs: {
      operationId: 'login',
      summary: 'Sign in with email and password',
      description:
        'Returns a session token for `Authorization: Bearer …`. Five failed attempts lock the email and the client address for a while (429 with `Retry-After`).',
      tags,
      responses: {
        200: { description: 'A session' },
        401: { description: 'Wrong email or password' },
        429: { description: 'Too many failed sign-ins: wait `Retry-After` seconds' },
      },
    },
    run: ({ services, clientAddress }, input) => loginUser(services, input, clientAddress),
  }),
  defineOperation({
    method: 'get',
    path: '/api/auth/me',
    trpc: 'me',
    access: { kind: 'session' },
    input: {},
    output: ZMe,
    docs: { operationId: 'me', summary: 'The signed-in account', tags, responses: { 200: { description: 'The account' } } },
    run: ({ principal }) => toMe(principal.user),
  }),
  defineOperation({
    method: 'post',
    path: '/api/auth/logout',
    trpc: 'logout',
    access: { kind: 'session' },
    input: {},
    output: ZOk,
    docs: { operationId: 'logout', summary: 'Revoke this session', tags, responses: { 200: { description: 'The token no longer works' } } },
    run: async ({ services, principal }) => {
      await revokeSession(services, principal.sessionId);
      return { ok: true as const };
    },
  }),
  defineOperation({
    method: 'post',
    path: '/api/auth/password',
    trpc: 'changePassword',
    access: { kind: 'session' },
    input: { body: ZChangePassword },
    output: ZOk,
    docs: {
      operationId: 'changePassword',
      summary: 'Change the password',
      description:
        'An account with end-to-end encryption keys must send `password_wrap` (its private key re-wrapped under the new password, PBKDF2); an account without keys must not. Every other session of the user is revoked. A wrong current password counts as a failed sign-in.',
      tags,
      responses: {
        200: { description: 'Changed' },
        409: { description: 'The password was changed at the same moment elsewhere' },
        429: { description: 'Too many wrong current passwords: wait `Retry-After` seconds' },
      },
    },
    run: ({ services, principal, clientAddress }, input) => changePassword(services, principal.user, principal.sessionId, input, clientAddress),
  }),
  defineOperation({
    method: 'put',
    path: '/api/keys/me/recovery',
    trpc: 'replaceRecoveryKey',
    access: { kind: 'session' },
    input: { body: ZReplaceRecoveryKey },
    output: ZKeyBundleView,
    docs: {
      operationId: 'replaceRecoveryKey',
      summary: 'Replace the recovery key',
      description:
        'A new recovery key, made by the client, replaces the old one, which stops working: `recovery_wrap` is the private key re-wrapped under it (HKDF), sent with the current password. The new key counts as not saved (`recovery_saved_at` null) until POST /api/keys/me/recovery/saved. A wrong password counts as a failed sign-in.',
      tags: ['Encryption keys'],
      responses: {
        200: { description: 'Replaced; the bundle with the new recovery wrap' },
        429: { description: 'Too many wrong passwords: wait `Retry-After` seconds' },
      },
    },
    run: ({ services, principal, clientAddress }, input) => replaceRecoveryKey(services, principal.user, input, clientAddress),
  }),
  defineOperation({
    method: 'post',
    path: '/api/auth/password-reset/request',
    trpc: 'requestPasswordReset',
    access: { kind: 'public' },
    input: { body: ZPasswordResetRequest },
    output: ZOk,
    status: 202,
    docs: {
      operationId: 'requestPasswordReset',
      summary: 'Email a password-reset link',
      description: 'Always answered 202, whether or not the account exists. The link works 30 minutes, once; at most 3 emails per address per hour.',
      tags,
      responses: {
        202: { description: 'Accepted (sent when the account exists)' },
        429: { description: 'Too many reset requests from this client address' },
      },
    },
    run: ({ services, clientAddress }, { email }) => requestPasswordReset(services, email, clientAddress),
  }),
  defineOperation({
    method: 'post',
    path: '/api/auth/password-reset/inspect',
    trpc: 'inspectPasswordReset',
    access: { kind: 'public' },
    input: { body: ZPasswordResetInspect },
    output: ZPasswordResetInspection,
    docs: {
      operationId: 'inspectPasswordReset',
      summary: 'Read a reset token without spending it',
      description: 'What the reset page needs to open the old private key with the recovery key.',
      tags,
      responses: {
        200: { description: 'The account behind the token' },
        400: { description: 'Invalid, expired or already used token' },
      },
    },
    run: ({ services }, { token }) => inspectPasswordReset(services, token),
  }),
  defineOperation({
    method: 'post',
    path: '/api/auth/password-reset/confirm',
    trpc: 'confirmPasswordReset',
    access: { kind: 'public' },
    input: { body: ZPasswordResetConfirm },
    output: ZOk,
    docs: {
      operationId: 'confirmPasswordReset',
      summary: 'Set a new password with a reset token',
      description:
        '`key_bundle: {password_wrap}` keeps the keys (opened with the recovery key, re-wrapped); `key_bundle: {public_key, password_wrap, recovery_wrap}` replaces them (what the old keys sealed becomes unreadable). Revokes every session.',
      tags,
      responses: {
        200: { description: 'Password set' },
        400: { description: 'Invalid, expired or already used token' },
      },
    },
    run: ({ services, clientAddress }, input) => confirmPasswordReset(services, input, clientAddress),
  }),
] as const;
