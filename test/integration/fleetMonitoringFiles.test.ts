// The monitoring files users start from: Prometheus checks the rule file itself (promtool, Debian's package), the
// dashboard and the rules name only metrics the exporter emits, and docs/monitoring/README.md's table is the catalog.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { METRICS, prometheusName, SERVER_ATTRIBUTES } from '../../src/engine/metrics/catalog';
import { ROOT } from '../helpers/cliChild';

const DIR = path.join(ROOT, 'docs', 'monitoring');
const EMITTED = new Set(Object.values(METRICS).map(prometheusName));
// Label names look like metric names: the attributes, as Prometheus spells them, are not metrics.
const LABELS = new Set([...SERVER_ATTRIBUTES, ...Object.values(METRICS).flatMap((d) => d.attributes)].map((a) => a.replace(/\./g, '_')));
const named = (expr: string) => [...expr.matchAll(/\b(?:sqlserver|spinlab)_[a-z0-9_]+/g)].map((m) => m[0]).filter((n) => !LABELS.has(n));

describe('the Grafana dashboard, the alerting rules and the metrics table', () => {
  it('promtool accepts the rule file', () => {
    const out = execFileSync('promtool', ['check', 'rules', path.join(DIR, 'alerts.yml')], { encoding: 'utf8' });
    assert.match(out, /SUCCESS: \d+ rules found/);
  });

  it('the rules and the dashboard name only metrics the exporter emits, and name each family', () => {
    const rules = parseYaml(fs.readFileSync(path.join(DIR, 'alerts.yml'), 'utf8')) as {
      groups: { rules: { alert: string; expr: string }[] }[];
    };
    const dash = JSON.parse(fs.readFileSync(path.join(DIR, 'grafana-dashboard.json'), 'utf8')) as {
      panels: { title: string; targets: { expr: string }[] }[];
      templating: { list: { definition?: string }[] };
    };
    const exprs = [
      ...rules.groups.flatMap((g) => g.rules.map((r) => r.expr)),
      ...dash.panels.flatMap((p) => p.targets.map((t) => t.expr)),
      ...dash.templating.list.map((v) => v.definition ?? ''),
    ];
    const used = new Set(exprs.flatMap(named));
    for (const n of used) assert.ok(EMITTED.has(n), `${n} is not a metric the exporter emits (${[...EMITTED].join(', ')})`);
    for (const must of [
      'sqlserver_spinlock_spins_total',
      'sqlserver_spinlock_backoffs_total',
      'sqlserver_os_wait_duration_total',
      'sqlserver_latch_wait_duration_total',
      'sqlserver_transaction_log_flushes_total',
      'spinlab_watch_cpu_time_total',
    ])
      assert.ok(used.has(must), `the dashboard or rules do not show ${must}`);
    const alerts = rules.groups.flatMap((g) => g.rules.map((r) => `${r.alert} ${r.expr}`)).join('\n');
    assert.match(alerts, /LOGCACHE_ACCESS/);
    assert.match(alerts, /WRITELOG/);
  });

  it('the README table lists every metric with its unit, type and attributes, and nothing else', () => {
    const text = fs.readFileSync(path.join(DIR, 'README.md'), 'utf8');
    const rows = text
      .split('\n')
      .filter((l) => /^\| `(sqlserver|spinlab)\./.test(l))
      .map((l) => l.split('|').map((c) => c.trim().replace(/`/g, '')));
    const table = new Map(rows.map((r) => [r[1], { unit: r[2], kind: r[3], attributes: r[4] ? r[4].split(', ') : [] }]));
    const defs = Object.values(METRICS);
    assert.equal(table.size, defs.length, `the table has ${table.size} metrics, the catalog ${defs.length}`);
    for (const d of defs) {
      const row = table.get(d.name);
      assert.ok(row, `${d.name} is not in the table`);
      assert.equal(row.unit, d.unit, d.name);
      assert.equal(row.kind, d.kind === 'counter' ? 'sum' : 'gauge', d.name);
      assert.deepEqual(row.attributes, d.attributes, d.name);
    }
    for (const a of SERVER_ATTRIBUTES) assert.ok(text.includes(`\`${a}\``), `the server attribute ${a} is not described`);
  });
});
