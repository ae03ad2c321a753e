import { isLoopbackAddress } from '@afterword/worker/contracts/passkeys';
import { browserSupportsWebAuthn, startAuthentication, startRegistration } from '@simplewebauthn/browser';

/**
 * The browser side of passkeys, through @simplewebauthn/browser: it turns the server's JSON options into
 * navigator.credentials calls and the answers back into JSON (worker/src/domains/passkeys/passkeys.ts).
 */
type Json = Record<string, unknown>;

/** A person closing the browser's passkey dialog is not an error to shout about. */
export class PasskeyCancelled extends Error {
  constructor() {
    super('Cancelled');
    this.name = 'PasskeyCancelled';
  }
}

const rethrow = (err: unknown): never => {
  if (err instanceof Error && (err.name === 'NotAllowedError' || err.name === 'AbortError')) throw new PasskeyCancelled();
  throw err;
};

export async function createPasskeyCredential(options: Json): Promise<Json> {
  return (await startRegistration({ optionsJSON: options as never }).catch(rethrow)) as unknown as Json;
}

export async function getPasskeyAssertion(options: Json): Promise<Json> {
  return (await startAuthentication({ optionsJSON: options as never }).catch(rethrow)) as unknown as Json;
}

/**
 * Why passkeys cannot work on this page, or null. Browsers bind passkeys to a domain name, never to an
 * address: a local app opened at 127.0.0.1 is told to open the same port at localhost (where the server
 * binds them in development, worker/src/domains/passkeys/relying-party.ts).
 */
export function passkeyUnavailableReason(location: Pick<Location, 'hostname' | 'port' | 'protocol'> = window.location): string | null {
  if (!browserSupportsWebAuthn()) return 'This browser cannot use passkeys.';
  if (isLoopbackAddress(location.hostname)) {
    const port = location.port ? `:${location.port}` : '';
    return `Passkeys need a name, not an address: open ${location.protocol}//localhost${port} to use them.`;
  }
  return null;
}
