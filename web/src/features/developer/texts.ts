import { API_SCOPE_DESCRIPTIONS, type ApiScope } from './types';

/**
 * What each scope lets a key do, in one line: the server's own descriptions
 * (docs/product.md "Developer API and webhooks").
 */
export const scopeHint = (scope: ApiScope) => `${API_SCOPE_DESCRIPTIONS[scope]}.`;

export const T = {
  keyOnceTitle: 'Your new API key',
  keyOnceWarning: 'Copy this key now. It will not be shown again: Afterword keeps only a hash of it.',
  keyCopy: 'Copy key',
  keyCopied: 'API key copied',
  secretOnceTitle: 'Your webhook signing secret',
  secretOnceWarning: 'Copy this secret now. It will not be shown again. Your endpoint needs it to verify each event.',
  secretCopy: 'Copy secret',
  secretCopied: 'Signing secret copied',
  onceDone: 'I have saved it',
  revokeTitle: 'Revoke this API key?',
  revokeConfirm: 'Revoke key',
  deleteWebhookTitle: 'Delete this webhook?',
  deleteWebhookConfirm: 'Delete webhook',
  noScope: 'Choose at least one scope.',
  nameRequired: 'Enter a name for this key.',
  urlRequired: 'Enter the URL that should receive events.',
  urlInvalid: 'Enter a full URL, such as https://example.com/hooks/afterword.',
  secretFormat: 'A signing secret starts with whsec_ followed by base64 (24 to 64 random bytes). Leave it blank to have one made for you.',
} as const;
