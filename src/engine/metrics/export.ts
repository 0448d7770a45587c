// The OpenTelemetry metrics SDK set up for a watch: one MeterProvider for the process, with a Prometheus reader (pulled
// when a scraper asks; the CLI serves it beside /healthz) and an OTLP/HTTP protobuf push to a collector, cumulative.
// The servers are told apart by point attributes (catalog.ts SERVER_ATTRIBUTES), not by resource: one process serves
// many servers, and a Prometheus scrape has one resource (target_info) for all its series. The collector's groupbyattrs
// processor lifts them to resource attributes where wanted.
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  MeterProvider,
  PeriodicExportingMetricReader,
  type IMetricReader,
  type InstrumentType,
  type PushMetricExporter,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { FleetMetrics } from './watchMetrics';

export interface MetricsExportOptions {
  /** OTLP/HTTP metrics endpoint, e.g. http://collector:4318/v1/metrics. */
  otlpUrl?: string;
  otlpIntervalMs?: number;
  /** Serve a Prometheus scrape (through handleScrape). */
  prometheus?: boolean;
  toolVersion: string;
  /** Hears every OTLP push: null when it was accepted, else why not (the SDK itself says nothing). */
  onPush?: (error: Error | null) => void;
}

/** The OTLP exporter, with each push's outcome told to `onPush`; everything else is the exporter's own. */
class ReportingExporter implements PushMetricExporter {
  constructor(
    private readonly inner: OTLPMetricExporter,
    private readonly onPush: (error: Error | null) => void,
  ) {}
  export(metrics: ResourceMetrics, done: Parameters<PushMetricExporter['export']>[1]): void {
    this.inner.export(metrics, (result) => {
      // ExportResultCode.SUCCESS is 0 (@opentelemetry/core, not a dependency of this package).
      this.onPush(result.code === 0 ? null : (result.error ?? new Error('the collector did not accept the push')));
      done(result);
    });
  }
  forceFlush(): Promise<void> {
    return this.inner.forceFlush();
  }
  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
  selectAggregationTemporality(t: InstrumentType) {
    return this.inner.selectAggregationTemporality(t);
  }
  selectAggregation(t: InstrumentType) {
    return this.inner.selectAggregation(t);
  }
}

export class MetricsExport {
  readonly fleet: FleetMetrics;
  private readonly provider: MeterProvider;
  private readonly prometheus: PrometheusExporter | undefined;
  private closed = false;

  constructor(opts: MetricsExportOptions) {
    const readers: IMetricReader[] = [];
    if (opts.prometheus) {
      this.prometheus = new PrometheusExporter({ preventServerStart: true });
      readers.push(this.prometheus);
    }
    if (opts.otlpUrl)
      readers.push(
        new PeriodicExportingMetricReader({
          exporter: opts.onPush
            ? new ReportingExporter(new OTLPMetricExporter({ url: opts.otlpUrl }), opts.onPush)
            : new OTLPMetricExporter({ url: opts.otlpUrl }),
          exportIntervalMillis: opts.otlpIntervalMs ?? 10_000,
          exportTimeoutMillis: Math.min(opts.otlpIntervalMs ?? 10_000, 10_000),
        }),
      );
    this.provider = new MeterProvider({
      resource: resourceFromAttributes({ 'service.name': 'spinlab-watch', 'service.version': opts.toolVersion }),
      readers,
    });
    this.fleet = new FleetMetrics(this.provider.getMeter('spinlock-lab', opts.toolVersion));
  }

  /** Answers a scrape with the Prometheus text format. */
  handleScrape(req: IncomingMessage, res: ServerResponse): void {
    if (!this.prometheus) {
      res.statusCode = 404;
      res.end('no Prometheus export\n');
      return;
    }
    this.prometheus.getMetricsRequestHandler(req, res);
  }

  /** Pushes what is pending now (OTLP), e.g. before the process ends. */
  async flush(): Promise<void> {
    await this.provider.forceFlush();
  }

  async shutdown(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.provider.forceFlush().catch(() => undefined);
    await this.provider.shutdown();
  }
}
