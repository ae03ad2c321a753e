import type { ClonedVoiceDeleteJob } from '../../contracts/jobs';
import type { ServiceContext } from '../../env';
import { log } from '../../lib/logger';
import { elevenLabsClient } from './elevenlabs';

/**
 * A voice cloned at the provider goes when the profile goes (retirement, a withdrawn voice consent, account
 * deletion, a new training that replaced it): docs/decisions/voice.md "ElevenLabs". The local erasure never
 * waits on the provider: it is done first, then the provider is asked; if the provider cannot be reached or
 * refuses, a `cloned_voice_delete` job asks again through the JOBS queue (its retries with back-off, then the
 * dead-letter queue, where an operator sees it). A voice the provider no longer has counts as deleted.
 */
export async function forgetClonedVoice(ctx: ServiceContext, voiceId: string): Promise<'deleted' | 'gone' | 'queued'> {
  try {
    return await elevenLabsClient(ctx.env).deleteVoice(voiceId);
  } catch (err) {
    log.warn('cloned voice not deleted yet; queued', { voice_id: voiceId, error: String(err) });
    try {
      await ctx.env.JOBS.send({ type: 'cloned_voice_delete', voice_id: voiceId } satisfies ClonedVoiceDeleteJob, { contentType: 'json' });
    } catch (sendErr) {
      log.error('cloned voice left at the provider: the delete could not be queued', { voice_id: voiceId, error: String(sendErr) });
    }
    return 'queued';
  }
}

/** The JOBS consumer of `cloned_voice_delete`: throws while the provider does not confirm, so the queue retries. */
export async function runClonedVoiceDelete(ctx: ServiceContext, job: ClonedVoiceDeleteJob): Promise<'deleted' | 'gone'> {
  return elevenLabsClient(ctx.env).deleteVoice(job.voice_id);
}
