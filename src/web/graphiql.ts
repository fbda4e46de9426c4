import fs from 'node:fs';
import path from 'node:path';
import express from 'express';

/**
 * GraphiQL at /graphql for browsers (GET asking for HTML), from the bundle `npm run build` makes
 * (scripts/build-graphiql.js): no CDN, so the IDE works offline. API clients on the same URL
 * (asking for JSON, or POSTing) go on to the GraphQL endpoint.
 */
export const GRAPHIQL_ASSETS = '/static/graphiql';

function projectRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

export function graphiqlAssetsDir(): string {
  return path.join(projectRoot(), 'dist', 'graphiql');
}

// Everything the page loads is served from here; connections go to this server (HTTP and WebSocket).
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self' ws: wss:",
  "frame-ancestors 'none'",
].join('; ');

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Parley GraphQL</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${GRAPHIQL_ASSETS}/graphiql.css">
<style>
html, body, #graphiql { height: 100%; margin: 0; }
.parley-page { display: flex; flex-direction: column; height: 100%; }
.parley-auth { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; padding: 8px 12px; font: 14px system-ui, sans-serif; border-bottom: 1px solid #ddd; }
.parley-hint { flex: 1 1 30em; color: #555; font-size: 12px; }
.parley-ide { flex: 1; min-height: 0; }
</style>
</head>
<body>
<noscript>GraphiQL needs JavaScript. Clients POST to this URL with HTTP Basic authentication (email:API key).</noscript>
<div id="graphiql"></div>
<script src="${GRAPHIQL_ASSETS}/graphiql.js"></script>
</body>
</html>
`;

const MISSING = `<!doctype html><meta charset="utf-8"><title>Parley GraphQL</title>
<p>The GraphiQL page has not been built: run <code>npm run build</code>. GraphQL itself works: POST queries to this URL with HTTP Basic authentication (email:API key).</p>
`;

export function graphiqlRouter(): express.Router {
  const router = express.Router();
  const assets = graphiqlAssetsDir();
  router.get('/graphql', (req, res, next) => {
    // Browsers navigating here ask for HTML first; API clients ask for JSON (or anything).
    if (req.accepts(['application/json', 'application/graphql-response+json', 'text/html']) !== 'text/html') return next();
    const built = fs.existsSync(path.join(assets, 'graphiql.js'));
    res
      .status(built ? 200 : 503)
      .set({ 'Content-Security-Policy': CSP, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache' })
      .type('html')
      .send(built ? PAGE : MISSING);
  });
  router.use(GRAPHIQL_ASSETS, express.static(assets, { index: false, maxAge: '1h', fallthrough: true }));
  return router;
}
