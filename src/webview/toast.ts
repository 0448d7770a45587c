// A short note from the host (a copy done, a file saved), shown for four seconds.
export class Toast {
  text: string | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;

  show(text: string, changed: () => void): void {
    this.text = text;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.text = null;
      this.timer = null;
      changed();
    }, 4000);
    changed();
  }
}
