// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { escapeHtml, fillTemplate, shellTemplate } from './prerender.mjs';

const template = `<!doctype html><html><head>
<meta
  name="description"
  content="generic"
/>
<title>Generic | rUv</title>
</head><body><div id="root"></div></body></html>`;

describe('prerender', () => {
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

  it('adds the base-URL tag to the shell and leaves the rest', () => {
    const shell = shellTemplate(template, '<meta name="tribe-base-url" content="x" />');
    expect(shell).toContain('<meta name="tribe-base-url" content="x" />\n  </head>');
    expect(shell).toContain('<div id="root"></div>');
    expect(shell).toContain('content="generic"');
  });

  it('refuses a template without the root element', () => {
    expect(() => fillTemplate('<html></html>', 't', '', '')).toThrow(/root/);
  });
});
