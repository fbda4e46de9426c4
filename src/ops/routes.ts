import crypto from 'node:crypto';
import express, { Request, Response } from 'express';
import type { AppDeps } from '../core/deps';
import { clientAddress } from '../rest/client-address';
import { IdentifiedRequest, logRequest, requestIdOf } from '../rest/router';
import { describeFailure } from '../failure-log';
import { log } from '../log';
import { readiness } from './health';
import type { Metrics } from './metrics';

/** Whether the peer is on this machine (127.0.0.0/8 or ::1, also as IPv4-mapped IPv6). */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!match) return false;
  // Hashes have equal lengths, so the comparison takes the same time whatever was sent.
  const digest = (value: string) => crypto.createHash('sha256').update(value).digest();
  return crypto.timingSafeEqual(digest(match[1].trim()), digest(token));
}

/**
 * Probes and metrics, outside /api/v1 and without user credentials: GET /health (liveness),
 * GET /health/ready (database and Redis; while starting, see answerWhileStarting), GET /metrics (Prometheus text; bearer token or loopback).
 */
export function opsRouter(deps: AppDeps, metrics: Metrics): express.Router {
  const router = express.Router();
  router.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/health/ready', async (_req, res) => {
    let body;
    try {
      body = await readiness(deps);
    } catch {
      body = { ready: false, checks: {} };
    }
    res.status(body.ready ? 200 : 503).json({ status: body.ready ? 'ok' : 'unavailable', ready: body.ready, starting: false, checks: body.checks });
  });
  router.get('/metrics', async (req: Request, res: Response) => {
    const token = deps.config.metricsToken;
    if (token !== null && !tokenMatches(req.headers.authorization, token)) {
      res.status(401).set('WWW-Authenticate', 'Bearer realm="metrics"').json({ status: 'unauthorized', msg: 'A valid metrics token is required' });
      return;
    }
    // Behind a trusted reverse proxy on this machine the client is the forwarded address, not the proxy.
    if (token === null && !isLoopback(clientAddress(req, deps.config.trustedProxies))) {
      res.status(403).json({ status: 'forbidden', msg: 'Metrics are served to this machine only unless PARLEY_METRICS_TOKEN is set' });
      return;
    }
    try {
      const text = await metrics.registry.metrics();
      res.status(200).type(metrics.registry.contentType).send(text);
    } catch (error) {
      log().error(`collecting metrics failed: ${describeFailure(error)}`);
      res.status(503).json({ status: 'unavailable', msg: 'Metrics could not be collected' });
    }
  });
  return router;
}

const PROBES = new Set(['/health', '/health/ready', '/metrics']);

/**
 * Times and logs the requests express serves (GraphQL over HTTP, probes, emoji, join pages),
 * labelled with the matched route's template, or the mount path for /graphql; anything else is
 * "(unmatched)". Probes, polled every few seconds, are logged at debug level only.
 */
export function observeExpressRequests(metrics: Metrics): express.RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    requestIdOf(req);
    res.once('finish', () => {
      const template = req.route?.path;
      const route = typeof template === 'string' ? req.baseUrl + template : req.baseUrl === '/graphql' ? '/graphql' : null;
      (route ? metrics.route(route) : metrics.unmatched).record(req.method, res.statusCode, started);
      const identified = req as IdentifiedRequest;
      if (route && PROBES.has(route)) {
        log().debug({ requestId: identified.requestId, method: req.method, route, status: res.statusCode }, 'probe');
      } else {
        logRequest(identified, route ?? '(unmatched)', res.statusCode, started, identified.userId ?? null);
      }
    });
    next();
  };
}
