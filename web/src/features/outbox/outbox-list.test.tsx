import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { OutboxList, type OutboxItem } from './outbox-list';

const item = (overrides: Partial<OutboxItem> = {}): OutboxItem => ({
  id: 'o1',
  channel: 'email',
  address: 'ada@example.com',
  subject: 'Reset your Afterword password',
  text: 'Open this link within 30 minutes.',
  link: 'http://127.0.0.1:8787/reset-password?token=abc',
  created_at: '2026-05-14T09:00:00Z',
  ...overrides,
});

describe('OutboxList', () => {
  it('says calmly that nothing was meant for you yet', () => {
    render(<OutboxList items={[]} />);
    expect(screen.getByText('Nothing for you yet.')).toBeTruthy();
    expect(screen.getByText(/a password reset link, a phone code/)).toBeTruthy();
  });

  it('shows each delivery with its channel, address and link', () => {
    render(<OutboxList items={[item()]} />);
    expect(screen.getByRole('heading', { name: 'Reset your Afterword password' })).toBeTruthy();
    expect(screen.getByText('Email')).toBeTruthy();
    expect(screen.getByText('ada@example.com')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'http://127.0.0.1:8787/reset-password?token=abc' }).getAttribute('href')).toBe(
      'http://127.0.0.1:8787/reset-password?token=abc',
    );
  });
});
