import about from '@content/about.json';
import contact from '@content/contact.json';
import projects from '@content/projects.json';
import services from '@content/services.json';
import stack from '@content/stack.json';
import { afterEach, describe, expect, it } from 'vitest';
import { homeContent } from './home-sections';
import { CONTENT_ELEMENT_ID } from './override';
import { bundledContent, siteContent } from './site';
import type { SiteContent } from './types';

// Type check: the files as TypeScript reads them fit the declared types (a mismatch fails `tsc`).
const files: SiteContent = { about, services, projects, stack, contact };

function inject(content: unknown) {
  const element = document.createElement('script');
  element.id = CONTENT_ELEMENT_ID;
  element.type = 'application/json';
  element.textContent = typeof content === 'string' ? content : JSON.stringify(content);
  document.body.append(element);
}

afterEach(() => {
  document.getElementById(CONTENT_ELEMENT_ID)?.remove();
});

describe('content', () => {
  it('bundles the repository content files', () => {
    expect(bundledContent).toEqual(files);
    expect(siteContent()).toBe(bundledContent);
    expect(bundledContent.services.sessions.map((s) => [s.duration, s.price])).toEqual([
      [15, 149],
      [30, 299],
      [60, 499],
    ]);
  });

  it('gives Home the same prices and projects as the other pages', () => {
    const home = homeContent();
    expect(home.sessions).toEqual(bundledContent.services.sessions);
    expect(home.tribe.price_monthly).toBe(250);
    expect(home.featured).toEqual(bundledContent.projects.featured);
    expect(home.projects).toEqual(bundledContent.projects.projects.slice(0, 4));
  });

  it('returns the content the server injected', () => {
    const owner = structuredClone(files);
    owner.services.tribe.price_monthly = 300;
    owner.about.name = 'Someone Else';
    inject(owner);
    expect(siteContent().about.name).toBe('Someone Else');
    expect(homeContent().tribe.price_monthly).toBe(300);
  });

  it('falls back to the bundled files when the injected element is broken', () => {
    inject('{not json');
    expect(siteContent()).toBe(bundledContent);
    expect(homeContent().sessions).toEqual(bundledContent.services.sessions);
  });
});
