#!/usr/bin/env bats
# The audit (DESIGN 6, 12; issue 19, items 6 to 10): records that start a
# line of their own on a shared stream, end records that a full disk does
# not lose, rotated copies of the audit file hidden on both backends, a
# bound on a record's size that every sink keeps whole, and signals that
# come between the start record and the command. Each behaviour is shown
# by what a hostile command, or a client, does.

load helper
bats_require_minimum_version 1.5.0

setup() {
	common_setup
	PIDS=()
	FS=
}

teardown() {
	kill_pids
	if [ -n "$FS" ]; then
		umount -l "$FS" 2>/dev/null || true
	fi
}

# stderr_policy [MEMBERS]: the test commands, the audit on stderr.
stderr_policy() {
	write_policy "{\"commands\": {\"sh\": $(sh_programs)},
	  \"audit\": \"stderr\" ${1:-}}"
}

# jsonl FILE: each line of FILE is a JSON record; prints "TYPE EXIT" for
# each; fails naming the first line that is not.
jsonl() {
	python3 - "$1" <<-'EOF'
		import json, sys
		for n, line in enumerate(open(sys.argv[1], "rb").read().split(b"\n")[:-1]):
		    try:
		        r = json.loads(line)
		    except ValueError:
		        sys.exit("line %d is not JSON: %r" % (n + 1, line[:80]))
		    print(r["type"], json.dumps(r.get("exit")))
	EOF
}

# ------------------------------------------- item 6: the shared stream

# The command's forged end record, then a line it leaves open.
FORGE='printf "{\"type\":\"end\",\"exit\":0}\npartial" >&2; exit 3'

@test "on stderr sbexec's end record begins a line of its own after a line the command left open" {
	stderr_policy
	run -3 --separate-stderr sbx sh -c "$FORGE"
	assert_equal "${stderr_lines[-2]}" partial
	python3 -c 'import json, sys
r = json.loads(sys.argv[1])
assert r["type"] == "end" and r["exit"] == 3, r' "${stderr_lines[-1]}"
}

@test "without an output cap the command writes stderr itself, and the end record still begins a line" {
	stderr_policy ', "limits": {"maxOutputBytes": 0}'
	run -3 --separate-stderr sbx sh -c "$FORGE"
	assert_equal "${stderr_lines[-2]}" partial
	python3 -c 'import json, sys; assert json.loads(sys.argv[1])["exit"] == 3' \
		"${stderr_lines[-1]}"
}

@test "with 2>&1 a line the command left open on stdout does not take the end record in" {
	stderr_policy
	run -3 sbx sh -c 'printf partial; exit 3'
	assert_equal "${lines[-2]}" partial
	python3 -c 'import json, sys; assert json.loads(sys.argv[1])["exit"] == 3' \
		"${lines[-1]}"
}

@test "--check says records on stderr are for people, not evidence, and recommends a file or syslog" {
	stderr_policy
	run sbx --check
	assert_success
	assert_line --partial "records on stderr are for people, not evidence"
	assert_line --partial 'set "audit" to a file or "syslog"'
}

# ---------------------------------------------- item 7: a full disk

# small_fs: a 1 MiB tmpfs at $FS holding the audit file and out/, the
# command's only writable directory.
small_fs() {
	[ "$(id -u)" = 0 ] || skip "mounting a tmpfs needs root"
	FS="$T/fs"
	mkdir -p "$FS"
	mount -t tmpfs -o size=1m tmpfs "$FS" || skip "cannot mount a tmpfs"
	mkdir "$FS/out"
	AUDIT="$FS/audit.jsonl"
	policy ", \"filesystem\": {\"allowWrite\": [\"$FS/out\"]} ${1:-}"
}

# to_page_end FILE: append one whole JSON line so that FILE ends 10 bytes
# before a page boundary: a record written next needs a new page.
to_page_end() {
	python3 - "$1" <<-'EOF'
		import os, sys
		fd = os.open(sys.argv[1], os.O_WRONLY | os.O_APPEND)
		add = -(os.fstat(fd).st_size + 10) % 4096
		add += 4096 if add < 64 else 0
		os.write(fd, b'{"type":"pad","x":"' + b"a" * (add - 22) + b'"}\n')
	EOF
}

