import { afterAll, afterEach, beforeEach } from 'vitest';
import { checkLogLines, startTest } from './logwatch.ts';

/**
 * Runs in every unit and integration test file (vitest `setupFiles`): fails a test whose code, or the
 * app and module services it built with the harness, logged an error line it did not declare with
 * `expectLogLine` (test/logwatch.ts).
 */
beforeEach(() => startTest());
afterEach(() => checkLogLines('test'));
afterAll(() => checkLogLines('file'));
