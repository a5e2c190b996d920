import * as Dialog from '@radix-ui/react-dialog';
import { ChevronRight, LogIn, LogOut, X } from 'lucide-react';
import type { MouseEvent, RefObject } from 'react';
import { buttonClasses } from '@/components/ui/button';
import { SocialIcon } from '@/components/ui/social-icon';
import { socialLinks } from '@/content/social';
import { cn } from '@/lib/cn';
import { externalLinkProps } from '@/lib/links';
import { Link, useLocation } from '@/lib/router';
import { SCROLL_RESET_ATTR, scrollToTopSmooth } from '@/lib/scroll';
import { memberLoginLink, navLinks } from '../site';

export interface MobileMenuProps {
  id: string;
  open: boolean;
  onOpen: () => void;
  onClose: () => void;
  onNavigate: () => void;
  /** The menu button, which gets focus back when the menu closes. */
  returnFocusTo: RefObject<HTMLButtonElement | null>;
  /** Signed in: the last item is a Logout button instead of the Member Login link. */
  signedIn?: boolean;
  /** Closes the menu and asks for confirmation before signing out. */
  onLogout?: () => void;
}

/**
 * Full-screen navigation for viewports narrower than 768 px. The header loads this module (and the
 * dialog library) on the first open, so it costs nothing on visits that never open the menu. When
 * it closes, focus returns to the menu button.
 */
export function MobileMenu({
  id,
  open,
  onOpen,
  onClose,
  onNavigate,
  returnFocusTo,
  signedIn = false,
  onLogout,
}: MobileMenuProps) {
  const { pathname } = useLocation();

  const choose = (to: string) => (event: MouseEvent<HTMLAnchorElement>) => {
    scrollToTopSmooth();
    if (to === pathname) {
      // Already here: just close (and drop the menu's history entry).
      event.preventDefault();
      onClose();
      return;
    }
    // The link navigates with `replace`, taking over the menu's history entry.
    onNavigate();
  };

  const links = signedIn ? navLinks : [...navLinks, memberLoginLink];
  const itemClass =
    'group flex min-h-14 w-full items-center justify-between rounded-lg border px-4 font-mono text-lg transition-colors';

  return (
    <Dialog.Root open={open} onOpenChange={(next) => (next ? onOpen() : onClose())}>
      <Dialog.Portal>
        <Dialog.Content
          id={id}
          aria-modal="true"
          aria-describedby={undefined}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocusTo.current?.focus();
          }}
          {...{ [SCROLL_RESET_ATTR]: '' }}
          // The panel is opaque from its first frame, so the page never shows through it; only
          // its contents fade in (and not at all for people who prefer reduced motion).
          className="fixed inset-0 z-[60] flex flex-col overflow-y-auto overscroll-contain bg-ink-950 bg-grid md:hidden"
        >
          <div
            data-menu-body=""
            className="flex flex-1 flex-col motion-safe:animate-[fade-up_0.25s_ease-out_both]"
          >
            <div className="flex h-14 shrink-0 items-center justify-between border-b border-ink-800 px-4">
              <Dialog.Title className="font-mono text-sm text-muted">
                <span className="text-term-green">$</span> menu
              </Dialog.Title>
              <Dialog.Close
                className={cn(buttonClasses('outline', 'sm'), 'w-10 px-0')}
                aria-label="Close menu"
              >
                <X size={20} aria-hidden="true" />
              </Dialog.Close>
            </div>

            <nav aria-label="Mobile" className="flex-1 px-4 py-6">
              <ul className="flex flex-col gap-1">
                {links.map((link) => {
                  const active = link.to === pathname;
                  const isLogin = link.to === memberLoginLink.to;
                  return (
                    <li key={link.to}>
                      <Link
                        to={link.to}
                        replace
                        onClick={choose(link.to)}
                        aria-current={active ? 'page' : undefined}
                        className={cn(
                          itemClass,
                          active
                            ? 'border-term-green/50 bg-term-green/10 text-term-green'
                            : 'border-transparent text-fg hover:border-ink-700 hover:bg-ink-850',
                          isLogin && 'mt-4 border-ink-600',
                        )}
                      >
                        <span className="flex items-center gap-3">
                          {isLogin ? (
                            <LogIn size={18} aria-hidden="true" className="text-term-cyan" />
                          ) : (
                            <span aria-hidden="true" className="text-term-green">
                              &gt;
                            </span>
                          )}
                          {link.label}
                        </span>
                        <ChevronRight
                          size={18}
                          aria-hidden="true"
                          className="text-dim transition-transform group-hover:translate-x-0.5"
                        />
                      </Link>
                    </li>
                  );
                })}
                {signedIn ? (
                  <li>
                    <button
                      type="button"
                      aria-haspopup="dialog"
                      onClick={onLogout}
                      className={cn(
                        itemClass,
                        'mt-4 border-ink-600 text-fg hover:border-ink-700 hover:bg-ink-850',
                      )}
                    >
                      <span className="flex items-center gap-3">
                        <LogOut size={18} aria-hidden="true" className="text-term-cyan" />
                        Logout
                      </span>
                    </button>
                  </li>
                ) : null}
              </ul>
            </nav>

            <div className="border-t border-ink-800 px-4 py-5">
              <ul className="flex items-center gap-2">
                {socialLinks().map((social) => (
                  <li key={social.kind}>
                    <a
                      href={social.href}
                      {...externalLinkProps}
                      aria-label={social.label}
                      className={cn(buttonClasses('ghost', 'sm'), 'w-10 px-0')}
                    >
                      <SocialIcon kind={social.kind} />
                    </a>
                  </li>
                ))}
              </ul>
            </div>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
