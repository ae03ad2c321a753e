import { z } from 'zod';
import { defineOperation } from '../../api/operation';
import { ZIdParam } from '../../contracts/ids';
import { LEGACY_PART_TEXT, ZHeirs, ZHeirsInput, ZLegacyCopyView } from '../../contracts/legacy';
import { listHeirs, setHeirs } from './heirs';
import { copyNotFound, downloadLegacyCopy, listLegacyCopies } from './read-copies';

const tags = ["Dead-man's switch"];
const partsDoc = Object.entries(LEGACY_PART_TEXT)
  .map(([part, text]) => `\`${part}\`: ${text}`)
  .join(' ');

/** Share, then delete: heirs of a dead-man deletion, and the copies left to the caller. */
export const legacyOperations = [
  defineOperation({
    method: 'get',
    path: '/api/deadman/heirs',
    trpc: 'heirs',
    access: { kind: 'session' },
    input: {},
    output: ZHeirs,
    docs: { operationId: 'listHeirs', summary: 'Who receives a copy before a dead-man deletion', tags, responses: { 200: { description: 'The heirs' } } },
    run: ({ services, principal }) => listHeirs(services, principal.user.id),
  }),
  defineOperation({
    method: 'post',
    path: '/api/deadman/heirs',
    trpc: 'setHeirs',
    access: { kind: 'session' },
    input: { body: ZHeirsInput },
    output: ZHeirs,
    docs: {
      operationId: 'setHeirs',
      summary: 'Name who receives a copy before a dead-man deletion',
      description: `Replaces the whole list (an empty list removes everyone). When the dead-man's switch has passed and its deletion is due, each person gets one archive of the chosen parts, in their own records, before the account is erased; the erasure waits until every copy is made. Parts: ${partsDoc}`,
      tags,
      responses: { 200: { description: 'The heirs now' }, 404: { description: 'One of the ids is not one of your contacts (add them as a contact first)' } },
    },
    run: ({ services, principal }, input) => setHeirs(services, principal.user.id, input),
  }),
  defineOperation({
    method: 'get',
    path: '/api/legacy-copies',
    trpc: 'copies',
    access: { kind: 'session' },
    input: {},
    output: z.array(ZLegacyCopyView),
    docs: {
      operationId: 'listLegacyCopies',
      summary: 'Copies of accounts left to you',
      description: 'What people chose to leave you before their account was erased by its dead-man switch, newest first.',
      tags: ['Inbox'],
      responses: { 200: { description: 'Copies' } },
    },
    run: ({ services, principal }) => listLegacyCopies(services, principal.user.id),
  }),
  defineOperation({
    method: 'get',
    path: '/api/legacy-copies/{id}/download',
    trpc: false,
    access: { kind: 'session' },
    input: { params: ZIdParam },
    notFound: copyNotFound,
    docs: {
      operationId: 'downloadLegacyCopy',
      summary: 'Download a copy left to you',
      description: 'One ZIP archive in the export format (README, data/, files/, index.html, manifest.json with each SHA-256).',
      tags: ['Inbox'],
      contentType: 'application/zip',
      responses: { 200: { description: 'The archive' }, 404: { description: 'Not a copy left to you' } },
    },
    run: ({ services, principal }, { id }) => downloadLegacyCopy(services, principal.user.id, id),
  }),
] as const;
