import { describe, expect, it } from 'vitest';
import type { TCreateMessageInput } from '@afterword/worker/contracts/messages';
import { createRetryKeys } from './create-retry-keys';

const letter = {
  recipient_user_id: '00000000-0000-4000-8000-000000000001',
  content: 'Check the blue folder',
  delivery_method: 'email' as const,
  consent: true as const,
};

describe('the key a message is created with', () => {
  const counting = () => {
    let n = 0;
    return createRetryKeys<TCreateMessageInput>(() => `key-${++n}`);
  };

  it('stays the same while the owner sends the same message again after a failure', () => {
    const keys = counting();
    expect(keys.keyed(letter).idempotency_key).toBe('key-1');
    expect(keys.keyed({ ...letter }).idempotency_key).toBe('key-1');
  });

  it('changes once the message was created, for the next one', () => {
    const keys = counting();
    keys.keyed(letter);
    keys.created();
    expect(keys.keyed(letter).idempotency_key).toBe('key-2');
  });

  it('changes when the owner changes what they send: a new message, not a retry', () => {
    const keys = counting();
    keys.keyed(letter);
    expect(keys.keyed({ ...letter, content: 'Check the red folder' }).idempotency_key).toBe('key-2');
  });

  it('sends the rest of the input unchanged', () => {
    expect(counting().keyed(letter)).toEqual({ ...letter, idempotency_key: 'key-1' });
  });

  it('sends through `sending` with the same key after a failure, and a new one after a success', async () => {
    const keys = counting();
    const sent: (string | null | undefined)[] = [];
    const failing = async (input: TCreateMessageInput) => {
      sent.push(input.idempotency_key);
      throw new Error('answer lost');
    };
    const working = async (input: TCreateMessageInput) => {
      sent.push(input.idempotency_key);
      return 'created';
    };
    await expect(keys.sending(letter, failing)).rejects.toThrow('answer lost');
    expect(await keys.sending(letter, working)).toBe('created');
    await keys.sending(letter, working);
    expect(sent).toEqual(['key-1', 'key-1', 'key-2']);
  });
});
