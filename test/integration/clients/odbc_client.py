# An ODBC client the project did not write (FreeTDS's ODBC driver through unixODBC and pyodbc) exercising the
# simulator: a parameterised query, a procedure call with positional parameters and a transaction. Prints one JSON
# object; the integration test (simOdbc.test.ts) asserts on it.
import json
import sys

import pyodbc

port, password, database = sys.argv[1], sys.argv[2], sys.argv[3]
conn = pyodbc.connect(
    f"DRIVER={{FreeTDS}};SERVER=127.0.0.1;PORT={port};UID=sa;PWD={password};DATABASE={database};TDS_Version=7.4",
    autocommit=True,
)
out = {}
cur = conn.cursor()

# Parameterised queries (SQLBindParameter + SQLExecDirect, then a prepared statement run twice).
row = cur.execute("SELECT ? AS a, ? AS b", 41, "forty-one").fetchone()
out["param"] = [row.a, row.b]
cur.fast_executemany = False
out["prepared"] = [cur.execute("SELECT ? + 1 AS n", n).fetchone().n for n in (1, 2)]

# A procedure call with positional parameters (ODBC call escape: FreeTDS sends an RPC with unnamed values).
# The server-loop procedure returns the rows it inserted: 5 only if @rows arrived (NULL would loop until @run_ms).
cur.execute("{CALL dbo.spinlab_disk_insert_loop(?, ?, ?, ?)}", 1_000_000, 5, None, 1)
out["proc_rows_done"] = cur.fetchone()[0]
while cur.nextset():
    pass

# A transaction: autocommit off, work, @@TRANCOUNT inside, commit; then a rollback.
conn.autocommit = False
out["trancount_in"] = cur.execute("SELECT @@TRANCOUNT AS t").fetchone().t
cur.execute("{CALL dbo.spinlab_disk_insert_batch(?, ?, ?)}", 2_000_000, 0, 1)
while cur.nextset():
    pass
conn.commit()
out["trancount_after_commit"] = cur.execute("SELECT @@TRANCOUNT AS t").fetchone().t
conn.rollback()
conn.autocommit = True
out["trancount_autocommit"] = cur.execute("SELECT @@TRANCOUNT AS t").fetchone().t

# Errors keep SQL Server's numbers.
try:
    cur.execute("EXEC dbo.no_such_procedure")
    out["missing_proc"] = None
except pyodbc.Error as e:
    out["missing_proc"] = str(e)
print(json.dumps(out))
