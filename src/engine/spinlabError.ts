// The error a user reads: what is wrong and how to fix it. Apart from errors.ts, which explains driver errors, so
// that modules loaded when the extension activates (the restore journal) can throw it without loading the driver.
export class SpinlabError extends Error {
  constructor(message: string, readonly hint?: string, readonly original?: unknown) {
    super(hint ? `${message}\n  How to fix: ${hint}` : message);
    this.name = 'SpinlabError';
  }
}
