import { MARKET_LIMITS, type ReasonCode, type ReasonParams } from '@bourse/protocol';

/**
 * The channel registry behind `/ws`. Modules provide channels (a name, or a prefix ending in
 * `:`); sockets subscribe; a publish numbers the message (`seq`, per channel, +1 each time),
 * serialises it once and hands the same bytes to every subscriber. Subscribing answers with a
 * snapshot carrying the channel's current `seq`, so the next message is exactly `seq + 1`.
 */
export type ChannelRefusal = { reason: ReasonCode; params: ReasonParams };

export type ChannelProvider = {
  /** null when the channel exists and may be subscribed; otherwise why not. `subscriber` for private channels. */
  check(channel: string, subscriber?: Subscriber): ChannelRefusal | null;
  /** The channel's current state. Synchronous, so nothing is published between it and its seq. */
  snapshot(channel: string): unknown;
};

export type Subscriber = {
  readonly channels: Set<string>;
  /** Set once the socket authenticated with `{main_type: 4, token}` (private channels check it). */
  identity?: { customerId: string; uid: string; sessionId?: string } | null;
  /** Queues one frame; false when the socket was dropped for falling behind. */
  send(frame: Buffer): boolean;
};

export type RegistryStats = {
  channels: number;
  subscriptions: number;
  published: number;
  framesSent: number;
};

function frameOf(channel: string, seq: number, data: unknown, snapshot: boolean): Buffer {
  const head = `{"channel":${JSON.stringify(channel)},"seq":${seq}${snapshot ? ',"snapshot":true' : ''},"data":`;
  return Buffer.from(`${head}${JSON.stringify(data)}}`);
}

export class ChannelRegistry {
  private readonly providers: Array<{ name: string; provider: ChannelProvider }> = [];
  private readonly subscribers = new Map<string, Set<Subscriber>>();
  private readonly seqs = new Map<string, number>();
  /** Snapshot bytes per channel, valid until the channel's next publish: a reconnect storm serialises once. */
  private readonly snapshots = new Map<string, { seq: number; frame: Buffer }>();
  private published = 0;
  private framesSent = 0;

  provide(name: string, provider: ChannelProvider): void {
    if (this.providers.some((p) => p.name === name)) throw new Error(`channel ${name} is provided twice`);
    this.providers.push({ name, provider });
  }

  private providerOf(channel: string): ChannelProvider | null {
    for (const { name, provider } of this.providers) {
      if (name.endsWith(':') ? channel.startsWith(name) : channel === name) return provider;
    }
    return null;
  }

  /** Subscribes and sends the snapshot; a refusal is returned (and nothing changes). */
  subscribe(subscriber: Subscriber, channel: string): ChannelRefusal | null {
    const provider = this.providerOf(channel);
    if (!provider) return { reason: 'CHANNEL_UNKNOWN', params: { channel } };
    const refusal = provider.check(channel, subscriber);
    if (refusal) return refusal;
    if (
      !subscriber.channels.has(channel) &&
      subscriber.channels.size >= MARKET_LIMITS.subscriptionsPerSocketMax
    ) {
      return { reason: 'SUBSCRIPTIONS_LIMIT', params: { max: MARKET_LIMITS.subscriptionsPerSocketMax } };
    }
    const seq = this.seqs.get(channel) ?? 0;
    let cached = this.snapshots.get(channel);
    if (!cached || cached.seq !== seq) {
      cached = { seq, frame: frameOf(channel, seq, provider.snapshot(channel), true) };
      this.snapshots.set(channel, cached);
    }
    let set = this.subscribers.get(channel);
    if (!set) {
      set = new Set();
      this.subscribers.set(channel, set);
    }
    set.add(subscriber);
    subscriber.channels.add(channel);
    if (!subscriber.send(cached.frame)) this.remove(subscriber);
    return null;
  }

  unsubscribe(subscriber: Subscriber, channel: string): void {
    subscriber.channels.delete(channel);
    const set = this.subscribers.get(channel);
    if (!set) return;
    set.delete(subscriber);
    if (set.size === 0) this.forget(channel);
  }

  /**
   * Asks every provider again whether the subscriber may stay (after its identity changed) and
   * unsubscribes it from the channels now refused; returns those channels.
   */
  recheck(subscriber: Subscriber): string[] {
    const left: string[] = [];
    for (const channel of [...subscriber.channels]) {
      const provider = this.providerOf(channel);
      if (provider && provider.check(channel, subscriber) === null) continue;
      this.unsubscribe(subscriber, channel);
      left.push(channel);
    }
    return left;
  }

  /** A closed or dropped socket leaves every channel. */
  remove(subscriber: Subscriber): void {
    for (const channel of [...subscriber.channels]) this.unsubscribe(subscriber, channel);
  }

  private forget(channel: string): void {
    // Nobody is listening, so nobody can see the numbering restart.
    this.subscribers.delete(channel);
    this.seqs.delete(channel);
    this.snapshots.delete(channel);
  }

  /** Forgets every cached snapshot (the state behind them was replaced wholesale). */
  invalidateSnapshots(): void {
    this.snapshots.clear();
  }

  /** Channels starting with `prefix` that have subscribers: publishers look only at these. */
  subscribed(prefix: string): string[] {
    const out: string[] = [];
    for (const channel of this.subscribers.keys()) if (channel.startsWith(prefix)) out.push(channel);
    return out;
  }

  hasSubscribers(channel: string): boolean {
    return (this.subscribers.get(channel)?.size ?? 0) > 0;
  }

  /**
   * Publishes `build()` on `channel`. Without subscribers nothing is built or numbered; the cached
   * snapshot is dropped either way because the state behind it has changed.
   */
  publish(channel: string, build: () => unknown): number {
    this.snapshots.delete(channel);
    const set = this.subscribers.get(channel);
    if (!set || set.size === 0) return 0;
    const seq = (this.seqs.get(channel) ?? 0) + 1;
    this.seqs.set(channel, seq);
    const frame = frameOf(channel, seq, build(), false);
    this.published += 1;
    let sent = 0;
    const dropped: Subscriber[] = [];
    for (const subscriber of set) {
      if (subscriber.send(frame)) sent += 1;
      else dropped.push(subscriber);
    }
    for (const subscriber of dropped) this.remove(subscriber);
    this.framesSent += sent;
    return sent;
  }

  seq(channel: string): number {
    return this.seqs.get(channel) ?? 0;
  }

  stats(): RegistryStats {
    let subscriptions = 0;
    for (const set of this.subscribers.values()) subscriptions += set.size;
    return {
      channels: this.subscribers.size,
      subscriptions,
      published: this.published,
      framesSent: this.framesSent,
    };
  }
}
