import { z } from 'zod';

/**
 * Passkeys (WebAuthn): one schema per input and output of docs/api.md "Passkeys". The WebAuthn option and
 * response objects are the W3C JSON forms (PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON …),
 * made and checked by @simplewebauthn on each side; here they are opaque objects.
 */
const ZWebAuthnJson = z.record(z.string(), z.unknown());

/**
 * Browsers refuse an IP address as a passkey's domain: a development Worker at a loopback address binds passkeys
 * to `localhost` (worker/src/domains/passkeys/relying-party.ts), and the app opened at one says so.
 */
export const isLoopbackAddress = (hostname: string) => /^(127\.\d+\.\d+\.\d+|\[::1\])$/.test(hostname);

export const ZPasskeyChallenge = z.object({
  /** Names the challenge when it is answered: each works once, for five minutes. */
  challenge_id: z.string(),
  options: ZWebAuthnJson.describe('PublicKeyCredentialCreationOptionsJSON or PublicKeyCredentialRequestOptionsJSON, for navigator.credentials'),
});
export type TPasskeyChallenge = z.infer<typeof ZPasskeyChallenge>;

export const PASSKEY_NAME_MAX = 60;

export const ZRegisterPasskeyInput = z.object({
  challenge_id: z.string().max(100),
  response: ZWebAuthnJson.describe('RegistrationResponseJSON from navigator.credentials.create()'),
  name: z
    .string()
    .trim()
    .min(1, { message: 'Give the passkey a name, e.g. the device it is on' })
    .max(PASSKEY_NAME_MAX, { message: `A passkey's name is at most ${PASSKEY_NAME_MAX} characters` }),
});

export const ZPasskeyAssertionInput = z.object({
  challenge_id: z.string().max(100),
  response: ZWebAuthnJson.describe('AuthenticationResponseJSON from navigator.credentials.get()'),
});

export const ZPasskey = z.object({
  id: z.string(),
  name: z.string(),
  /** Synced by its provider (iCloud Keychain, Google Password Manager …): not lost with one device. */
  backed_up: z.boolean(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type TPasskey = z.infer<typeof ZPasskey>;

export const ZPasskeyList = z.object({ passkeys: z.array(ZPasskey) });

export const ZPasskeyIdParam = z.object({ id: z.string().min(1).max(400).describe("The passkey's credential id (base64url)") });
