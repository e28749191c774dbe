export { MatchingBook } from './book.ts';
export {
  DEFAULT_MAX_OPEN_ORDERS,
  DEFAULT_MAX_QTY_LOTS,
  MAX_BAND_BPS,
  MAX_ID_LENGTH,
  MAX_PRICE_TICKS_LIMIT,
  STP_MODES,
  validateConfig,
} from './limits.ts';
export type * from './types.ts';

import type { EngineEvent, EventSink } from './types.ts';

/** A sink that copies every event into `events` (the engine reuses its event objects). For tests and tools. */
export function collectEvents(): { events: EngineEvent[]; sink: EventSink } {
  const events: EngineEvent[] = [];
  return { events, sink: (event) => events.push({ ...event } as EngineEvent) };
}
