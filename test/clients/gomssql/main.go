// go-mssqldb (Microsoft's Go driver, a client the project did not write) against the simulator: a parameterised
// query, sp_executesql called as a procedure (RPC) with an OUTPUT parameter and its return status, a transaction
// through database/sql (commit and rollback), a batch with an error in the middle, a query cancelled through its
// context (an attention) and 50 connections at once. Prints one JSON object; simGoMssql.test.ts asserts on it.
// Usage: gomssql <port> <password> <server certificate PEM file, for the TDS 8 strict check>
package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"sync"
	"time"

	mssql "github.com/microsoft/go-mssqldb"
)

func main() {
	port, password := os.Args[1], os.Args[2]
	u := url.URL{Scheme: "sqlserver", User: url.UserPassword("sa", password), Host: "127.0.0.1:" + port,
		RawQuery: "database=master&encrypt=disable" + os.Getenv("GOMSSQL_LOG")}
	db, err := sql.Open("sqlserver", u.String())
	if err != nil {
		panic(err)
	}
	db.SetMaxOpenConns(60)
	ctx := context.Background()
	out := map[string]any{}
	check := func(name string, fn func() (any, error)) {
		v, err := fn()
		if err != nil {
			out[name] = "error: " + err.Error()
			return
		}
		out[name] = v
	}

	check("param", func() (any, error) {
		var a int
		var b string
		err := db.QueryRowContext(ctx, "SELECT @p1 AS a, @p2 AS b", 41, "forty-one").Scan(&a, &b)
		return []any{a, b}, err
	})

	check("proc", func() (any, error) {
		var o int
		var status mssql.ReturnStatus
		_, err := db.ExecContext(ctx, "sp_executesql",
			sql.Named("stmt", "SET @o = @i * 2"), sql.Named("params", "@i int, @o int OUTPUT"),
			sql.Named("i", 21), sql.Named("o", sql.Out{Dest: &o}), &status)
		return map[string]any{"out": o, "status": int(status)}, err
	})

	check("tran", func() (any, error) {
		var in, afterCommit, afterRollback int
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return nil, err
		}
		if err := tx.QueryRowContext(ctx, "SELECT @@TRANCOUNT").Scan(&in); err != nil {
			return nil, err
		}
		if err := tx.Commit(); err != nil {
			return nil, err
		}
		tx2, err := db.BeginTx(ctx, nil)
		if err != nil {
			return nil, err
		}
		if err := tx2.Rollback(); err != nil {
			return nil, err
		}
		conn, err := db.Conn(ctx)
		if err != nil {
			return nil, err
		}
		defer conn.Close()
		err = conn.QueryRowContext(ctx, "SELECT @@TRANCOUNT").Scan(&afterCommit)
		afterRollback = afterCommit
		return []int{in, afterCommit, afterRollback}, err
	})

	check("batch_error", func() (any, error) {
		rows, err := db.QueryContext(ctx, "SELECT 1 AS a; RAISERROR('in the middle', 16, 1); SELECT 2 AS b")
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		seen := []any{}
		for {
			for rows.Next() {
				var v int
				if err := rows.Scan(&v); err != nil {
					return nil, err
				}
				seen = append(seen, v)
			}
			if err := rows.Err(); err != nil {
				seen = append(seen, "error: "+err.Error())
			}
			if !rows.NextResultSet() {
				break
			}
		}
		if err := rows.Err(); err != nil {
			seen = append(seen, "error: "+err.Error())
		}
		return seen, nil
	})

	check("cancel", func() (any, error) {
		conn, err := db.Conn(ctx)
		if err != nil {
			return nil, err
		}
		defer conn.Close()
		// Cancelled (not timed out: go-mssqldb drops a connection whose deadline passed): an attention, then the
		// same connection goes on.
		c, cancel := context.WithCancel(ctx)
		defer cancel()
		time.AfterFunc(500*time.Millisecond, cancel)
		t0 := time.Now()
		_, qerr := conn.ExecContext(c, "WAITFOR DELAY '00:00:20'")
		elapsed := time.Since(t0).Seconds()
		var after any
		var five int
		if err := conn.QueryRowContext(ctx, "SELECT 5").Scan(&five); err != nil {
			after = "error: " + err.Error()
		} else {
			after = five
		}
		return map[string]any{"result": fmt.Sprint(qerr), "seconds": elapsed, "after": after}, nil
	})

	check("concurrent", func() (any, error) {
		var mu sync.Mutex
		var wg sync.WaitGroup
		spids := map[int]bool{}
		errs := []string{}
		conns := []*sql.Conn{}
		for i := 0; i < 50; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				conn, err := db.Conn(ctx)
				var spid int
				if err == nil {
					err = conn.QueryRowContext(ctx, "SELECT @@SPID").Scan(&spid)
				}
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					errs = append(errs, err.Error())
					return
				}
				spids[spid] = true
				conns = append(conns, conn)
			}()
		}
		wg.Wait()
		for _, c := range conns {
			c.Close()
		}
		return map[string]any{"distinct": len(spids), "errors": errs}, nil
	})

	// TDS 8: with encrypt=strict the driver opens TLS first and sends LOGIN7 with TDSVersion 0x08000000.
	check("strict", func() (any, error) {
		su := u
		// Strict mode verifies the certificate whatever TrustServerCertificate says: the simulator's, from a file.
		su.RawQuery = url.Values{"database": {"master"}, "encrypt": {"strict"}, "certificate": {os.Args[3]},
			"hostnameincertificate": {"localhost"}}.Encode()
		sdb, err := sql.Open("sqlserver", su.String())
		if err != nil {
			return nil, err
		}
		defer sdb.Close()
		var v int
		err = sdb.QueryRowContext(ctx, "SELECT 8").Scan(&v)
		return v, err
	})

	// A database that does not exist: the driver's error for the login (SQL Server sends Msg 4060, then 18456).
	check("missing_db", func() (any, error) {
		mu := u
		mu.RawQuery = "database=NoSuchLab&encrypt=disable"
		mdb, err := sql.Open("sqlserver", mu.String())
		if err != nil {
			return nil, err
		}
		defer mdb.Close()
		return "error: " + fmt.Sprint(mdb.PingContext(ctx)), nil
	})

	enc := json.NewEncoder(os.Stdout)
	if err := enc.Encode(out); err != nil {
		panic(err)
	}
}
