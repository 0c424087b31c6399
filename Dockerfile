# syntax=docker/dockerfile:1
# Every Crafter image: one service of services/manifest.yaml, chosen by build arguments. From the
# repository root (`node scripts/manifest.mjs images` prints the command of each):
#   docker build --build-arg SERVICE=auth --build-arg PORT=50051 -t crafter-auth .
#   docker build --build-arg SERVICE=gateway --build-arg PORT=8080 --build-arg PROTOCOL=http -t crafter-gateway .
# It runs what scripts/stack.mjs runs locally — node services/$SERVICE/dist/main.js, configured by the
# same environment variables (its src/config.ts and the kit's base settings) — and
# `node services/$SERVICE/dist/main.js migrate` creates its Kafka topics and MongoDB indexes and exits.
# The gateway also builds and serves the dashboard (web/dist).
ARG NODE_VERSION=24.21.0

# Only the package manifests of every workspace, so the dependency layers below are rebuilt when a
# package.json or the lockfile changes, not when a source file does.
FROM node:${NODE_VERSION}-bookworm-slim AS manifests
ARG SERVICE
WORKDIR /src
COPY . .
RUN test -n "${SERVICE}" && test -f "services/${SERVICE}/package.json" \
    && find . -type f ! -name package.json ! -name package-lock.json -delete

# Production dependencies of the service only, from the lockfile (npm install, not npm ci: see the Makefile).
FROM node:${NODE_VERSION}-bookworm-slim AS deps
ARG SERVICE
WORKDIR /app
COPY --from=manifests /src/ ./
RUN npm install --omit=dev --workspace="services/${SERVICE}" --no-audit --no-fund --loglevel=error

# Bundle src/main.ts with the kit and the generated protos into dist/main.js, as `npm run build`
# does; the gateway also builds the dashboard (other images get an empty web/dist).
FROM deps AS build
ARG SERVICE
COPY . .
RUN if [ "${SERVICE}" = gateway ]; then \
      npm install --workspace=services/gateway --workspace=web --include-workspace-root --no-audit --no-fund --loglevel=error \
      && node scripts/build.mjs gateway && npm run build --workspace=web; \
    else \
      npm install --workspace="services/${SERVICE}" --include-workspace-root --no-audit --no-fund --loglevel=error \
      && node scripts/build.mjs "${SERVICE}" && mkdir -p web/dist; \
    fi

FROM node:${NODE_VERSION}-bookworm-slim
ARG SERVICE
# The manifest's port and protocol of the service (grpc: grpc.health.v1; http: GET /healthz).
ARG PORT=50051
ARG PROTOCOL=grpc
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    SERVICE=${SERVICE} \
    PORT=${PORT} \
    HEALTHCHECK_MODE=${PROTOCOL} \
    WEB_DIST=/app/web/dist
WORKDIR /app
# Owned by root and read-only to the service's user; nothing is written at run time but /tmp.
COPY --from=deps /app/node_modules node_modules/
COPY --from=deps /app/services/${SERVICE}/ services/${SERVICE}/
COPY --from=build /app/services/${SERVICE}/dist services/${SERVICE}/dist/
COPY --from=build /app/web/dist web/dist/
COPY deploy/docker/healthcheck.mjs ./
# The image's "node" user, by number so that Kubernetes can check runAsNonRoot.
USER 1000:1000
EXPOSE ${PORT}
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 CMD ["node", "healthcheck.mjs"]
# exec: node is PID 1 and gets SIGTERM (draining). The Helm migrate Job replaces this command.
CMD ["/bin/sh", "-c", "exec node --enable-source-maps --import \"./services/${SERVICE}/dist/instrument.js\" \"services/${SERVICE}/dist/main.js\""]
