#!/usr/bin/env python3
"""origin.py: the HTTP(S) origin server of test/net.bats (stdlib only).

    python3 test/origin.py --bind 127.0.0.2 --port 0 --portfile F \
        --root DIR [--tls CERT KEY] --log LOGFILE

--bind takes an IPv4 or IPv6 address (::1).

Serves the files under DIR (GET, HEAD, one "Range: bytes=" range, as
ffprobe asks when it seeks in an mp4), and /redirect?to=URL as a 302 to
URL. Every request line is appended to LOGFILE as "METHOD PATH HOST", and
" SNI" after it when TLS sent a server name, so a test can show that a request
did (or never did) reach this origin. With --vhosts it is a front end of
several names, as a CDN's is: the files of DIR/NAME/, NAME being the Host
header (--vhosts host) or the TLS server name when there is one
(--vhosts sni). The server name is the
one of the last ClientHello: after a HelloRetryRequest, OpenSSL calls the
callback again for the second. --curve P-256 makes that retry happen for
a client whose first key share is X25519 (OpenSSL's default). With
--port 0 the kernel picks the port; it is written to F once listening.
Threaded; runs until killed.
"""
import argparse
import http.server
import os
import re
import socket
import ssl
import sys
import threading
import urllib.parse

ARGS = CONTEXT = None
LOCK = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    timeout = 30  # a stalled client cannot hold a thread for ever

    sni = None

    def setup(self):
        if ARGS.tls:  # the handshake runs here, in this connection's thread
            self.request = CONTEXT.wrap_socket(self.request, server_side=True)
            self.sni = getattr(self.request, "sbx_sni", None)
        super().setup()

    def parse_request(self):
        ok = super().parse_request()
        if ok:
            with LOCK, open(ARGS.log, "a") as log:
                log.write("%s %s %s%s\n" % (self.command, self.path,
                                            self.headers.get("Host", "-"),
                                            " " + self.sni if self.sni else ""))
        return ok

    def root(self):
        if not ARGS.vhosts:
            return ARGS.root
        name = self.headers.get("Host", "").rsplit(":", 1)[0]
        if ARGS.vhosts == "sni" and self.sni:
            name = self.sni
        return os.path.join(ARGS.root, os.path.basename(name.lower()))

    def log_message(self, *args):
        pass  # the log above is the record; stderr stays quiet

    def reply(self, code, headers=(), body=b""):
        self.send_response(code)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        if url.path == "/redirect":
            to = urllib.parse.parse_qs(url.query).get("to", [""])[0]
            return self.reply(302, [("Location", to)])
        rel = os.path.normpath(urllib.parse.unquote(url.path)).lstrip("/")
        path = os.path.join(self.root(), rel)
        if rel.startswith("..") or not os.path.isfile(path):
            return self.reply(404, body=b"not found\n")
        with open(path, "rb") as f:
            data = f.read()
        size = len(data)
        m = re.fullmatch(r"bytes=(\d*)-(\d*)", self.headers.get("Range", ""))
        if not m or m.groups() == ("", ""):
            return self.reply(200, [("Accept-Ranges", "bytes")], data)
        first, last = m.groups()
        if first == "":  # the last N bytes
            first, last = max(0, size - int(last)), size - 1
        else:
            first, last = int(first), min(int(last or size - 1), size - 1)
        if first >= size or first > last:
            return self.reply(416, [("Content-Range", "bytes */%d" % size)])
        self.reply(206, [("Accept-Ranges", "bytes"),
                         ("Content-Range", "bytes %d-%d/%d" % (first, last, size))],
                   data[first:last + 1])


def main():
    global ARGS, CONTEXT
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bind", default="127.0.0.1")
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--portfile")
    p.add_argument("--root", required=True)
    p.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    p.add_argument("--log", default=os.devnull)
    p.add_argument("--vhosts", choices=("host", "sni"))
    p.add_argument("--curve")
    ARGS = p.parse_args()
    if ARGS.tls:
        CONTEXT = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        CONTEXT.load_cert_chain(*ARGS.tls)
        if ARGS.curve:  # the only group the server takes
            CONTEXT.set_ecdh_curve(ARGS.curve)
        CONTEXT.sni_callback = lambda sock, name, ctx: setattr(
            sock, "sbx_sni", name)
    http.server.ThreadingHTTPServer.address_family = (
        socket.AF_INET6 if ":" in ARGS.bind else socket.AF_INET)
    server = http.server.ThreadingHTTPServer((ARGS.bind, ARGS.port), Handler)
    server.daemon_threads = True
    if ARGS.portfile:  # written whole (rename), so a reader never sees half
        with open(ARGS.portfile + ".tmp", "w") as f:
            f.write("%d\n" % server.server_address[1])
        os.rename(ARGS.portfile + ".tmp", ARGS.portfile)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
