// The composition root: the one place that turns the frozen config into implementations and connections.
import path from 'node:path';
import type { Logger } from 'pino';
import { leaseBeyondFetchMs, type Config } from './config.js';
import { systemClock, type Clock } from './time/clock.js';
import { createRedisClient } from './backends/redis-client.js';
import type { AppServices } from './http/app.js';
import { ensureStartKeys } from './accounts/start-keys.js';
import type { KeyRecord, Storage } from './storage/storage.js';
import type { KyselyStorage } from './storage/kysely/kysely-storage.js';
import type { ConcurrencyLimiter } from './limits/concurrency-limiter.js';
import type { Fetcher } from './fetch/fetcher.js';
import { holdWithoutFsync, truncateWriteAheadLog } from './storage/sqlite/sqlite-storage.js';
import { commitWithoutWaiting } from './storage/postgres/postgres-storage.js';
import { openStorage } from './open-storage.js';
import { InProcessConcurrencyLimiter } from './limits/in-process-concurrency-limiter.js';
import { RedisConcurrencyLimiter } from './limits/redis-concurrency-limiter.js';
import { HttpFetcher, type HttpFetcherOptions } from './fetch/http-fetcher.js';
import { InProcessHostGate, type HostGate } from './fetch/host-gate.js';
import { RedisHostGate } from './fetch/redis-host-gate.js';
import { InProcessCircuitBreaker } from './fetch/circuit-breaker.js';
import { InMemoryRobotsCache, productTokenOf } from './fetch/robots.js';
import { PromClientMetrics } from './metrics/prom-client-metrics.js';
import type { Metrics } from './metrics/metrics.js';
import { parseConnectTo } from './fetch/connect-to.js';
import { SiteRegistry } from './sites/registry.js';
import { Accounts } from './accounts/accounts-service.js';
import { UsageReporter } from './accounts/usage-report.js';
import type { ArtifactStore } from './artifacts/artifact-store.js';
import { FsArtifactStore } from './artifacts/fs-artifact-store.js';
import { PostgresArtifactStore } from './artifacts/postgres-artifact-store.js';
import { ScrapeService } from './scrape/scrape-service.js';
import { KyselyResultCache } from './cache/kysely-result-cache.js';
import { Freshness } from './cache/freshness.js';
import { WorkerExtractionPool } from './scrape/extraction-pool.js';
import { InstanceLiveness } from './liveness/instance-liveness.js';
import { InstanceLocks } from './liveness/instance-locks.js';
import { newId } from './accounts/ids.js';
import { findChromium } from './browser/browser-pool.js';
import { BrowserFetcher } from './browser/browser-fetcher.js';
import { WorkerThreadRenderer } from './browser/worker-thread-renderer.js';
import { ConsoleSessions } from './console/console-sessions.js';
import { InProcessRefusalLimiter } from './limits/in-process-refusal-limiter.js';
import { loadServerSecrets, secretsKeyVariable } from './secrets/server-key.js';
import type { Secrets } from './secrets/secret-box.js';
import { KyselyWebhookEndpointStore } from './webhooks/kysely-webhook-endpoint-store.js';
import type { WorkQueue } from './batches/work-queue.js';
import { SqliteWorkQueue } from './batches/sqlite-work-queue.js';
import { PgBossWorkQueue } from './batches/pg-boss-work-queue.js';
import { KyselyBatchStore } from './batches/kysely-batch-store.js';
import { Dispatcher } from './batches/dispatcher.js';
import { BatchService } from './batches/batch-service.js';
import { routedRunSteps } from './batches/run-steps.js';
import { KyselyMonitorStore } from './monitors/kysely-monitor-store.js';
import { MonitorScheduler } from './monitors/monitor-scheduler.js';
import { MonitorNotifier } from './monitors/monitor-notifier.js';
import { MonitorService } from './monitors/monitor-service.js';
import { statusByCode } from './http/problem.js';
import { DeliveryWorker } from './webhooks/delivery-worker.js';
import { WebhookTransport } from './webhooks/webhook-transport.js';
import type { Outbox } from './batches/batch-store.js';
import type { WebhookEndpointStore } from './webhooks/endpoint-store.js';

