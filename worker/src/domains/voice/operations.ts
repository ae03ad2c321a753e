import { z } from 'zod';
import { ZIdParam } from '../../contracts/ids';
import { defineOperation } from '../../api/operation';
import { VOICE_SAMPLE_MAX_BODY_BYTES, ZVoicePrompt, ZVoicePromptFields, ZVoiceSample, ZVoiceStatus, ZVoiceUploadFields } from '../../contracts/voice';
import { AppError, bodyFieldError } from '../../lib/errors';
import { createVoicePrompt, deleteVoicePrompt, listVoicePrompts, voicePromptNotFound } from './prompts';
import { parseOrThrow } from '../../lib/validation';
import { optionalFilePart, singleFilePart, textField } from '../../lib/multipart';
import { deleteVoiceSample, listVoiceSamples, uploadVoiceSample, voiceSampleNotFound } from './samples';
import { startVoiceTraining, voiceStatus } from './training';
import { ZPersona, ZPersonaInput } from '../../contracts/persona';
import { getPersona, savePersona } from './persona';
import { ZChatPersona, ZPersonaAccess, ZPersonaAccessInput, ZPersonaPrompt, ZPersonaReply, ZRetireInput } from '../../contracts/persona-chat';
import { listChatPersonas } from './list-personas';
import { replyAsPersona, simulateResponse } from './persona-chat';
import { TRANSCRIBE_MAX_BYTES, transcribeQuestion } from './transcribe-question';
import { NO_PERSONA, personaAccess, retirePersona, setPersonaAccess } from './persona-access';

/**
 * Voice samples and the voice profile (docs/api.md: /voice/upload, /voice/train, /voice/status;
 * docs/decisions/voice.md). Uploads are multipart: REST only; tRPC has the rest.
 */
const tags = ['Voice'];
const notYours = { description: 'Voice sample not found (or not yours)' };

async function readUpload(form: FormData) {
  const file = await singleFilePart(form, 'send one file per upload (the page sends several files one after another)');
  const fields = parseOrThrow(ZVoiceUploadFields, { consent: textField(form, 'consent'), label: textField(form, 'label') }, 'body');
  const analysis = (await optionalFilePart(form, 'analysis_file', 'a WAV', 'send at most one analysis_file'))?.bytes ?? null;
  return { fields, file, analysis };
}

/** Message from the Beyond: the text fields and at most one `file` part (a recorded answer is optional). */
async function readPrompt(form: FormData) {
  const parts = form.getAll('file');
  if (parts.length > 1) throw bodyFieldError('file', 'send at most one recording per Message from the Beyond', 'too_many');
  const part = parts[0];
  if (typeof part === 'string') throw bodyFieldError('file', 'file must be a file part (the recording), not a text field', 'file_type');
  const file = part ? { bytes: new Uint8Array(await part.arrayBuffer()) } : null;
  const fields = parseOrThrow(
    ZVoicePromptFields,
    { prompt: textField(form, 'prompt'), response_text: textField(form, 'response_text'), locked: textField(form, 'locked') },
    'body',
  );
  return { fields, file };
}

