import { describe, expect, it } from 'vitest';
import { checkLogLines, expectLogLine, startTest, testLogger, watchOutput } from '../../test/logwatch.ts';

/** The integration harness's error-line watch (test/logwatch.ts), checked by hand here. */
describe('the error-line watch', () => {
  it('fails on an undeclared error line and passes warnings', () => {
    const log = testLogger();
    log.warn('only a warning');
    log.error({ err: new Error('disk on fire') }, 'sweep failed');
    expect(() => checkLogLines('test')).toThrow(
      /1 unexpected log line.*\n.*sweep failed — Error: disk on fire/,
    );
    startTest();
  });

  it('passes a declared line, by message or by error message', () => {
    const log = testLogger();
    expectLogLine(/sweep failed/);
    expectLogLine('disk on fire');
    log.error('sweep failed');
    log.fatal({ err: new Error('disk on fire') }, 'giving up');
    expect(() => checkLogLines('test')).not.toThrow();
    startTest();
  });

  it('fails when a required line never came, not when an optional one did not', () => {
    expectLogLine(/never/, { optional: true });
    expect(() => checkLogLines('test')).not.toThrow();
    startTest();
    expectLogLine(/never/);
    expect(() => checkLogLines('test')).toThrow(/never logged: \/never\//);
    startTest();
  });

  it('forgets a test-scoped expectation when the test ends', () => {
    expectLogLine(/once/);
    testLogger().error('once');
    checkLogLines('test');
    startTest();
    testLogger().error('once');
    expect(() => checkLogLines('test')).toThrow(/unexpected/);
    startTest();
  });
});

describe('the error-line watch on a spawned process', () => {
  it('reads error lines from output chunks, a line split across two', () => {
    const sink = watchOutput();
    sink('{"level":30,"msg":"listening"}\n{"level":50,"ms');
    sink('g":"resync failed"}\nnot json\n');
    expect(() => checkLogLines('test')).toThrow(/1 unexpected log line.*\n.*\[50\] resync failed/);
    startTest();
  });
});
