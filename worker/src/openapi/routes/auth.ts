import { z } from 'zod';
import { ZChangePassword, ZGoogleSignInStart, ZLoginInput, ZLoginResult, ZMe, ZPasswordResetConfirm, ZPasswordResetInspect, ZPasswordResetRequest, ZRegisterInput } from '../../contracts/auth';
import type { RouteDoc } from '../route-doc';
import { ZOk, ZPasswordResetInspection } from '../schemas';

const tags = ['Accounts'];

/** /api/auth/*: accounts, sessions, password change and reset, Google sign-in (domains/auth/rest.ts). */
export const routes: RouteDoc[] = [
  {
    method: 'post',
    path: '/api/auth/register',
    operationId: 'register',
    summary: 'Create an account',
    description:
      'Each `data_policy_region` accepts only its own `legal_jurisdiction`: `US-HIPAA` needs a US state code, `EU-GDPR` an EU member state, `INTL-General` anything up to 100 characters (or nothing). A blank jurisdiction counts as absent. Common passwords are refused (422).',
    tags,
    auth: 'none',
    request: { body: ZRegisterInput },
    responses: {
      201: { description: 'The new account (sign in next)', schema: ZMe },
      409: { description: 'An account with this email already exists' },
    },
  },
  {
    method: 'post',
    path: '/api/auth/login',
    operationId: 'login',
    summary: 'Sign in with email and password',
    description: 'Returns a session token for `Authorization: Bearer …`. Five failed attempts lock the email and the client address for a while (429 with `Retry-After`).',
    tags,
    auth: 'none',
    request: { body: ZLoginInput },
    responses: {
      200: { description: 'A session', schema: ZLoginResult },
      401: { description: 'Wrong email or password' },
      429: { description: 'Too many failed sign-ins: wait `Retry-After` seconds' },
    },
  },
  {
    method: 'get',
    path: '/api/auth/me',
    operationId: 'me',
    summary: 'The signed-in account',
    tags,
    auth: 'session',
    responses: { 200: { description: 'The account', schema: ZMe } },
  },
  {
    method: 'post',
    path: '/api/auth/logout',
    operationId: 'logout',
    summary: 'Revoke this session',
    tags,
    auth: 'session',
    responses: { 200: { description: 'The token no longer works', schema: ZOk } },
  },
  {
    method: 'post',
    path: '/api/auth/password',
    operationId: 'changePassword',
    summary: 'Change the password',
    description:
      'An account with end-to-end encryption keys must send `password_wrap` (its private key re-wrapped under the new password, PBKDF2); an account without keys must not. Every other session of the user is revoked. A wrong current password counts as a failed sign-in.',
    tags,
    auth: 'session',
    request: { body: ZChangePassword },
    responses: {
      200: { description: 'Changed', schema: ZOk },
      409: { description: 'The password was changed at the same moment elsewhere' },
      429: { description: 'Too many wrong current passwords: wait `Retry-After` seconds' },
    },
  },
  {
    method: 'post',
    path: '/api/auth/password-reset/request',
    operationId: 'requestPasswordReset',
    summary: 'Email a password-reset link',
    description: 'Always answered 202, whether or not the account exists. The link works 30 minutes, once; at most 3 emails per address per hour.',
    tags,
    auth: 'none',
    request: { body: ZPasswordResetRequest },
    responses: {
      202: { description: 'Accepted (sent when the account exists)', schema: ZOk },
      429: { description: 'Too many reset requests from this client address' },
    },
  },
  {
    method: 'post',
    path: '/api/auth/password-reset/inspect',
    operationId: 'inspectPasswordReset',
    summary: 'Read a reset token without spending it',
    description: 'What the reset page needs to open the old private key with the recovery key.',
    tags,
    auth: 'none',
    request: { body: ZPasswordResetInspect },
    responses: {
      200: { description: 'The account behind the token', schema: ZPasswordResetInspection },
      400: { description: 'Invalid, expired or already used token' },
    },
  },
  {
    method: 'post',
    path: '/api/auth/password-reset/confirm',
    operationId: 'confirmPasswordReset',
    summary: 'Set a new password with a reset token',
    description:
      '`key_bundle: {password_wrap}` keeps the keys (opened with the recovery key, re-wrapped); `key_bundle: {public_key, password_wrap, recovery_wrap}` replaces them (what the old keys sealed becomes unreadable). Revokes every session.',
    tags,
    auth: 'none',
    request: { body: ZPasswordResetConfirm },
    responses: {
      200: { description: 'Password set', schema: ZOk },
      400: { description: 'Invalid, expired or already used token' },
    },
  },
  {
    method: 'get',
    path: '/api/auth/google',
    operationId: 'googleSignIn',
    summary: 'Start Google sign-in (browser navigation)',
    description:
      'A page navigation, not an API call: redirects to Google with state and PKCE cookies. `client_state` (a random value the page keeps) comes back in the final fragment as `state`, so the page accepts only the sign-in it started.',
    tags,
    auth: 'none',
    request: { query: ZGoogleSignInStart },
    responses: {
      302: { description: "Redirect to Google's consent screen" },
      404: { description: 'Google sign-in is not configured on this server' },
      422: { description: '`client_state` is not 22 to 128 URL-safe characters' },
    },
  },
  {
    method: 'get',
    path: '/api/auth/google/callback',
    operationId: 'googleSignInCallback',
    summary: 'Google sign-in callback (browser navigation)',
    description: 'Google redirects here; the Worker answers with a redirect to `/login#…` carrying the session token or an error in the fragment, plus `state` (the `client_state` the flow was started with, if any).',
    tags,
    auth: 'none',
    request: { query: z.object({ code: z.string().optional(), state: z.string().optional(), error: z.string().optional() }) },
    responses: { 302: { description: 'Redirect to /login with the result in the URL fragment' } },
  },
];
