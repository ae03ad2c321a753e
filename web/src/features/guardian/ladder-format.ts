import { formatDateTime } from '../../lib/format-time';
import { CAUSE_LABEL, humanize, STEP_LABEL } from './texts';

export const stepLabel = (kind: string) => STEP_LABEL[kind] ?? humanize(kind);
export const causeLabel = (cause: string) => CAUSE_LABEL[cause] ?? `${humanize(cause)}.`;

/**
 * Who took a step, in plain words to follow 'By ' ('By you.', 'By Sam.'). Actors are stored as 'system', 'owner', 'guardian:<id>' or
 * 'key:<id>'; a guardian is named when the owner's list still knows them.
 */
export function actorLabel(actor: string, guardianNames: ReadonlyMap<string, string> = new Map()): string {
  if (actor === 'owner') return 'you';
  if (actor === 'system') return 'Afterword';
  const [kind, id = ''] = actor.split(':', 2);
  if (kind === 'guardian') return guardianNames.get(id) ?? 'a guardian';
  if (kind === 'key') return 'an API key';
  return humanize(actor);
}

// The server writes times into some details ('until 2026-05-20T09:00:00.000Z', 'ends 2026-05-14 09:00:00 UTC').
const TIME_IN_TEXT = /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z| UTC)?/g;

/** A step's detail with its UTC times shown like every other time in the app (the reader's locale). */
export function readableDetail(detail: string): string {
  return detail.replace(TIME_IN_TEXT, (stamp) => {
    const iso = `${stamp.replace(' UTC', '').replace(' ', 'T').replace(/Z$/, '')}Z`;
    return Number.isFinite(Date.parse(iso)) ? formatDateTime(iso) : stamp;
  });
}
