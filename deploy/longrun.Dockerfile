# longrun for docker compose: the npm package as `npm pack` makes it (compiled, no TypeScript at
# run time) with the lockfile's production dependencies (mock model server, worker, soak). The
# image never starts an embedded Temporal server: compose gives it TEMPORAL_ADDRESS.
FROM node:20-bookworm-slim AS pack

WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY . .
# prepack compiles dist/; the package is unpacked where the image runs it.
RUN npm pack --pack-destination /tmp \
  && mkdir /app && tar -xzf /tmp/longrun-*.tgz -C /app --strip-components=1 \
  && cp package-lock.json /app/

FROM node:20-bookworm-slim

WORKDIR /app
COPY --from=pack /app ./
# No install scripts: the one longrun has builds the embedded server, which needs Go and is not used here.
RUN npm ci --omit=dev --ignore-scripts
RUN printf '#!/bin/sh\nexec node /app/bin/longrun.js "$@"\n' > /usr/local/bin/longrun && chmod +x /usr/local/bin/longrun

USER node
ENTRYPOINT []
CMD ["longrun", "--help"]
