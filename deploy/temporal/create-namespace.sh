#!/bin/sh
# Registers the namespace longrun runs in, once the frontend serves.
set -eu

NAMESPACE="${NAMESPACE:-default}"
until temporal operator cluster health --address "$TEMPORAL_ADDRESS" | grep -q SERVING; do
  echo "waiting for Temporal at $TEMPORAL_ADDRESS"
  sleep 1
done
if temporal operator namespace describe --address "$TEMPORAL_ADDRESS" --namespace "$NAMESPACE" >/dev/null 2>&1; then
  echo "namespace $NAMESPACE already registered"
else
  temporal operator namespace create --address "$TEMPORAL_ADDRESS" --namespace "$NAMESPACE" --retention "${RETENTION:-72h}"
  echo "namespace $NAMESPACE registered"
fi
