import { cn } from '@/lib/cn';
import { NavLink as RouterNavLink } from '@/lib/router';
import { scrollToTopSmooth } from '@/lib/scroll';
import { type NavLink, navLinks } from '../site';

export function desktopLinkClass(link: NavLink, isActive: boolean): string {
  return cn(
    'relative h-9 items-center rounded-md px-3 font-mono text-sm transition-colors',
    link.largeOnly ? 'hidden lg:inline-flex' : 'inline-flex',
    isActive ? 'text-term-green' : 'text-muted hover:bg-ink-800 hover:text-fg',
  );
}

/** The desktop navigation bar links (Member Login is rendered separately). */
export function DesktopNavLinks() {
  return (
    <ul className="flex items-center gap-1">
      {navLinks.map((link) => (
        <li key={link.to} className={link.largeOnly ? 'hidden lg:block' : undefined}>
          <RouterNavLink
            to={link.to}
            end={link.to === '/'}
            onClick={scrollToTopSmooth}
            className={({ isActive }) => desktopLinkClass(link, isActive)}
          >
            {({ isActive }) => (
              <>
                {isActive ? (
                  <span aria-hidden="true" className="mr-1 text-term-green">
                    &gt;
                  </span>
                ) : null}
                {link.label}
              </>
            )}
          </RouterNavLink>
        </li>
      ))}
    </ul>
  );
}
