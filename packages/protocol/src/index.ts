export * from './access.ts';
export * from './envelope.ts';
export * from './langs.ts';
export * from './market.ts';
export * from './reasons.ts';
export * from './ws.ts';
