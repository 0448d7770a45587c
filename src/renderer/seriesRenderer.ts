// The notebook renderer for application/vnd.spinlab.series+json: the series a saved notebook carries beside each
// chart's SVG, drawn interactively (hover for exact values, a legend to hide series) with chart.js in VS Code's
// notebook editor. Theme colours come from the editor's --vscode-* variables. The payload is data from a file, so it
// is checked before use and a bad one renders as a message, never an exception.
import type { ActivationFunction, OutputItem } from 'vscode-notebook-renderer';
import { Chart, LineController, LineElement, PointElement, LinearScale, Tooltip, Legend, Title, type ChartDataset } from 'chart.js';
import { checkSeriesPayload, type SeriesPayload } from '../shared/seriesPayload';

Chart.register(LineController, LineElement, PointElement, LinearScale, Tooltip, Legend, Title);

const PALETTE_VARS = [
  '--vscode-charts-blue',
  '--vscode-charts-orange',
  '--vscode-charts-green',
  '--vscode-charts-purple',
  '--vscode-charts-red',
  '--vscode-charts-yellow',
  '--vscode-charts-foreground',
];

function themeColour(el: HTMLElement, name: string, fallback: string): string {
  return getComputedStyle(el).getPropertyValue(name).trim() || fallback;
}

function draw(element: HTMLElement, p: SeriesPayload): Chart {
  element.replaceChildren();
  const box = document.createElement('div');
  box.style.position = 'relative';
  box.style.height = '300px';
  box.style.maxWidth = '900px';
  const canvas = document.createElement('canvas');
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', `${p.title}: ${p.series.map((s) => s.name).join(', ')}`);
  box.append(canvas);
  element.append(box);
  const fg = themeColour(element, '--vscode-editor-foreground', '#888');
  const grid = themeColour(element, '--vscode-charts-lines', 'rgba(128,128,128,0.3)');
  const datasets: ChartDataset<'line', { x: number; y: number }[]>[] = p.series.map((s, i) => {
    const colour = themeColour(element, PALETTE_VARS[i % PALETTE_VARS.length], '#3794ff');
    return {
      label: s.name,
      data: s.points.map(([x, y]) => ({ x, y })),
      borderColor: colour,
      backgroundColor: colour,
      borderWidth: 1.5,
      pointRadius: p.kind === 'scaling' ? 3 : 0,
      borderDash: i >= PALETTE_VARS.length ? [5, 3] : undefined,
    };
  });
  return new Chart(canvas, {
    type: 'line',
    data: { datasets },
    options: {
      animation: false,
      maintainAspectRatio: false,
      parsing: false,
      normalized: true,
      interaction: { mode: p.kind === 'scaling' ? 'nearest' : 'index', intersect: false },
      plugins: {
        title: { display: true, text: p.title, color: fg },
        legend: { labels: { color: fg } },
        tooltip: { callbacks: { label: (c) => `${c.dataset.label}: ${Number(c.parsed.y).toLocaleString()}` } },
      },
      scales: {
        x: { type: 'linear', title: { display: true, text: p.xLabel, color: fg }, ticks: { color: fg }, grid: { color: grid } },
        y: {
          type: 'linear',
          beginAtZero: true,
          title: { display: true, text: p.yLabel, color: fg },
          ticks: { color: fg },
          grid: { color: grid },
        },
      },
    },
  });
}

export const activate: ActivationFunction = () => {
  const charts = new Map<string, Chart>();
  return {
    renderOutputItem(item: OutputItem, element: HTMLElement) {
      charts.get(item.id)?.destroy();
      let payload: SeriesPayload;
      try {
        payload = checkSeriesPayload(item.json());
      } catch (err) {
        element.textContent = `Spinlock Lab cannot draw this chart: ${(err as Error).message}`;
        return;
      }
      charts.set(item.id, draw(element, payload));
    },
    disposeOutputItem(id?: string) {
      for (const [key, chart] of charts) {
        if (id === undefined || key === id) {
          chart.destroy();
          charts.delete(key);
        }
      }
    },
  };
};
