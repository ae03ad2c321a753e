import { Link } from '@tanstack/react-router';
import { SIDEBAR_ITEMS } from './nav-items';

interface SidebarNavProps {
  id: string;
  /** Only matters on small screens, where the sidebar is hidden until the Menu button opens it. */
  open: boolean;
  onNavigate: () => void;
}

export function SidebarNav({ id, open, onNavigate }: SidebarNavProps) {
  return (
    <nav id={id} className="sidebar" data-open={open} aria-label="App">
      <ul className="sidebar__list">
        {SIDEBAR_ITEMS.map((item) => (
          <li key={item.to}>
            <Link
              to={item.to}
              className="sidebar__link"
              activeOptions={{ exact: item.to === '/app' }}
              activeProps={{ className: 'sidebar__link is-active', 'aria-current': 'page' }}
              onClick={onNavigate}
            >
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
