import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Where the dev and preview servers forward `/api`; BOURSE_API_URL points them at another port. */
const apiTarget = process.env.BOURSE_API_URL ?? 'http://localhost:8080';
const proxy = { '/api': { target: apiTarget, changeOrigin: false } };

/** The back office, served by the server under `/admin/` (history fallback for deep links there). */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/admin/',
  plugins: [react()],
  resolve: {
    // packages/ui resolves Mantine from the repository root; one copy of each keeps one React context.
    dedupe: ['react', 'react-dom', '@mantine/core', '@mantine/hooks'],
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  server: { port: 5174, proxy },
  preview: { port: 4174, proxy },
});
