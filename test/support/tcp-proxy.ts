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
  /**
   * A lost commit acknowledgement, once: on the next PostgreSQL connection whose transaction sent `marker` (a piece of
   * SQL text, e.g. a table only that transaction writes) and then `COMMIT`, the COMMIT is forwarded, the server's
   * answer to it is dropped, and both sockets are reset. The server committed; the client never hears so. Resolves
   * when it has happened. Other connections, and this one's other transactions, pass untouched.
   */
  loseCommitAnswer(marker: string): Promise<void>;
  /**
   * A lost COMMIT, once: as `loseCommitAnswer`, but the COMMIT itself is dropped and both sockets reset, so the server
   * rolls the transaction back while the client, which sent it, cannot tell. Resolves when it has happened.
   */
  loseCommit(marker: string): Promise<void>;
  close(): Promise<void>;
}

/** A simple-query message (`Q`, its length, the text) whose text is COMMIT: what pg and Kysely send to commit. */
const commitMessage = /Q[\s\S]{4}commit\s*;?\0/i;
const beginMessage = /Q[\s\S]{4}(begin|start transaction)\b/i;

interface Pair {
  client: net.Socket;
  upstream: net.Socket;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let cut = false;
  let stalled = false;
  const pairs = new Set<Pair>();
  let commitTrap: { marker: string; sprung: () => void; dropCommit: boolean } | null = null;

  // A paused socket emits no `data`: what arrives waits in its buffers (and the kernel's) until it is resumed.
  const hold = (pair: Pair) => {
    pair.client.pause();
    pair.upstream.pause();
  };
  const flow = (pair: Pair) => {
    pair.client.resume();
    pair.upstream.resume();
  };

  const server = net.createServer((client) => {
    if (cut) {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    const pair: Pair = { client, upstream };
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    // Errors here are the outage being simulated (or a client hanging up); the pair is torn down either way.
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    /** What this connection's client sent in its current transaction (latin1: the SQL text stays readable). */
    let transaction = '';
    /** The trapped COMMIT went upstream: its answer is the next thing the server says, and it is never delivered. */
    let swallowAnswer: (() => void) | null = null;
    client.on('data', (chunk: Buffer) => {
      const text = chunk.toString('latin1');
      if (beginMessage.test(text)) transaction = '';
      transaction += text;
      if (commitTrap && commitMessage.test(text) && transaction.includes(commitTrap.marker)) {
        const trap = commitTrap;
        commitTrap = null;
        if (trap.dropCommit) {
          // Never reaches the server: it sees its session end mid-transaction and rolls back.
          pairs.delete(pair);
          client.resetAndDestroy();
          upstream.resetAndDestroy();
          trap.sprung();
          return;
        }
        swallowAnswer = trap.sprung;
      }
      if (commitMessage.test(text)) transaction = '';
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (swallowAnswer) {
        // The server has committed and is answering: the answer is lost with the connection.
        const sprung = swallowAnswer;
        swallowAnswer = null;
        pairs.delete(pair);
        client.resetAndDestroy();
        upstream.destroy();
        sprung();
        return;
      }
      client.write(chunk);
    });
    if (stalled) hold(pair);
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
    loseCommitAnswer: (marker) =>
      new Promise<void>((resolve) => {
        commitTrap = { marker, sprung: resolve, dropCommit: false };
      }),
    loseCommit: (marker) =>
      new Promise<void>((resolve) => {
        commitTrap = { marker, sprung: resolve, dropCommit: true };
      }),
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
