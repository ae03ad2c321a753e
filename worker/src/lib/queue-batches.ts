/** Queues take at most 100 messages per sendBatch. */
export const QUEUE_BATCH_LIMIT = 100;

/** Sends every body as JSON, in as many batches of QUEUE_BATCH_LIMIT as it takes (in order; a failure throws). */
export async function sendInBatches(queue: Queue, bodies: readonly unknown[]): Promise<void> {
  for (let i = 0; i < bodies.length; i += QUEUE_BATCH_LIMIT) {
    await queue.sendBatch(bodies.slice(i, i + QUEUE_BATCH_LIMIT).map((body) => ({ body, contentType: 'json' as const })));
  }
}
