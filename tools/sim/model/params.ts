// Parameter lists: the declarations of a procedure or of sp_executesql's @params, and SQL Server's rules for binding
// the values a caller sends, by name or by position (drivers often send them unnamed).
import type { RpcParam } from '../tds/contract';
import { err, SqlError } from './errors';
import { lex, Lex } from '../grammar/lex';
import type { ParamDef } from './paramDef';

export type { ParamDef };

/** '@a int, @b nvarchar(10) = N''x'' OUTPUT' -> the declarations. */
export function parseParamDefs(text: string): ParamDef[] {
  return defsFromTokens(lex(text));
}

function defsFromTokens(toks: Lex[]): ParamDef[] {
  const defs: ParamDef[] = [];
  let part: Lex[] = [];
  let depth = 0;
  const flush = () => {
    if (part.length === 0) return;
    const [first, ...rest] = part;
    if (first.k !== 'var') throw new SqlError([err(102, `Incorrect syntax near '${first.v}'.`, 15, 1)]);
    const eq = rest.findIndex((t) => t.k === 'op' && t.v === '=');
    const words = rest.filter((t) => t.k === 'word').map((t) => t.v.toLowerCase());
    const last = words[words.length - 1];
    const typeToks = (eq >= 0 ? rest.slice(0, eq) : rest).filter((t) => !(t.k === 'word' && /^(output|out|readonly|as)$/i.test(t.v)));
    defs.push({
      name: first.v.toLowerCase(),
      type: typeToks
        .map((t) => t.v)
        .join('')
        .toLowerCase(),
      output: last === 'output' || last === 'out',
      hasDefault: eq >= 0,
    });
    part = [];
  };
  for (const t of toks) {
    if (t.k === 'op' && t.v === '(') depth++;
    if (t.k === 'op' && t.v === ')') depth--;
    if (depth === 0 && t.k === 'op' && t.v === ',') {
      flush();
      continue;
    }
    part.push(t);
  }
  flush();
  return defs;
}

/** The parameters a CREATE PROCEDURE declares (the list between the name and WITH/AS). */
export function procedureParameters(createText: string): ParamDef[] {
  const toks = lex(createText);
  let i = toks.findIndex((t) => t.k === 'word' && /^(procedure|proc)$/i.test(t.v));
  if (i < 0) return [];
  i++;
  while (i < toks.length && (toks[i].k === 'word' || toks[i].k === 'qname' || (toks[i].k === 'op' && toks[i].v === '.'))) {
    if (toks[i].k === 'word' && /^(as|with)$/i.test(toks[i].v)) break;
    i++;
  }
  let paren = false;
  if (toks[i]?.k === 'op' && toks[i].v === '(') {
    paren = true;
    i++;
  }
  const list: Lex[] = [];
  let depth = 0;
  for (; i < toks.length; i++) {
    const t = toks[i];
    if (t.k === 'op' && t.v === '(') depth++;
    if (t.k === 'op' && t.v === ')') {
      if (depth === 0 && paren) break;
      depth--;
    }
    if (depth === 0 && t.k === 'word' && /^(as|with|for)$/i.test(t.v) && !(list.length && list[list.length - 1].k === 'var')) break;
    list.push(t);
  }
  return defsFromTokens(list);
}

/**
 * Binds what a caller sent to what the procedure declares, as SQL Server does: unnamed values by position, then
 * named ones by name; errors 119, 8144, 8145 and 201 otherwise. Returns the values by lower-case name.
 */
export function bindParameters(procName: string, defs: ParamDef[], sent: RpcParam[]): Map<string, RpcParam> {
  const bound = new Map<string, RpcParam>();
  const shortName = procName.replace(/[[\]]/g, '').split('.').pop() ?? procName;
  let named = false;
  sent.forEach((p, i) => {
    if (p.name === '') {
      if (named) {
        throw new SqlError([
          err(
            119,
            `Must pass parameter number ${i + 1} and subsequent parameters as '@name = value'. After the form '@name = value' has been used, all subsequent parameters must be passed in the form '@name = value'.`,
            15,
            1,
          ),
        ]);
      }
      const d = defs[i];
      if (!d) throw new SqlError([err(8144, `Procedure or function ${shortName} has too many arguments specified.`, 16, 2, shortName)]);
      bound.set(d.name, { ...p, name: d.name });
      return;
    }
    named = true;
    const key = p.name.toLowerCase();
    if (!defs.some((d) => d.name === key))
      throw new SqlError([err(8145, `${p.name} is not a parameter for procedure ${shortName}.`, 16, 1, shortName)]);
    bound.set(key, p);
  });
  for (const d of defs) {
    if (!bound.has(d.name) && !d.hasDefault) {
      throw new SqlError([
        err(201, `Procedure or function '${shortName}' expects parameter '${d.name}', which was not supplied.`, 16, 4, shortName),
      ]);
    }
  }
  return bound;
}
