/*
 * The offline opener page's script (page.html; built into the export by web/vite.export-opener.config.ts):
 * reads the picked export files and the typed secret, opens them with open-archive.ts and shows the
 * result. Only DOM and WebCrypto: the page's Content-Security-Policy forbids every fetch, so nothing
 * typed or opened here can leave it.
 */
import { config } from 'zod';
import { E2eeError } from '../crypto';
import { archiveFiles, type PickedFile } from './archive-files';
import { MissingKeysError, type OpenedArchive, openArchive } from './open-archive';

// The page's CSP has no 'unsafe-eval': zod's compiled parsers would try `new Function` first and log a violation.
config({ jitless: true });

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

function picked(input: HTMLInputElement): PickedFile[] {
  return [...(input.files ?? [])].map((file) => ({ relativePath: file.webkitRelativePath, name: file.name, blob: file }));
}

function item(parent: HTMLElement, tag: string, text: string): HTMLElement {
  const el = document.createElement(tag);
  el.textContent = text;
  parent.append(el);
  return el;
}

/** Text only (textContent): a message body is whatever its sender typed, and must never become markup. */
function show(result: OpenedArchive): void {
  const messages = byId('messages');
  const files = byId('opened-files');
  const unopened = byId('unopened');
  messages.replaceChildren();
  files.replaceChildren();
  unopened.replaceChildren();
  for (const m of result.messages) {
    const article = document.createElement('article');
    const heading = item(article, 'h3', '');
    const link = document.createElement('a');
    link.href = `messages.html#message-${m.id}`;
    link.textContent = `${m.direction === 'sent' ? 'Message you wrote' : 'Message you received'} (${m.id})`;
    heading.append(link);
    item(article, 'p', m.text === '' ? '(no text)' : m.text).className = 'text';
    messages.append(article);
  }
  if (result.messages.length === 0) item(messages, 'p', 'No end-to-end encrypted messages in the chosen files.');
  for (const f of result.files) {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([f.bytes], { type: f.type || 'application/octet-stream' }));
    a.download = f.name;
    a.textContent = `Save ${f.name}`;
    li.append(a, ` (${f.bytes.byteLength} bytes, from ${f.path})`);
    files.append(li);
  }
  if (result.files.length === 0) item(files, 'li', 'No encrypted files were opened.');
  for (const u of result.unopened) item(unopened, 'li', `${u.what}: ${u.reason}`);
  byId('unopened-section').hidden = result.unopened.length === 0;
  byId('results').hidden = false;
}

async function open(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  const status = byId('status');
  const recoveryKey = byId<HTMLTextAreaElement>('recovery-key').value.trim();
  const password = byId<HTMLInputElement>('password').value;
  const chosen = [...picked(byId('folder')), ...picked(byId('files'))];
  if (chosen.length === 0 || (!recoveryKey && !password)) {
    status.textContent = chosen.length === 0 ? 'Choose your export folder first.' : 'Type your recovery key or your password.';
    return;
  }
  status.textContent = recoveryKey ? 'Opening…' : 'Opening… (a password takes a few seconds to check)';
  try {
    show(await openArchive(archiveFiles(chosen), recoveryKey ? { recoveryKey } : { password }));
    status.textContent = 'Opened. Nothing was sent anywhere; close this page to forget the key.';
  } catch (err) {
    const known = err instanceof E2eeError || err instanceof MissingKeysError;
    status.textContent = known ? `Could not open: ${(err as Error).message}.` : `Could not open: ${String(err)}`;
  }
}

byId<HTMLFormElement>('open-form').addEventListener('submit', (event) => void open(event));
