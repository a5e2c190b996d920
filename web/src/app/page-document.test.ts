// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { escapeHtml } from './head';
import { fillTemplate } from './page-document';

const template = `<!doctype html><html><head>
<meta
  name="description"
  content="generic"
/>
<title>Generic | rUv</title>
</head><body><div id="root"></div></body></html>`;

describe('page document', () => {
  it('escapes attribute text', () => {
    expect(escapeHtml('a "b" <c> & d')).toBe('a &quot;b&quot; &lt;c&gt; &amp; d');
  });

  it('fills body, title and head tags, dropping the shell description', () => {
    const page = fillTemplate(
      template,
      'About & more | rUv',
      '<meta name="description" content="About" />',
      '<h1>About rUv</h1>',
    );
    expect(page).toContain('<div id="root"><h1>About rUv</h1></div>');
    expect(page).toContain('<title>About &amp; more | rUv</title>');
    expect(page).not.toContain('generic');
    expect(page).not.toContain('Generic');
    expect(page.match(/name="description"/g)).toHaveLength(1);
    expect(page).toMatch(/<meta name="description" content="About" \/>\n {2}<\/head>/);
  });

  it("keeps a price's dollar signs as written", () => {
    const page = fillTemplate(template, "$& $' | rUv", '', "<p>$149 $& $' $$</p>");
    expect(page).toContain(`<div id="root"><p>$149 $& $' $$</p></div>`);
    expect(page).toContain("<title>$&amp; $' | rUv</title>");
  });

  it('refuses a template without the root element', () => {
    expect(() => fillTemplate('<html></html>', 't', '', '')).toThrow(/root/);
  });
});