export interface Services extends AppServices {
  storage: Storage;
  limiter: ConcurrencyLimiter;
  fetcher: Fetcher;
  /** The server key's Secrets; null in shared mode without KUMO_SECRETS_KEY (batch and webhook routes answer 503). */
  secrets: Secrets | null;
  /** Webhook endpoints (null without `secrets`): the routes' store, and the delivery worker's signing secrets. */
  webhookEndpointStore: KyselyWebhookEndpointStore | null;
  /** Batches: their store (and outbox) and work queue, shared by submission and dispatch. */
  batchStore: KyselyBatchStore;
  workQueue: WorkQueue;
  /** This instance's batch dispatcher; null without `secrets` (no batch work here). `wake()` after a submission. */
  dispatcher: Dispatcher | null;
  /** This instance's webhook delivery worker; null without `secrets`. `wake()` when events become due. */
  webhookDelivery: DeliveryWorker | null;
  /** Monitors: the use case (the routes'), their store, and this instance's ticker and notifier (null without `secrets`). */
  monitors: MonitorService;
  monitorStore: KyselyMonitorStore;
  monitorScheduler: MonitorScheduler | null;
  monitorNotifier: MonitorNotifier | null;
  /** Stops timers and closes every connection this root opened. */
  close(): Promise<void>;
}

/**
 * The HttpFetcher with the configured budgets, user agent, robots policy and KUMO_CONNECT_TO; the caller supplies
 * how politeness is kept (the server shares a gate across calls, `kumo sites record` fetches one page).
 */
export function createHttpFetcher(
  config: Readonly<Config>,
  parts: Pick<HttpFetcherOptions, 'hostGate' | 'politeness'> &
    Partial<Pick<HttpFetcherOptions, 'breaker' | 'metrics' | 'clock'>>,
): HttpFetcher {
  return new HttpFetcher({
    userAgent: config.fetch.userAgent,
    connectTimeoutMs: config.fetch.connectTimeoutMs,
    headersTimeoutMs: config.fetch.headersTimeoutMs,
    maxBodyBytes: config.fetch.maxBodyBytes,
    maxRedirects: 5,
    maxAttempts: config.fetch.maxAttempts,
    retryBaseDelayMs: config.fetch.retryBaseDelayMs,
    connectTo: parseConnectTo(config.connectTo),
    robots: {
      cache: new InMemoryRobotsCache(),
      productToken: productTokenOf(config.fetch.userAgent),
      ttlMs: config.robots.ttlMs,
      unreachableTtlMs: config.robots.unreachableTtlMs,
      // robots.txt is small; a host that cannot serve it in this time is treated as unreachable.
      timeoutMs: Math.min(config.fetch.headersTimeoutMs, 10_000),
    },
    ...parts,
  });
}

/**
 * The server key's Secrets: KUMO_SECRETS_KEY, else in the embedded default `secrets.key` in the data folder (made 0600
 * on first start); null in shared mode without the variable (each instance would otherwise make its own key).
 */
export function openSecrets(config: Readonly<Config>): Promise<Secrets | null> {
  return loadServerSecrets({
    key: config.serverKey,
    dataDir: config.storage.kind === 'sqlite' ? config.dataDir : null,
  });
}

/**
 * The webhook DeliveryWorker with the configured timeout, retry schedule and KUMO_CONNECT_TO, its transport on pools
 * of its own under the fetcher's address policy. Not started; the caller (the batch wiring) starts it, calls `wake()`
 * when events become due, and `close()` stops it and closes the transport.
 */
