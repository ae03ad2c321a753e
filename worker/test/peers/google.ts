import type { TestProject } from 'vitest/node';
import { startFakeGoogle } from '../../../tests/support/fake-google.mjs';

/**
 * Google's OAuth 2.0 / OpenID Connect endpoints for the sign-in tests: the same node:http provider the
 * black-box and browser tests use (tests/support/fake-google.mjs: /authorize auto-consents, /token
 * checks PKCE, /jwks serves the RS256 key). Tests queue the next identity over its control endpoint
 * (`POST {origin}/_control/identities`) and run the Worker with `workerVars` and `publicOrigin`.
 */
export interface GooglePeerInfo {
  origin: string;
  publicOrigin: string;
  workerVars: Record<string, string>;
}

declare module 'vitest' {
  export interface ProvidedContext {
    googlePeer: GooglePeerInfo;
  }
}

/** The Worker's origin in these tests; its callback URL is the one redirect URI the provider accepts. */
const PUBLIC_ORIGIN = 'http://afterword.test';

export async function startGooglePeer(project: TestProject) {
  const google = await startFakeGoogle({ redirectUris: [`${PUBLIC_ORIGIN}/api/auth/google/callback`] });
  project.provide('googlePeer', { origin: google.origin, publicOrigin: PUBLIC_ORIGIN, workerVars: google.workerVars() });
  return () => google.stop();
}
