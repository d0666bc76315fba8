#!/usr/bin/env python3
"""deadport.py ADDR PORT READYFILE: a TCP port that takes no connection
and refuses none (net.bats, issue 31 finding 4). It listens with a
backlog of one that connections of its own fill and never accepts, so
the kernel drops every later SYN: a client's connect times out, as to
an address whose path is broken. Writes READYFILE, then sleeps."""
import socket
import sys
import time

addr, port, ready = sys.argv[1], int(sys.argv[2]), sys.argv[3]
lsock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
lsock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
lsock.bind((addr, port))
lsock.listen(0)
fillers = []
for _ in range(3):
    c = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    c.setblocking(False)
    try:
        c.connect((addr, port))
    except BlockingIOError:
        pass
    fillers.append(c)
time.sleep(0.3)
with open(ready, "w") as f:
    f.write("ready\n")
time.sleep(86400)
