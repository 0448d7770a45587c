// A roving tab index: a group of buttons (the CPU tiles, the outline, a toolbar of chips) is one Tab stop; the arrow
// keys move within it (Up and Down by rows, as laid out), Home and End to its ends, Space and Enter press the button.
// The item last focused keeps the group's Tab stop across renders.

const current = new Map<string, string>();

/**
 * The tabindex of an item: 0 for the group's current item (else the preferred one, e.g. the pressed one, else its
 * first), -1 for the others.
 */
export function rovingTabIndex(group: string, key: string, keys: readonly string[], preferred?: string): number {
  const cur = current.get(group);
  const at = cur !== undefined && keys.includes(cur) ? cur : preferred !== undefined && keys.includes(preferred) ? preferred : keys[0];
  return key === at ? 0 : -1;
}

function items(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>('[data-roving-key]')].filter(
    (e) => !(e as HTMLButtonElement).disabled && e.offsetParent !== null,
  );
}

function moveTo(group: string, list: readonly HTMLElement[], next: HTMLElement): void {
  for (const e of list) e.tabIndex = e === next ? 0 : -1;
  current.set(group, next.dataset.rovingKey ?? '');
  next.focus();
}

/** The item in the next row up or down, nearest in x (rows as the browser laid the items out). */
function vertical(list: readonly HTMLElement[], from: HTMLElement, down: boolean): HTMLElement | null {
  const r = from.getBoundingClientRect();
  const cx = r.left + r.width / 2;
  const rows = list
    .map((e) => ({ e, box: e.getBoundingClientRect() }))
    .filter(({ box }) => (down ? box.top >= r.bottom - 2 : box.bottom <= r.top + 2));
  if (!rows.length) return null;
  const rowTop = down ? Math.min(...rows.map((x) => x.box.top)) : Math.max(...rows.map((x) => x.box.top));
  const row = rows.filter((x) => Math.abs(x.box.top - rowTop) < 2);
  return row.reduce((m, x) => (Math.abs(x.box.left + x.box.width / 2 - cx) < Math.abs(m.box.left + m.box.width / 2 - cx) ? x : m)).e;
}

/** The container's keydown: arrows, Home and End move the focus among its items. */
export function rovingKeydown(group: string): (e: KeyboardEvent) => void {
  return (e) => {
    const container = e.currentTarget as HTMLElement;
    const list = items(container);
    const from = (e.target as HTMLElement).closest<HTMLElement>('[data-roving-key]');
    const i = from ? list.indexOf(from) : -1;
    if (i < 0) return;
    let next: HTMLElement;
    if (e.key === 'ArrowRight') next = list[Math.min(i + 1, list.length - 1)];
    else if (e.key === 'ArrowLeft') next = list[Math.max(i - 1, 0)];
    else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') next = vertical(list, list[i], e.key === 'ArrowDown') ?? list[i];
    else if (e.key === 'Home') next = list[0];
    else if (e.key === 'End') next = list[list.length - 1];
    else return;
    e.preventDefault();
    moveTo(group, list, next);
  };
}

/** The container's focusin: an item focused by a click (or a test) becomes the group's Tab stop. */
export function rovingFocus(group: string): (e: FocusEvent) => void {
  return (e) => {
    const item = (e.target as HTMLElement).closest<HTMLElement>('[data-roving-key]');
    if (!item || item.tabIndex === 0) return;
    const list = items(e.currentTarget as HTMLElement);
    for (const x of list) x.tabIndex = x === item ? 0 : -1;
    current.set(group, item.dataset.rovingKey ?? '');
  };
}