export const voiceOperations = [
  defineOperation({
    method: 'post',
    path: '/api/voice/upload',
    trpc: false,
    access: { kind: 'session' },
    input: {
      multipart: {
        schema: ZVoiceUploadFields.extend({
          file: z.file().describe('The recording: WebM, Ogg (Opus/Vorbis) or WAV'),
          analysis_file: z
            .file()
            .optional()
            .describe(
              'For a WebM/Ogg recording: the same recording decoded by the browser as a 16-bit mono WAV at 8 kHz (its first 120 s), to measure pitch and rate on',
            ),
        }),
        maxBytes: VOICE_SAMPLE_MAX_BODY_BYTES,
        read: readUpload,
      },
    },
    output: ZVoiceSample,
    status: 201,
    docs: {
      operationId: 'uploadVoiceSample',
      summary: 'Upload a voice sample',
      description:
        "Multipart: `file`, `label?`, `consent` (true). The type is recognised from the bytes (WebM, Ogg, WAV) and the duration is measured by the server from them; a client-sent duration is never read. Up to 20 MiB, within the plan's storage.",
      tags,
      responses: {
        201: { description: 'Stored, with the measured `duration_ms`' },
        403: { description: "The voice consent is withdrawn, or over the plan's storage (upgrade for more)" },
        413: { description: 'Over 20 MiB' },
        415: { description: 'Not WebM, Ogg or WAV audio' },
        422: { description: 'consent is not true, no file, or audio that cannot be measured or is under half a second' },
      },
    },
    run: ({ services, principal }, { fields, file, analysis }) => uploadVoiceSample(services, principal.user, fields, file, analysis),
  }),
  defineOperation({
    method: 'get',
    path: '/api/voice/samples',
    trpc: 'samples',
    access: { kind: 'session' },
    input: {},
    output: z.array(ZVoiceSample),
    docs: {
      operationId: 'listVoiceSamples',
      summary: 'Your voice samples',
      description: 'Oldest first, each with the duration the server measured.',
      tags,
      responses: { 200: { description: 'Samples' } },
    },
    run: ({ services, principal }) => listVoiceSamples(services, principal.user.id),
  }),
  defineOperation({
    method: 'delete',
    path: '/api/voice/samples/{id}',
    trpc: 'deleteSample',
    access: { kind: 'session' },
    input: { params: ZIdParam },
    output: z.object({ ok: z.literal(true) }),
    notFound: voiceSampleNotFound,
    docs: {
      operationId: 'deleteVoiceSample',
      summary: 'Delete a voice sample',
      description: 'The recording goes from storage too. A profile already trained stays until you train again or withdraw the voice consent.',
      tags,
      responses: { 200: { description: 'Deleted' }, 404: notYours },
    },
    run: async ({ services, principal }, { id }) => {
      await deleteVoiceSample(services, principal.user.id, id);
      return { ok: true as const };
    },
  }),
  defineOperation({
    method: 'get',
    path: '/api/voice/status',
    trpc: 'status',
    access: { kind: 'session' },
    input: {},
    output: ZVoiceStatus,
    docs: {
      operationId: 'voiceStatus',
      summary: 'Voice profile training status',
      description:
        '`status`: not_started, processing, complete or failed (with `error`); `seconds_collected` (measured) against `seconds_required` (30); the `engine` in use; the measured `profile` once complete; the samples.',
      tags,
      responses: { 200: { description: 'Status' } },
    },
    run: ({ services, principal }) => voiceStatus(services, principal.user.id),
  }),
  defineOperation({
    method: 'post',
    path: '/api/voice/train',
    trpc: 'train',
    access: { kind: 'session' },
    input: {},
    output: ZVoiceStatus,
    status: 202,
    docs: {
      operationId: 'trainVoiceProfile',
      summary: 'Start training the voice profile',
      description:
        'Queues a job that measures your voice profile (pitch and speaking rate, for the speech synthesiser; a profile, not a neural clone). Poll GET /api/voice/status until `complete` or `failed`.',
      tags,
      responses: {
        202: { description: 'Queued: `status` is processing' },
        403: { description: 'The voice consent is withdrawn' },
        409: { description: 'Under 30 s of samples, or a training already in progress' },
      },
    },
    run: ({ services, principal }) => startVoiceTraining(services, principal.user),
  }),
  defineOperation({
    method: 'get',
    path: '/api/ai/profile',
    trpc: 'persona',
    access: { kind: 'session' },
    input: {},
    output: ZPersona,
    docs: {
      operationId: 'getPersona',
      summary: 'Your persona',
      description: 'The persona text, tone and answers to the seed questions; an empty neutral persona before the first save.',
      tags: ['Persona'],
      responses: { 200: { description: 'The persona' } },
    },
    run: ({ services, principal }) => getPersona(services, principal.user.id),
  }),
  defineOperation({
    method: 'post',
    path: '/api/ai/train-profile',
    trpc: 'savePersona',
    access: { kind: 'session' },
    input: { body: ZPersonaInput },
    output: ZPersona,
    docs: {
      operationId: 'trainPersona',
      summary: 'Set up your persona',
      description:
        '`{persona_text (≤ 5,000), behavior: playful | wise | comforting | neutral, qa: [{question_id, answer (≤ 2,000)}]}` with the ids of the 10 seed questions; replaces the persona as a whole. Blank answers are dropped.',
      tags: ['Persona'],
      responses: { 200: { description: 'Saved' }, 403: { description: 'The voice consent is withdrawn' }, 422: { description: 'A field that is not valid' } },
    },
    run: ({ services, principal }, input) => savePersona(services, principal.user.id, input),
  }),
  defineOperation({
    method: 'post',
    path: '/api/voice/prompt',
    trpc: false,
    access: { kind: 'session' },
    input: {
      multipart: {
        schema: ZVoicePromptFields.extend({ file: z.file().optional().describe('A recorded answer: WebM, Ogg or WAV') }),
        maxBytes: VOICE_SAMPLE_MAX_BODY_BYTES,
        read: readPrompt,
      },
    },
    output: ZVoicePrompt,
    status: 201,
    docs: {
      operationId: 'createVoicePrompt',
      summary: 'Leave a Message from the Beyond',
      description:
        'Multipart: `prompt` (the question), `response_text?` and/or `file?` (a recording, checked and measured like a voice sample), `locked` (true: only after your release). Counted in the storage.',
      tags,
      responses: {
        201: { description: 'Stored' },
        403: { description: "The voice consent is withdrawn, or over the plan's storage" },
        413: { description: 'Over 20 MiB' },
        415: { description: 'The recording is not WebM, Ogg or WAV audio' },
        422: { description: 'No prompt, neither an answer nor a recording, or a recording that cannot be measured' },
      },
    },
    run: ({ services, principal }, { fields, file }) => createVoicePrompt(services, principal.user, fields, file),
  }),
  defineOperation({
    method: 'get',
    path: '/api/voice/prompts',
    trpc: 'prompts',
    access: { kind: 'session' },
    input: {},
    output: z.array(ZVoicePrompt),
    docs: {
      operationId: 'listVoicePrompts',
      summary: 'Your Messages from the Beyond',
      description: 'Oldest first.',
      tags,
      responses: { 200: { description: 'Messages from the Beyond' } },
    },
    run: ({ services, principal }) => listVoicePrompts(services, principal.user.id),
  }),
  defineOperation({
    method: 'delete',
    path: '/api/voice/prompts/{id}',
    trpc: 'deletePrompt',
    access: { kind: 'session' },
    input: { params: ZIdParam },
    output: z.object({ ok: z.literal(true) }),
    notFound: voicePromptNotFound,
    docs: {
      operationId: 'deleteVoicePrompt',
      summary: 'Delete a Message from the Beyond',
      description: 'Its recording goes from storage too.',
      tags,
      responses: { 200: { description: 'Deleted' }, 404: { description: 'Not found (or not yours)' } },
    },
    run: async ({ services, principal }, { id }) => {
      await deleteVoicePrompt(services, principal.user.id, id);
      return { ok: true as const };
    },
  }),
  defineOperation({
    method: 'post',
    path: '/api/voice/simulate-response',
    trpc: 'simulate',
    access: { kind: 'session' },
    input: { body: ZPersonaPrompt },
    output: ZPersonaReply,
    docs: {
      operationId: 'simulatePersonaResponse',
      summary: 'Try your persona',
      description:
        "`{prompt, session_id?}` → `{text, audio_base64, source, based_on, session_id, audio_seconds, voice_seconds_left, notice, engine}`. Your persona answers from your own words (seed answers, persona text, Messages from the Beyond, imported chat); `source` says whether the words are yours (`own_words`), worded by an AI model from them (`ai_worded`) or nothing matched (`no_match`, and the text says so). `audio_base64` is a WAV from the speech synthesiser tuned by your voice profile, within your plan's voice minutes per session (empty past them, or on the Free plan).",
      tags: ['Persona'],
      responses: {
        200: { description: 'The reply' },
        403: { description: 'The voice consent is withdrawn' },
        409: { description: 'No persona set up yet' },
        422: { description: 'An empty prompt' },
      },
    },
    run: ({ services, principal }, input) => simulateResponse(services, principal.user.id, input),
  }),
  defineOperation({
    method: 'get',
    path: '/api/personas',
    trpc: 'chatPersonas',
    access: { kind: 'session' },
    input: {},
    output: z.array(ZChatPersona),
    docs: {
      operationId: 'listChatPersonas',
      summary: 'Personas you may talk to',
      description: 'Your own persona, and those of people who chose you, once they are released (missed check-ins or confirmed death) and unless retired.',
      tags: ['Persona'],
      responses: { 200: { description: 'Personas' } },
    },
    run: ({ services, principal }) => listChatPersonas(services, principal.user.id),
  }),
  defineOperation({
    method: 'post',
    path: '/api/personas/{id}/reply',
    trpc: 'reply',
    access: { kind: 'session' },
    // Fields checked after access (in the service), so an outsider gets the same 404 whatever they send.
    input: { params: ZIdParam, body: ZPersonaPrompt.partial() },
    output: ZPersonaReply,
    notFound: () => new AppError('NOT_FOUND', NO_PERSONA),
    docs: {
      operationId: 'personaReply',
      summary: 'Ask a persona',
      description:
        "`{id}` is the persona owner's user id. The owner always; a recipient they chose only after their release; 404 for anyone else, before release, or once retired (for everyone, or by the caller for themselves). Voice minutes per session follow the owner's plan, counted on the server from the synthesised audio.",
      tags: ['Persona'],
      responses: { 200: { description: 'The reply' }, 404: { description: NO_PERSONA }, 422: { description: 'An empty prompt' } },
    },
    run: ({ services, principal }, { id, ...input }) => replyAsPersona(services, id, principal.user.id, input),
  }),
  defineOperation({
    method: 'post',
    path: '/api/personas/{id}/transcribe',
    trpc: false,
    access: { kind: 'session' },
    // The form is read by the service after access, so an outsider gets the same 404 whatever they send.
    input: {
      params: ZIdParam,
      multipart: {
        schema: z.object({ file: z.file().describe('The spoken question: WebM, Ogg or WAV') }),
        maxBytes: TRANSCRIBE_MAX_BYTES,
        read: (form: FormData) => ({ form }),
      },
    },
    output: z.object({ text: z.string() }),
    notFound: () => new AppError('NOT_FOUND', NO_PERSONA),
    docs: {
      operationId: 'transcribePersonaQuestion',
      summary: 'Turn a spoken question into text',
      description:
        "Multipart `file`: a recorded question to the persona `{id}` (its owner's user id), for a browser without speech recognition. Speech to text by Workers AI's Whisper (the workers-ai engine); `text` is empty when nothing was understood. Who may ask is who may talk to the persona.",
      tags: ['Persona'],
      responses: {
        200: { description: 'The words heard' },
        404: { description: NO_PERSONA },
        413: { description: 'Over 2 MiB' },
        415: { description: 'Not WebM, Ogg or WAV audio' },
        422: { description: 'No file' },
        501: { description: 'This server’s voice engine has no speech to text: type the question' },
      },
    },
    run: ({ services, principal }, { id, form }) => transcribeQuestion(services, id, principal.user.id, form),
  }),
  defineOperation({
    method: 'post',
    path: '/api/personas/{id}/retire',
    trpc: 'retire',
    access: { kind: 'session' },
    input: { params: ZIdParam, body: ZRetireInput.partial() },
    output: z.object({ ok: z.literal(true) }),
    notFound: () => new AppError('NOT_FOUND', NO_PERSONA),
    docs: {
      operationId: 'retirePersona',
      summary: 'Retire a persona',
      description:
        '`{for: "me"}`: a recipient stops it for themselves. `{for: "everyone"}`: the keeper (after release) or the owner ends it — no replies to anyone, and the persona, the voice profile, the samples and Messages from the Beyond are deleted.',
      tags: ['Persona'],
      responses: {
        200: { description: 'Retired' },
        403: { description: "Retiring for everyone is the keeper's (or the owner's)" },
        404: { description: NO_PERSONA },
        409: { description: 'The owner retires their own persona for everyone, not for themselves' },
      },
    },
    run: ({ services, principal }, { id, ...input }) => retirePersona(services, id, principal.user.id, input),
  }),
  defineOperation({
    method: 'get',
    path: '/api/ai/persona-access',
    trpc: 'personaAccess',
    access: { kind: 'session' },
    input: {},
    output: ZPersonaAccess,
    docs: {
      operationId: 'getPersonaAccess',
      summary: 'Who may talk to your persona',
      description:
        'The recipients you chose (after your release only), the keeper, your accepted contacts to choose from, whether you are released, and whether it was retired.',
      tags: ['Persona'],
      responses: { 200: { description: 'Access' } },
    },
    run: ({ services, principal }) => personaAccess(services, principal.user.id),
  }),
  defineOperation({
    method: 'put',
    path: '/api/ai/persona-access',
    trpc: 'setPersonaAccess',
    access: { kind: 'session' },
    input: { body: ZPersonaAccessInput },
    output: ZPersonaAccess,
    docs: {
      operationId: 'setPersonaAccess',
      summary: 'Choose who may talk to your persona',
      description:
        '`{recipient_ids, keeper_id}`, each one of your accepted contacts; replaces the list. A recipient who retired it for themselves stays retired.',
      tags: ['Persona'],
      responses: { 200: { description: 'Saved' }, 422: { description: 'Someone who is not an accepted contact' } },
    },
    run: ({ services, principal }, input) => setPersonaAccess(services, principal.user.id, input),
  }),
] as const;
