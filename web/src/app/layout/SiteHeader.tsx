import { LogIn, Menu } from 'lucide-react';
import { lazy, Suspense, useRef, useState } from 'react';
import { Link, NavLink } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { Container } from '@/components/ui/container';
import { cn } from '@/lib/cn';
import { scrollToTopSmooth } from '@/lib/scroll';
import { memberLoginLink } from '../site';
import { DesktopNavLinks } from './NavLinks';
import { useMobileMenu } from './useMobileMenu';

export const MOBILE_MENU_ID = 'mobile-menu';

const MobileMenu = lazy(async () => ({ default: (await import('./MobileMenu')).MobileMenu }));

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

  return (
    <header className="sticky top-5 z-40 border-b border-ink-800 bg-ink-900/85 backdrop-blur supports-[backdrop-filter]:bg-ink-900/70">
      <Container className="flex h-14 items-center justify-between gap-4 md:h-16">
        <Link to="/" onClick={scrollToTopSmooth} className="rounded-md" aria-label="rUv, home page">
          <Logo />
        </Link>

        <nav aria-label="Main" className="hidden items-center gap-2 md:flex">
          <DesktopNavLinks />
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
            />
          </Suspense>
        )}
      </Container>
    </header>
  );
}
