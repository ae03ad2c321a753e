import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeTrpcApi } from '../../test-utils/fake-trpc-api';
import { renderWithTrpc } from '../../test-utils/render-with-trpc';
import { ReportCapsule } from './report-capsule';

const ID = '7d3f0c2e-4b1a-4c8e-9f6d-2a5b8c1e0f3a';
const view = { id: ID, title: 'To you', theme: 'Hope', user_email: null, is_anonymous: true, released_at: '2026-11-01T10:00:00.000Z', content: [] };

afterEach(() => vi.unstubAllGlobals());

describe('ReportCapsule', () => {
  it('reports someone else’s capsule, once', async () => {
    const api = fakeTrpcApi({
      'capsule.mine': () => ({ data: [] }),
      'capsule.view': () => ({ data: view }),
      'moderation.reportCapsule': () => ({ data: { reported: true } }),
    });
    renderWithTrpc(<ReportCapsule id={ID} />, api);
    fireEvent.click(await screen.findByRole('button', { name: 'Report this capsule' }));
    await waitFor(() => expect(api.callsTo('moderation.reportCapsule')).toEqual([{ id: ID }]));
    expect(((await screen.findByRole('button', { name: 'Reported' })) as HTMLButtonElement).disabled).toBe(true);
  });

  it('offers no report on one’s own capsule, and says where to manage it', async () => {
    const api = fakeTrpcApi({
      'capsule.mine': () => ({ data: [{ ...view, status: 'released', memorial_id: null, created_at: view.released_at }] }),
      'capsule.view': () => ({ data: view }),
    });
    renderWithTrpc(<ReportCapsule id={ID} />, api);
    await screen.findByText('This capsule is yours: you can delete it on the Capsules page.');
    expect(screen.queryByRole('button', { name: /Report/ })).toBeNull();
  });
});
