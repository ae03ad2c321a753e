import { toBase64Url } from '../../lib/encoding';

/** 24 random bytes as 32 base64url characters: the claim link's locator (contracts/vault.ts ZClaimTokenParam). */
export const claimToken = () => toBase64Url(crypto.getRandomValues(new Uint8Array(24)));
