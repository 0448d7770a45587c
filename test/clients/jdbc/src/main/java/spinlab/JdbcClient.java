// Microsoft's JDBC driver (mssql-jdbc, a client the project did not write) against the simulator: a parameterised
// query, sp_executesql called as a procedure (RPC) with an OUTPUT parameter and its return status, a transaction
// through the driver's commit/rollback/savepoint, a batch with an error in the middle, a cancelled WAITFOR and 50
// connections at once, and a TDS 8 strict connection. Prints one JSON object; simJdbc.test.ts asserts on it.
// Usage: JdbcClient <port> <password> <the simulator's certificate, PEM>
package spinlab;

import java.sql.*;
import java.util.*;
import java.util.concurrent.*;

public class JdbcClient {
  interface Check { Object run() throws Exception; }

  static String url;
  static String password;
  static final Map<String, Object> out = new LinkedHashMap<>();

  static Connection connect() throws SQLException {
    return DriverManager.getConnection(url, "sa", password);
  }

  static void check(String name, Check c) {
    try {
      out.put(name, c.run());
    } catch (Exception e) {
      out.put(name, "error: " + e);
    }
  }

  static String json(Object v) {
    if (v == null) return "null";
    if (v instanceof Number || v instanceof Boolean) return v.toString();
    if (v instanceof Map<?, ?> m) {
      StringJoiner j = new StringJoiner(",", "{", "}");
      for (Map.Entry<?, ?> e : m.entrySet()) j.add(json(String.valueOf(e.getKey())) + ":" + json(e.getValue()));
      return j.toString();
    }
    if (v instanceof List<?> l) {
      StringJoiner j = new StringJoiner(",", "[", "]");
      for (Object o : l) j.add(json(o));
      return j.toString();
    }
    String s = v.toString().replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n").replace("\r", "");
    return "\"" + s + "\"";
  }

  static int scalar(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getInt(1);
    }
  }

  public static void main(String[] args) throws Exception {
    url = "jdbc:sqlserver://127.0.0.1:" + args[0] + ";databaseName=master;encrypt=false";
    password = args[1];
    Connection conn = connect();

    check("param", () -> {
      try (PreparedStatement ps = conn.prepareStatement("SELECT ? AS a, ? AS b")) {
        ps.setInt(1, 41);
        ps.setString(2, "forty-one");
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          return List.of(rs.getInt(1), rs.getString(2));
        }
      }
    });

    check("proc", () -> {
      try (CallableStatement cs = conn.prepareCall("{? = call sp_executesql(?, ?, ?, ?)}")) {
        cs.registerOutParameter(1, Types.INTEGER);
        cs.setString(2, "SET @o = @i * 2");
        cs.setString(3, "@i int, @o int OUTPUT");
        cs.setInt(4, 21);
        cs.registerOutParameter(5, Types.INTEGER);
        cs.execute();
        return Map.of("out", cs.getInt(5), "status", cs.getInt(1));
      }
    });

    check("tran", () -> {
      try (Connection c = connect()) {
        c.setAutoCommit(false);
        int in = scalar(c, "SELECT @@TRANCOUNT");
        c.commit();
        scalar(c, "SELECT 1");
        Savepoint sp = c.setSavepoint("sp1");
        c.rollback(sp);
        int inAfterSavepoint = scalar(c, "SELECT @@TRANCOUNT");
        c.rollback();
        c.setAutoCommit(true);
        int after = scalar(c, "SELECT @@TRANCOUNT");
        return List.of(in, inAfterSavepoint, after);
      }
    });

    check("batch_error", () -> {
      // JDBC: an error in a batch surfaces as an SQLException from execute() or getMoreResults(); the results after
      // it are read by calling getMoreResults() again (the update count right after the exception is no end marker).
      List<Object> seen = new ArrayList<>();
      try (Statement s = conn.createStatement()) {
        boolean isRs;
        boolean afterError = false;
        try {
          isRs = s.execute("SELECT 1 AS a; RAISERROR('in the middle', 16, 1); SELECT 2 AS b");
        } catch (SQLException e) {
          seen.add("error: " + e.getMessage());
          isRs = false;
          afterError = true;
        }
        for (int guard = 0; guard < 10; guard++) {
          if (isRs) {
            try (ResultSet rs = s.getResultSet()) {
              while (rs.next()) seen.add(rs.getInt(1));
            }
          } else if (!afterError && s.getUpdateCount() == -1) break;
          afterError = false;
          try {
            isRs = s.getMoreResults();
          } catch (SQLException e) {
            seen.add("error: " + e.getMessage());
            isRs = false;
            afterError = true;
          }
        }
      }
      return seen;
    });

    check("cancel", () -> {
      try (Connection c = connect(); Statement s = c.createStatement()) {
        ScheduledExecutorService ex = Executors.newSingleThreadScheduledExecutor();
        ex.schedule(() -> { try { s.cancel(); } catch (SQLException e) { /* reported by execute */ } }, 500, TimeUnit.MILLISECONDS);
        long t0 = System.nanoTime();
        String r;
        try {
          s.execute("WAITFOR DELAY '00:00:20'");
          r = "not cancelled";
        } catch (SQLException e) {
          r = "cancelled: " + e.getMessage();
        }
        ex.shutdown();
        double secs = (System.nanoTime() - t0) / 1e9;
        return Map.of("result", r, "seconds", secs, "after", scalar(c, "SELECT 5"));
      }
    });

    check("concurrent", () -> {
      ExecutorService pool = Executors.newFixedThreadPool(50);
      List<Future<Connection>> fs = new ArrayList<>();
      Set<Integer> spids = ConcurrentHashMap.newKeySet();
      CountDownLatch all = new CountDownLatch(50);
      for (int i = 0; i < 50; i++) fs.add(pool.submit(() -> {
        Connection c = connect();
        spids.add(scalar(c, "SELECT @@SPID"));
        all.countDown();
        return c;
      }));
      all.await(60, TimeUnit.SECONDS); // all 50 open at once before any closes
      List<String> errors = new ArrayList<>();
      for (Future<Connection> f : fs) {
        try { f.get(60, TimeUnit.SECONDS).close(); } catch (Exception e) { errors.add(e.toString()); }
      }
      pool.shutdown();
      return Map.of("distinct", spids.size(), "errors", errors);
    });

    conn.close();
    // TDS 8: encrypt=strict opens TLS before PRELOGIN; the driver verifies the simulator's certificate from a file.
    check("strict", () -> {
      String strict = "jdbc:sqlserver://127.0.0.1:" + args[0] + ";databaseName=master;encrypt=strict;serverCertificate="
          + args[2] + ";hostNameInCertificate=localhost";
      try (Connection c = DriverManager.getConnection(strict, "sa", password)) {
        return scalar(c, "SELECT 8");
      }
    });

    System.out.println(json(out));
  }
}
