import { COMMON_PASSWORDS } from './common-passwords.data';

const common = new Set(COMMON_PASSWORDS);

/**
 * docs/server-rules.md "Accounts, sessions and errors": refuse the most common passwords (case-insensitive; the
 * list ships with us).
 */
export const isCommonPassword = (password: string) => common.has(password.toLowerCase());
