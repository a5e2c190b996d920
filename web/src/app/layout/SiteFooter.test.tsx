import contact from '@content/contact.json';
import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { socialProfiles } from '@/content/social';
import { createMemoryHistory, Router } from '@/lib/router';
import { siblingSites } from '../site';
import { SiteFooter } from './SiteFooter';

function renderFooter() {
  render(
    <Router history={createMemoryHistory()}>
      <SiteFooter />
    </Router>,
  );
  return screen.getByRole('contentinfo');
}

describe('SiteFooter', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the current year in the copyright line', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2034-06-01T12:00:00Z'));
    const footer = renderFooter();
    expect(footer).toHaveTextContent('© 2034 rUv. All rights reserved.');
  });

  it('links to the sibling sites and social profiles in new tabs, safely', () => {
    const footer = renderFooter();
    // The profile addresses come from the content files, like everywhere else on the site.
    const profiles: Record<string, string | undefined> = contact.online_presence.links;
    const expected = [
      ...siblingSites,
      ...socialProfiles.map((l) => ({ ...l, href: profiles[l.kind] })),
    ];
    expect(expected.map((l) => l.label)).toEqual([
      'Agentics Foundation',
      'Flow Nexus',
      'YouTube',
      'GitHub',
      'LinkedIn',
      'X',
    ]);
    for (const link of expected) {
      const a = within(footer).getByRole('link', { name: new RegExp(`^${link.label}`) });
      expect(a).toHaveAttribute('href', link.href);
      expect(a).toHaveAttribute('target', '_blank');
      expect(a.getAttribute('rel')?.split(' ')).toEqual(
        expect.arrayContaining(['noopener', 'noreferrer']),
      );
    }
    const external = footer.querySelectorAll('a[href^="http"]');
    expect(external).toHaveLength(expected.length);
    for (const a of external) {
      expect(a).toHaveAttribute('rel', 'noopener noreferrer');
    }
  });

  it('has a Member Login link to /auth in the same tab', () => {
    const footer = renderFooter();
    const login = within(footer).getByRole('link', { name: 'Member Login' });
    expect(login).toHaveAttribute('href', '/auth');
    expect(login).not.toHaveAttribute('target');
  });
});
