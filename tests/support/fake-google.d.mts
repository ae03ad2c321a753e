// Types for fake-google.mjs, for the Worker's vitest globalSetup (worker/test/peers/google.ts).
export interface FakeGoogleIdentity {
  sub?: string;
  email?: string;
  email_verified?: boolean;
}

export interface FakeGoogle {
  origin: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  queueIdentity(identity: FakeGoogleIdentity): void;
  allowRedirectUri(uri: string): void;
  workerVars(): Record<'GOOGLE_CLIENT_ID' | 'GOOGLE_CLIENT_SECRET' | 'GOOGLE_AUTH_URL' | 'GOOGLE_TOKEN_URL' | 'GOOGLE_JWKS_URL' | 'GOOGLE_ISSUER', string>;
  stop(): Promise<void>;
}

export function startFakeGoogle(options?: { clientId?: string; clientSecret?: string; redirectUris?: string[] }): Promise<FakeGoogle>;
