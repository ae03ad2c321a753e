import { inject, expect } from 'vitest';
import type { ReceivedWebhook } from '../peers/webhook-receiver';
import { api, signedInUser } from './api';
import type { QueuedJob } from './messages';

/** The loopback Standard Webhooks receiver started by test/peers (verifies with `standardwebhooks`). */
export const receiver = inject('webhookReceiver');

/** Tells the receiver how /hook/<name> answers (status steps) and which secret verifies it; clears its log. */
export async function script(name: string, secret: string, steps: unknown[] = [{ status: 200 }]) {
  const res = await fetch(`${receiver.base}/__script/${name}`, { method: 'PUT', body: JSON.stringify({ secret, steps }) });
  expect(res.status).toBe(200);
}

/** What /hook/<name> received, with each request's verification result. */
export const received = async (name: string) => (await (await fetch(`${receiver.base}/__received/${name}`)).json()) as ReceivedWebhook[];

/** An endpoint of `owner` on the receiver at /hook/<name>, scripted to answer `steps`. */
export async function endpointFor(
  owner: { token: string },
  name: string,
  opts: { retry?: boolean; steps?: unknown[]; url?: string; event?: 'missed_checkins' | 'death_confirmed' } = {},
) {
  const res = await api('POST', '/api/developer/webhooks', {
    token: owner.token,
    json: { url: opts.url ?? `${receiver.base}/hook/${name}`, event: opts.event ?? 'missed_checkins', retry: opts.retry ?? true },
  });
  expect(res.status).toBe(201);
  await script(name, res.data.hmac_secret, opts.steps);
  return res.data as { id: string; hmac_secret: string; url: string };
}

/** A signed-in owner with one endpoint on the receiver at /hook/<name>. */
export async function endpoint(name: string, opts: { retry?: boolean; steps?: unknown[]; url?: string } = {}) {
  const owner = await signedInUser();
  return { owner, hook: await endpointFor(owner, name, opts) };
}

export const webhookJobs = (jobs: QueuedJob[]) => jobs.filter((j) => j.queue === 'DELIVERIES' && j.body.type === 'webhook');
