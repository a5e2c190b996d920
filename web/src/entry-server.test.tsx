// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { pageMeta, render } from './entry-server';

const prerendered = Object.entries(pageMeta).filter(([, meta]) => meta.prerender);

describe('entry-server', () => {
  it('prerenders the public pages, not the members area', () => {
    const paths = prerendered.map(([path]) => path);
    expect(paths).toEqual(expect.arrayContaining(['/', '/about', '/booking', '/tribe', '/mcp']));
    expect(paths).not.toContain('/members');
    expect(paths).not.toContain('/agent-test');
  });

  it.each(prerendered.map(([path]) => path))(
    '%s renders to complete HTML without a browser',
    async (path) => {
      const html = await render(path);
      // The lazily loaded page is in the HTML, not its loading fallback.
      expect(html).toMatch(/<h1[\s>]/);
      expect(html).not.toMatch(/Page Not Found/);
      expect(html).toContain('aria-label="Main"');
      expect(html).toContain('Skip to content');
    },
  );
});
