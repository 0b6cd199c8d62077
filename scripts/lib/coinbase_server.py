"""A loopback Coinbase-compatible server answering from the shipped fixtures,
for the benchmark scripts.

Usage: coinbase_server.py FIXTURES PORT_FILE [CERT KEY]

Serves FIXTURES (e.g. Fixtures/coinbase: /v2/prices/ETH-USD/spot answers
v2/prices/ETH-USD/spot.json, anything else Coinbase's 404) on a free port of
127.0.0.1; with CERT and KEY, also over TLS on a second port. Writes
"PORT" or "PORT TLS_PORT" to PORT_FILE once listening, and stops after
10 minutes, so a benchmark that dies leaves no server behind for long.
"""
import http.server, pathlib, ssl, sys, threading

root, port_file = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        path = root / self.path.lstrip("/")
        candidate = path.with_name(path.name + ".json")
        body = candidate.read_bytes() if candidate.is_file() else b'{"errors":[{"id":"not_found","message":"Not found"}]}'
        self.send_response(200 if candidate.is_file() else 404)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


servers = [http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)]
if len(sys.argv) == 5:
    secure = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[3], sys.argv[4])
    secure.socket = context.wrap_socket(secure.socket, server_side=True)
    servers.append(secure)
for server in servers[1:]:
    threading.Thread(target=server.serve_forever, daemon=True).start()
# Written whole, then renamed: a reader never sees half a line.
partial = port_file.with_name(port_file.name + ".tmp")
partial.write_text(" ".join(str(server.server_address[1]) for server in servers) + "\n")
partial.rename(port_file)
threading.Timer(600, servers[0].shutdown).start()
servers[0].serve_forever()
