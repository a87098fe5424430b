// A TCP proxy in front of a real backend (PostgreSQL, Redis) that a test can cut, stall and restore: an outage on demand.
import net from 'node:net';

export interface TcpProxy {
  /** The port clients connect to, on 127.0.0.1. */
  port: number;
  /** Connections currently forwarded. */
  liveConnections(): number;
  /**
   * The backend goes away: every live connection is reset at once (the call in flight sees ECONNRESET) and every
   * new one is accepted and reset straight away, as a host whose server process died answers with an RST.
   */
  cut(): void;
  /**
   * The path goes silent (packets dropped, no reset): nothing is forwarded either way and nothing is closed; new
   * connections are accepted and left waiting. What was sent meanwhile is delivered at `restore`, as TCP's
   * retransmissions would once the path is back.
   */
  stall(): void;
  /** The backend is back: forwarding resumes (after a cut, clients must reconnect on their own). */
  restore(): void;
  close(): Promise<void>;
}

interface Pair {
  client: net.Socket;
  upstream: net.Socket;
  flowing: boolean;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let cut = false;
  let stalled = false;
  const pairs = new Set<Pair>();

  const flow = (pair: Pair) => {
    if (pair.flowing) return;
    pair.flowing = true;
    pair.client.pipe(pair.upstream);
    pair.upstream.pipe(pair.client);
  };
  const hold = (pair: Pair) => {
    if (pair.flowing) {
      pair.client.unpipe(pair.upstream);
      pair.upstream.unpipe(pair.client);
    }
    pair.flowing = false;
    pair.client.pause();
    pair.upstream.pause();
  };

  const server = net.createServer((client) => {
    if (cut) {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    const pair: Pair = { client, upstream, flowing: false };
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    // Errors here are the outage being simulated (or a client hanging up); the pair is torn down either way.
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    if (stalled) hold(pair);
    else flow(pair);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;

  return {
    port,
    liveConnections: () => pairs.size,
    cut: () => {
      cut = true;
      for (const { client, upstream } of pairs) {
        if (!client.destroyed) client.resetAndDestroy();
        if (!upstream.destroyed) upstream.resetAndDestroy();
      }
      pairs.clear();
    },
    stall: () => {
      stalled = true;
      for (const pair of pairs) hold(pair);
    },
    restore: () => {
      cut = false;
      stalled = false;
      for (const pair of pairs) flow(pair);
    },
    close: async () => {
      for (const { client, upstream } of pairs) {
        client.destroy();
        upstream.destroy();
      }
      pairs.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
