import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** The web app's unit tests (pure logic: guard paths, route table, validation, market store). */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
  },
});
