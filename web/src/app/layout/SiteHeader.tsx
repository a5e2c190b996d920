import { LogIn, LogOut, Menu } from 'lucide-react';
import { lazy, Suspense, useRef, useState } from 'react';
import { buttonClasses } from '@/components/ui/button';
import { Container } from '@/components/ui/container';
import { cn } from '@/lib/cn';
import { Link, NavLink } from '@/lib/router';
import { scrollToTopSmooth } from '@/lib/scroll';
import { useSession } from '@/lib/session';
import { preloadToasts } from '@/lib/toast';
import { memberLoginLink } from '../site';
import { DesktopNavLinks } from './NavLinks';
import { useMobileMenu } from './useMobileMenu';

export const MOBILE_MENU_ID = 'mobile-menu';

const MobileMenu = lazy(async () => ({ default: (await import('./MobileMenu')).MobileMenu }));
const loadLogoutDialog = () => import('@/features/auth/LogoutDialog');
const LogoutDialog = lazy(async () => ({ default: (await loadLogoutDialog()).LogoutDialog }));

/** Fetches the logout dialog's code (and the toast library) before it is needed. */
function warmLogout() {
  void loadLogoutDialog().catch(() => {});
  preloadToasts();
}

export function Logo() {
  return (
    <span className="inline-flex items-center gap-2 font-mono text-lg font-bold tracking-tight text-fg">
      <span
        aria-hidden="true"
        className="inline-flex h-7 w-7 items-center justify-center rounded-md border border-term-green/40 bg-ink-850 text-sm text-term-green"
      >
        &gt;_
      </span>
      rUv
    </span>
  );
}

export function SiteHeader() {
  const menu = useMobileMenu();
  // Mounted from the first open on and kept, so closing can hand focus back to the button.
  const [menuLoaded, setMenuLoaded] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  if (menu.open && !menuLoaded) setMenuLoaded(true);

  // Until the session is known (server render, hydration) the signed-out view is shown.
  const signedIn = useSession().status === 'signed-in';
  const [logoutOpen, setLogoutOpen] = useState(false);
  const [logoutLoaded, setLogoutLoaded] = useState(false);
  const logoutButton = useRef<HTMLButtonElement>(null);
  // Where focus goes when the logout dialog closes: its own button, or the menu button when the
  // dialog was opened from the mobile menu.
  const logoutReturn = useRef<HTMLButtonElement | null>(null);
  const openLogout = (from: HTMLButtonElement | null) => {
    logoutReturn.current = from;
    setLogoutLoaded(true);
    setLogoutOpen(true);
  };

  return (
    <header className="sticky top-5 z-40 border-b border-ink-800 bg-ink-900/85 backdrop-blur supports-[backdrop-filter]:bg-ink-900/70">
      <Container className="flex h-14 items-center justify-between gap-4 md:h-16">
        <Link to="/" onClick={scrollToTopSmooth} className="rounded-md" aria-label="rUv, home page">
          <Logo />
        </Link>

        <nav aria-label="Main" className="hidden items-center gap-2 md:flex">
          <DesktopNavLinks />
          {signedIn ? (
            <button
              ref={logoutButton}
              type="button"
              aria-haspopup="dialog"
              className={buttonClasses('outline', 'sm', 'ml-2')}
              onPointerEnter={warmLogout}
              onFocus={warmLogout}
              onClick={() => openLogout(logoutButton.current)}
            >
              <LogOut size={16} aria-hidden="true" />
              Logout
            </button>
          ) : (
            <NavLink
              to={memberLoginLink.to}
              onClick={scrollToTopSmooth}
              className={({ isActive }) =>
                buttonClasses(
                  'outline',
                  'sm',
                  cn('ml-2', isActive && 'border-term-green text-term-green'),
                )
              }
            >
              <LogIn size={16} aria-hidden="true" />
              {memberLoginLink.label}
            </NavLink>
          )}
        </nav>

        <button
          ref={menuButton}
          type="button"
          className={cn(buttonClasses('outline', 'sm'), 'w-10 px-0 md:hidden')}
          aria-label="Open menu"
          aria-expanded={menu.open}
          aria-controls={MOBILE_MENU_ID}
          aria-haspopup="dialog"
          onClick={menu.openMenu}
        >
          <Menu size={20} aria-hidden="true" />
        </button>
        {menuLoaded && (
          <Suspense fallback={null}>
            <MobileMenu
              id={MOBILE_MENU_ID}
              open={menu.open}
              onOpen={menu.openMenu}
              onClose={menu.closeMenu}
              onNavigate={menu.closeForNavigation}
              returnFocusTo={menuButton}
              signedIn={signedIn}
              onLogout={() => {
                menu.closeMenu();
                openLogout(menuButton.current);
              }}
            />
          </Suspense>
        )}
        {logoutLoaded && (
          <Suspense fallback={null}>
            <LogoutDialog
              open={logoutOpen}
              onOpenChange={setLogoutOpen}
              returnFocusTo={logoutReturn}
            />
          </Suspense>
        )}
      </Container>
    </header>
  );
}
