import { Link } from '@tanstack/react-router';
import { Button, buttonClass } from '../../components/button';
import { LockNowButton } from '../e2ee/stay-unlocked';

interface AppHeaderProps {
  email: string | undefined;
  menuOpen: boolean;
  sidebarId: string;
  onToggleMenu: () => void;
  onLogout: () => void;
}

export function AppHeader({ email, menuOpen, sidebarId, onToggleMenu, onLogout }: AppHeaderProps) {
  const initial = email?.trim().charAt(0).toUpperCase() || '?';
  return (
    <header className="app-header">
      <Button variant="ghost" className="app-header__menu" aria-expanded={menuOpen} aria-controls={sidebarId} onClick={onToggleMenu}>
        Menu
      </Button>
      <Link to="/app" className="brand">
        Afterword
      </Link>
      <div className="app-header__end">
        <Link to="/pricing" className={buttonClass('secondary')}>
          Upgrade
        </Link>
        <LockNowButton />
        <span className="avatar" role="img" aria-label={email ? `Signed in as ${email}` : 'Your account'} title={email}>
          {initial}
        </span>
        <Button variant="ghost" onClick={onLogout}>
          Logout
        </Button>
      </div>
    </header>
  );
}
