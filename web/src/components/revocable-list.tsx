import { useState, type ReactNode } from 'react';
import { ConfirmDialog } from './confirm-dialog';

interface RevocableListProps<Item extends { id: string }> {
  items: readonly Item[];
  /** Shown instead of the list when there is nothing in it (an EmptyState). */
  empty: ReactNode;
  /** The list's accessible name. */
  label: string;
  /** One item's content; `revoke` asks to confirm revoking it. */
  renderItem: (item: Item, revoke: () => void) => ReactNode;
  /** The confirmation: its title, what revoking this item does, the button. */
  confirm: { title: string; description: (item: Item) => string; label: string };
  /** Resolves true once revoked (the dialog closes then; on false it stays, the failure already said). */
  onRevoke: (id: string) => Promise<boolean>;
  revokePending: boolean;
}

/** A list of things that can be revoked (API keys, guardians), each revoked only after saying what it does. */
export function RevocableList<Item extends { id: string }>({ items, empty, label, renderItem, confirm, onRevoke, revokePending }: RevocableListProps<Item>) {
  const [confirming, setConfirming] = useState<Item | null>(null);

  if (!items.length) return <>{empty}</>;

  async function confirmRevoke() {
    if (confirming && (await onRevoke(confirming.id))) setConfirming(null);
  }

  return (
    <>
      <ul className="dev-list" aria-label={label}>
        {items.map((item) => (
          <li key={item.id} className="dev-item">
            {renderItem(item, () => setConfirming(item))}
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={confirm.title}
        description={confirming ? confirm.description(confirming) : null}
        confirmLabel={confirm.label}
        confirmVariant="danger"
        pending={revokePending}
        onConfirm={() => void confirmRevoke()}
      />
    </>
  );
}
