import type { TestProject } from 'vitest/node';
import { startTwilioPeer } from './twilio';
import { startPushPeer } from './push';
import { startSmtpPeer } from './smtp';
import { startEmailApiPeer } from './email-api';
import { startGooglePeer } from './google';
import { startWebhookReceiver } from './webhook-receiver';
import { startDohResolver } from './doh';
import { startStripePeer } from './stripe';
import { startElevenLabsPeer } from './elevenlabs';

/**
 * vitest globalSetup (runs in Node, outside workerd): starts the real protocol peers the channel
 * adapters are tested against, each on 127.0.0.1 with a free port, and hands their addresses to the
 * tests with `project.provide` (read with `inject` in a test). Each peer lives in its own file here
 * and is listed in `peers`.
 */
type Peer = (project: TestProject) => Promise<() => Promise<void> | void>;

const peers: Peer[] = [
  startSmtpPeer,
  startEmailApiPeer,
  startPushPeer,
  startTwilioPeer,
  startWebhookReceiver,
  startDohResolver,
  startGooglePeer,
  startStripePeer,
  startElevenLabsPeer,
];

export default async function setup(project: TestProject) {
  const teardowns: Array<() => Promise<void> | void> = [];
  for (const start of peers) teardowns.push(await start(project));
  return async () => {
    for (const stop of teardowns.reverse()) await stop();
  };
}
