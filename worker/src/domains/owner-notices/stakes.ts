/**
 * What a canary's miss could set going for its owner — messages of theirs still waiting for a rule, and
 * active guardians who would be asked about them — as SQL over an owner id expression (`owner`, e.g. `?1`).
 * One definition for the words of a canary notice (how much is at stake) and for whether a safety notice
 * may be muted (anything at stake): send-owner-notice.ts, domains/owner-notices/canary-notices.ts.
 */
export const messagesWaitingSql = (owner: string) => `(SELECT count(*) FROM messages WHERE sender_id = ${owner} AND status IN ('scheduled', 'armed'))`;
export const activeGuardiansSql = (owner: string) => `(SELECT count(*) FROM guardians WHERE owner_id = ${owner} AND status = 'active')`;
