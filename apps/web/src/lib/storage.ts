/**
 * Storage that never throws: private browsing and full quotas make Web Storage fail, and the app must
 * still work (it just forgets). Failures are logged once per kind, not silently dropped.
 */
type Area = 'local' | 'session';

const warned = new Set<Area>();

function area(kind: Area): Storage | null {
  try {
    return kind === 'local' ? window.localStorage : window.sessionStorage;
  } catch (error) {
    warnOnce(kind, error);
    return null;
  }
}

function warnOnce(kind: Area, error: unknown): void {
  if (warned.has(kind)) return;
  warned.add(kind);
  console.warn(`[storage] ${kind}Storage is unavailable; settings will not be remembered`, error);
}

function read(kind: Area, key: string): string | null {
  try {
    return area(kind)?.getItem(key) ?? null;
  } catch (error) {
    warnOnce(kind, error);
    return null;
  }
}

function write(kind: Area, key: string, value: string | null): void {
  try {
    const store = area(kind);
    if (value === null) store?.removeItem(key);
    else store?.setItem(key, value);
  } catch (error) {
    warnOnce(kind, error);
  }
}

export const local = {
  get: (key: string) => read('local', key),
  set: (key: string, value: string) => write('local', key, value),
  remove: (key: string) => write('local', key, null),
};

export const session = {
  get: (key: string) => read('session', key),
  set: (key: string, value: string) => write('session', key, value),
  remove: (key: string) => write('session', key, null),
};
