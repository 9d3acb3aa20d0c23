# longrun for docker compose: the CLI from source (mock model server, worker, soak). The image
# never starts an embedded Temporal server: compose gives it TEMPORAL_ADDRESS.
FROM node:20-bookworm-slim

WORKDIR /app
COPY package.json package-lock.json ./
# No install scripts: the one longrun has builds the embedded server, which needs Go and is not used here.
RUN npm ci --omit=dev --ignore-scripts
COPY . .
RUN printf '#!/bin/sh\nexec node /app/bin/longrun.js "$@"\n' > /usr/local/bin/longrun && chmod +x /usr/local/bin/longrun

USER node
ENTRYPOINT []
CMD ["longrun", "--help"]
