import { Link } from '@tanstack/react-router';
import { LOCAL_ITEMS, MORE_ITEMS, RECEIVED_ITEMS, SIDEBAR_ITEMS } from './nav-items';

interface SidebarNavProps {
  id: string;
  /** Only matters on small screens, where the sidebar is hidden until the Menu button opens it. */
  open: boolean;
  onNavigate: () => void;
  /** The local outbox page exists (the app runs locally): linked below the main entries, apart from them. */
  outboxEnabled?: boolean;
  /** Released messages left for the user that they have not opened; undefined while unknown. */
  unread?: number;
}

export function SidebarNav({ id, open, onNavigate, outboxEnabled = false, unread }: SidebarNavProps) {
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
      <nav aria-label="Received" className="sidebar__received">
        <ul className="sidebar__list">
          {RECEIVED_ITEMS.map((item) => (
            <li key={item.to}>
              <SidebarLink to={item.to} label={item.label} onNavigate={onNavigate} count={unread} />
            </li>
          ))}
        </ul>
      </nav>
      <nav aria-label="More" className="sidebar__more">
        <p className="sidebar__local-title">More</p>
        <ul className="sidebar__list">
          {MORE_ITEMS.map((item) => (
            <li key={item.to}>
              <SidebarLink to={item.to} label={item.label} onNavigate={onNavigate} />
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

type NavTarget =
  | (typeof SIDEBAR_ITEMS)[number]['to']
  | (typeof RECEIVED_ITEMS)[number]['to']
  | (typeof MORE_ITEMS)[number]['to']
  | (typeof LOCAL_ITEMS)[number]['to'];

interface SidebarLinkProps {
  to: NavTarget;
  label: string;
  exact?: boolean;
  onNavigate: () => void;
  /** An unread count beside the label; nothing when zero or unknown. */
  count?: number;
}

function SidebarLink({ to, label, exact = false, onNavigate, count }: SidebarLinkProps) {
  return (
    <Link
      to={to}
      className="sidebar__link"
      activeOptions={{ exact }}
      activeProps={{ className: 'sidebar__link is-active', 'aria-current': 'page' }}
      onClick={onNavigate}
    >
      {label}
      {count ? (
        <span className="sidebar__count">
          {count}
          <span className="visually-hidden"> unread</span>
        </span>
      ) : null}
    </Link>
  );
}