# fill_audit FILE: append 1 KiB lines to FILE until the disk refuses one.
fill_audit() {
	python3 - "$1" <<-'EOF'
		import os, sys
		fd = os.open(sys.argv[1], os.O_WRONLY | os.O_APPEND)
		try:
		    while os.write(fd, b'{"type":"pad","x":"' + b"a" * 1002 + b'"}\n') == 1024:
		        pass
		except OSError:
		    pass
	EOF
}

# waits_then_fills: the command, run as `sh -c "$waits_then_fills" sh GO`:
# waits for GO, fills $FS (out/fill), says "filled", waits for GO.2,
# exits 3.
waits_then_fills='while [ ! -e "$1" ]; do sleep 0.02; done
	dd if=/dev/zero of="$2/out/fill" bs=64k 2>/dev/null; echo filled
	while [ ! -e "$1.2" ]; do sleep 0.02; done; exit 3'

# start_filler: that command through sbexec, in the background; waits
# for its start record.
start_filler() {
	sbx sh -c "$waits_then_fills" sh "$T/go" "$FS" >"$T/cmd.out" 2>"$T/cmd.err" &
	PIDS+=($!)
	until grep -qs '"type":"start"' "$AUDIT"; do sleep 0.02; done
}

full_disk_keeps_the_end_record() {
	small_fs "$1"
	start_filler
	to_page_end "$AUDIT"
	touch "$T/go" "$T/go.2"
	status=0
	wait "${PIDS[0]}" || status=$?
	assert_equal "$status" 3
	run jsonl "$AUDIT"
	assert_success
	assert_line "end 3"
	# The disk is full: the next run is refused, and leaves no cut line.
	run -125 sbx sh -c 'exit 4'
	assert_output --partial "audit record not written: No space left on device"
	run jsonl "$AUDIT"
	assert_success
	refute_line "end 4"
	rm "$FS/out/fill"
	run -5 sbx sh -c 'exit 5'
	run jsonl "$AUDIT"
	assert_success
	assert_equal "${lines[-1]}" "end 5"
}

@test "a command that fills the audit's disk does not lose its end record or cut a line (bwrap)" {
	full_disk_keeps_the_end_record
}

@test "a command that fills the audit's disk does not lose its end record or cut a line (landlock)" {
	[ "$(landlock_abi)" -ge 1 ] || skip "the kernel has no Landlock"
	full_disk_keeps_the_end_record ', "sandbox": "landlock"'
}

@test "an end record that cannot be written is said on stderr and makes the exit status 125" {
	small_fs
	start_filler
	touch "$T/go"
	until grep -q filled "$T/cmd.out"; do sleep 0.02; done
	fill_audit "$AUDIT"	# others' records take the room reserved
	touch "$T/go.2"
	status=0
	wait "${PIDS[0]}" || status=$?
	assert_equal "$status" 125
	run cat "$T/cmd.err"
	assert_output --partial "the end record could not be written to the audit: No space left on device; exit status 125, not 3"
}

@test "a record after a line left cut in the audit file is written again on a line of its own" {
	printf '{"type":"start","id":"cut' >"$AUDIT"
	run -3 sbx sh -c 'exit 3'
	run head -n 1 "$AUDIT"
	assert_output --regexp '^\{"type":"start","id":"cut\{"type":"start",'
	run jsonl <(tail -n +2 "$AUDIT")
	assert_success
	assert_line "start null"
	assert_line "end 3"
}

