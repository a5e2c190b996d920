import { ArrowUpRight, LogIn } from 'lucide-react';
import { Container } from '@/components/ui/container';
import { SocialIcon } from '@/components/ui/social-icon';
import { socialLinks } from '@/content/social';
import { externalLinkProps } from '@/lib/links';
import { Link } from '@/lib/router';
import { scrollToTopSmooth } from '@/lib/scroll';
import { memberLoginLink, siblingSites, site } from '../site';
import { Logo } from './SiteHeader';

const headingClass = 'font-mono text-xs font-semibold uppercase tracking-[0.18em] text-dim';
const linkClass =
  'inline-flex items-center gap-2 rounded text-sm text-muted transition-colors hover:text-term-green';

/** Keeps the arrow on the same line as the label's last word when the label wraps. */
function LabelWithArrow({ label }: { label: string }) {
  const cut = label.lastIndexOf(' ');
  const head = cut === -1 ? '' : label.slice(0, cut + 1);
  const last = label.slice(cut + 1);
  return (
    <>
      {head}
      <span className="whitespace-nowrap">
        {last}
        <ArrowUpRight size={14} aria-hidden="true" className="ml-1 inline-block align-[-2px]" />
      </span>
    </>
  );
}

export function SiteFooter() {
  const year = new Date().getFullYear();

  return (
    <footer className="mt-auto border-t border-ink-800 bg-ink-950">
      <Container className="grid grid-cols-2 gap-x-6 gap-y-10 py-12 sm:grid-cols-3 lg:grid-cols-[1.4fr_1fr_1fr_1fr]">
        <div className="col-span-2 sm:col-span-3 lg:col-span-1">
          <Logo />
          <p className="mt-3 max-w-xs text-sm text-muted">{site.tagline}</p>
        </div>

        <section aria-labelledby="footer-sites">
          <h2 id="footer-sites" className={headingClass}>
            Sites
          </h2>
          <ul className="mt-4 space-y-3">
            {siblingSites.map((s) => (
              <li key={s.href}>
                <a
                  href={s.href}
                  {...externalLinkProps}
                  className="rounded text-sm text-muted transition-colors hover:text-term-green"
                >
                  <LabelWithArrow label={s.label} />
                </a>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="footer-social">
          <h2 id="footer-social" className={headingClass}>
            Connect
          </h2>
          <ul className="mt-4 space-y-3">
            {socialLinks().map((s) => (
              <li key={s.href}>
                <a href={s.href} {...externalLinkProps} className={linkClass}>
                  <SocialIcon kind={s.kind} width={16} height={16} />
                  {s.label}
                </a>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="footer-members">
          <h2 id="footer-members" className={headingClass}>
            Members
          </h2>
          <ul className="mt-4 space-y-3">
            <li>
              <Link to={memberLoginLink.to} onClick={scrollToTopSmooth} className={linkClass}>
                <LogIn size={16} aria-hidden="true" />
                {memberLoginLink.label}
              </Link>
            </li>
          </ul>
        </section>
      </Container>
      <div className="border-t border-ink-800">
        <Container className="flex flex-col gap-2 py-5 font-mono text-xs text-dim sm:flex-row sm:items-center sm:justify-between">
          <p>
            © {year} {site.name}. All rights reserved.
          </p>
          <p aria-hidden="true" className="hidden sm:block">
            <span className="text-term-green">$</span> exit 0
          </p>
        </Container>
      </div>
    </footer>
  );
}
