import { defineOperation } from '../api/operation';
import { CONSENT_STOPS, type TConsent, type TConsentKind, ZConsent, ZConsentParam, ZSetConsentBody } from '../contracts/legal';
import type { ServiceContext } from '../env';
import { eraseChatImports } from '../domains/chat-import/imports';
import { consentKindNotFound, tags } from '../domains/legal/operations';
import { consentOf, recordConsent } from '../domains/legal/consents';
import { resumeReleases } from '../domains/messages/release/resume-releases';
import { eraseVoiceData } from '../domains/voice/samples';

/**
 * A consent change and what the domains that depend on consents do about it. The legal domain owns the
 * consents and records a change (domains/legal/consents.ts); the release engine, voice and the chat import
 * read consents and react here, so legal imports none of them. Restoring `messages` resumes the sender's
 * paused releases: their clocks are re-synced so whatever came due meanwhile happens now, under the normal
 * rules. Withdrawing `voice` erases the voice profile, samples and imported chats — on every withdrawal, not
 * only a change: a repeat also clears anything a racing upload slipped in (docs/decisions/data-rights.md).
 */
export async function setConsent(ctx: ServiceContext, userId: string, kind: TConsentKind, consent: boolean): Promise<TConsent> {
  const { changed } = await recordConsent(ctx, userId, kind, consent);
  if (kind === 'messages' && consent && changed) await resumeReleases(ctx, userId);
  if (kind === 'voice' && !consent) {
    await eraseVoiceData(ctx, userId);
    await eraseChatImports(ctx, userId);
  }
  return consentOf(ctx, userId, kind);
}

const stops = Object.entries(CONSENT_STOPS)
  .map(([kind, what]) => `\`${kind}\`: ${what}`)
  .join(' ');

/** POST /api/legal/consent/{id} (`legal.setConsent`), in the Legal area of the API with the legal domain's operations. */
export const consentOperations = [
  defineOperation({
    method: 'post',
    path: '/api/legal/consent/{id}',
    trpc: 'setConsent',
    access: { kind: 'session' },
    input: { params: ZConsentParam, body: ZSetConsentBody },
    output: ZConsent,
    notFound: consentKindNotFound,
    docs: {
      operationId: 'setConsent',
      summary: 'Allow or withdraw one kind of processing',
      description: `\`{consent: false}\` withdraws \`id\`, \`{consent: true}\` allows it again; each change is recorded (time, old, new). Withdrawing stops: ${stops}`,
      tags,
      responses: {
        200: { description: 'The consent now' },
        404: { description: 'Unknown consent kind' },
        422: { description: 'consent is missing or not a boolean' },
      },
    },
    run: ({ services, principal }, { id, consent }) => setConsent(services, principal.user.id, id, consent),
  }),
] as const;
