/*
 * The voice calls that tRPC does not carry (multipart): the upload of one sample, a Message from the Beyond,
 * and a spoken question to transcribe. The server
 * recognises the type and measures the length from the bytes; the page sends nothing else about them.
 */
import type { VoicePromptView, VoiceSampleView } from '@afterword/worker/contracts/voice';
import { HttpError, readApiError } from '../../lib/api-error';
import { restFetch } from '../../lib/rest';
import { wavRendition } from './rendition';

/**
 * POST /api/voice/upload (multipart: file, label, consent, and for WebM/Ogg the browser's WAV rendition as
 * `analysis_file`, see rendition.ts). A rendition the server refuses (not the recording's length) is dropped
 * and the recording sent alone: the sample counts either way.
 */
export async function uploadVoiceSample(file: Blob, fileName: string, label: string, render = wavRendition): Promise<VoiceSampleView> {
  const send = async (analysis: Blob | null) => {
    const form = new FormData();
    form.append('file', file, fileName);
    if (label.trim()) form.append('label', label.trim());
    form.append('consent', 'true');
    if (analysis) form.append('analysis_file', analysis, 'analysis.wav');
    const res = await restFetch('/api/voice/upload', { method: 'POST', body: form });
    return (await res.json()) as VoiceSampleView;
  };
  const analysis = await render(file);
  try {
    return await send(analysis);
  } catch (err) {
    const renditionRefused = readApiError(err).fieldIssues?.some((issue) => issue.path[0] === 'analysis_file') ?? false;
    if (!analysis || !renditionRefused) throw err;
    return send(null);
  }
}

/** POST /api/voice/prompt (multipart: prompt, response_text?, file?, locked). */
export async function createVoicePrompt(prompt: string, responseText: string, recording: Blob | null, locked: boolean): Promise<VoicePromptView> {
  const form = new FormData();
  form.append('prompt', prompt);
  if (responseText.trim()) form.append('response_text', responseText);
  if (recording) form.append('file', recording, 'answer.webm');
  form.append('locked', locked ? 'true' : 'false');
  const res = await restFetch('/api/voice/prompt', { method: 'POST', body: form });
  return (await res.json()) as VoicePromptView;
}

/**
 * POST /api/personas/{id}/transcribe (multipart: file): the words of a spoken question, for a browser without
 * speech recognition. Null when this server has no speech to text (501: the page asks to type the question).
 */
export async function transcribeQuestion(ownerId: string, recording: Blob): Promise<string | null> {
  const form = new FormData();
  form.append('file', recording, 'question.webm');
  try {
    const res = await restFetch(`/api/personas/${encodeURIComponent(ownerId)}/transcribe`, { method: 'POST', body: form });
    return ((await res.json()) as { text: string }).text;
  } catch (err) {
    if (err instanceof HttpError && err.status === 501) return null;
    throw err;
  }
}
