import { Link } from '@tanstack/react-router';
import { LOCAL_ITEMS, SIDEBAR_ITEMS } from './nav-items';

interface SidebarNavProps {
  id: string;
  /** Only matters on small screens, where the sidebar is hidden until the Menu button opens it. */
  open: boolean;
  onNavigate: () => void;
  /** The local outbox page exists (the app runs locally): linked below the SPEC entries, apart from them. */
  outboxEnabled?: boolean;
}

export function SidebarNav({ id, open, onNavigate, outboxEnabled = false }: SidebarNavProps) {
  return (
    <div id={id} className="sidebar" data-open={open}>
      <nav aria-label="App">
        <ul className="sidebar__list">
          {SIDEBAR_ITEMS.map((item) => (
            <li key={item.to}>
              <SidebarLink to={item.to} label={item.label} exact={item.to === '/app'} onNavigate={onNavigate} />
            </li>
          ))}
        </ul>
      </nav>
      {outboxEnabled ? (
        <nav aria-label="Local development" className="sidebar__local">
          <p className="sidebar__local-title">Running locally</p>
          <ul className="sidebar__list">
            {LOCAL_ITEMS.map((item) => (
              <li key={item.to}>
                <SidebarLink to={item.to} label={item.label} onNavigate={onNavigate} />
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
    </div>
  );
}

type NavTarget = (typeof SIDEBAR_ITEMS)[number]['to'] | (typeof LOCAL_ITEMS)[number]['to'];

function SidebarLink({ to, label, exact = false, onNavigate }: { to: NavTarget; label: string; exact?: boolean; onNavigate: () => void }) {
  return (
    <Link
      to={to}
      className="sidebar__link"
      activeOptions={{ exact }}
      activeProps={{ className: 'sidebar__link is-active', 'aria-current': 'page' }}
      onClick={onNavigate}
    >
      {label}
    </Link>
  );
}
