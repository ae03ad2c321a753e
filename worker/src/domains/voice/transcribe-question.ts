import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';
import { log } from '../../lib/logger';
import { singleFilePart } from '../../lib/multipart';
import { sniffAudio } from './audio-duration';
import { voiceEngine } from './engine';
import { requireListener } from './persona-access';
import { transcribeWithWorkersAi } from './persona-engine/workers-ai-speech';

/** A spoken question is short (a minute of MediaRecorder Opus is under 1 MB); Whisper takes the bytes as a number array, ~8 bytes each in memory. */
export const TRANSCRIBE_MAX_BYTES = 2 * 1024 * 1024;

/**
 * POST /api/personas/{id}/transcribe: the words of a spoken question to this persona, for a browser without
 * speech recognition (Voice Chat). Workers AI's Whisper through the AI binding (workers-ai engine); another
 * engine is 501 (the page then asks to type the question). Who may ask is who may talk to the persona: the
 * same 404 for anyone else, checked before the file is read. A model that fails answers an empty text, never a 500.
 */
export async function transcribeQuestion(
  ctx: ServiceContext,
  ownerId: string,
  userId: string,
  form: FormData,
  transcribe?: (recording: Uint8Array) => Promise<string>,
): Promise<{ text: string }> {
  await requireListener(ctx, ownerId, userId);
  // What the server can do comes before what was sent: without speech to text, the page asks to type.
  let run = transcribe;
  if (!run) {
    const engine = voiceEngine(ctx.env);
    const ai = ctx.env.AI;
    if (engine !== 'workers-ai' || !ai)
      throw new AppError(
        'NOT_IMPLEMENTED',
        `Speech to text on the server comes with the Workers AI engine; this server uses the ${engine} engine: type your question`,
      );
    run = (recording) => transcribeWithWorkersAi(ai, recording);
  }
  const { bytes } = await singleFilePart(form, 'send one recording', 'the recorded question');
  if (!sniffAudio(bytes)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Only WebM, Ogg (Opus or Vorbis) and WAV recordings can be transcribed');
  try {
    return { text: await run(bytes) };
  } catch (err) {
    log.warn('transcription failed', { owner_id: ownerId, error: String(err) });
    return { text: '' };
  }
}
