/// <reference types="vitest/config" />
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
    include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.mjs'],
    css: false,
    restoreMocks: true,
    // CI runs these beside the Go suite on the same cores; a slow test is not a failing one.
    testTimeout: 15_000,
  },
});
