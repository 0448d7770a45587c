// Colours from the theme: the --vscode-charts-* variables for series, foreground and lines for axes and grid. Read
// again whenever VS Code switches the body's theme class (vscode-light, vscode-dark, vscode-high-contrast, ...).
import { PALETTE } from '../model/colors';

export interface ThemeColors {
  series: string[];
  foreground: string;
  grid: string;
  background: string;
  fontFamily: string;
  fontSize: number;
  highContrast: boolean;
}

export function readTheme(): ThemeColors {
  const cs = getComputedStyle(document.body);
  const v = (name: string, fallback: string) => cs.getPropertyValue(name).trim() || fallback;
  const foreground = v('--vscode-charts-foreground', v('--vscode-foreground', '#888888'));
  return {
    series: PALETTE.map((slot) => {
      if (slot === 'foreground') return foreground;
      if (slot === 'lines') return v('--vscode-charts-lines', foreground);
      return v(`--vscode-charts-${slot}`, foreground);
    }),
    foreground,
    grid: v('--vscode-charts-lines', 'rgba(128,128,128,0.3)'),
    background: v('--vscode-editor-background', 'transparent'),
    fontFamily: v('--vscode-font-family', 'sans-serif'),
    fontSize: Number.parseFloat(v('--vscode-font-size', '13')) || 13,
    highContrast:
      document.body.classList.contains('vscode-high-contrast') || document.body.classList.contains('vscode-high-contrast-light'),
  };
}

/** Calls back with fresh colours when the body's class changes (VS Code sets the theme kind there). */
export function watchTheme(onChange: (t: ThemeColors) => void): () => void {
  let last = document.body.className;
  const obs = new MutationObserver(() => {
    if (document.body.className === last) return;
    last = document.body.className;
    onChange(readTheme());
  });
  obs.observe(document.body, { attributes: true, attributeFilter: ['class'] });
  return () => obs.disconnect();
}
