import { afterEach, describe, expect, it } from 'vitest';
import { BASE_URL_PLACEHOLDER, siteBaseUrl } from './site-url';

function setMeta(content: string | null) {
  document.querySelector('meta[name="tribe-base-url"]')?.remove();
  if (content === null) return;
  const meta = document.createElement('meta');
  meta.name = 'tribe-base-url';
  meta.content = content;
  document.head.append(meta);
}

describe('siteBaseUrl', () => {
  afterEach(() => setMeta(null));

  it('reads the address the server filled in, without a trailing slash', () => {
    setMeta('https://ruv.example/');
    expect(siteBaseUrl()).toBe('https://ruv.example');
  });

  it('falls back to the page origin when the placeholder was not filled in or is missing', () => {
    setMeta(BASE_URL_PLACEHOLDER);
    expect(siteBaseUrl()).toBe(window.location.origin);
    setMeta(null);
    expect(siteBaseUrl()).toBe(window.location.origin);
  });
});
