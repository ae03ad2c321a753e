import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeTrpcApi, ok } from '../../test-utils/fake-trpc-api';
import { renderWithTrpc } from '../../test-utils/render-with-trpc';
import { GUARDIAN_CONSENT_WITHDRAWN, GuardianConsentWithdrawn } from './consent-withdrawn';

const consents = (guardian: boolean) => ({
  items: ['messages', 'confessions', 'voice', 'video', 'guardian'].map((id) => ({ id, consent: id === 'guardian' ? guardian : true, updated_at: null })),
});

function renderBanner(api: ReturnType<typeof fakeTrpcApi>) {
  const root = createRootRoute({ component: () => <GuardianConsentWithdrawn /> });
  const router = createRouter({ routeTree: root, history: createMemoryHistory({ initialEntries: ['/'] }) });
  return renderWithTrpc(<RouterProvider router={router as never} />, api);
}

afterEach(() => vi.unstubAllGlobals());

describe('the Guardian page while Ada has withdrawn the guardian consent', () => {
  it('says her guardians are not asked and links to where she can allow it again', async () => {
    renderBanner(fakeTrpcApi({ 'legal.consents': () => ok(consents(false)) }));
    expect((await screen.findByRole('status')).textContent).toContain(GUARDIAN_CONSENT_WITHDRAWN);
    expect(screen.getByRole('link', { name: 'Allow it again in Data Consents' }).getAttribute('href')).toBe('/app/consent');
  });

  it('says nothing while the consent is given', async () => {
    const api = fakeTrpcApi({ 'legal.consents': () => ok(consents(true)) });
    renderBanner(api);
    await waitFor(() => expect(api.callsTo('legal.consents')).toHaveLength(1));
    expect(screen.queryByRole('status')).toBeNull();
  });
});
