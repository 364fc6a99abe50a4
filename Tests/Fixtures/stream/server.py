#!/usr/bin/env python3
"""The HTTP server the stream helper's tests run against (Tests/StreamHelperTests).

usage: server.py DIR
(with DIR/tls-cert.pem and tls-key.pem, the same routes over https too: "PORT n TLS m")

Serves DIR's files (tone.mp3, silence.mp3, hls/...) made by the test, and the faults a
station can have. Listens on 127.0.0.1 on a free port and prints "PORT <n>" on stdout
once it accepts connections; runs until stdin closes (the test ending, even by a crash).

Every request without a User-Agent of alarmclock/<version> gets a 403.

Routes:
  /<file>            a file of DIR, with byte ranges (seekable, like a real web server)
  /norange/<file>    the same file without ranges (not seekable: looping reopens it)
  /live.mp3          tone.mp3 over and over, endless, ~4x real time, ICY metadata when
                     asked for (Icy-MetaData: 1): StreamTitle='Test Tone 660'
  /ends.mp3          like /live.mp3, but the connection ends after one pass of the file
  /tone.pls          a PLS naming /tone.mp3
  /tone.m3u          a plain M3U naming /live.mp3
  /nested.pls        a PLS whose first entry is a 404 and whose second is /tone.m3u
  /noext             a PLS without an extension, sent as audio/x-scpls
  /loop              a 302 to itself, for ever
  /local.m3u8        an HLS playlist whose segments are file: URLs of DIR (must not be read)
  /missing.mp3       404
  /stall.mp3         headers, then nothing (the connection held open)
  /stall-later.mp3   headers and 2 s of tone.mp3, then nothing
  /garbage.mp3       endless pseudo-random bytes (seeded: the same every run)
"""
import http.server
import os
import random
import socketserver
import sys
import threading
import time

DIR = sys.argv[1]
TITLE = b"StreamTitle='Test Tone 660';"
META_INTERVAL = 8192


