import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** Where the dev and preview servers forward `/api` and `/ws`; BOURSE_API_URL points them at another port. */
const apiTarget = process.env.BOURSE_API_URL ?? 'http://localhost:8080';

const proxy = {
  '/api': { target: apiTarget, changeOrigin: false },
  '/ws': { target: apiTarget.replace(/^http/, 'ws'), ws: true },
};

/**
 * Lists the built assets in `precache-manifest.json`, so the service worker (public/sw.js) can keep
 * every screen of the current build available offline and drop the assets of older builds.
 */
function precacheManifest(): Plugin {
  return {
    name: 'bourse-precache-manifest',
    apply: 'build',
    generateBundle(_options, bundle) {
      const files = Object.keys(bundle)
        .filter((file) => file.startsWith('assets/') && !file.endsWith('.map'))
        .map((file) => `/${file}`)
        .sort();
      this.emitFile({ type: 'asset', fileName: 'precache-manifest.json', source: JSON.stringify({ files }) });
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), precacheManifest()],
  resolve: {
    // packages/ui resolves Mantine from the repository root; one copy of each keeps one React context.
    dedupe: ['react', 'react-dom', '@mantine/core', '@mantine/hooks'],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
  },
  server: { port: 5173, proxy },
  preview: { port: 4173, proxy },
});
