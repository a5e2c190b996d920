// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { shellTemplate } from './prerender.mjs';

const template = `<!doctype html><html><head>
<meta
  name="description"
  content="generic"
/>
<title>Generic | rUv</title>
</head><body><div id="root"></div></body></html>`;

describe('prerender', () => {
  it('adds the base-URL tag to the shell and leaves the rest', () => {
    const shell = shellTemplate(template, '<meta name="tribe-base-url" content="x" />');
    expect(shell).toContain('<meta name="tribe-base-url" content="x" />\n  </head>');
    expect(shell).toContain('<div id="root"></div>');
    expect(shell).toContain('content="generic"');
  });
});
