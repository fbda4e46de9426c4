import fs from 'node:fs';
import { resumeExports } from './core/exports/runner';
import http from 'node:http';
import type { Config } from './config';
import { openDatabase, Database } from './db/connect';
import { migrateLatest } from './db/migrate';
import type { AppDeps } from './core/deps';
import { buildApp } from './app';
import { ensureOwner, ensureRealm, OwnerCredentials } from './bootstrap';
import { ensureSystemBots } from './core/system-bots/notification-bot';
import { createRealtime } from './realtime/realtime';
import { attachSubscriptions } from './graphql-ws/subscriptions';
import { AuthCache, watchWrites } from './core/users/auth-cache';
import { connectFeatures } from './core/connect';
import { startRetentionJob } from './core/realm/retention';
import { startUploadSweep } from './core/uploads/orphan-sweep';
import { startFullMemberJob } from './core/groups/full-members';
import { describeFailure } from './failure-log';
import { RateLimits } from './core/rate-limits/limiter';
import { forgetLinkifiersFromDeliveries } from './core/linkifiers/cache';
import { NotificationWorker } from './core/notifications/worker';
import { DeliveryWorker } from './core/deliveries/worker';
import { observeDeliveries } from './core/deliveries/attempt';
import { ThumbnailWorker } from './core/uploads/thumbnail-worker';
import { Scheduler } from './core/scheduled-messages/scheduler';
import { listenOperatorSocket } from './operator/socket';
import { fileStore } from './core/uploads/stores';
import { runInServer } from './operator/run';
import { log } from './log';
import { answerWhileStarting } from './ops/health';

export interface RunningServer {
  deps: AppDeps;
  db: Database;
  http: http.Server;
  url: string;
  owner: OwnerCredentials | null;
  /** Decides and delivers email and mobile notifications. */
  notifications: NotificationWorker;
  /** Sends the outbox: outgoing-webhook calls, emails and pushes. */
  outbox: DeliveryWorker;
  /** Makes thumbnails of uploaded images. */
  thumbnails: ThumbnailWorker;
  /** Delivers scheduled messages and reminders when they fall due. */
  scheduler: Scheduler;
  close(): Promise<void>;
}

export interface StartOptions {
  /** PGlite directory; null keeps it in memory. Ignored with a database URL. */
  pgliteDir: string | null;
  /** Where the zuliprc of a newly created owner goes; null writes none. */
  zuliprcDir: string | null;
  /** An already open database to serve instead (it stays open when the server closes). */
  database?: Database;
  /** Unix socket on which operator commands (npm run cli) reach this server; none when absent. */
  operatorSocket?: string | null;
  /**
   * Written with the owner's email when the owner is created, for the caller to delete once it has
   * shown the password: if it is still there at the next start, that start says how to set one.
   */
  unseenOwnerFile?: string | null;
}

