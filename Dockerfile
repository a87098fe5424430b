# Kumo's container image: build with the project's own toolchain, run dist/ on Node 24 as a non-root user.
# Where Docker exists: `docker build -t kumo .` then `docker run -p 8080:8080 -v kumo-data:/data kumo`, or compose.yaml.

# --- build: the whole toolchain (npm ci brings Node 24 through the `node` package), then tsc + the verification
# --- record check, which ships dist/sites/verification-record.json (the server reads nothing from src/).
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

# --- deps: production dependencies only. Install scripts are skipped: the only one is the `node` package's, which
# --- downloads a second Node 24 that the runtime image already has.
FROM node:24-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

# --- browser: the same build plus Debian's Chromium, for `kumo browser-server` (the remote browser of KUMO_BROWSER_WS,
# --- deploy/kubernetes/browser-server.yaml): `docker build --target browser -t kumo-browser .`. Not the default target.
FROM node:24-slim AS browser
RUN apt-get update \
  && (apt-get install -y --no-install-recommends chromium-headless-shell || apt-get install -y --no-install-recommends chromium) \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
USER node
EXPOSE 3000
# Chromium's own sandbox stays on (KUMO_BROWSER_SANDBOX defaults to true): the host must allow user namespaces.
CMD ["node", "dist/cli/kumo.js", "browser-server", "--host", "0.0.0.0", "--port", "3000"]

# --- runtime: dist/ + package.json + production node_modules, nothing else.
FROM node:24-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    KUMO_DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
# The code stays root-owned and read-only to the process; only the data folder is the service user's.
RUN mkdir -p /data && chown node:node /data && chmod 0700 /data
USER node
VOLUME ["/data"]
EXPOSE 8080
# Node itself asks /healthz (no curl in a slim image); non-2xx, a refused connection or 4 s without an answer is unhealthy.
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node is PID 1 here: main.ts handles SIGTERM (finishes in-flight calls, closes storage) before exiting.
# The young generation capped at 16 MB per semi-space: ~100 MB less memory under load at the same CPU (docs/decisions/0017).
CMD ["node", "--max-semi-space-size=16", "dist/main.js"]
