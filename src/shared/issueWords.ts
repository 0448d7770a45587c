// A message the schema refused, in words a bug report can use: which message, which field, what it should be and
// what came instead (shortened). "experimentOpen: id should be text, but was an object {"id":"experiment:…"}" says at
// once that a caller passed a tree element for an id; zod's own "Invalid input" does not.
import type { z } from 'zod';

const KIND: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  null: 'null',
};

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  return KIND[typeof v] ?? typeof v;
}

/** A field that holds a secret: its value is never quoted, here or in anything nested under a key of that name. */
const SECRET = /pass(word)?|pwd|secret|token|credential/i;

function preview(v: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(v, (k, x: unknown) => (k && SECRET.test(k) ? '(not shown: a secret)' : x)) ?? String(v);
  } catch {
    text = '(not shown)';
  }
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

function came(got: unknown, path: readonly PropertyKey[]): string {
  if (got === undefined) return 'missing';
  // The refusal goes to the log and the panel: a secret's value (a password typed into the form) never does.
  if (path.some((k) => SECRET.test(String(k)))) {
    return typeof got === 'string' ? `text of ${got.length} characters (not shown: a secret)` : `${kindOf(got)} (not shown: a secret)`;
  }
  return `${kindOf(got)} ${preview(got)}`;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

/** The first problem a schema found in `payload` of the message `what`. */
export function issueWords(what: string, error: z.ZodError, payload: unknown): string {
  const i = error.issues[0];
  if (!i) return `${what}: invalid`;
  const where = i.path.length ? i.path.map(String).join('.') : 'payload';
  const got = came(valueAt(payload, i.path), i.path);
  if (i.code === 'invalid_type') {
    const expected = KIND[String((i as { expected?: unknown }).expected)] ?? String((i as { expected?: unknown }).expected);
    return `${what}: ${where} should be ${expected}, but was ${got}`;
  }
  return `${what}: ${where}: ${i.message} (it was ${got})`;
}
