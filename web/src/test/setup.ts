import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { installMatchMedia } from './match-media';

// Lazy page chunks are transformed on first import; give them time (more under CI, where the Go
// suite shares the cores).
const underCI = Boolean(
  (globalThis as unknown as { process: { env: Record<string, string | undefined> } }).process.env
    .CI,
);
configure({ asyncUtilTimeout: underCI ? 12_000 : 5000 });

// Node-environment tests (scripts/) have no DOM to prepare.
const hasDom = typeof window !== 'undefined';

// Test files share a worker's DOM (isolate: false in vite.config.ts), and this file runs before
// each of them: each starts from what a fresh page would have.
if (hasDom) {
  vi.useRealTimers();
  localStorage.clear();
  sessionStorage.clear();
  window.history.replaceState(null, '', '/');
  document.title = '';
  document.head.innerHTML = '';
  document.body.innerHTML = '';
  document.documentElement.removeAttribute('class');
  document.documentElement.removeAttribute('style');
  document.documentElement.removeAttribute('lang');
  document.documentElement.removeAttribute('data-theme');
}

beforeEach(() => {
  if (!hasDom) return;
  installMatchMedia(1024);
  // jsdom does not implement scrolling; record calls instead.
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
  Element.prototype.scrollIntoView = vi.fn();
});

afterEach(() => {
  if (!hasDom) return;
  cleanup();
  document.body.style.overflow = '';
  document.documentElement.style.overflow = '';
});