# Another writer appends 64 KiB lines, each in one write, while sbexec
# appends its records: the kernel grows the file a page at a time during
# such a write, so the file's last byte is often in the middle of that
# line. A record must neither take it for a line left cut (a newline put
# in front makes a blank line, or cuts the other line in two) nor lose
# itself.
@test "records appended while another writer appends long lines are each a line of their own" {
	python3 - "$AUDIT" "$T/stop" <<-'EOF' &
		import json, os, sys, time
		fd = os.open(sys.argv[1], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
		line = (json.dumps({"type": "other", "pad": "x" * 65536}) + "\n").encode()
		while not os.path.exists(sys.argv[2]):
		    os.write(fd, line)
		    time.sleep(0.0005)
	EOF
	local writer=$! i
	for i in $(seq 40); do
		sbx sh -c 'exit 3' || [ $? -eq 3 ]
	done
	touch "$T/stop"
	wait "$writer"
	run jsonl "$AUDIT"
	assert_success
	run grep -c '^end 3$' <<<"$output"
	assert_output 40
	run grep -c '^start null$' < <(jsonl "$AUDIT")
	assert_output 40
}

@test "--check warns when an allowWrite path shares a filesystem with the audit file" {
	policy ", \"filesystem\": {\"allowWrite\": [\"$W\"]}"
	run sbx --check
	assert_success
	assert_line "warning: filesystem.allowWrite: $(realpath "$W") shares a filesystem with the audit file $AUDIT: a command that fills it refuses every later run until space is freed; keep the audit on a filesystem of its own"
}

# ------------------------------------- item 8: rotated audit files

# rotated BACKEND: the audit file in $T/logs beside two rotated copies
# and a file of another name; the command reads what it can there.
rotated() {
	mkdir "$T/logs"
	AUDIT="$T/logs/audit.jsonl"
	echo rotated-1 >"$T/logs/audit.jsonl.1"
	echo rotated-2 >"$T/logs/audit.jsonl.2.gz"
	echo other >"$T/logs/other.txt"
	policy ", \"sandbox\": \"$1\""
	run sbx sh -c 'cat "$1"/audit.jsonl.1; cat "$1"/audit.jsonl.2.gz
		cat "$1"/other.txt' sh "$T/logs"
	refute_output --partial rotated-
	assert_output --partial other
}

@test "rotated copies of the audit file are hidden, the rest of its directory is not (bwrap)" {
	rotated bwrap
}

@test "rotated copies of the audit file are hidden, the rest of its directory is not (landlock)" {
	[ "$(landlock_abi)" -ge 1 ] || skip "the kernel has no Landlock"
	rotated landlock
}

# own_dir BACKEND: the audit in a directory of its own, with a copy
# rotated in while the command runs.
own_dir() {
	mkdir "$T/own"
	AUDIT="$T/own/audit.jsonl"
	echo rotated-1 >"$T/own/audit.jsonl.1"
	policy ", \"sandbox\": \"$1\""
	sbx sh -c 'while [ ! -e "$1/go" ]; do sleep 0.02; done
		cat "$1"/own/audit.jsonl.1 "$1"/own/audit.jsonl.new' sh "$T" \
		>"$T/cmd.out" 2>&1 &
	PIDS+=($!)
	until [ "$(grep -c '"type":"start"' "$AUDIT")" -ge 1 ]; do sleep 0.02; done
	echo rotated-new >"$T/own/audit.jsonl.new"
	touch "$T/go"
	wait "${PIDS[0]}" || true
	run cat "$T/cmd.out"
	refute_output --partial rotated-
}

@test "a directory of the audit's own is hidden whole, copies rotated in during the run too (bwrap)" {
	own_dir bwrap
}

@test "a directory of the audit's own is hidden whole, copies rotated in during the run too (landlock)" {
	[ "$(landlock_abi)" -ge 1 ] || skip "the kernel has no Landlock"
	own_dir landlock
}

# ------------------------------------------- item 9: bounded records

# 917 kB of argv: seven elements of 131000 control bytes.
@test "a 917 kB argv of control bytes makes a record within 4000 bytes that says it was cut" {
	run -0 python3 - "$SBEXEC" "$AUDIT" <<-'EOF'
		import hashlib, json, subprocess, sys
		argv = ["sh", "-c", "exit 0", "sh"] + ["\x01" * 131000] * 7
		subprocess.run([sys.argv[1], *argv], check=True)
		line = open(sys.argv[2], "rb").read().split(b"\n")[0]
		assert len(line) + 1 <= 4000, len(line)
		r = json.loads(line)
		assert r["argvCut"] is True
		assert r["argvCount"] == 11 and r["argvBytes"] == 917012
		digest = hashlib.sha256(b"".join(a.encode() + b"\0" for a in argv))
		assert r["argvSha256"] == digest.hexdigest()
		assert r["argv"][:4] == argv[:4]
		assert r["argv"][4]["bytes"] == 131000
		assert r["argv"][4]["cut"] == "\x01" * len(r["argv"][4]["cut"])
		assert "omitted" in r["argv"][-1]
		print(len(line) + 1)
	EOF
}

@test "9000 bytes of padding before -af: the record keeps the -af argument, whole JSON, on every sink" {
	[ "$(id -u)" = 0 ] || skip "a private /dev/log needs root"
	# /dev/log in a mount namespace of the test's own: a datagram
	# socket that keeps 8 KiB of a message, as Debian's rsyslog does.
	python3 - "$SBEXEC" "$T" <<-'EOF'
		import json, os, socket, subprocess, sys
		sbexec, t = sys.argv[1], sys.argv[2]
		pol = t + "/syslog.json"
		open(pol, "w").write('{"commands": {"sh": "/bin/sh"}, "audit": "syslog"}')
		os.chmod(pol, 0o644)
		pad = "x" * 9000
		script = """
		set -e
		mkdir -p %s/hostdev %s/dev
		mount --bind /dev %s/hostdev
		mount -t tmpfs tmpfs /dev
		for n in null zero full random urandom tty; do cp -a %s/hostdev/$n /dev/; done
		python3 -c 'import socket,sys
		s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); s.bind("/dev/log")
		sys.stdout.write("ready\\n"); sys.stdout.flush()
		sys.stdout.buffer.write(s.recv(8192)); sys.stdout.flush()' &
		sleep 0.5
		%s -p %s sh -c true sh %s -af ladspa=file=./evil.so >/dev/null 2>&1 || true
		wait
		""" % (t, t, t, t, sbexec, pol, pad)
		out = subprocess.run(["unshare", "-m", "--propagation", "private", "sh",
		    "-c", script], capture_output=True, check=True).stdout
		msg = out.split(b"ready\n", 1)[1]
		r = json.loads(msg.split(b"]: ", 1)[1])
		assert r["argv"][-2:] == ["-af", "ladspa=file=./evil.so"], r["argv"]
		assert r["argv"][4]["bytes"] == 9000
		assert len(msg) < 4096, len(msg)
	EOF
}

# ---------------------------- item 10: signals before the start record

@test "a SIGTERM while the start record is written ends the run with an end record; the command never starts" {
	stderr_policy
	run -0 python3 - "$SBEXEC" "$T/started" <<-'EOF'
		import fcntl, json, os, signal, subprocess, sys, time
		r, w = os.pipe()
		# A full pipe: sbexec waits in the write of its start record.
		fcntl.fcntl(w, fcntl.F_SETFL, os.O_NONBLOCK)
		full = 0
		for size in (4096, 1):
		    try:
		        while True:
		            full += os.write(w, b"x" * size)
		    except BlockingIOError:
		        pass
		fcntl.fcntl(w, fcntl.F_SETFL, 0)
		p = subprocess.Popen([sys.argv[1], "sh", "-c", 'touch "$1"', "sh",
		    sys.argv[2]], stderr=w)
		os.close(w)
		time.sleep(0.3)
		p.send_signal(signal.SIGTERM)
		data = b""
		while chunk := os.read(r, 65536):
		    data += chunk
		assert p.wait() == -signal.SIGTERM, p.returncode
		recs = [json.loads(l) for l in data[full:].split(b"\n") if l.startswith(b"{")]
		assert [x["type"] for x in recs] == ["start", "end"], recs
		assert recs[1]["signal"] == 15 and recs[1]["exit"] == 143, recs[1]
		assert "not run" in recs[1]["reason"], recs[1]
		assert not os.path.exists(sys.argv[2])
	EOF
}
