/**
 * The `idempotency_key` a create form sends (docs/decisions/create-retries.md): one key while the person sends the
 * same input again — a lost answer, a second press of Create — so the server writes it once; a new key once it was
 * created, or once they change what they send (a new one, not a retry). Used by the message, canary, invitation, webhook and memorial post forms.
 */
export function createRetryKeys<T extends { idempotency_key?: string | null }>(newKey: () => string = () => crypto.randomUUID()) {
  let current: { key: string; sent: string } | null = null;
  return {
    /** The input to send: `input` with the key its content calls for. */
    keyed(input: T): T {
      const sent = JSON.stringify({ ...input, idempotency_key: undefined });
      if (current?.sent !== sent) current = { key: newKey(), sent };
      return { ...input, idempotency_key: current.key };
    },
    /** It was created: the next one gets a new key. */
    created() {
      current = null;
    },
    /** Sends `input` with its key through `send`; once it was created, the next one gets a new key. */
    async sending<R>(input: T, send: (keyed: T) => Promise<R>): Promise<R> {
      const answer = await send(this.keyed(input));
      this.created();
      return answer;
    },
  };
}
