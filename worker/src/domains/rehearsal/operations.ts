import { defineOperation } from '../../api/operation';
import { ZIdParam } from '../../contracts/ids';
import { ZRehearsal, ZRehearsalInput, ZRehearsalList } from '../../contracts/rehearsal';
import { getRehearsal, listRehearsals } from './read-rehearsals';
import { runRehearsal } from './run-rehearsal';

/** docs/api.md "Rehearsal": test everything while alive (docs/decisions/rehearsal.md). */
const tags = ['Rehearsal'];

export const rehearsalOperations = [
  defineOperation({
    method: 'post',
    path: '/api/rehearsal',
    trpc: 'run',
    // A session only: it sends TEST copies to the owner's real channels (and, opted in, to others).
    access: { kind: 'session' },
    input: { body: ZRehearsalInput },
    output: ZRehearsal,
    status: 201,
    docs: {
      operationId: 'runRehearsal',
      limits: [{ what: 'rehearsal', max: 1, per: '10 minutes', refusal: 429 }],
      summary: 'Test everything',
      description:
        'Plans what the engine would do if you stopped checking in now — each warning, miss, guardian question, the veto window, each message and vault release, each webhook — from the engine\'s own rules, and sends a TEST copy ("TEST — rehearsal:") of each kind of warning and notice on your chosen channels, recording what each answered. With `notify_recipients` / `notify_guardians`, they are emailed that this is a rehearsal and nothing was released. Nothing real changes: no miss, release or death flag. One per 10 minutes.',
      tags,
      responses: {
        201: { description: 'The report: a timeline and its gaps' },
        429: { description: 'A rehearsal ran less than 10 minutes ago (Retry-After)' },
      },
    },
    run: ({ services, principal }, input) => runRehearsal(services, principal.user, input),
  }),
  defineOperation({
    method: 'get',
    path: '/api/rehearsal',
    trpc: 'list',
    access: { kind: 'session-or-key', scope: 'read:canary' },
    input: {},
    output: ZRehearsalList,
    docs: { operationId: 'listRehearsals', summary: 'My rehearsals', tags, responses: { 200: { description: 'Newest first (the last 20)' } } },
    run: ({ services, principal }) => listRehearsals(services, principal.user.id),
  }),
  defineOperation({
    method: 'get',
    path: '/api/rehearsal/{id}',
    trpc: 'get',
    access: { kind: 'session-or-key', scope: 'read:canary' },
    input: { params: ZIdParam },
    output: ZRehearsal,
    docs: {
      operationId: 'getRehearsal',
      summary: 'One rehearsal',
      description: 'Its timeline: each step with its time, what its TEST copy reached, and the gaps found.',
      tags,
      responses: { 200: { description: 'The report' }, 404: { description: 'Rehearsal not found (or not yours)' } },
    },
    run: ({ services, principal }, { id }) => getRehearsal(services, principal.user.id, id),
  }),
];
