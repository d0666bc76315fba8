# unread.py KIND SECS CMD...: CMD with its stdout (and, with ERR=same,
# its stderr) on KIND (pty, pipe or socket), the caller's end opened by
# this script. Nobody reads it; after SECS CMD is killed if still there.
# Prints "rc=STATUS secs=ELAPSED flags=same|changed", STATUS "alive"
# when CMD was still running at SECS: flags tells whether the file status
# flags of the descriptor CMD was given (O_NONBLOCK among them) were ever
# seen other than they were, while it ran or after.
#
# With READ_AFTER=N the output is read after N seconds instead, to the
# end, and "bytes=N sha256=HEX" is printed too. With NONBLOCK=1 the
# descriptor is made O_NONBLOCK first (the caller's own choice). A pty is
# raw (no output processing), so that bytes compare with a direct run.
import fcntl, hashlib, os, socket, subprocess, sys, time, tty

kind, secs, cmd = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
if kind == "pty":
    r, w = os.openpty()
    tty.setraw(w)
elif kind == "pipe":
    r, w = os.pipe()
else:
    a, b = socket.socketpair()
    r, w = a.detach(), b.detach()
if os.environ.get("NONBLOCK") == "1":
    fcntl.fcntl(w, fcntl.F_SETFL, fcntl.fcntl(w, fcntl.F_GETFL) | os.O_NONBLOCK)
flags = fcntl.fcntl(w, fcntl.F_GETFL)
err = w if os.environ.get("ERR") == "same" else None
start = time.time()
p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=w, stderr=err)
same, rc, data = True, None, b""
after = float(os.environ.get("READ_AFTER", "-1"))
if after >= 0:
    os.close(w)
    time.sleep(after)
    while True:
        try:
            chunk = os.read(r, 65536)
        except OSError:		# EIO: a pty's slave is closed
            break
        if not chunk:
            break
        data += chunk
while rc is None and time.time() - start < secs:
    if after < 0:
        same = same and fcntl.fcntl(w, fcntl.F_GETFL) == flags
    rc = p.poll()
    time.sleep(0.05)
if rc is None and after >= 0:
    try:
        rc = p.wait(timeout=max(0.1, secs - (time.time() - start)))
    except subprocess.TimeoutExpired:
        pass
elapsed = time.time() - start
if rc is None:
    rc = "alive"
    p.kill()
    p.wait()
if after < 0:
    same = same and fcntl.fcntl(w, fcntl.F_GETFL) == flags
print("rc=%s secs=%.1f flags=%s" % (rc, elapsed, "same" if same else "changed"))
if after >= 0:
    print("bytes=%d sha256=%s" % (len(data), hashlib.sha256(data).hexdigest()))
