import type { PersonaReplyView } from '@afterword/worker/contracts/persona-chat';
import type { TVoiceEngine } from '@afterword/worker/contracts/voice';

/** How replies are worded and spoken under each engine (docs/server-rules.md "Voice, persona and chat import"). */
export const REPLY_ENGINE_LABEL: Record<TVoiceEngine, string> = {
  local: 'Local — your own words found by full-text search, framed by your tone, spoken by the SAM synthesiser tuned by your voice profile',
  'workers-ai': 'Workers AI — a language model words the reply from your own words only (and says so), spoken by a stock Workers AI voice (MeloTTS)',
  elevenlabs:
    'ElevenLabs — your own words found as with Local, spoken in your voice as cloned by ElevenLabs from your samples (until the training has made it, by the SAM synthesiser)',
};

/** The words of Voice Chat and Try a conversation (docs/decisions/voice.md "Persona replies"). */
export const CHAT_T = {
  title: 'Voice Chat',
  intro: 'Talk by text or microphone with a persona made from someone’s own words.',
  whatItIs: (name: string) =>
    `This is a persona made from ${name}’s own words, spoken by a synthetic voice tuned to theirs. It is not them, and it says so when an answer is not from their own words.`,
  whatItIsOwn:
    'This is your own persona, made from your own words and spoken by a synthetic voice tuned to yours: what the people you chose will hear after your release.',
  choose: 'Persona',
  none: 'No persona to talk to',
  noneHint:
    'Set up your own persona on the Voice Trainer page. Someone else’s persona can be talked to only by the people they chose, and only after their release.',
  empty: 'Ask a question to start the conversation.',
  you: 'You:',
  askLabel: 'Your question',
  send: 'Send',
  thinking: '…',
  failed: 'No reply came: try again.',
  replyAudio: 'The spoken reply',
  speak: 'Speak',
  stopSpeaking: 'Stop',
  listening: 'Listening…',
  noMicrophone: 'This browser cannot record from a microphone: type your question.',
  noRecognition: 'This browser cannot turn speech into text: listen back to your recording and type your question.',
  serverHears: 'Your recording is turned into text on the server: check the words in the box, then send.',
  yourRecording: 'Your spoken question',
  heard: (text: string) => `Heard: “${text}”`,
  source: (r: PersonaReplyView) =>
    r.source === 'own_words'
      ? `From their own words: ${r.based_on.join('; ')}`
      : r.source === 'ai_worded'
        ? `Worded by an AI model from: ${r.based_on.join('; ')}`
        : 'Not from their own words: nothing they left answers this.',
  keeperOnly: 'You are the keeper of this persona, not one of the people chosen to talk to it: you can retire it for everyone.',
  retireMe: 'Retire for me',
  retireMeConfirm: 'Stop this persona for you? It will not answer you again. Others the owner chose can still talk to it.',
  retireEveryone: 'Retire for everyone',
  retireEveryoneConfirm:
    'Retire this persona for everyone? Nobody can talk to it again, and the persona, the voice profile and the recordings it was made from are deleted.',
  retired: 'Persona retired',
  replyEngine: 'Reply engine',
  tryTitle: 'Try a conversation',
  tryIntro: 'Ask your persona what the people you chose might ask. It answers from your own words only.',
  accessTitle: 'Who may talk to your persona',
  accessIntro:
    'Before your release only you can talk to it. After your release (missed check-ins released a message, or your death was confirmed) the people you choose here can, among your accepted contacts. Each can retire it for themselves; the keeper can retire it for everyone.',
  accessNoContacts: 'No accepted contacts yet: invite people on the Contacts page first.',
  accessRecipients: 'May talk to it after my release',
  keeper: 'Keeper (may retire it for everyone)',
  noKeeper: 'No keeper',
  accessSave: 'Save who may talk to it',
  accessSaved: 'Saved',
  retiredForThem: 'retired it for themselves',
} as const;
