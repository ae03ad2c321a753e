/**
 * The sandbox pages (checkout and portal) play the payment provider: the server answers the signed event the
 * provider would send, and the page posts it to the webhook path the provider uses, where the plan changes.
 */
export async function postSignedEvent(event: { payload: string; signature: string }): Promise<void> {
  const res = await fetch('/api/billing/webhook', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
    body: event.payload,
  });
  if (!res.ok) throw new Error(`The webhook answered ${res.status}`);
}
