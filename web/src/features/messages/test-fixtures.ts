import type { MessageView, ReceivedMessage } from '@afterword/worker/contracts/messages';

/** A message as the server returns it; override what a test cares about. */
export function messageView(overrides: Partial<MessageView> = {}): MessageView {
  return {
    id: 'a1b2c3d4-0000-4000-8000-000000000001',
    sender_id: 'sender-1',
    recipient_user_id: '7d3f0c2e-4b1a-4c8e-9f6d-2a5b8c1e0f3a',
    recipient_email: 'ada@example.com',
    content: 'Dear Ada,\nthe keys are in the blue box.',
    content_encrypted: null,
    deliver_at: '2026-05-14T09:00:00.000Z',
    delivered: false,
    delivery_method: 'email',
    use_e2ee: false,
    rules: [],
    status: 'scheduled',
    has_audio: false,
    audio_type: null,
    armed_at: null,
    cancel_deadline: null,
    released_at: null,
    created_at: '2026-05-01T09:00:00.000Z',
    paused: null,
    undeliverable: null,
    ...overrides,
  };
}

/** A released message as its recipient reads it; override what a test cares about. */
export function receivedMessage(overrides: Partial<ReceivedMessage> = {}): ReceivedMessage {
  return {
    id: 'a1b2c3d4-0000-4000-8000-000000000002',
    sender: { id: 'sender-1', email: 'ann@example.com', name: 'Ann' },
    content: 'Dear Bob,\nthe keys are in the blue box.',
    content_encrypted: null,
    use_e2ee: false,
    has_audio: false,
    audio_type: null,
    released_at: '2026-05-14T09:00:00.000Z',
    read_at: null,
    release_reason: { kind: 'missed_checkins', count: 3 },
    ...overrides,
  };
}
