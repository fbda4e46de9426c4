import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Realtime } from '../realtime/realtime';
import type { AppDeps } from '../core/deps';
import type { DeliveryObserver } from '../core/deliveries/attempt';
import { countDeliveries, DELIVERY_KINDS } from '../core/deliveries/store';

type Observer = { observe(value: number): void };

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Requests on one route template. The histogram's children are looked up once per (method, status)
 * and kept, so a request costs a map lookup and one observe: no label object on the hot path.
 */
export class RouteRecorder {
  private readonly children = new Map<string, Map<number, Observer>>();

  constructor(
    private readonly histogram: Histogram<'route' | 'method' | 'status'>,
    readonly route: string,
  ) {}

  /** `started` is a performance.now() reading taken when the request arrived. */
  record(rawMethod: string | undefined, status: number, started: number): void {
    const method = rawMethod && METHODS.has(rawMethod) ? rawMethod : 'OTHER';
    let byStatus = this.children.get(method);
    if (!byStatus) this.children.set(method, (byStatus = new Map()));
    let child = byStatus.get(status);
    if (!child) byStatus.set(status, (child = this.histogram.labels(this.route, method, String(status))));
    child.observe((performance.now() - started) / 1000);
  }
}

/**
 * The server's Prometheus metrics, in a registry of its own (several servers may share a process,
 * as in tests): HTTP requests by route template, event queues, GraphQL operations, and Node's
 * default process metrics (event-loop lag, memory, CPU, handles).
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly httpDuration: Histogram<'route' | 'method' | 'status'>;
  private readonly graphqlOperations: Counter<'type' | 'transport'>;
  private readonly recorders = new Map<string, RouteRecorder>();
  /** Requests that matched no route: one label, whatever their path. */
  readonly unmatched: RouteRecorder;

  constructor(realtime: Realtime | undefined) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.httpDuration = new Histogram({
      name: 'parley_http_request_duration_seconds',
      help: 'HTTP requests by route template, method and status, with their latency',
      labelNames: ['route', 'method', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 60],
      registers,
    });
    this.graphqlOperations = new Counter({
      name: 'parley_graphql_operations_total',
      help: 'GraphQL operations started, by operation type and transport (http or ws)',
      labelNames: ['type', 'transport'],
      registers,
    });
    this.unmatched = this.route('(unmatched)');
    if (!realtime) return;
    const { queues } = realtime;
    new Gauge({
      name: 'parley_event_queues',
      help: 'Event queues registered (POST /register) and not yet expired',
      registers,
      async collect() {
        // An unreachable store leaves the last value; readiness reports the outage.
        this.set(await queues.store.count().catch(() => NaN));
      },
    });
    new Gauge({
      name: 'parley_event_queue_waiting_polls',
      help: 'GET /events requests waiting on this process for their queue to receive events',
      registers,
      collect() {
        this.set(queues.waitingCount);
      },
    });
  }

  /** The recorder of one route template (e.g. `/api/v1/messages/:message_id`). */
  route(template: string): RouteRecorder {
    let recorder = this.recorders.get(template);
    if (!recorder) this.recorders.set(template, (recorder = new RouteRecorder(this.httpDuration, template)));
    return recorder;
  }

  /**
   * The outbox: items by kind and state (read from the database, so every process reports the
   * same), and this process's attempts (sent, retried, given up) with the duplicate window, from
   * the receiver's answer to the commit marking the item sent. Answers the observer the delivery
   * attempts report to.
   */
  outbox(deps: Pick<AppDeps, 'knex' | 'realmId'>): DeliveryObserver {
    const registers = [this.registry];
    new Gauge({
      name: 'parley_outbox_items',
      help: 'Outbox items (outgoing webhooks, emails, pushes) by kind and state (pending, sent, dead)',
      labelNames: ['kind', 'state'],
      registers,
      async collect() {
        const counts = await countDeliveries(deps.knex, deps.realmId).catch(() => null);
        if (!counts) return;
        this.reset();
        for (const kind of DELIVERY_KINDS) for (const state of ['pending', 'sent', 'dead']) this.set({ kind, state }, 0);
        for (const row of counts) this.set({ kind: row.kind, state: row.state }, row.count);
      },
    });
    const counter = (name: string, help: string) => new Counter({ name, help, labelNames: ['kind'], registers });
    const sent = counter('parley_outbox_sent_total', 'Outbox items this process sent');
    const retries = counter('parley_outbox_retries_total', 'Failed outbox attempts this process scheduled to try again');
    const dead = counter('parley_outbox_dead_total', 'Outbox items this process gave up on (moved to dead)');
    const window = new Histogram({
      name: 'parley_outbox_duplicate_window_seconds',
      help: "From a receiver's answer to the commit marking the item sent: a crash in between sends it again",
      labelNames: ['kind'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers,
    });
    return {
      sent(kind, windowMs) {
        sent.inc({ kind });
        window.observe({ kind }, windowMs / 1000);
      },
      retried: (kind) => retries.inc({ kind }),
      dead: (kind) => dead.inc({ kind }),
    };
  }

  graphqlOperation(type: string, transport: 'http' | 'ws'): void {
    this.graphqlOperations.inc({ type, transport });
  }
}
