// `spinlab watch --servers FILE`: many servers, one process. Each server is its own ServerWatch (fleetWatch.ts), so one
// unreachable or slow server never holds up the others; their deltas feed one OpenTelemetry MeterProvider, exported as
// a Prometheus scrape (--prometheus [host]:port, beside /healthz) and/or OTLP to a collector (--otlp URL).
import * as http from 'node:http';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { MetricsExport } from '../engine/metrics/export';
import { TOOL_VERSION } from '../engine/lab';
import { parseDuration } from '../shared/params';
import { UsageError } from './commands';
import { readServersFile, type FleetServer } from './fleetConfig';
import { ServerWatch, staggerMs } from './fleetWatch';
import { plural } from '../shared/plural';

export interface FleetArgs {
  /** The servers file; or `single`, one server from -c (a plain `spinlab watch -c ... --prometheus :9464`). */
  servers?: string;
  single?: FleetServer;
  out?: string;
  prometheus?: string;
  otlp?: string;
  otlpInterval?: string;
  costBudget: number;
  topRequests: number;
  textChars: number;
}

type WithCancel = <T>(err: (s: string) => void, task: (signal: AbortSignal) => Promise<T>, what?: string) => Promise<T>;

/** "[host]:port" for --prometheus; ":9464" listens on every interface. */
export function parseListen(v: string): { host: string | undefined; port: number } {
  const m = /^(.*):(\d+)$/.exec(v);
  const port = m ? Number(m[2]) : NaN;
  if (!m || port > 65535) throw new UsageError(`--prometheus must be [host]:port, e.g. :9464 or 127.0.0.1:9464, not "${v}".`);
  return { host: m[1] ? m[1].replace(/^\[|\]$/g, '') : undefined, port };
}

function checkOtlpUrl(v: string): string {
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new UsageError(`--otlp must be the collector's OTLP/HTTP metrics URL, e.g. http://collector:4318/v1/metrics, not "${v}".`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError(`--otlp must be an http(s) URL, not "${v}".`);
  if (u.username || u.password) throw new UsageError('--otlp must not carry credentials: secrets never go on the command line.');
  return v;
}

export async function fleetCommand(o: FleetArgs, err: (s: string) => void, withCancel: WithCancel): Promise<number> {
  // Everything is checked before any connection or listener starts.
  const servers = o.single ? [o.single] : readServersFile(o.servers ?? '');
  const listen = o.prometheus ? parseListen(o.prometheus) : undefined;
  const otlpUrl = o.otlp ? checkOtlpUrl(o.otlp) : undefined;
  const otlpIntervalMs = o.otlpInterval ? parseDuration(o.otlpInterval) : 10_000;
  if (!listen && !otlpUrl) throw new UsageError('--servers exports metrics: add --prometheus :9464, --otlp URL, or both.');
  const outRoot = o.out ?? path.join('spinlab-results', `fleet-${new Date().toISOString().replace(/[:.]/g, '-')}`);

  const metrics = new MetricsExport({ prometheus: !!listen, otlpUrl, otlpIntervalMs, toolVersion: TOOL_VERSION });
  const log = (line: string) => err(`${line}\n`);
  const watches = servers.map(
    (s) =>
      new ServerWatch(s, metrics.fleet.server({ name: s.name, address: s.target.server, port: s.target.port ?? 1433 }, s.intervalMs), {
        outRoot,
        costBudgetMsPerSec: o.costBudget,
        topRequests: o.topRequests,
        textChars: o.textChars,
        log,
      }),
  );
  const refresh = () => watches.forEach((w) => w.refresh());
  const refresher = setInterval(refresh, 1000);
  let httpServer: http.Server | undefined;
  if (listen) {
    httpServer = http.createServer((req, res) => {
      refresh();
      const url = (req.url ?? '/').split('?')[0];
      if (url === '/metrics') return metrics.handleScrape(req, res);
      if (url === '/healthz') {
        const all = watches.map((w) => w.health());
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ status: all.every((s) => s.state === 'up') ? 'ok' : 'degraded', servers: all }, null, 2) + '\n');
        return;
      }
      res.statusCode = 404;
      res.end('spinlab watch: /metrics, /healthz\n');
    });
    await new Promise<void>((resolve, reject) => {
      httpServer!.once('error', (e) => reject(new UsageError(`--prometheus ${o.prometheus}: cannot listen (${e.message}).`)));
      httpServer!.listen(listen.port, listen.host, resolve);
    });
    const a = httpServer.address() as AddressInfo;
    log(`metrics on http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}/metrics, health on /healthz`);
  }
  if (otlpUrl) log(`metrics pushed to ${otlpUrl} every ${otlpIntervalMs / 1000} s`);
  log(`watching ${plural(servers.length, 'server')}: ${servers.map((s) => s.name).join(', ')}; folders under ${outRoot}`);
  try {
    await withCancel(
      err,
      (signal) => Promise.all(watches.map((w, i) => w.run(signal, staggerMs(i, watches.length, w.server.intervalMs)))),
      'ending every watch; the ticks taken so far are kept',
    );
  } finally {
    clearInterval(refresher);
    await metrics.shutdown().catch((e: Error) => log(`the last metrics export failed: ${e.message}`));
    await new Promise<void>((resolve) => (httpServer ? httpServer.close(() => resolve()) : resolve()));
  }
  return 130;
}
