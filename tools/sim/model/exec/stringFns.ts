// REPLACE and QUOTENAME, which the lab's files use to build the DDL they run with sp_executesql (docs: REPLACE,
// QUOTENAME). Kept apart from builtins.ts so each stays small.
import type { SqlType } from '../../tds/contract';
import { T } from '../types';
import type { Typed } from './values';

const str = (x: Typed | undefined): string | null => (x === undefined || x.v === null ? null : String(x.v));
const isMax = (t: SqlType) => 'length' in t && t.length === 'max';
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function stringFn(name: string, args: Typed[]): Typed | undefined {
  switch (name) {
    case 'REPLACE': {
      // nvarchar when any argument is; max when the first is (docs: REPLACE return types). The default collation is
      // case-insensitive, so the pattern matches regardless of case.
      const wide = args.some((a) => a.type.type === 'nvarchar' || a.type.type === 'nchar');
      const type: SqlType = isMax(args[0].type)
        ? wide
          ? T.nvarchar('max')
          : { type: 'varchar', length: 'max' }
        : wide
          ? T.nvarchar(4000)
          : { type: 'varchar', length: 8000 };
      const [s, find, repl] = args.map(str);
      if (s === null || find === null || repl === null) return { v: null, type };
      return { v: find === '' ? s : s.replace(new RegExp(escapeRe(find), 'gi'), () => repl), type };
    }
    case 'QUOTENAME': {
      const s = str(args[0]);
      const q = args.length > 1 ? str(args[1]) : '[';
      const type = T.nvarchar(258);
      // NULL past 128 characters, or for a quote character other than those documented.
      if (s === null || s.length > 128 || q === null) return { v: null, type };
      const [open, close] =
        q === '[' || q === ']'
          ? ['[', ']']
          : q === "'" || q === '"' || q === '`'
            ? [q, q]
            : q === '(' || q === ')'
              ? ['(', ')']
              : q === '<' || q === '>'
                ? ['<', '>']
                : q === '{' || q === '}'
                  ? ['{', '}']
                  : ['', ''];
      if (!open) return { v: null, type };
      return { v: open + s.split(close).join(close + close) + close, type };
    }
  }
  return undefined;
}
