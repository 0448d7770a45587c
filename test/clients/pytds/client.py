# python-tds (pytds, a pure-Python TDS client the project did not write) against the simulator: a parameterised query,
# sp_executesql called as a procedure with an OUTPUT parameter and its return status, a transaction through the
# driver's own commit/rollback, a batch with an error in the middle, a cancelled WAITFOR, a pooled connection reused
# (sp_reset_connection) and 50 connections at once. Prints one JSON object (each check's result, or its error as
# "error: ..."); simPytds.test.ts asserts on it. Usage: client.py <port> <password>
import json
import sys
import threading

import pytds

port, password = int(sys.argv[1]), sys.argv[2]


def connect(**kw):
    return pytds.connect(server="127.0.0.1", port=port, user="sa", password=password, database="master", **kw)


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


@check("proc")
def _():
    cur = conn.cursor()
    res = cur.callproc(
        "sp_executesql",
        ("SET @o = @i * 2", "@i int, @o int OUTPUT", 21, pytds.output(param_type=int)),
    )
    return {"out": res[3], "status": cur.get_proc_return_status()}


@check("tran")
def _():
    c = connect(autocommit=False)
    cur = c.cursor()
    t_in = cur.execute_scalar("SELECT @@TRANCOUNT")
    c.commit()
    t_commit = cur.execute_scalar("SELECT @@TRANCOUNT")
    c.rollback()
    t_rollback = cur.execute_scalar("SELECT @@TRANCOUNT")
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
    except pytds.Error as e:
        seen.append(f"error: {e}")
    seen.append(conn.cursor().execute_scalar("SELECT 3 AS c"))
    return [str(x) for x in seen]


@check("cancel")
def _():
    # A query timeout: pytds sends an attention, reads the server's acknowledgement and keeps the connection.
    import time

    c = connect(autocommit=True, timeout=1)
    cur = c.cursor()
    t0 = time.monotonic()
    try:
        cur.execute("WAITFOR DELAY '00:00:20'; SELECT 1")
        cur.fetchall()
        r = "not cancelled"
    except Exception as e:
        r = f"cancelled: {type(e).__name__}: {e}"
    elapsed = time.monotonic() - t0
    try:
        after = cur.execute_scalar("SELECT 5 AS after_cancel")
    except Exception as e:
        after = f"error: {e}"
    c.close()
    return {"result": r, "seconds": elapsed, "after": after}


@check("pooled")
def _():
    spids = []
    for _ in range(2):
        c = connect(autocommit=True, pooling=True)
        spids.append(c.cursor().execute_scalar("SELECT @@SPID"))
        c.close()  # back to pytds's pool; the next connect resets it with sp_reset_connection
    return {"same_session": spids[0] == spids[1]}


@check("concurrent")
def _():
    spids, errors, conns = [], [], []
    lock = threading.Lock()

    def one():
        try:
            c = connect(autocommit=True)
            s = c.cursor().execute_scalar("SELECT @@SPID")
            with lock:
                spids.append(s)
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
