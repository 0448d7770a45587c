# pymssql (FreeTDS's DB-Library under Python), a client the project did not write, against the simulator: a
# parameterised query, sp_executesql called as a procedure with an OUTPUT parameter and its return status, a
# transaction through the driver's own commit/rollback, a batch with an error in the middle, a cancelled WAITFOR and 50
# connections at once. Prints one JSON object (each check's result, or its error as "error: ..."); simPymssql.test.ts
# asserts on it. Usage: client.py <port> <password>
import json
import sys
import threading

import pymssql

port, password = int(sys.argv[1]), sys.argv[2]


def connect(**kw):
    return pymssql.connect(server="127.0.0.1", port=port, user="sa", password=password, database="master", **kw)


out = {}


def check(name):
    def wrap(fn):
        try:
            out[name] = fn()
        except Exception as e:  # the test reads the message
            out[name] = f"error: {type(e).__name__}: {e}"
        return fn

    return wrap


conn = connect(autocommit=True)


@check("param")
def _():
    cur = conn.cursor()
    cur.execute("SELECT %s AS a, %s AS b", (41, "forty-one"))
    return list(cur.fetchone())


@check("top")
def _():
    cur = conn.cursor()
    cur.execute("SELECT TOP 2 * FROM sys.databases ORDER BY database_id")
    return [r[1] for r in cur.fetchall()]


@check("proc")
def _():
    cur = conn.cursor()
    res = cur.callproc(
        "sp_executesql",
        ("SET @o = @i * 2", "@i int, @o int OUTPUT", 21, pymssql.output(int)),
    )
    return {"out": res[3], "status": cur.returnvalue}


@check("tran")
def _():
    c = connect()  # autocommit off: the driver opens the transaction
    cur = c.cursor()
    cur.execute("SELECT @@TRANCOUNT")
    t_in = cur.fetchone()[0]
    c.commit()
    cur.execute("SELECT @@TRANCOUNT")
    t_commit = cur.fetchone()[0]
    c.rollback()
    cur.execute("SELECT @@TRANCOUNT")
    t_rollback = cur.fetchone()[0]
    c.close()
    return [t_in, t_commit, t_rollback]


@check("batch_error")
def _():
    cur = conn.cursor()
    seen = []
    try:
        cur.execute("SELECT 1 AS a; RAISERROR('in the middle', 16, 1); SELECT 2 AS b")
        seen.append(cur.fetchall())
        while cur.nextset():
            seen.append(cur.fetchall())
    except pymssql.Error as e:
        seen.append(f"error: {e}")
    cur2 = conn.cursor()
    cur2.execute("SELECT 3 AS c")
    seen.append(cur2.fetchall())
    return [str(x) for x in seen]


@check("cancel")
def _():
    # The query timeout makes DB-Library send an attention; pymssql then closes that connection itself (as it does
    # against SQL Server), so a new one shows the server still serves.
    import time

    c = connect(autocommit=True, timeout=1)
    cur = c.cursor()
    t0 = time.monotonic()
    try:
        cur.execute("WAITFOR DELAY '00:00:20'; SELECT 1")
        cur.fetchall()
        r = "not cancelled"
    except pymssql.Error as e:
        r = f"cancelled: {e}"
    elapsed = time.monotonic() - t0
    c2 = connect(autocommit=True)
    cur2 = c2.cursor()
    cur2.execute("SELECT 5 AS after_cancel")
    after = cur2.fetchone()[0]
    c2.close()
    return {"result": r, "seconds": elapsed, "after": after}


@check("concurrent")
def _():
    spids, errors = [], []
    conns = []
    lock = threading.Lock()

    def one():
        try:
            c = connect(autocommit=True)
            cur = c.cursor()
            cur.execute("SELECT @@SPID")
            with lock:
                spids.append(cur.fetchone()[0])
                conns.append(c)
        except Exception as e:
            with lock:
                errors.append(str(e))

    threads = [threading.Thread(target=one) for _ in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for c in conns:
        c.close()
    return {"distinct": len(set(spids)), "errors": errors[:3]}


print(json.dumps(out))
