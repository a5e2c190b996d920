import { Package } from 'lucide-react';
import { buttonClasses } from '@/components/ui/button';
import { ExternalLink } from '@/components/ui/external-link';
import { Section } from '@/components/ui/section';
import { SocialIcon } from '@/components/ui/social-icon';
import { socialLinks } from '@/content/social';
import type { ProjectStats } from '@/content/types';

/** Where the code is (GitHub, npm when there is a page) and the other social profiles. */
export function Connect({ stats }: { stats: ProjectStats }) {
  const codeLinks = [
    { href: stats.github_url, label: 'Code on GitHub', icon: <SocialIcon kind="github" /> },
    ...(stats.npm_url
      ? [
          {
            href: stats.npm_url,
            label: 'Packages on npm',
            icon: <Package size={18} aria-hidden="true" />,
          },
        ]
      : []),
  ];
  return (
    <Section id="connect" eyebrow="connect" title="Connect">
      <ul className="mt-6 flex flex-wrap gap-3">
        {codeLinks.map((l) => (
          <li key={l.href}>
            <ExternalLink href={l.href} className={buttonClasses('outline', 'md')}>
              {l.icon}
              {l.label}
            </ExternalLink>
          </li>
        ))}
        {socialLinks()
          .filter((l) => l.kind !== 'github')
          .map((l) => (
            <li key={l.kind}>
              <ExternalLink
                href={l.href}
                className={buttonClasses('ghost', 'md', 'border border-ink-700')}
              >
                <SocialIcon kind={l.kind} />
                {l.label}
              </ExternalLink>
            </li>
          ))}
      </ul>
    </Section>
  );
}
