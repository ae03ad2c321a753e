/** What a `missed_checkins` event looks like on the wire, for when the server has not sent its own sample. */
export const FALLBACK_SAMPLE = {
  type: 'missed_checkins',
  timestamp: '2026-05-14T09:00:00.000Z',
  data: {
    user_id: '6f1c2d3e-0000-4000-8000-000000000000',
    event: 'missed_checkins',
    canary_id: '9a8b7c6d-0000-4000-8000-000000000000',
    misses: 1,
    deadline: '2026-05-14T09:00:00.000Z',
  },
};

/** The sample body as indented JSON, labelled for screen readers, with the headers that come with it. */
export function SamplePayload({ payload }: { payload: unknown }) {
  return (
    <>
      <p>
        Each event is a POST with a JSON body like this one and three headers: <code>webhook-id</code> (the same for every retry of one event),{' '}
        <code>webhook-timestamp</code> and <code>webhook-signature</code> (<code>v1,</code> + an HMAC-SHA256 of <code>id.timestamp.body</code>). Verify the
        signature on the raw body before trusting it.
      </p>
      <figure className="code-figure" aria-label="Sample missed_checkins payload">
        <pre className="code-block">
          <code>{JSON.stringify(payload ?? FALLBACK_SAMPLE, null, 2)}</code>
        </pre>
      </figure>
    </>
  );
}
