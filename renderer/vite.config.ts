// Builds the window into app/dist/renderer: plain static files any host can serve.

import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = path.dirname(new URL(import.meta.url).pathname);

export default defineConfig({
  root: here,
  // Relative asset URLs, so the same build loads from the web host and from Electron's file URLs.
  base: './',
  plugins: [react()],
  build: {
    outDir: path.join(here, '..', 'app', 'dist', 'renderer'),
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 1024,
  },
});