export function createWebhookDelivery(
  config: Readonly<Config>,
  parts: {
    outbox: Outbox;
    endpoints: WebhookEndpointStore;
    secrets: Secrets;
    clock: Clock;
    holder: string;
    logger?: Logger;
    metrics?: Pick<Metrics, 'webhookDelivered'>;
  },
): { worker: DeliveryWorker; close(): Promise<void> } {
  const transport = new WebhookTransport({
    timeoutMs: config.webhooks.timeoutMs,
    connectTo: parseConnectTo(config.connectTo),
    clock: parts.clock,
  });
  const worker = new DeliveryWorker({
    outbox: parts.outbox,
    endpoints: parts.endpoints,
    secrets: parts.secrets,
    sender: transport,
    clock: parts.clock,
    holder: parts.holder,
    retryScheduleMs: config.webhooks.retryScheduleMs,
    timeoutMs: config.webhooks.timeoutMs,
    ...(parts.logger ? { log: parts.logger } : {}),
    ...(parts.metrics ? { metrics: parts.metrics } : {}),
  });
  return {
    worker,
    close: async () => {
      await worker.stop();
      await transport.close();
    },
  };
}

export interface ServicesOptions {
  /**
   * The one clock of every component with deadlines, spacing, cooldowns or windows (the politeness gate, the fetcher,
   * the circuit breaker, the console's sessions and sign-in bound). Default the system clock.
   */
  clock?: Clock;
}

