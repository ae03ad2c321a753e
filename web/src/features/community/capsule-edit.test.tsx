import type { TMyCapsule } from '@afterword/worker/contracts/capsules';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithRouter } from '../../test-utils/render-with-router';
import { CapsuleForm } from './capsule-form';
import { MyCapsules } from './my-capsules';

const sealed: TMyCapsule = {
  id: 'c1',
  title: 'For my granddaughter',
  theme: 'Love',
  user_email: null,
  is_anonymous: true,
  released_at: '2099-01-01T09:00:00.000Z',
  content: [
    { type: 'text', data: 'Read this when you are twenty.' },
    { type: 'text', data: 'And again at forty.' },
  ],
  status: 'scheduled',
  memorial_id: 'm1',
  created_at: '2026-11-20T10:00:00.000Z',
};

afterEach(() => vi.unstubAllGlobals());
const noop = async () => true;

describe('Ada changes a sealed capsule', () => {
  it('edits it in place: the fields start with the capsule, and the whole of it is saved, memorial kept', async () => {
    const onEdit = vi.fn(async () => true);
    renderWithRouter(() => <MyCapsules capsules={[sealed]} onDelete={noop} onPublish={noop} onMediaAdded={vi.fn()} onRemoveMedia={noop} onEdit={onEdit} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit For my granddaughter' }));
    const form = screen.getByRole('form', { name: 'Edit “For my granddaughter”' });
    expect((within(form).getByLabelText(/^Letter/) as HTMLTextAreaElement).value).toBe('Read this when you are twenty.\n\nAnd again at forty.');
    expect((within(form).getByLabelText(/^Opens on/) as HTMLInputElement).value).toMatch(/^2099-01-01T\d\d:00$/);
    fireEvent.change(within(form).getByLabelText(/^Title/), { target: { value: 'For Lily' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onEdit).toHaveBeenCalled());
    expect(onEdit).toHaveBeenCalledWith('c1', {
      title: 'For Lily',
      theme: 'Love',
      is_anonymous: true,
      release_at: '2099-01-01T09:00:00.000Z',
      content: [{ type: 'text', data: 'Read this when you are twenty.\n\nAnd again at forty.' }],
      memorial_id: 'm1',
    });
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit “For my granddaughter”' })).toBeNull());
  });

  it('offers no edit once it is open', async () => {
    renderWithRouter(() => (
      <MyCapsules capsules={[{ ...sealed, status: 'released' }]} onDelete={noop} onPublish={noop} onMediaAdded={vi.fn()} onRemoveMedia={noop} onEdit={noop} />
    ));
    await screen.findByRole('list', { name: 'My capsules' });
    expect(screen.queryByRole('button', { name: 'Edit For my granddaughter' })).toBeNull();
  });
});

describe('a capsule written for a memorial', () => {
  it('says which memorial it will be shown on, sends its id, and can be written for none', async () => {
    const onCreate = vi.fn(async () => true);
    const clear = vi.fn();
    render(<CapsuleForm onCreate={onCreate} pending={false} memorial={{ id: 'm9', name: 'Grace Quill' }} onClearMemorial={clear} />);
    expect(screen.getByText('Grace Quill')).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/^Title/), { target: { value: 'For Grace' } });
    fireEvent.change(screen.getByLabelText(/^Letter/), { target: { value: 'Thank you for the books.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save capsule' }));
    await waitFor(() => expect(onCreate).toHaveBeenCalledWith(expect.objectContaining({ title: 'For Grace', memorial_id: 'm9' })));
    fireEvent.click(screen.getByRole('button', { name: 'Not on a memorial' }));
    expect(clear).toHaveBeenCalled();
  });
});
