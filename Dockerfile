# syntax=docker/dockerfile:1
# The Finance API as an image: compiled JavaScript (npm run build, esbuild) on Node 24 LTS (.nvmrc),
# production dependencies only (no tsx, TypeScript or PGlite: the image needs DATABASE_URL), no
# install scripts run (native packages such as @node-rs/argon2 come prebuilt as optional packages),
# run as the unprivileged `node` user. Configuration comes from the
# environment (.env.example lists every variable); compose.yaml starts it with PostgreSQL and Redis.

ARG NODE_IMAGE=node:24-bookworm-slim

# 1. Compile: every dependency (esbuild and vite are dev dependencies; their binaries are optional
#    packages, so no install script is needed), then the bundle in dist/ (the service, the admin CLI,
#    the XML check's worker) and the console in dist/web.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
# The people's console (web/) is built by the same command into dist/web.
COPY web ./web
RUN npm run build

# 2. The production dependencies alone (the bundle keeps packages external).
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# PGlite is a dev dependency, but also drizzle-orm's optional peer, which npm installs from the lock
# even with --omit=dev: removed, as the image runs on PostgreSQL (DATABASE_URL) only.
# The PDF fonts' packages ship every weight; the PDFs embed the regular one only.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && rm -rf node_modules/@electric-sql/pglite && npm cache clean --force \
 && find node_modules/@expo-google-fonts \( -name '*.png' -o \( -name '*.ttf' ! -name '*_400Regular.ttf' \) \) -delete

# 3. The runtime: node_modules, the bundle, the data files and the migrations; no sources, no compiler.
FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/var/lib/finance
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY data ./data
COPY drizzle ./drizzle
COPY --from=build /app/dist ./dist
# The embedded database's folder (used only without DATABASE_URL), owned by the user that runs.
RUN mkdir -p /var/lib/finance && chown node:node /var/lib/finance
USER node
VOLUME ["/var/lib/finance"]
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM drains the requests in flight (SHUTDOWN_GRACE_MS); compose runs it with init: true.
# The old space capped at 256 MB: V8 then collects before it grows, and the process stays near 160 MB
# under load (bench/README.md); without a cap it sizes the heap from the machine's memory.
CMD ["node", "--max-old-space-size=256", "dist/main.js"]
