// `spinlab watch --servers FILE`: many servers, one process. Each server is its own ServerWatch (fleetWatch.ts), so one
// unreachable or slow server never holds up the others; their deltas feed one OpenTelemetry MeterProvider, exported as
// a Prometheus scrape (--prometheus [host]:port, beside /healthz) and/or OTLP to a collector (--otlp URL).
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { MetricsExport } from '../engine/metrics/export';
import { makeDirs, outputError } from '../engine/outFiles';
import { TOOL_VERSION } from '../engine/lab';
import { parseDuration } from '../shared/params';
import { SpinlabError } from '../shared/spinlabError';
import { UsageError } from './commands';
import { folderProblems } from './output';
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

/**
 * Why --prometheus could not listen, with its fix: a port another program holds or one this user may not take is a
 * resource of this machine (exit 5, as a file that cannot be written); an address this machine does not have is a
 * mistake in the option (exit 2).
 */
export function listenError(e: NodeJS.ErrnoException, given: string, listen: { host: string | undefined; port: number }): SpinlabError {
  const where = listen.host ? ` on ${listen.host}` : '';
  if (e.code === 'EADDRINUSE')
    return new SpinlabError(
      'files',
      `--prometheus ${given}: port ${listen.port}${where} is in use by another program (another watch, or a Prometheus exporter?).`,
      `pick another with --prometheus [host]:PORT (e.g. --prometheus :${listen.port === 65535 ? 9464 : listen.port + 1}), or stop the program that holds it.`,
      e,
    );
  if (e.code === 'EACCES')
    return new SpinlabError(
      'files',
      `--prometheus ${given}: this user may not listen on port ${listen.port}${where} (ports below 1024 need privileges).`,
      'pick a port from 1024 up, e.g. --prometheus :9464.',
      e,
    );
  if (e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN')
    return new SpinlabError(
      'user-input',
      `--prometheus ${given}: ${listen.host} is not an address of this machine, so nothing can listen there.`,
      'give one of its addresses (127.0.0.1 for this machine only), or leave the host out (:PORT listens on every interface).',
      e,
    );
  return new SpinlabError('files', `--prometheus ${given}: cannot listen (${e.message}).`, 'pick another port or address.', e);
}

/**
 * What the OTLP pushes do, said once per outage: the watch goes on either way (its samples are on disk, and a
 * collector that is down may come back), but a push into nothing is never silent.
 */
export function pushReporter(url: string, intervalMs: number, log: (line: string) => void): (error: Error | null) => void {
  let failed = 0;
  return (error) => {
    if (error) {
      if (failed++ === 0) {
        const why = (error as NodeJS.ErrnoException).code ?? error.message;
        log(
          `metrics push to ${url} failed (${why}${why === error.message ? '' : `: ${error.message}`}): the watch goes on and keeps trying every ${intervalMs / 1000} s; check the URL and that the collector is up.`,
        );
      }
    } else if (failed) {
      log(`metrics push to ${url} works again (after ${failed} failed push${failed === 1 ? '' : 'es'}).`);
      failed = 0;
    }
  };
}

export async function fleetCommand(o: FleetArgs, err: (s: string) => void, withCancel: WithCancel): Promise<number> {
  // Everything is checked before any connection or listener starts.
  const servers = o.single ? [o.single] : readServersFile(o.servers ?? '');
  const listen = o.prometheus ? parseListen(o.prometheus) : undefined;
  const otlpUrl = o.otlp ? checkOtlpUrl(o.otlp) : undefined;
  const otlpIntervalMs = o.otlpInterval ? parseDuration(o.otlpInterval) : 10_000;
  if (!listen && !otlpUrl) throw new UsageError('--servers exports metrics: add --prometheus :9464, --otlp URL, or both.');
  // Each watch writes a new folder of its own under --out (which may hold earlier ones): it must be a folder.
  const outProblems = o.out !== undefined ? folderProblems(o.out, '--out') : [];
  if (outProblems.length) throw new UsageError(outProblems.join('\n'));
  const outRoot = o.out ?? path.join('spinlab-results', `fleet-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  // A folder that cannot be made ends the command now, not in a retry loop per server (exit 5).
  let made: string | undefined;
  try {
    made = makeDirs(outRoot);
  } catch (err) {
    throw outputError(err, outRoot);
  }

  const log = (line: string) => err(`${line}\n`);
  const metrics = new MetricsExport({
    prometheus: !!listen,
    otlpUrl,
    otlpIntervalMs,
    toolVersion: TOOL_VERSION,
    onPush: otlpUrl ? pushReporter(otlpUrl, otlpIntervalMs, log) : undefined,
  });
  const watches: ServerWatch[] = [];
  const refresh = () => watches.forEach((w) => w.refresh());
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
    // Listening comes first, before any watch or timer starts: a port that cannot be had ends the command here, with
    // nothing left running to keep the process alive.
    try {
      await new Promise<void>((resolve, reject) => {
        httpServer!.once('error', reject);
        httpServer!.listen(listen.port, listen.host, resolve);
      });
    } catch (e) {
      await metrics.shutdown().catch(() => undefined);
      if (made) fs.rmSync(made, { recursive: true, force: true });
      throw listenError(e as NodeJS.ErrnoException, o.prometheus!, listen);
    }
    const a = httpServer.address() as AddressInfo;
    log(`metrics on http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}/metrics, health on /healthz`);
  }
  for (const s of servers)
    watches.push(
      new ServerWatch(s, metrics.fleet.server({ name: s.name, address: s.target.server, port: s.target.port ?? 1433 }, s.intervalMs), {
        outRoot,
        costBudgetMsPerSec: o.costBudget,
        topRequests: o.topRequests,
        textChars: o.textChars,
        log,
      }),
    );
  const refresher = setInterval(refresh, 1000);
  if (otlpUrl) log(`metrics pushed to ${otlpUrl} every ${otlpIntervalMs / 1000} s`);
  log(`watching ${plural(servers.length, 'server')}: ${servers.map((s) => s.name).join(', ')}; folders under ${outRoot}`);
  try {
    await withCancel(
      err,
      async (signal) => {
        // A watch that cannot go on at all (its files cannot be written) ends every watch, and the command with it.
        const stop = new AbortController();
        signal.addEventListener('abort', () => stop.abort(), { once: true });
        let fatal: unknown = null;
        await Promise.all(
          watches.map((w, i) =>
            w.run(stop.signal, staggerMs(i, watches.length, w.server.intervalMs)).catch((e: unknown) => {
              fatal ??= e;
              stop.abort();
            }),
          ),
        );
        if (fatal) throw fatal;
      },
      'ending every watch; the ticks taken so far are kept',
    );
  } finally {
    clearInterval(refresher);
    await metrics.shutdown().catch((e: Error) => log(`the last metrics export failed: ${e.message}`));
    await new Promise<void>((resolve) => (httpServer ? httpServer.close(() => resolve()) : resolve()));
  }
  return 130;
}
