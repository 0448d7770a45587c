// Loads the T-SQL the product sends from the files under sql/. One file is one script: batches separated by a line
// holding only GO (as sqlcmd and SSMS do). Every file starts with a header of `-- Key: value` lines:
//   -- Purpose:    what it is for
//   -- Permission: what the login needs to run it
//   -- Parameters: the sp_executesql parameters it takes, if any (declaration list)
// The engine sends batch text exactly as loaded; the simulator recognises a statement by that same text, so a change to
// a file can never silently desynchronise the two.
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface SqlFile {
  /** Path under sql/ without the .sql suffix, e.g. 'dmv/sample'. */
  id: string;
  purpose: string;
  permission: string;
  /** The sp_executesql parameter declaration ('@db sysname, @n int'), or '' when the file takes none. */
  parameters: string;
  /** The batches in order, trimmed; the first keeps the header comment (it is harmless, and shows in traces). */
  batches: string[];
  /** The file line (1-based) of each batch's first line, so a server error's line can be shown as the file's. */
  batchLines: number[];
}

let cachedRoot: string | undefined;

/** The sql/ folder: found by walking up from this module (works from out/ and from a bundle with sql/ beside it). */
export function sqlRoot(): string {
  if (cachedRoot) return cachedRoot;
  let dir = __dirname;
  for (;;) {
    const candidate = path.join(dir, 'sql');
    if (fs.existsSync(path.join(candidate, 'dmv')) && fs.statSync(candidate).isDirectory()) {
      cachedRoot = candidate;
      return candidate;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`Spinlock Lab: cannot find the sql/ folder above ${__dirname}`);
    dir = parent;
  }
}

const cache = new Map<string, SqlFile>();

export function normaliseSql(text: string): string {
  return text.replace(/\r\n?/g, '\n').trim();
}

export function parseSqlFile(id: string, text: string): SqlFile {
  const lines = normaliseSql(text).split('\n');
  const header: Record<string, string> = {};
  for (const line of lines) {
    const m = /^--\s*(Purpose|Permission|Parameters)\s*:\s*(.*)$/i.exec(line);
    if (m) header[m[1].toLowerCase()] = m[2].trim();
    else if (!line.startsWith('--')) break;
  }
  if (!header.purpose || !header.permission) {
    throw new Error(`sql/${id}.sql: the header must have '-- Purpose:' and '-- Permission:' lines`);
  }
  const batches: string[] = [];
  const batchLines: number[] = [];
  let current: string[] = [];
  let startLine = 1;
  const flush = () => {
    const text = current.join('\n');
    if (text.trim()) {
      batches.push(text.trim());
      batchLines.push(startLine + (text.slice(0, text.length - text.trimStart().length).match(/\n/g)?.length ?? 0));
    }
  };
  lines.forEach((line, i) => {
    if (/^\s*GO\s*$/i.test(line)) {
      flush();
      current = [];
      startLine = i + 2;
    } else current.push(line);
  });
  flush();
  const params = header.parameters ?? '';
  const parameters = /^none$/i.test(params) ? '' : params;
  // A parameterised file goes as one sp_executesql call; CREATE PROCEDURE batches cannot, so they live in files
  // without parameters.
  if (parameters && batches.length !== 1) {
    throw new Error(`sql/${id}.sql declares parameters, so it must be a single batch (it has ${batches.length})`);
  }
  return {
    id,
    purpose: header.purpose,
    permission: header.permission,
    parameters,
    batches,
    batchLines,
  };
}

export function loadSqlFile(id: string): SqlFile {
  let f = cache.get(id);
  if (!f) {
    const file = path.join(sqlRoot(), `${id}.sql`);
    if (!fs.existsSync(file)) throw new Error(`Spinlock Lab: missing SQL file sql/${id}.sql`);
    f = parseSqlFile(id, fs.readFileSync(file, 'utf8'));
    cache.set(id, f);
  }
  return f;
}

/** Every SQL file id under sql/, sorted. */
export function listSqlFiles(root = sqlRoot()): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.sql'))
        out.push(
          path
            .relative(root, p)
            .split(path.sep)
            .join('/')
            .replace(/\.sql$/, ''),
        );
    }
  };
  walk(root);
  return out.sort();
}
