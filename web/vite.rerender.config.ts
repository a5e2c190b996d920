/**
 * The server's renderer (src/entry-rerender.tsx) as one script without imports or modules, for
 * the JavaScript engine in the Go server (internal/prerender): every dependency bundled, the
 * browser builds of React's server renderer (which need no Node.js), lazily loaded pages inlined.
 * It lands in dist/server/, which the server never serves.
 */
import { defineConfig, mergeConfig } from 'vite';
import base from './vite.config';

export default mergeConfig(
  base,
  defineConfig({
    ssr: { noExternal: true, target: 'webworker' },
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      ssr: 'src/entry-rerender.tsx',
      outDir: 'dist/server',
      emptyOutDir: false,
      minify: true,
      copyPublicDir: false,
      rollupOptions: {
        output: {
          format: 'iife',
          name: 'TribeRender',
          entryFileNames: 'render.js',
          inlineDynamicImports: true,
        },
      },
    },
  }),
);
