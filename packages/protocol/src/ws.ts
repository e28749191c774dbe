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

/** The server's push when the session a socket authenticated with ends (logout, password, staff, expiry). */
export const WS_SESSION_ENDED = 'session_ended';
/** Why a session ended — the same reasons an HTTP call with it is refused with. */
export type WsSessionEndReason =
  | 'SESSION_EXPIRED'
  | 'SESSION_PASSWORD_CHANGED'
  | 'DEMO_EXPIRED'
  | 'ACCOUNT_DISABLED';

/**
 * `{main_type: 4, event: "session_ended", code, reason, params, channels}`: the socket is anonymous
 * again and has left `channels` (its private ones). `code` is what an HTTP call with that session
 * now answers: 1000 (log out) or 2000 (confirm: the password changed).
 */
export type WsSessionEnded = {
  main_type: 4;
  event: typeof WS_SESSION_ENDED;
  code: 1000 | 2000;
  reason: WsSessionEndReason;
  params: Record<string, never>;
  channels: string[];
};
