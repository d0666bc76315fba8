#!/usr/bin/env python3
"""dns.py --bind ADDR --log FILE --ready FILE [--delay-ms N]: the DNS
server of net.bats's namespace (and of make bench's lookup row). A query
for NAME.slow.test is answered after N ms (300) with an A record (no AAAA): 127.0.0.2 for media.slow.test,
127.0.0.9 for any other; every other name does not exist. Each query is logged as "NAME TYPE OUTSTANDING", OUTSTANDING
the queries received and not yet answered when it came in (itself
included): how many lookups a client runs at once.

Three kinds of names get a reply no careful client takes, each with
127.0.0.2 for A: NAME.spoof.test's comes from another port of ADDR,
NAME.badid.test's has another id, NAME.badq.test's another question."""
import argparse
import socket
import struct
import threading
import time

lock = threading.Lock()
outstanding = 0


def qname(msg):
    labels, at = [], 12
    while msg[at]:
        n = msg[at]
        labels.append(msg[at + 1:at + 1 + n].decode("ascii", "replace"))
        at += 1 + n
    qtype = struct.unpack("!H", msg[at + 1:at + 3])[0]
    return ".".join(labels).lower(), qtype, at + 5


BAD = (".spoof.test", ".badid.test", ".badq.test")


def answer(msg, name, qtype, end):
    found = name.endswith(".slow.test") or name.endswith(BAD)
    rcode = 0 if found else 3
    ans = b""
    if found and qtype == 1:
        addr = "127.0.0.9"
        if name == "media.slow.test" or name.endswith(BAD):
            addr = "127.0.0.2"
        ans = b"\xc0\x0c" + struct.pack("!HHIH", 1, 1, 60, 4) + \
            socket.inet_aton(addr)
    qid = msg[:2]
    if name.endswith(".badid.test"):
        qid = bytes([msg[0] ^ 0xff, msg[1]])
    question = msg[12:end]
    if name.endswith(".badq.test"):
        question = question[:1] + b"x" + question[2:]
    head = qid + struct.pack("!HHHHH", 0x8180 | rcode, 1,
                             1 if ans else 0, 0, 0)
    return head + question + ans


def serve(sock, msg, peer, log, delay_ms, other):
    global outstanding
    try:
        name, qtype, end = qname(msg)
    except (IndexError, struct.error):
        return
    with lock:
        outstanding += 1
        with open(log, "a") as f:
            f.write("%s %d %d\n" % (name, qtype, outstanding))
    if name.endswith(".slow.test"):
        time.sleep(delay_ms / 1000)
    out = other if name.endswith(".spoof.test") else sock
    out.sendto(answer(msg, name, qtype, end), peer)
    with lock:
        outstanding -= 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bind", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--ready", required=True)
    ap.add_argument("--delay-ms", type=int, default=300)
    a = ap.parse_args()
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind((a.bind, 53))
    other = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    other.bind((a.bind, 0))
    open(a.ready, "w").write("ready\n")
    while True:
        msg, peer = sock.recvfrom(512)
        threading.Thread(target=serve,
                         args=(sock, msg, peer, a.log, a.delay_ms, other),
                         daemon=True).start()


main()
