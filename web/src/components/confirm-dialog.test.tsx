import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { ConfirmDialog } from './confirm-dialog';

function DeleteCanary() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Delete canary
      </button>
      <ConfirmDialog open={open} onOpenChange={setOpen} title="Delete this canary?" confirmLabel="Delete" onConfirm={() => setOpen(false)} />
    </>
  );
}

function openDialog() {
  const opener = screen.getByRole('button', { name: 'Delete canary' });
  opener.focus();
  fireEvent.click(opener);
  return opener;
}

describe('a confirm dialog gives focus back to the button that opened it', () => {
  it('after Escape', async () => {
    render(<DeleteCanary />);
    const opener = openDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Delete this canary?' });
    expect(dialog.contains(document.activeElement)).toBe(true);
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(opener);
  });

  it('after Cancel', async () => {
    render(<DeleteCanary />);
    const opener = openDialog();
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(opener);
  });
});
