// A TCP proxy in front of a real backend (PostgreSQL, Redis) that a test can cut and restore: an outage on demand.
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
  /** The backend is back: new connections are forwarded again (clients must reconnect on their own). */
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let cut = false;
  const live = new Set<net.Socket>();

  const server = net.createServer((client) => {
    if (cut) {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    live.add(client);
    live.add(upstream);
    const drop = () => {
      live.delete(client);
      live.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    // Errors here are the outage being simulated (or a client hanging up); the pair is torn down either way.
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;

  return {
    port,
    liveConnections: () => live.size / 2,
    cut: () => {
      cut = true;
      for (const socket of live) if (!socket.destroyed) socket.resetAndDestroy();
      live.clear();
    },
    restore: () => {
      cut = false;
    },
    close: async () => {
      for (const socket of live) socket.destroy();
      live.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
