import { useState, type ReactNode } from 'react';
import { AppHeader } from './app-header';
import { SidebarNav } from './sidebar-nav';
import { WelcomeModal } from './welcome-modal';

const SIDEBAR_ID = 'app-sidebar';

interface AppShellProps {
  email: string | undefined;
  onLogout: () => void;
  /** Link the local outbox page (only when the server says it exists). */
  outboxEnabled?: boolean;
  /** The Inbox entry's unread count. */
  unread?: number;
  children: ReactNode;
}

export function AppShell({ email, onLogout, outboxEnabled = false, unread, children }: AppShellProps) {
  const [menuOpen, setMenuOpen] = useState(false);
  return (
    <div className="app-shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <AppHeader email={email} menuOpen={menuOpen} sidebarId={SIDEBAR_ID} onToggleMenu={() => setMenuOpen((open) => !open)} onLogout={onLogout} />
      <div className="app-shell__body">
        <SidebarNav id={SIDEBAR_ID} open={menuOpen} onNavigate={() => setMenuOpen(false)} outboxEnabled={outboxEnabled} unread={unread} />
        <main id="main" className="app-main" tabIndex={-1}>
          {children}
        </main>
      </div>
      <WelcomeModal />
    </div>
  );
}
