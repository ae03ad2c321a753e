import type { TVoiceEngine } from '@afterword/worker/contracts/voice';

/** The Voice Trainer's words (SPEC section 8 toasts verbatim). */
export const T = {
  title: 'Voice Trainer',
  intro:
    'Leave recordings of your voice. Afterword measures a voice profile from them — your pitch and speaking rate — which tunes the speech synthesiser that will read your persona’s answers.',
  notAClone: 'This is a voice profile, not a neural clone: it makes a synthetic voice closer to yours, it does not copy your voice.',
  engine: 'Engine',
  samplesTitle: 'Your voice samples',
  samplesEmpty: 'No samples yet',
  samplesEmptyHint: 'Record a few sentences or upload WebM, Ogg or WAV files. Their length is measured on the server.',
  consentLabel: 'This is my own voice (or I have the right to use it), and I agree that Afterword builds a voice profile from it.',
  labelField: 'Label (optional)',
  labelHint: 'For example “Reading a poem”. Without one, the file name is used.',
  filesField: 'Audio files',
  filesHint: 'WebM, Ogg or WAV; several at once; up to 20 MB each.',
  upload: 'Upload',
  uploading: 'Uploading…',
  recordLegend: 'Record a sample',
  saveRecording: 'Save recording',
  uploaded: (n: number) => (n === 1 ? 'Sample added' : `${n} samples added`),
  uploadFailed: (name: string, detail: string) => `${name}: ${detail}`,
  needConsent: 'Tick the consent above first.',
  deleteSample: (label: string) => `Delete ${label}`,
  deleted: 'Sample deleted',
  trainingTitle: 'Training',
  collected: (seconds: number, required: number) => `${seconds} s of ${required} s collected`,
  start: 'Start training',
  needMore: (n: number) => `Need ${n}s more`,
  inProgress: 'AI model training in progress',
  complete: 'AI model training complete',
  failed: 'Training failed',
  status: 'Status',
  pitch: 'Pitch',
  rate: 'Speaking rate',
  notMeasured: 'not measured (only WAV samples carry the sound the server can analyse)',
  measuredOn: (seconds: number, total: number, samples: number) =>
    `Measured on ${seconds} s of ${total} s from ${samples} ${samples === 1 ? 'sample' : 'samples'}.`,
  personaTitle: 'Persona setup',
  personaIntro: 'Your own words are what your persona will answer from. It never claims to be you, and says so when an answer is not in your words.',
  personaText: 'About you',
  personaTextHint: 'Who you are, how you speak, what matters to you.',
  behavior: 'Tone',
  seedQuestions: 'Ten questions',
  personaSave: 'Save persona',
  personaSaving: 'Saving…',
  personaSaved: 'Persona saved',
  personaFailed: 'Could not save the persona',
} as const;

export const STATUS_LABEL = {
  not_started: 'Not started',
  processing: 'Processing',
  complete: 'Complete',
  failed: 'Failed',
} as const;

export const ENGINE_LABEL: Record<TVoiceEngine, string> = {
  local: 'Local (offline speech synthesiser tuned by your voice profile)',
  'workers-ai': 'Workers AI',
  elevenlabs: 'ElevenLabs',
};
