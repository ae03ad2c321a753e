import type { TChatImport } from '@afterword/worker/contracts/chat-import';

/**
 * The Import Chat page's words (docs/product.md "Voice, persona and chat import": the status texts 'uploading',
 * 'queued: {job_id}', 'error' verbatim).
 */
export const T = {
  title: 'Import Chat',
  intro:
    'Upload a chat-history JSON file so your persona can learn how you write. Only your own lines are kept, each with the line it answered; the file itself is deleted once they are read.',
  formats:
    'Accepted: Telegram Desktop (result.json), Facebook or Instagram (message_1.json), DiscordChatExporter (JSON), or a plain list of {sender, text, timestamp}.',
  uploadTitle: 'Upload a chat export',
  fileField: 'Chat export (JSON)',
  senderField: 'Your name in the chat (optional)',
  senderHint: 'As the chat shows it. Leave it empty and we ask once the file is read.',
  upload: 'Upload',
  jsonOnly: 'Import accepts JSON files only.',
  uploading: 'uploading',
  queued: (jobId: string) => `queued: ${jobId}`,
  error: 'error',
  jobTitle: 'This import',
  jobLoading: 'Loading this import',
  jobFailed: 'This import could not be loaded.',
  listLoading: 'Loading your imports',
  listFailed: 'Your imports could not be loaded.',
  whichIsYou: 'Which of these is you?',
  messagesBy: (n: number) => (n === 1 ? '1 message' : `${n} messages`),
  thisIsMe: 'This is me',
  pickFirst: 'Pick the sender that is you.',
  listTitle: 'Your imports',
  listEmpty: 'No imports yet',
  listEmptyHint: 'Export a chat from Telegram, Facebook, Instagram or Discord, then upload the JSON file here.',
  kept: (lines: number, messages: number) => `${lines} of your lines kept, from ${messages} messages`,
  deleteLabel: (name: string) => `Delete the import of ${name}`,
  deleteTitle: 'Delete this import?',
  deleteDescription: 'The lines it kept are removed, and your persona no longer answers from them.',
  deleted: 'Import deleted',
};

export const STATUS_LABEL: Record<TChatImport['status'], string> = {
  queued: 'Queued',
  processing: 'Reading the file',
  needs_sender: 'Waiting for you to say which sender you are',
  complete: 'Imported',
  failed: 'Failed',
};

export const FORMAT_LABEL: Record<TChatImport['format'], string> = {
  telegram: 'Telegram',
  facebook: 'Facebook / Instagram',
  discord: 'Discord',
  plain: 'Plain JSON',
};
