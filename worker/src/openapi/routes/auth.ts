import { z } from 'zod';
import { ZGoogleSignInStart } from '../../contracts/auth';
import type { RouteDoc } from '../../api/route-doc';

const tags = ['Accounts'];

/** Google sign-in (domains/auth/rest.ts): redirects, so plain routes; the other /api/auth/* routes are domains/auth/operations.ts. */
export const routes: RouteDoc[] = [
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
    description:
      'Google redirects here; the Worker answers with a redirect to `/login#…` carrying the session token or an error in the fragment, plus `state` (the `client_state` the flow was started with, if any).',
    tags,
    auth: 'none',
    request: { query: z.object({ code: z.string().optional(), state: z.string().optional(), error: z.string().optional() }) },
    responses: { 302: { description: 'Redirect to /login with the result in the URL fragment' } },
  },
];
