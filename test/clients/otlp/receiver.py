"""An OTLP/HTTP metrics receiver the project did not write the decoding of: PyPI's opentelemetry-proto
(the OpenTelemetry protobuf definitions) parses each request; every request is written as one JSON line
(google.protobuf.json_format) to the file given. Prints "listening PORT" once ready."""
import gzip
import http.server
import json
import sys

from google.protobuf import json_format
from opentelemetry.proto.collector.metrics.v1 import metrics_service_pb2

OUT = sys.argv[1]


class Handler(http.server.BaseHTTPRequestHandler):
    def body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            data = b""
            while True:
                size = int(self.rfile.readline().strip().split(b";")[0], 16)
                if size == 0:
                    self.rfile.readline()
                    return data
                data += self.rfile.read(size)
                self.rfile.readline()
        return self.rfile.read(int(self.headers.get("Content-Length", "0")))

    def do_POST(self):
        body = self.body()
        if self.headers.get("Content-Encoding", "").lower() == "gzip":
            body = gzip.decompress(body)
        req = metrics_service_pb2.ExportMetricsServiceRequest()
        req.ParseFromString(body)
        with open(OUT, "a", encoding="utf-8") as f:
            f.write(json.dumps({"path": self.path, "contentType": self.headers.get("Content-Type"), "bytes": len(body),
                                "request": json_format.MessageToDict(req)}) + "\n")
        reply = metrics_service_pb2.ExportMetricsServiceResponse().SerializeToString()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, *args):
        pass


server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
print("listening", server.server_address[1], flush=True)
server.serve_forever()