def read(name):
    with open(os.path.join(DIR, name), "rb") as f:
        return f.read()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        try:
            self.route()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the helper closed first: what clients do

    def route(self):
        # Only the helper is served: its User-Agent says alarmclock/<version>.
        if not self.headers.get("User-Agent", "").startswith("alarmclock/"):
            self.send_error(403, "Forbidden")
            return
        path = self.path.split("?", 1)[0]
        port = self.server.server_address[1]
        base = "http://127.0.0.1:%d" % port
        routes = {
            "/live.mp3": lambda: self.endless(read("tone.mp3"), loops=None),
            "/ends.mp3": lambda: self.endless(read("tone.mp3"), loops=1),
            "/tone.pls": lambda: self.text(
                "[playlist]\nNumberOfEntries=1\nFile1=%s/tone.mp3\nTitle1=Tone\n" % base,
                "audio/x-scpls"),
            "/tone.m3u": lambda: self.text(
                "#EXTM3U\n#EXTINF:-1,Tone\n%s/live.mp3\n" % base, "audio/x-mpegurl"),
            "/nested.pls": lambda: self.text(
                "[playlist]\nFile1=%s/missing.mp3\nFile2=%s/tone.m3u\nNumberOfEntries=2\n"
                % (base, base), "audio/x-scpls"),
            "/noext": lambda: self.text(
                "[playlist]\nFile1=%s/tone.mp3\n" % base, "audio/x-scpls"),
            "/loop": self.redirect_loop,
            "/local.m3u8": lambda: self.text(
                "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n"
                "#EXTINF:2.0,\nfile://%s/hls/seg0.ts\n#EXTINF:2.0,\nfile://%s/hls/seg1.ts\n"
                "#EXT-X-ENDLIST\n" % (DIR, DIR), "application/vnd.apple.mpegurl"),
            "/stall.mp3": lambda: self.stall(b""),
            "/stall-later.mp3": lambda: self.stall(read("tone.mp3")[: 2 * 16000]),
            "/garbage.mp3": self.garbage,
        }
        if path in routes:
            return routes[path]()
        if path.startswith("/norange/"):
            return self.file(path[len("/norange/"):], ranges=False)
        return self.file(path.lstrip("/"), ranges=True)

    def headers_only(self, status, content_type, length=None, extra=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        if length is not None:
            self.send_header("Content-Length", str(length))
        for key, value in extra:
            self.send_header(key, value)
        if length is None:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()

    def text(self, body, content_type):
        data = body.encode()
        self.headers_only(200, content_type, len(data))
        self.wfile.write(data)

    def file(self, name, ranges):
        full = os.path.join(DIR, name)
        if ".." in name or not os.path.isfile(full):
            self.send_error(404, "Not Found")
            return
        data = read(name)
        kind = "audio/mpeg" if name.endswith(".mp3") else (
            "application/vnd.apple.mpegurl" if name.endswith(".m3u8") else
            "video/mp2t" if name.endswith(".ts") else "application/octet-stream")
        wanted = self.headers.get("Range", "")
        if ranges and wanted.startswith("bytes="):
            first, _, last = wanted[6:].partition("-")
            start = int(first or 0)
            end = int(last) if last else len(data) - 1
            if start >= len(data):
                self.headers_only(416, kind, 0, [("Content-Range", "bytes */%d" % len(data))])
                return
            end = min(end, len(data) - 1)
            self.headers_only(206, kind, end - start + 1, [
                ("Accept-Ranges", "bytes"),
                ("Content-Range", "bytes %d-%d/%d" % (start, end, len(data)))])
            self.wfile.write(data[start:end + 1])
            return
        extra = [("Accept-Ranges", "bytes")] if ranges else []
        self.headers_only(200, kind, len(data), extra)
        self.wfile.write(data)

    def endless(self, data, loops):
        icy = self.headers.get("Icy-MetaData") == "1"
        extra = [("icy-name", "Loopback Test Radio")]
        if icy:
            extra.append(("icy-metaint", str(META_INTERVAL)))
        self.headers_only(200, "audio/mpeg", None, extra)
        # 128 kbit/s is 16000 bytes a second: send ~4x that, in small writes.
        chunk, pace = 4000, 4000 / 64000
        until_meta = META_INTERVAL
        passes = 0
        try:
            while loops is None or passes < loops:
                for at in range(0, len(data), chunk):
                    piece = data[at:at + chunk]
                    while piece:
                        if icy and until_meta == 0:
                            block = TITLE + b"\0" * (-len(TITLE) % 16)
                            self.wfile.write(bytes([len(block) // 16]) + block)
                            until_meta = META_INTERVAL
                        n = min(len(piece), until_meta) if icy else len(piece)
                        self.wfile.write(piece[:n])
                        piece = piece[n:]
                        if icy:
                            until_meta -= n
                    self.wfile.flush()
                    time.sleep(pace)
                passes += 1
        except (BrokenPipeError, ConnectionResetError):
            pass

    def redirect_loop(self):
        self.send_response(302)
        self.send_header("Location", "/loop")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def stall(self, first):
        self.headers_only(200, "audio/mpeg", None)
        try:
            self.wfile.write(first)
            self.wfile.flush()
            time.sleep(60)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def garbage(self):
        self.headers_only(200, "audio/mpeg", None)
        block = random.Random(25).randbytes(64 * 1024)
        try:
            for _ in range(4000):
                self.wfile.write(block)
                time.sleep(0.01)
        except (BrokenPipeError, ConnectionResetError):
            pass


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    # The same routes over https when DIR has a certificate (tls-cert.pem, tls-key.pem).
    cert, key = os.path.join(DIR, "tls-cert.pem"), os.path.join(DIR, "tls-key.pem")
    tls_port = ""
    if os.path.exists(cert):
        import ssl
        tls = Server(("127.0.0.1", 0), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        tls.socket = context.wrap_socket(tls.socket, server_side=True)
        threading.Thread(target=tls.serve_forever, daemon=True).start()
        tls_port = " TLS %d" % tls.server_address[1]
    print("PORT %d%s" % (server.server_address[1], tls_port), flush=True)
    sys.stdin.read()  # until the test closes it (or dies)
    server.shutdown()


if __name__ == "__main__":
    main()
