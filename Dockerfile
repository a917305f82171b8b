# The petstore-sim server as an image (docs/container.md).
#   docker build -t petstore-orders-simulator .
#   mkdir -p qa-scenarios
#   docker run -p 4010:4010 --user "$(id -u):0" -v "$PWD/qa-scenarios:/scenarios" petstore-orders-simulator
# NODE_IMAGE: any image with Node.js 20.19+ and npm at /usr/local (the official ones), here and in the build.
ARG NODE_IMAGE=node:24-slim

# Build: install, build, pack, exactly as npm publishes the package.
FROM ${NODE_IMAGE} AS build
WORKDIR /build
COPY package.json package-lock.json ./
# Scripts off: the package's own `prepare` (the build) needs the sources, copied next.
RUN --mount=type=cache,target=/root/.npm npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
COPY . .
RUN npm run build --silent \
  && npm pack --ignore-scripts --silent \
  && mkdir /opt/petstore-sim \
  && tar -xzf petstore-orders-simulator-*.tgz --strip-components=1 --no-same-owner -C /opt/petstore-sim \
  && chmod -R a+rX,go-w /opt/petstore-sim

# Run: the packed package and nothing else. Its command, dist/cli.mjs, runs one bundled file
# (dist/cli.cjs) that holds every module it imports but express and the MCP SDK, bundled beside it
# (dist/cli-vendor.cjs for the admin API, dist/cli-mcp.cjs for /__sim/mcp), so the runtime installs no dependency.
FROM ${NODE_IMAGE}
ARG VERSION=0.1.0
ARG SOURCE=https://www.npmjs.com/package/petstore-orders-simulator
LABEL org.opencontainers.image.title="petstore-orders-simulator" \
      org.opencontainers.image.description="A stateful simulator of the Petstore Orders Service" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.licenses="MIT"
COPY --from=build /opt/petstore-sim /opt/petstore-sim
# The scenarios folder: a volume mounted here replaces it. Group 0 may write, for an arbitrary UID (OpenShift).
# /data is for the state file (docs/container.md): -v sim-state:/data -e PETSTORE_SIM_STATE_FILE=/data/state.json.
# A named volume takes the folder's owner, so it is writable by UID 1000 and group 0 as /scenarios is.
RUN mkdir -m 0775 /scenarios /data && chown 1000:0 /scenarios /data
ENV NODE_ENV=production \
    PETSTORE_SIM_HOST=0.0.0.0 \
    PETSTORE_SIM_PORT=4010 \
    PETSTORE_SIM_SCENARIOS_DIR=/scenarios
USER 1000:0
EXPOSE 4010
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PETSTORE_SIM_PORT||4010}/__sim/health`).then((r)=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "/opt/petstore-sim/dist/cli.mjs"]
