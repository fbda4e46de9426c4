# Parley: build in one stage, run as an unprivileged user in a slim one.
#   docker build -t parley .
#   docker run -p 9991:9991 -v parley-data:/data parley
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# npm ci refuses a lockfile without other platforms' optional binaries; npm install then uses it as is.
RUN npm ci --no-audit --no-fund || npm install --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src src
COPY migrations migrations
COPY bench bench
COPY web web
COPY dashboard dashboard
COPY scripts scripts
# TypeScript and the GraphiQL bundle, then only the runtime dependencies.
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
# pg_dump/pg_restore for `cli backup` on PostgreSQL (their major version must be at least the server's).
RUN apt-get update \
  && apt-get install -y --no-install-recommends postgresql-client \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    DATA_DIR=/data \
    HOST=0.0.0.0 \
    PORT=9991
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
RUN mkdir -p /data && chown node:node /data
USER node
# The embedded database, the zuliprc of the first owner, uploads, the operator socket.
VOLUME ["/data"]
EXPOSE 9991
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 9991) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
CMD ["node", "dist/src/main.js"]
