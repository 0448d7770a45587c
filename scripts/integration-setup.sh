#!/usr/bin/env bash
# Installs what the integration tier checks the product with, when missing: FreeTDS's tsql (a TDS client the project
# did not write, from Debian), FreeTDS's ODBC driver (tdsodbc + unixodbc, with pyodbc from PyPI) and Jupyter's nbformat validator and nbconvert (from PyPI). Idempotent.
set -euo pipefail
if ! command -v tsql >/dev/null 2>&1; then
  echo "integration-setup: apt-get install freetds-bin"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq || true
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq freetds-bin >/dev/null
fi
if [ ! -f /usr/include/sybdb.h ]; then
  echo "integration-setup: apt-get install freetds-dev (db-lib headers: the lean path's wire check builds bench/native/dblib_loop.c)"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq || true
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq freetds-dev >/dev/null
fi
if ! command -v isql >/dev/null 2>&1 || ! odbcinst -q -d 2>/dev/null | grep -q FreeTDS; then
  echo "integration-setup: apt-get install unixodbc tdsodbc"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq || true
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq unixodbc tdsodbc >/dev/null
fi
if ! python3 -c 'import pyodbc' >/dev/null 2>&1; then
  echo "integration-setup: pip install pyodbc"
  python3 -m pip install --quiet --disable-pip-version-check pyodbc
fi
if ! python3 -c 'import nbformat, nbconvert' >/dev/null 2>&1 || ! command -v jupyter >/dev/null 2>&1; then
  echo "integration-setup: pip install nbformat nbconvert"
  python3 -m pip install --quiet --disable-pip-version-check nbformat nbconvert
fi
# Clients the project did not write, driven by test/clients/*: pymssql and python-tds (PyPI), go-mssqldb (Go module
# proxy, into Go's module cache) and Microsoft's JDBC driver (Maven Central, into ~/.m2).
if ! python3 -c 'import pymssql, pytds' >/dev/null 2>&1; then
  echo "integration-setup: pip install pymssql python-tds"
  python3 -m pip install --quiet --disable-pip-version-check pymssql python-tds
fi
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
GO="$(command -v go || echo /usr/local/go/bin/go)"
if [ ! -x "$GO" ]; then
  echo "integration-setup: apt-get install golang-go"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq || true
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq golang-go >/dev/null
  GO="$(command -v go)"
fi
# go.mod's go line may ask for a newer toolchain than Debian's: Go fetches it from the module proxy (GOTOOLCHAIN=auto).
(cd "$ROOT/test/clients/gomssql" && "$GO" mod download)
if command -v mvn >/dev/null 2>&1; then
  (cd "$ROOT/test/clients/jdbc" && mvn -q -B dependency:resolve >/dev/null)
else
  echo "integration-setup: apt-get install maven default-jdk-headless"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq maven default-jdk-headless >/dev/null
  (cd "$ROOT/test/clients/jdbc" && mvn -q -B dependency:resolve >/dev/null)
fi
# `spinlab watch --servers` is checked against a real Prometheus and its promtool (Debian's package), and its OTLP
# push against the OpenTelemetry protobuf definitions from PyPI (test/integration/fleet*.test.ts).
if ! command -v prometheus >/dev/null 2>&1 || ! command -v promtool >/dev/null 2>&1; then
  echo "integration-setup: apt-get install prometheus"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq || true
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq prometheus >/dev/null
fi
if ! python3 -c 'from opentelemetry.proto.collector.metrics.v1 import metrics_service_pb2' >/dev/null 2>&1; then
  echo "integration-setup: pip install opentelemetry-proto"
  python3 -m pip install --quiet --disable-pip-version-check opentelemetry-proto
fi
