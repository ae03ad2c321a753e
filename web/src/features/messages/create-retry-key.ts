import type { TCreateMessageInput } from '@afterword/worker/contracts/messages';

/**
 * The `idempotency_key` the create form sends (docs/decisions/message-create-retries.md): one key while the
 * person sends the same message again — a lost answer, a second press of Create — so the server writes it
 * once; a new key once it was created, or once they change what they send (a new message, not a retry).
 */
export function createRetryKeys(newKey: () => string = () => crypto.randomUUID()) {
  let current: { key: string; sent: string } | null = null;
  return {
    /** The input to send: `input` with the key its content calls for. */
    keyed(input: TCreateMessageInput): TCreateMessageInput {
      const sent = JSON.stringify({ ...input, idempotency_key: undefined });
      if (current?.sent !== sent) current = { key: newKey(), sent };
      return { ...input, idempotency_key: current.key };
    },
    /** The message was created: the next one gets a new key. */
    created() {
      current = null;
    },
  };
}
