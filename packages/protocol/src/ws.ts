/**
 * Websocket `/ws` messages. The client sends a heartbeat `{main_type: 1, timestamp}` every
 * 20 s; the server answers `{main_type: 1, pong: timestamp}` and drops a client silent for 60 s.
 * Later issues add subscribe/unsubscribe (`main_type` 2/3) and channel messages.
 */
export const WS_MAIN_TYPE = { HEARTBEAT: 1, SUBSCRIBE: 2, UNSUBSCRIBE: 3, AUTH: 4 } as const;
export const WS_HEARTBEAT_INTERVAL_MS = 20_000;
export const WS_RECONNECT_DELAY_MS = 1_000;
export const WS_IDLE_TIMEOUT_MS = 60_000;

export type WsHeartbeat = { main_type: 1; timestamp: number };
export type WsHeartbeatAck = { main_type: 1; pong: number; server_time: number };
export type WsClientMessage =
  | WsHeartbeat
  | { main_type: 2 | 3; channel: string }
  | { main_type: 4; token: string };
/** Channel payloads carry a per-channel sequence number so a gap is noticed and resynchronised. */
export type WsChannelMessage<T = unknown> = { channel: string; seq: number; data: T };
