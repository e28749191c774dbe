/** The Binance-compatible spot REST API for bots (docs/bots.md). */
export type { BotApiDeps } from './context.ts';
export { binanceErrorOf } from './errors.ts';
export { botApiRoutes } from './routes.ts';
export { BOT_LIMITS, createMeters, WEIGHTS } from './weights.ts';
