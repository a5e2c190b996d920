/// <reference types="vitest/config" />
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';

/** Paths the Go server answers itself; in development they are forwarded to it. */
const serverPaths = [
  '/api',
  '/healthz',
  '/readyz',
  '/content',
  '/mcp.json',
  '/.well-known',
  '/sitemap.xml',
  '/robots.txt',
  '/downloads',
  '/mcp/',
  '/auth/confirm',
  '/dev/mail',
  '/avatars',
  '/calendar',
];

const contentDir = fileURLToPath(new URL('../content', import.meta.url));

/**
 * Test files that replace modules (`vi.mock`, `vi.doMock`, `vi.resetModules`) need a module graph of
 * their own; every other file shares its worker's DOM and modules with the files before it, which
 * saves setting up jsdom and importing React once per file (most of the suite's processor time).
 * src/test/setup.ts resets what a file could leave behind (storage, the URL, the document, timers).
 */
function filesThatMockModules(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/\.test\.(ts|tsx|mjs)$/.test(entry.name)) continue;
    const path = join(entry.parentPath, entry.name);
    if (/vi\.(mock|doMock|resetModules)\(/.test(readFileSync(path, 'utf8'))) found.push(path);
  }
  return found;
}
const webRoot = fileURLToPath(new URL('.', import.meta.url));
const testFiles = ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.mjs'];
const isolatedFiles = [
  ...filesThatMockModules(join(webRoot, 'src')),
  ...filesThatMockModules(join(webRoot, 'scripts')),
].map((path) => path.slice(webRoot.length));

const goServer = process.env.TRIBE_DEV_SERVER ?? 'http://localhost:8080';

const proxy: Record<string, ProxyOptions> = Object.fromEntries(
  serverPaths.map((path) => [path, { target: goServer, changeOrigin: false }]),
);

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      // The repository's content files, bundled so prerendered pages carry real text and prices.
      '@content': contentDir,
    },
  },
  // The content folder sits beside web/, outside the dev server's default file root.
  server: { proxy, fs: { allow: ['.', contentDir] } },
  preview: { proxy },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    sourcemap: false,
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    restoreMocks: true,
    unstubGlobals: true,
    // CI runs these beside the Go suite on the same cores; a slow test is not a failing one.
    testTimeout: 15_000,
    projects: [
      {
        extends: true,
        test: { name: 'shared', include: testFiles, exclude: isolatedFiles, isolate: false },
      },
      { extends: true, test: { name: 'isolated', include: isolatedFiles, isolate: true } },
    ],
  },
});
