import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { checkServerLog, startFile, startTest } from './logwatch.ts';

/** Every e2e file: fail a test after which the server logged an error line it did not declare (logwatch.ts). */
beforeAll(() => startFile());
beforeEach(() => startTest());
afterEach(() => checkServerLog('test'));
afterAll(() => checkServerLog('file'));
