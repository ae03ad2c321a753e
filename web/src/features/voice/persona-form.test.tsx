import { SEED_QUESTIONS } from '@afterword/worker/contracts/persona';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toastStore } from '../../components/toast/toast-store';
import { fakeTrpcApi, ok } from '../../test-utils/fake-trpc-api';
import { renderWithTrpc } from '../../test-utils/render-with-trpc';
import { PersonaCard } from './persona-form';
import { T } from './texts';

afterEach(() => {
  toastStore.reset();
  vi.unstubAllGlobals();
});

describe('Ada sets up her persona', () => {
  it('shows the ten seed questions with her answers, and saves text, tone and the answered ones', async () => {
    const api = fakeTrpcApi({
      'voice.persona': () =>
        ok({ persona_text: 'A teacher', behavior: 'neutral', qa: [{ question_id: 'advice', answer: 'Be kind' }], answered: 1, updated_at: null }),
      'voice.savePersona': (input) => ok({ ...(input as object), answered: 2, updated_at: '2026-11-20T10:00:00.000Z' }),
    });
    renderWithTrpc(<PersonaCard />, api);
    const advice = (await screen.findByLabelText(SEED_QUESTIONS[2].text)) as HTMLTextAreaElement;
    expect(advice.value).toBe('Be kind');
    expect(SEED_QUESTIONS).toHaveLength(10);
    for (const q of SEED_QUESTIONS) expect(screen.getByLabelText(q.text)).toBeTruthy();

    fireEvent.change(screen.getByLabelText(T.behavior), { target: { value: 'comforting' } });
    fireEvent.change(screen.getByLabelText(SEED_QUESTIONS[0].text), { target: { value: 'The beach in Brighton' } });
    fireEvent.click(screen.getByRole('button', { name: T.personaSave }));
    await waitFor(() => expect(toastStore.getSnapshot().map((t) => t.message)).toContain(T.personaSaved));
    expect(api.callsTo('voice.savePersona')).toEqual([
      {
        persona_text: 'A teacher',
        behavior: 'comforting',
        qa: [
          { question_id: 'earliest_memory', answer: 'The beach in Brighton' },
          { question_id: 'advice', answer: 'Be kind' },
        ],
      },
    ]);
  });
});