export async function createServices(
  config: Readonly<Config>,
  logger: Logger,
  options: ServicesOptions = {},
): Promise<Services> {
  const clock = options.clock ?? systemClock;
  // Who this process is to its peers: it owns the reservations and leases it takes, and keeps them by beating.
  const instanceId = newId('ins');
  const storage = await openStorage(config, logger, instanceId);
  // Embedded: every server process on this data folder holds a lock file, so one that finds a predecessor's lock
  // free knows it ended and frees its credits at once (several processes may share the folder, e.g. a node:cluster).
  const locks =
    config.storage.kind === 'sqlite' ? InstanceLocks.take(path.join(config.dataDir, 'instances'), instanceId) : null;
  // One connection for leases and politeness. It fails fast while Redis is down, so calls get 503 rather than
  // queueing unmetered; it connects on first use, so a slow Redis does not delay start-up.
  // ioredis reports an error at every failed reconnect (twice a second during an outage): say so once, and once
  // again when it is back, rather than flooding the log.
  let redisDown = false;
  const redis =
    config.limits.kind === 'redis'
      ? createRedisClient(config.limits.url, {
          onError: () => {
            if (redisDown) return;
            redisDown = true;
            logger.warn('redis: connection lost; reconnecting');
          },
        })
      : null;
  redis?.on('ready', () => {
    if (!redisDown) return;
    redisDown = false;
    logger.info('redis: connection restored');
  });

  const keyPrefix = config.limits.kind === 'redis' ? config.limits.keyPrefix : 'kumo';
  const limiter: ConcurrencyLimiter = redis
    ? new RedisConcurrencyLimiter({ redis, keyPrefix, instanceId, livenessTtlMs: config.liveness.staleAfterMs })
    : new InProcessConcurrencyLimiter();

  const metrics = new PromClientMetrics();
  // Politeness must hold across every instance that shares the database, so it lives where the leases do.
  const hostGate: HostGate = redis ? new RedisHostGate({ redis, keyPrefix, clock }) : new InProcessHostGate({ clock });

  const registry = new SiteRegistry();
  const override = config.politenessOverride;
  const politeness = (host: string) => {
    const site = registry.siteOfFetchedHost(host);
    const rule = site?.politeness ?? { maxInFlight: 1, minIntervalMs: 1000 };
    return {
      maxInFlight: override.maxInFlight ?? rule.maxInFlight,
      minIntervalMs: override.minIntervalMs ?? rule.minIntervalMs,
    };
  };
  const breaker = new InProcessCircuitBreaker({
    failureThreshold: config.breaker.failureThreshold,
    cooldownMs: config.breaker.cooldownMs,
    clock,
    onStateChange: (host, state) => {
      metrics.breakerChanged(host, state);
      logger.warn({ host, state }, 'circuit breaker');
    },
  });
  const fetcher = createHttpFetcher(config, {
    hostGate,
    breaker,
    metrics,
    politeness,
    clock,
  });

  // The browser route: Playwright and Chromium live in a worker thread (started with the first browser call), so a
  // page's flood of protocol events never lands on this thread; robots, politeness and the breaker stay here.
  const browserRenderer = new WorkerThreadRenderer({
    pool: {
      executablePath: config.browser.path === null ? null : findChromium(config.browser.path),
      wsEndpoint: config.browser.wsEndpoint,
      sandbox: config.browser.sandbox,
      env: config.browser.env,
      loopbackBypass: config.browser.loopbackBypass,
      maxPages: config.browser.maxPages,
      queueWaitMs: config.browser.queueWaitMs,
      recycleAfter: config.browser.recycleAfter,
      launchTimeoutMs: 30_000,
      proxyBindHost: config.browser.proxyHost,
    },
    renderer: {
      userAgent: config.fetch.userAgent,
      connectTo: [...parseConnectTo(config.connectTo)].map(([host, origin]) => [host, origin.href]),
      proxyBindHost: config.browser.proxyHost,
      connectTimeoutMs: config.fetch.connectTimeoutMs,
      maxNavigations: config.browser.maxNavigations,
      maxDomBytes: config.browser.maxDomBytes,
      maxWireBytes: config.browser.maxWireBytes,
      maxBodyBytes: config.fetch.maxBodyBytes,
    },
    // Refusals are what a hostile or broken page tried: counted by reason, and one line per render that had any (the
    // page's host and counts only: no URLs, which may carry credentials, and no bodies).
    finished: (record, host) => {
      const byReason: Record<string, number> = {};
      for (const reason of record.refusedByProxy) byReason[reason] = (byReason[reason] ?? 0) + 1;
      metrics.browserRefused('rules', 'request_rule', record.refusedByRules);
      for (const [reason, count] of Object.entries(byReason)) metrics.browserRefused('proxy', reason, count);
      if (record.refusedByRules > 0 || record.refusedByProxy.length > 0 || record.popupsClosed > 0)
        logger.warn(
          {
            host,
            refused_by_rules: record.refusedByRules,
            refused_by_proxy: byReason,
            refused_navigation: record.refusedNavigation,
            popups_closed: record.popupsClosed,
          },
          'browser render refusals',
        );
    },
  });
  const browser = new BrowserFetcher({
    renderer: browserRenderer,
    pageDeadlineMs: config.browser.pageDeadlineMs,
    hostGate,
    politeness,
    robots: (url, target, deadlineAt) => fetcher.robotsRules(url, target, deadlineAt),
    breaker,
  });
  const browserStatus = browserRenderer.status();
  if (!browserStatus.ready) logger.warn({ reason: browserStatus.reason }, 'browser route unavailable');

  // The server key: KUMO_SECRETS_KEY, or in the embedded default the data folder's secrets.key (made on first start).
  // Shared mode without it still serves calls; batches and webhooks answer 503 and /readyz says why.
  const secrets = await openSecrets(config);
  if (!secrets) logger.warn(`${secretsKeyVariable} is not set: batch and webhook routes answer 503 until it is`);
  const webhookEndpointStore = secrets ? new KyselyWebhookEndpointStore(storage.db, secrets) : null;
  const connectTo = parseConnectTo(config.connectTo);

  const accounts = new Accounts(storage);
  await ensureStartKeys(accounts, config.bootstrap, logger);

  // Shared mode keeps artifacts where every instance reads them, in the shared database (through the storage's pool,
  // so an outage is the same 503); one instance keeps them in its data folder.
  const artifacts: ArtifactStore =
    config.storage.kind === 'postgres'
      ? new PostgresArtifactStore({ db: storage.db })
      : new FsArtifactStore({ dir: config.artifacts.dir });
  const extraction = new WorkerExtractionPool({
    size: config.extraction.workers,
    deadlineMs: config.extraction.deadlineMs,
    maxQueueWaitMs: config.extraction.queueWaitMs,
    maxHeapMb: config.extraction.maxHeapMb,
    heavyPageBytes: config.extraction.heavyPageBytes,
    limits: config.output,
    onWorkerLost: (reason) => logger.warn({ reason }, 'extraction worker replaced'),
  });
  // The result cache lives in the database on both backends, shared mode's PostgreSQL included (decision 0026).
  const resultCache = new KyselyResultCache({
    db: storage.db,
    ...(config.storage.kind === 'sqlite' ? { afterDelete: truncateWriteAheadLog } : {}),
  });
  const scrape = new ScrapeService({
    registry,
    fetcher,
    browser,
    browserDown: () => browserRenderer.unavailableReason(),
    storage,
    limiter,
    artifacts,
    extraction,
    environment: config.environment,
    fetchDeadlineMs: config.fetch.deadlineMs,
    leaseBeyondFetchMs,
    artifactRetentionMs: config.artifacts.retentionMs,
    freshness: new Freshness({ cache: resultCache, clock }),
    metrics,
  });

  const consoleSessions = new ConsoleSessions({
    sessions: storage.sessions,
    keys: storage.keys,
    accounts: storage.accounts,
    authenticate: (secret) => accounts.authenticate(secret),
    ttlMs: config.console.sessionTtlMs,
    signIn: { maxFailures: config.console.signInFailures, windowMs: config.console.signInWindowMs },
    clock,
  });

  // Batches (DESIGN §8): the store and queue always (their sweeps free holds and give back dead instances' items
  // whatever this instance's key), the dispatch only with the server key, which opens item URLs and seals results.
  const batchStore = new KyselyBatchStore(storage, {
    clock,
    // An item's run writes (reservation, outcome, retry) commit without waiting for the disk (decision 0023).
    runTransaction: config.storage.kind === 'sqlite' ? holdWithoutFsync : commitWithoutWaiting,
  });
  const workQueue = createWorkQueue(config, storage, clock, logger);
  await workQueue.start();
  // Monitors (DESIGN §9): their checks run on the same queue and dispatcher as batch items (politeness and fairness
  // shared), recorded in the monitor store; alerts leave through the notifier.
  let monitorNotifier: MonitorNotifier | null = null;
  const monitorStore = new KyselyMonitorStore(storage, {
    clock,
    runTransaction: config.storage.kind === 'sqlite' ? holdWithoutFsync : commitWithoutWaiting,
    onDeliveries: () => monitorNotifier?.wake(),
  });
  const runSteps = routedRunSteps({ chk: monitorStore }, batchStore);
  // Webhook deliveries of this instance (its own pools, the fetcher's address policy); woken when an item is recorded.
  const delivery =
    secrets && webhookEndpointStore
      ? createWebhookDelivery(config, {
          outbox: batchStore,
          endpoints: webhookEndpointStore,
          secrets,
          clock,
          holder: instanceId,
          logger,
          metrics,
        })
      : null;
  const dispatcher = secrets
    ? new Dispatcher({
        instanceId,
        queue: workQueue,
        store: runSteps,
        scrape,
        limiter,
        secrets,
        callerOf: async (accountId, keyId) => {
          const [account, key] = await Promise.all([storage.accounts.get(accountId), storage.keys.get(keyId)]);
          if (!account || !key) return null;
          // A revoked or expired key's batches stop (their queued items fail `unauthorized`, free), as its calls would;
          // a rotated key's go on under its successor (the same line of rotations, the same narrowing and limits).
          const now = clock.now();
          const usable = (k: KeyRecord) =>
            k.revokedAt === null && (k.expiresAt === null || Date.parse(k.expiresAt) > now);
          if (usable(key)) return { account, key };
          const line = key.lineageId ?? key.id;
          const successor = (await storage.keys.list(accountId)).find(
            (k) => (k.lineageId ?? k.id) === line && usable(k),
          );
          return successor ? { account, key: successor } : null;
        },
        politeness,
        statusOf: (code) => statusByCode[code],
        clock,
        pollMs: config.batches.pollMs,
        fetchDeadlineMs: config.fetch.deadlineMs,
        laneLeaseMs: config.fetch.deadlineMs + leaseBeyondFetchMs,
        maxInFlight: config.batches.maxInFlight,
        logger,
        metrics,
        ...(delivery ? { onRecorded: () => delivery.worker.wake() } : {}),
      })
    : null;
  if (!dispatcher) logger.warn(`${secretsKeyVariable} is not set: no batch items run on this instance`);
  if (secrets && webhookEndpointStore) {
    monitorNotifier = new MonitorNotifier({
      store: monitorStore,
      endpoints: webhookEndpointStore,
      secrets,
      sender: new WebhookTransport({
        timeoutMs: config.webhooks.timeoutMs,
        connectTo: parseConnectTo(config.connectTo),
        clock,
      }),
      clock,
      holder: instanceId,
      retryScheduleMs: config.webhooks.retryScheduleMs,
      timeoutMs: config.webhooks.timeoutMs,
      log: logger,
      metrics,
    });
  }
  // Only where checks can run (the server key opens target URLs): due monitors are claimed by instances that run them.
  const monitorScheduler = dispatcher
    ? new MonitorScheduler({
        store: monitorStore,
        enqueue: (tx, work) => workQueue.enqueue(tx, work),
        clock,
        tickMs: Math.min(1_000, config.batches.pollMs),
        onQueued: () => dispatcher.wake(),
        logger,
        metrics,
      })
    : null;
  const monitors = new MonitorService({
    store: monitorStore,
    plan: (caller, url, params) => scrape.plan(caller, url, params),
    secrets,
    endpoints: webhookEndpointStore,
    politeness,
    enqueue: (tx, work) => workQueue.enqueue(tx, work),
    cancelWork: (tx, monitorId) => workQueue.cancel(tx, monitorId),
    clock,
    wake: () => {
      monitorScheduler?.wake();
      dispatcher?.wake();
    },
  });
  const usage = new UsageReporter({ ledger: storage.ledger, limiter });
  // Submission and reading (the batch routes); without the server key every batch route answers 503.
  const batches = new BatchService({
    store: batchStore,
    queue: workQueue,
    plan: (caller, url, params) => scrape.plan(caller, url, params),
    secrets,
    endpoints: webhookEndpointStore,
    politeness,
    secretQueryParams: [...new Set(registry.list().flatMap((site) => site.secretQueryParams))],
    clock,
    creditsLeft: async (caller) => {
      const report = await usage.report(caller);
      return Math.min(report.credits.remaining, report.key.remaining ?? report.credits.remaining);
    },
    // This instance's dispatcher starts on new work at once; the others find it within their poll.
    wake: () => dispatcher?.wake(),
    // Items run in their account's batch lane, kept where the concurrency leases are (Redis in shared mode): while that
    // store is down nothing could start, so submissions are refused (503, Retry-After) rather than queued blind.
    dispatchable: async (caller) => {
      await limiter.inUse(`batch:${caller.account.id}`);
    },
  });

  // Credits held by a process killed mid-call, and artifacts past retention, are freed in the background.
  const sweep = async () => {
    try {
      const released = await storage.ledger.releaseExpired(new Date().toISOString());
      const removed = await artifacts.sweepExpired(new Date());
      // Idempotency-Keys are remembered 24 h; expired ones are also replaced on use, this only keeps the table small.
      await storage.idempotency.sweepExpired(new Date().toISOString());
      // Expired console sessions are refused on read; this only keeps the table small.
      await consoleSessions.sweep();
      if (released > 0 || removed > 0) logger.info({ released, removed }, 'sweeper');
    } catch {
      logger.warn('sweeper failed; will retry');
    }
    try {
      const now = new Date(clock.now()).toISOString();
      // Ready results past results_expire_at: expired, their holds released, data keys shredded (DESIGN §5, §8).
      const expired = await batchStore.expire(now);
      const events = await batchStore.purgeEvents(now);
      if (expired > 0 || events > 0) logger.info({ expired, events }, 'sweeper: batches');
    } catch {
      logger.warn('sweeper: batches failed; will retry');
    }
    try {
      // Cached answers past their site's cache limit (DESIGN §5, §10): deleted, and in SQLite gone from the file too.
      const removed = await resultCache.sweepExpired(new Date(clock.now()).toISOString());
      if (removed > 0) logger.info({ removed }, 'sweeper: cache');
    } catch {
      logger.warn('sweeper: cache failed; will retry');
    }
    try {
      // History past retain_days, events past 72 h, check records past 30 days (DESIGN §5).
      const removed = await monitorStore.sweep(new Date(clock.now()).toISOString());
      if (removed > 0) logger.info({ removed }, 'sweeper: monitors');
    } catch {
      logger.warn('sweeper: monitors failed; will retry');
    }
  };
  await sweep();
  const timer = setInterval(() => void sweep(), 60_000);
  timer.unref();

  const liveness = new InstanceLiveness({
    instanceId,
    storage,
    limiter,
    ...(locks ? { locks } : {}),
    heartbeatIntervalMs: config.liveness.heartbeatIntervalMs,
    staleAfterMs: config.liveness.staleAfterMs,
    // Batch items a dead instance was running go back to the queue (its reservations were just released), and
    // webhook deliveries it had leased become due again.
    releaseOrphaned: async (staleBefore, deadHolders) => {
      const requeued = await workQueue.releaseOrphaned(instanceId, staleBefore, deadHolders, (tx, ids) =>
        runSteps.requeue(tx, ids),
      );
      const deliveries = await batchStore.releaseExpiredLeases(new Date(clock.now()).toISOString());
      return requeued.length + deliveries;
    },
    logger,
  });
  await liveness.start();
  // After the first sweep: what a killed predecessor was running is queued again before this instance claims.
  dispatcher?.start();
  delivery?.worker.start();
  monitorScheduler?.start();
  monitorNotifier?.start();
  logger.info({ instance_id: instanceId }, 'instance started');

  return {
    storage,
    limiter,
    fetcher,
    secrets,
    webhookEndpointStore,
    webhookEndpoints: { store: webhookEndpointStore, urlPolicy: { connectTo }, clock },
    secretsStatus: () => (secrets ? 'ok' : `missing: ${secretsKeyVariable}`),
    registry,
    accounts,
    artifacts,
    scrape,
    resultCache,
    requests: storage.requests,
    usage,
    refusals: new InProcessRefusalLimiter(config.refusals),
    metrics,
    console: { sessions: consoleSessions, eventIntervalMs: 1_000, batches: batchStore, monitors: monitorStore },
    // Each proves its backend can take the writes a call needs, not only that a socket is open.
    readiness: {
      storage: () => storage.instances.heartbeat(instanceId, new Date().toISOString()),
      limits: () => limiter.heartbeat(),
      artifacts: () => artifacts.checkWritable(),
    },
    browser: () => browserRenderer.status(),
    batchStore,
    workQueue,
    dispatcher,
    batches,
    webhookDelivery: delivery?.worker ?? null,
    monitors,
    monitorStore,
    monitorScheduler,
    monitorNotifier,
    close: async () => {
      clearInterval(timer);
      await monitorScheduler?.stop();
      // Items in flight finish first: they use the fetcher, the extraction pool and the storage closed below.
      await dispatcher?.close();
      await delivery?.close();
      await monitorNotifier?.stop();
      await extraction.close();
      await liveness.stop();
      await fetcher.close();
      await browser.close();
      await hostGate.close?.();
      await limiter.close();
      await workQueue.close();
      await redis?.quit().catch(() => undefined);
      await storage.close();
      locks?.release();
    },
  };
}

/**
 * The batch work queue: SQLite tables in the embedded default; in shared mode (PostgreSQL) pg-boss in the same
 * database, so a claim and the item's state commit together.
 */
function createWorkQueue(config: Readonly<Config>, storage: KyselyStorage, clock: Clock, logger: Logger): WorkQueue {
  // A claim commits as a reservation does, without waiting for the disk (decision 0014): one lost to a power cut is lost
  // with the item's running state written beside it, so the item is simply claimed again; finishing stays durable.
  if (config.storage.kind === 'sqlite')
    return new SqliteWorkQueue({ db: storage.db, clock, transaction: holdWithoutFsync });
  let failing = false;
  return new PgBossWorkQueue({
    db: storage.db,
    url: config.storage.url,
    clock,
    // pg-boss reports each failed background query; during an outage that is many: said once.
    onError: () => {
      if (failing) return;
      failing = true;
      logger.warn('pg-boss: a background query failed (logged once)');
    },
  });
}
