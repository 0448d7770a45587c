// The column catalogue (tools/sim/catalog/columns.json, from Microsoft's docs): every column every sql/ file names
// exists in every supported version (2016..2025), unless the product guards it by version (GUARDED).
import assert from 'node:assert/strict';
import { listSqlFiles, loadSqlFile } from '../../src/db/sqlFiles';
import {
  allCatalogColumns,
  catalogColumns,
  catalogDoc,
  catalogViewNames,
  MAX_VERSION,
  MIN_VERSION,
  sqlTypeOf,
} from '../../tools/sim/catalog';
import { columnReferences } from '../../tools/sim/grammar/references';

// Columns the product reads only behind a guard, because they are not in every version from 2016 on or not in SQL Server
// at all ('file:view.column' -> the guard). A column added here needs the product's guard named.
const GUARDED: Record<string, string> = {
  'server/check:sys.dm_os_host_info.host_platform': "IF OBJECT_ID(N'sys.dm_os_host_info') IS NOT NULL, then sp_executesql (2017+)",
  'server/check:sys.dm_os_host_info.host_distribution': "IF OBJECT_ID(N'sys.dm_os_host_info') IS NOT NULL, then sp_executesql (2017+)",
  'server/check:sys.server_resource_stats.sku':
    "IF @engine = 8 (SERVERPROPERTY('EngineEdition'), Azure SQL Managed Instance), then sp_executesql",
  'server/database-names:sys.databases.physical_database_name':
    "IF COL_LENGTH(N'sys.databases', N'physical_database_name') IS NOT NULL, then sp_executesql (2019+, Azure SQL)",
  'server/check:sys.server_resource_stats.end_time':
    "IF @engine = 8 (SERVERPROPERTY('EngineEdition'), Azure SQL Managed Instance), then sp_executesql",
};

describe('DMV and catalog view columns', () => {
  it('cites a docs page for every view and has a wire type for every column', () => {
    for (const v of catalogViewNames()) {
      assert.match(catalogDoc(v)!.doc, /^docs\/relational-databases\/.+\.md$/);
      for (const c of allCatalogColumns(v)!) assert.doesNotThrow(() => sqlTypeOf(c.type), `${v}.${c.name}`);
    }
  });

  it('every column a sql/ file names exists in every version from 2016 to 2025', function () {
    this.timeout(300_000);
    const problems: string[] = [];
    let refs = 0;
    for (const id of listSqlFiles()) {
      const f = loadSqlFile(id);
      f.batches.forEach((b, i) => {
        for (const r of columnReferences(b)) {
          refs++;
          const all = allCatalogColumns(r.view);
          if (!all) {
            problems.push(`sql/${id}.sql batch ${i + 1} line ${r.line}: ${r.view} is not in the catalogue`);
            continue;
          }
          for (let v = MIN_VERSION; v <= MAX_VERSION; v++) {
            if (catalogColumns(r.view, v)!.some((c) => c.name === r.column)) continue;
            if (GUARDED[`${id}:${r.view}.${r.column}`]) continue;
            problems.push(`sql/${id}.sql batch ${i + 1} line ${r.line}: ${r.view}.${r.column} does not exist in version ${v}`);
          }
        }
      });
    }
    console.log(`# ${refs} column references in sql/ checked against the catalogue`);
    assert.ok(refs > 50, `only ${refs} references found: the extraction is broken`);
    assert.deepEqual(problems, []);
  });

  it('finds a wrong column name', () => {
    const refs = columnReferences('SELECT s.scheduler_id, s.cpu_idd FROM sys.dm_os_schedulers AS s;');
    assert.deepEqual(
      refs.map((r) => `${r.view}.${r.column}`),
      ['sys.dm_os_schedulers.scheduler_id', 'sys.dm_os_schedulers.cpu_idd'],
    );
    assert.equal(
      catalogColumns('sys.dm_os_schedulers', 16)!.some((c) => c.name === 'cpu_idd'),
      false,
    );
  });
});