/** Opens the database, migrates, bootstraps the organization and listens. */
export async function startServer(config: Config, options: StartOptions): Promise<RunningServer> {
  connectFeatures();
  // Before anything else: a bucket that cannot be used is a configuration problem, not a failure
  // of the first upload.
  await fileStore(config).check();
  const db =
    options.database ??
    (await openDatabase({
      url: config.databaseUrl,
      pgliteDir: options.pgliteDir,
      statementTimeoutMs: config.dbStatementTimeoutMs,
      acquireTimeoutMs: config.dbAcquireTimeoutMs,
    }));
  // Migrations may run longer than a request's statement is allowed to.
  await (db.unbounded ? db.unbounded(migrateLatest) : migrateLatest(db.knex));
  const realmId = await ensureRealm(db.knex, config);
  const realtime = await createRealtime(config, db.knex, realmId);
  const authCache = new AuthCache();
  watchWrites(db.knex, authCache);
  realtime.bus.subscribe((deliveries) => authCache.forgetFromDeliveries(deliveries));
  realtime.bus.subscribe((deliveries) => forgetLinkifiersFromDeliveries(db.knex, deliveries));
  const store = realtime.redis && { client: realtime.redis.command, prefix: realtime.redis.prefix };
  const rateLimits = new RateLimits(config.rateLimitRules, config.rateLimiting, store);
  const deps: AppDeps = { config, knex: db.knex, bus: realtime.bus, realmId, realtime, authCache, rateLimits };
  await realtime.restore(db.knex, realmId);
  await ensureSystemBots(db.knex);
  const built = await buildApp(deps);
  const stopRetention = startRetentionJob(deps, config.retentionIntervalSeconds);
  const stopFullMembers = startFullMemberJob(deps, config.fullMemberIntervalSeconds);
  const stopUploadSweep = startUploadSweep(deps, config.uploadSweepIntervalSeconds, config.uploadSweepGraceSeconds);
  // Responses not yet finished, so a shutdown can tell their connections not to stay open.
  const unfinished = new Set<http.ServerResponse>();
  let stopping = false;
  // Until start-up has finished, every request is answered 503 (see answerWhileStarting).
  let ready = false;
  // Shared listeners (a response emits each event once), so a waiting long-poll holds no closure
  // of its own here. 'finish' is only listened to once the shutdown has begun.
  function onFinish(): void {
    // A connection that was busy when the shutdown began is idle now: close it too.
    if (stopping) setImmediate(() => server.closeIdleConnections());
  }
  function onClose(this: http.ServerResponse): void {
    unfinished.delete(this);
  }
  // One request listener (node's fast path for a single listener): tracking, then the app.
  const server = http.createServer((req, res) => {
    unfinished.add(res);
    res.on('close', onClose);
    if (stopping) {
      res.setHeader('Connection', 'close');
      res.on('finish', onFinish);
    }
    if (ready) built.handle(req, res);
    else answerWhileStarting(req, res);
  });
  server.keepAliveTimeout = 65_000;
  const notifications = new NotificationWorker(deps);
  observeDeliveries(deps, built.metrics.outbox(deps));
  const outbox = new DeliveryWorker(deps);
  const thumbnails = new ThumbnailWorker(deps);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  notifications.start();
  outbox.start();
  if (config.thumbnailWorker) thumbnails.start();
  const scheduler = new Scheduler(deps, config.schedulerPollMs);
  scheduler.start();
  resumeExports(deps);
  realtime.bus.subscribe((deliveries) => scheduler.notice(deliveries));
  // Only once the port is ours: a start that cannot listen must not create an owner nobody sees.
  const owner = await ensureOwner(deps, options.zuliprcDir);
  if (owner && options.unseenOwnerFile) fs.writeFileSync(options.unseenOwnerFile, `${owner.email}\n`, { mode: 0o600 });
  const operator = options.operatorSocket ? await listenOperatorSocket(options.operatorSocket, { deps, db }, runInServer) : null;
  // Start-up is complete: serve requests, and WebSocket upgrades (answered 503 until now).
  const subscriptions = attachSubscriptions(server, deps, built.metrics);
  ready = true;
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      stopRetention();
      stopFullMembers();
      stopUploadSweep();
      // Stop accepting; in-flight responses close their connections instead of idling in
      // keep-alive; waiting long-polls are answered; then the event queues and the database go.
      stopping = true;
      for (const res of unfinished) res.on('finish', onFinish);
      await notifications.stop();
      await outbox.stop();
      await thumbnails.stop();
      await operator?.close();
      for (const res of unfinished) if (!res.headersSent) res.setHeader('Connection', 'close');
      // Stop accepting, answer waiting long-polls, let in-flight requests finish, then release the
      // event queues and the database.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await scheduler.stop();
      await subscriptions.close();
      await realtime.shutdown();
      await drainConnections(server, closed);
      await built.stop();
      try {
        await realtime.save(db.knex);
      } catch (error) {
        log().error(`could not save the event queues: ${describeFailure(error)}`);
      }
      await realtime.close();
      if (!options.database) await db.close();
    })());
  return { deps, db, http: server, url: `http://${host}:${port}`, owner, notifications, outbox, thumbnails, scheduler, close };
}

/**
 * Waits for the connections to end. Keep-alive connections that finished their last request are
 * closed as they become idle; any still busy after the grace period are cut.
 */
async function drainConnections(server: http.Server, closed: Promise<void>, graceMs = 10_000): Promise<void> {
  let done = false;
  void closed.then(() => (done = true));
  const started = Date.now();
  while (!done) {
    server.closeIdleConnections();
    if (Date.now() - started > graceMs) server.closeAllConnections();
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 25))]);
  }
}
