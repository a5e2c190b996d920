// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { NOT_FOUND_PATH_PLACEHOLDER, pageMeta, render } from './entry-server';

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

  it('renders the 404 page at the path placeholder, with no time yet (it is set when the app runs)', async () => {
    const html = await render(NOT_FOUND_PATH_PLACEHOLDER);
    expect(html).toContain('Page Not Found');
    expect(html).toContain(`>${NOT_FOUND_PATH_PLACEHOLDER}</code>`);
    expect(html).toContain(`bash: cd: <!-- -->${NOT_FOUND_PATH_PLACEHOLDER}<!-- -->: No such file`);
    expect(html).not.toContain('<time');
  });
});
