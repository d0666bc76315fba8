#!/usr/bin/env bats
# Supervision (DESIGN 3, 5, 6, 7): sbexec stays the parent of the sandbox.
# Timeout, output caps, byte-exact copying, broken pipes, signals in and
# out, setup failures, rlimits and the end record. Where the real ffmpeg
# sets the expectation (SIGINT, a vanished reader), it runs the same way
# in the same test. Time bounds are generous; they only catch hangs.

load helper
bats_require_minimum_version 1.5.0

FRAME=230400	# bytes of one 320x240 rgb24 frame of testsrc

setup() {
	common_setup
	BG=()
}

teardown() {
	local pid
	for pid in "${BG[@]}"; do
		kill -KILL "$pid" 2>/dev/null || true
	done
}

# limits MEMBERS [EXTRA]: the test policy with these limits (JSON members
# without braces) and EXTRA top-level members.
limits() {
	policy ", \"limits\": {$1} ${2:-}"
}

# bounded SECS CMD...: CMD (a command or an exported function),
# SIGKILLed (status 137) if it lasts SECS.
bounded() {
	timeout -s KILL "$1" bash -c '"$@"' _ "${@:2}"
}

# rawvideo PROG [ARGS]: PROG (ffmpeg or "$BIN/ffmpeg") writes testsrc as
# raw frames to stdout, for ever unless ARGS bound it.
rawvideo() {
	"$1" -nostdin -v error -f lavfi -i testsrc=size=320x240:rate=25 \
		"${@:2}" -f rawvideo -
}
export -f rawvideo	# for `bounded`

# head_status PROG: PROG writes raw frames for ever into `head -c 100`;
# print how many bytes head passed, then PROG's own exit status.
head_status() {
	bounded 20 bash -c 'rawvideo "$1" 2>/dev/null | head -c 100 | wc -c
		echo "${PIPESTATUS[0]}"' _ "$1"
}

# to_files CMD...: CMD with stdout in $T/out and stderr in $T/err;
# $status is its exit status.
to_files() {
	status=0
	"$@" >"$T/out" 2>"$T/err" || status=$?
}

# end_field NAME: member NAME of the last end record, as JSON.
end_field() {
	last_audit end | python3 -c \
		'import json,sys; print(json.dumps(json.load(sys.stdin)[sys.argv[1]]))' "$1"
}

# background CMD...: start CMD as a job; $PID is its pid, killed in
# teardown if still there.
background() {
	"$@" &
	PID=$!
	BG+=("$PID")
}

# wait_for SECS CMD...: retry CMD every 0.1 s until it succeeds; fail
# after SECS.
wait_for() {
	local tries=$(($1 * 10))
	shift
	until "$@"; do
		((tries-- > 0)) || return 1
		sleep 0.1
	done
}

# interrupt CMD...: run CMD with SIGINT at its default disposition (a
# job of a non-interactive shell would have it ignored), send it SIGINT
# after 2 s and print its exit status; fail if it is still running 15 s
# later.
interrupt() {
	python3 - "$@" <<-'EOF'
	import signal, subprocess, sys, time
	import os
	p = subprocess.Popen(sys.argv[1:], preexec_fn=lambda:
	    signal.signal(signal.SIGINT, signal.SIG_DFL))
	# Once ffmpeg has made its output file it has its handlers, however
	# loaded the machine is; then let it record a while.
	for _ in range(200):
	    if os.path.exists(sys.argv[-1]):
	        break
	    time.sleep(0.1)
	time.sleep(1.5)
	p.send_signal(signal.SIGINT)
	try:
	    print(p.wait(timeout=15))
	except subprocess.TimeoutExpired:
	    p.kill()
	    sys.exit("still running 15 s after SIGINT")
	EOF
}

# forward SIG: sbexec runs a shell that traps SIG; once the trap is set,
# SIG goes to sbexec. $status and $T/out are what came back.
forward() {
	limits '"timeoutMs": 10000, "killAfterMs": 500'
	background "$SBEXEC" sh -c "trap 'echo got-$1; exit 7' $1; echo ready
		while :; do sleep 0.1; done" >"$T/out"
	wait_for 10 grep -q ready "$T/out"
	kill -"$1" "$PID"
	status=0
	wait "$PID" || status=$?
}

# fake_bwrap MESSAGE [EXTRA]: the policy (with EXTRA top-level members)
# names a bwrap that prints MESSAGE and exits 1, as the real one does
# when it cannot build the sandbox.
fake_bwrap() {
	printf '%s\n' "$1" >"$T/bwrap.msg"
	printf '#!/bin/sh\ncat %s >&2\nexit 1\n' "$T/bwrap.msg" >"$T/bwrap"
	chmod 755 "$T/bwrap"
	policy ", \"bwrap\": \"$T/bwrap\" ${2:-}"
}

PROC_MSG="bwrap: Can't mount proc on /newroot/proc: Operation not permitted"

# duration FILE: what ffprobe says FILE's duration is, in seconds.
duration() {
	ffprobe -v error -show_entries format=duration -of csv=p=0 "$1"
}

# --- timeout ---------------------------------------------------------

@test "timeoutMs stops the command with 124 and the end record says timedOut" {
	limits '"timeoutMs": 1000'
	run -124 bounded 10 "$SBEXEC" sh -c 'sleep 30'
	assert_equal "$(end_field timedOut)" true
	assert_equal "$(end_field exit)" 124
}

@test "a command that ignores SIGTERM is killed killAfterMs after the timeout" {
	limits '"timeoutMs": 1000, "killAfterMs": 500'
	run -124 bounded 10 "$SBEXEC" sh -c 'trap "" TERM; sleep 30'
	assert_equal "$(end_field timedOut)" true
}

@test "the timeout holds while nobody reads the command's stderr" {
	# The copy never blocks on a full stderr: the timer must still fire.
	limits '"timeoutMs": 1000, "killAfterMs": 500'
	mkfifo "$T/fifo"
	exec 5<>"$T/fifo"	# a reader that never reads
	status=0
	timeout -s KILL 8 "$SBEXEC" sh -c 'yes >&2' 2>"$T/fifo" || status=$?
	exec 5<&-
	assert_equal "$status" 124
}

# --- output caps -----------------------------------------------------

# sbexec's own lines are written by its loop when stderr has room
# (say.c): a caller whose stderr pipe is full, and who does not read it,
# once stopped that loop at the first line, so that killAfterMs never
# came and a command that ignores SIGTERM ran on.
@test "a full stderr nobody reads does not stop the loop: the cap's line waits, killAfterMs still kills" {
	limits '"maxOutputBytes": 1000, "killAfterMs": 500'
	run -0 python3 - "$SBEXEC" <<-'EOF'
		import fcntl, os, subprocess, sys, time
		r, w = os.pipe()
		fcntl.fcntl(w, fcntl.F_SETFL, os.O_NONBLOCK)
		try:
		    while True:
		        os.write(w, b"#" * 4096)
		except BlockingIOError:
		    pass
		fcntl.fcntl(w, fcntl.F_SETFL, 0)
		p = subprocess.Popen([sys.argv[1], "sh", "-c",
		    "trap '' TERM; head -c 2000 /dev/zero; exec sleep 30.75"],
		    stdout=subprocess.DEVNULL, stderr=w)
		os.close(w)
		time.sleep(4)
		alive = subprocess.run(["pgrep", "-f", "^sleep 30.75$"],
		    stdout=subprocess.DEVNULL).returncode == 0
		err = b""
		while True:
		    chunk = os.read(r, 65536)
		    if not chunk:
		        break
		    err += chunk
		rc = p.wait()
		print("alive" if alive else "gone", rc)
		print(err.replace(b"#", b"").decode().strip())
	EOF
	assert_line --index 0 "gone 125"
	assert_line --index 1 "sbexec: sh: stdout exceeded 1000 bytes; stopped"
}

@test "stdout past maxOutputBytes: exactly N bytes pass, 125, one message" {
	limits '"maxOutputBytes": 100000'
	to_files bounded 20 rawvideo "$BIN/ffmpeg" -t 10
	assert_equal "$status" 125
	assert_equal "$(wc -c <"$T/out")" 100000
	cmp "$T/out" <(rawvideo ffmpeg -t 10 2>/dev/null | head -c 100000)
	run grep -cFx 'sbexec: ffmpeg: stdout exceeded 100000 bytes; stopped' "$T/err"
	assert_output 1
	assert_equal "$(end_field outputLimit)" '"stdout"'
	assert_equal "$(end_field stdoutBytes)" 100000
	assert_equal "$(end_field exit)" 125
}

@test "stderr past maxOutputBytes: exactly N bytes pass, then sbexec's message" {
	limits '"maxOutputBytes": 1000'
	to_files bounded 20 "$SBEXEC" sh -c 'yes >&2'
	assert_equal "$status" 125
	[ ! -s "$T/out" ]
	cmp <(head -c 1000 "$T/err") <(yes | head -c 1000)
	assert_equal "$(tail -c +1001 "$T/err")" \
		'sbexec: sh: stderr exceeded 1000 bytes; stopped'
	assert_equal "$(end_field outputLimit)" '"stderr"'
	# sbexec's own line counts in the stream's bytes (say.c).
	assert_equal "$(end_field stderrBytes)" "$(wc -c <"$T/err")"
	assert_equal "$(end_field stdoutBytes)" 0
}

@test "output of exactly maxOutputBytes is not over the cap" {
	limits '"maxOutputBytes": 1000'
	to_files sbx sh -c 'head -c 1000 /dev/zero; head -c 1000 /dev/zero >&2'
	assert_equal "$status" 0
	assert_equal "$(wc -c <"$T/out") $(wc -c <"$T/err")" "1000 1000"
	assert_equal "$(end_field outputLimit)" null
}

# With 2>&1 the command gets one pipe for both, so that their order is
# kept (test/compat.bats); the cap then bounds the two together.
@test "with 2>&1 the cap bounds stdout and stderr together, in their order" {
	limits '"maxOutputBytes": 1000'
	status=0
	sbx sh -c 'printf "%0600d" 1; printf "%0600d" 2 >&2' \
		>"$T/both" 2>&1 || status=$?
	assert_equal "$status" 125
	assert_equal "$(head -c 1000 "$T/both")" "$(printf '%0600d%0400d' 1 0)"
	grep -q 'sbexec: sh: stdout and stderr exceeded 1000 bytes; stopped' "$T/both"
}

@test "maxOutputBytes 0 passes a 50 MB stream byte for byte" {
	limits '"maxOutputBytes": 0'
	real=$(rawvideo ffmpeg -frames:v 220 | sha256sum)
	run -0 bounded 60 bash -c 'set -o pipefail
		rawvideo "$1" -frames:v 220 | sha256sum' _ "$BIN/ffmpeg"
	assert_output "$real"
}

@test "the default cap passes output byte for byte to a pipe, a file and an appended file" {
	rawvideo ffmpeg -frames:v 20 >"$T/real"
	rawvideo "$BIN/ffmpeg" -frames:v 20 | cat >"$T/piped"
	rawvideo "$BIN/ffmpeg" -frames:v 20 >"$T/file"
	rawvideo "$BIN/ffmpeg" -frames:v 20 >>"$T/file"
	assert_equal "$(wc -c <"$T/real")" $((20 * FRAME))
	cmp "$T/real" "$T/piped"
	cmp <(cat "$T/real" "$T/real") "$T/file"
}

# --- pipes and streams -----------------------------------------------

@test "| head -c 100 ends an endless command as it ends the real one" {
	run -0 head_status ffmpeg
	real=$output
	assert_equal "${lines[0]}" 100
	[ "${lines[1]}" -ne 0 ]
	run -0 head_status "$BIN/ffmpeg"
	assert_equal "$output" "$real"
}

@test "stdin is inherited" {
	run -0 sbx sh -c 'cat' < <(printf 'hello')
	assert_output hello
}

@test "output arrives as it is written, not when the command ends" {
	mkfifo "$T/out.fifo" "$T/err.fifo"
	exec 5<>"$T/out.fifo" 6<>"$T/err.fifo"	# open without a writer
	background "$SBEXEC" sh -c 'echo first; echo first-err >&2; sleep 2
		echo second' >"$T/out.fifo" 2>"$T/err.fifo"
	read -r -t 1.5 -u 5 out || out="nothing within 1.5 s"
	read -r -t 1.5 -u 6 err || err="nothing within 1.5 s"
	read -r -t 10 -u 5 second || second="nothing within 10 s"
	exec 5<&- 6<&-
	assert_equal "$out" first
	assert_equal "$err" first-err
	assert_equal "$second" second
	wait "$PID"
}

# --- signals ---------------------------------------------------------

@test "SIGINT lets ffmpeg finish its file, with the real ffmpeg's status" {
	policy ', "filesystem": {"allowWrite": ["."]}'
	args=(-nostdin -v error -re -f lavfi -i testsrc=size=64x48:rate=10 -t 30)
	run -0 interrupt ffmpeg "${args[@]}" real.mp4
	real=$output
	[ "$real" -ne 0 ]
	run -0 interrupt "$BIN/ffmpeg" "${args[@]}" sbx.mp4
	assert_output "$real"
	for f in real.mp4 sbx.mp4; do
		run -0 duration "$f"
		awk -v d="$output" 'BEGIN { exit !(d > 0 && d < 30) }'
	done
}

@test "SIGTERM sent to sbexec reaches the command" {
	forward TERM
	assert_equal "$status" 7
	assert_equal "$(cat "$T/out")" $'ready\ngot-TERM'
}

@test "SIGHUP sent to sbexec reaches the command" {
	forward HUP
	assert_equal "$status" 7
	assert_equal "$(cat "$T/out")" $'ready\ngot-HUP'
}

@test "a SIGTERM sent while bwrap sets up reaches the command once it runs" {
	# Until bwrap has set up, sbexec has no pid of the command to give
	# it to: it is held, and given as soon as the command is there.
	edited_bwrap 'sleep 1'
	policy ", \"bwrap\": \"$T/bwrap\",
	  \"limits\": {\"timeoutMs\": 15000, \"killAfterMs\": 500}"
	background "$SBEXEC" sh -c "trap 'echo got-TERM; exit 7' TERM; echo ready
		while :; do sleep 0.1; done" >"$T/out"
	# bwrap has started (sbexec's signals are its loop's by then), and
	# the command has not.
	wait_for 10 pgrep -P "$PID" >/dev/null
	[ ! -s "$T/out" ]
	kill -TERM "$PID"
	SECONDS=0
	status=0
	wait "$PID" || status=$?
	# Killed before its trap was set (143), or by way of it (7): not the
	# timeout's 124 after 15 s.
	[ "$status" -eq 143 ] || [ "$status" -eq 7 ]
	[ "$SECONDS" -lt 10 ]
	[ "$(end_field timedOut)" = false ]
}

@test "SIGKILL of sbexec leaves no process of the sandbox behind" {
	mark="SBX_MARK_$$_$RANDOM"
	pattern="SBX_MAR[K]_${mark#SBX_MARK_}"
	background "$SBEXEC" sh -c "sleep 300 # $mark"
	# The command itself is running, inside the sandbox.
	wait_for 10 pgrep -f "^/bin/sh -c sleep 300 # $pattern" >/dev/null
	kill -KILL "$PID"
	wait_for 10 bash -c '! pgrep -f "$1"' _ "$pattern"
}

@test "a command killed by signal N gives 128+N" {
	run -137 sbx sh -c 'kill -KILL $$'
	run -143 sbx sh -c 'kill -TERM $$'
}

@test "the command's own exit status passes through" {
	run -3 sbx sh -c 'exit 3'
	assert_equal "$(end_field exit)" 3
	run -0 sbx sh -c 'exit 0'
}

# --- setup failure ---------------------------------------------------

# edited_bwrap CODE: a bwrap that runs the real one with its arguments,
# the bash array A, edited by CODE first: a sandbox that comes out other
# than sbexec planned, as a bwrap tricked by swapped names would make it.
# In CODE, E is where bwrap's options end, H where the audit file is
# hidden (--ro-bind /dev/null AUDIT).
edited_bwrap() {
	cat >"$T/bwrap" <<-EOF
	#!/bin/bash
	A=("\$@")
	for ((E = 0; E < \${#A[@]}; E++)); do [ "\${A[E]}" = -- ] && break; done
	for ((H = 0; H < E; H++)); do [ "\${A[H+2]}" = "$AUDIT" ] && break; done
	$1
	exec $(command -v bwrap) "\${A[@]}"
	EOF
	chmod 755 "$T/bwrap"
	policy ", \"bwrap\": \"$T/bwrap\",
	  \"filesystem\": {\"allowWrite\": [\".\"]}"
}

# Each sandbox below is refused before the command starts, which would
# leave ran.txt behind in the writable cwd: the unedited wrapper shows
# that it would.
@test "a sandbox with a mount nobody planned, or without a planned one, or another file at a planned path: 125, nothing runs" {
	edited_bwrap ':'
	run -0 sbx sh -c 'echo yes >ran.txt'
	rm ran.txt
	edited_bwrap 'A=("${A[@]:0:E}" --tmpfs /mnt "${A[@]:E}")'
	run -125 sbx sh -c 'echo yes >ran.txt'
	assert_output --partial "the sandbox did not come out as planned (a writable mount nobody planned at /mnt"
	mkdir sub
	edited_bwrap 'A=("${A[@]:0:E}" --ro-bind /etc "$PWD/sub" "${A[@]:E}")'
	run -125 sbx sh -c 'echo yes >ran.txt'
	assert_output --partial "the sandbox did not come out as planned (a mount nobody asked for at $W/sub)"
	edited_bwrap 'A=("${A[@]:0:H}" "${A[@]:H+3}")'
	run -125 sbx sh -c 'echo yes >ran.txt'
	assert_output --partial "(a planned mount missing at $AUDIT)"
	edited_bwrap 'A[H+1]=/etc/hostname'
	run -125 sbx sh -c 'echo yes >ran.txt'
	assert_output --partial "($AUDIT is not what was planned there)"
	[ ! -e ran.txt ]
	assert_equal "$(end_field exit)" 125
}

# openat2 answers: 0 when it opens /, else its errno's name.
openat2_probe() {
	python3 -c 'import ctypes, errno
libc = ctypes.CDLL(None, use_errno=True)
how = (ctypes.c_uint64 * 3)(0o10000000, 0, 0)	# O_PATH
fd = libc.syscall(437, -100, b"/", ctypes.byref(how), 24)
print(0 if fd >= 0 else errno.errorcode[ctypes.get_errno()])'
}

# sbexec walks each planned path with one openat2 where the kernel has
# it, else a component at a time: test/no_openat2.c's filter answers
# ENOSYS, as a kernel before 5.6 or an older container profile does.
@test "without openat2 (ENOSYS) the walk checks the same: the sandbox runs, another file at a planned path is refused" {
	local no2="$BATS_FILE_TMPDIR/no_openat2"
	gcc -Wall -Wextra -Werror -o "$no2" "$TOP/test/no_openat2.c" -lseccomp
	run -0 openat2_probe
	[ "$output" = 0 ] || skip "the kernel has no openat2 ($output)"
	run -0 "$no2" bash -c "$(declare -f openat2_probe); openat2_probe"
	assert_output ENOSYS
	edited_bwrap ':'
	run -0 "$no2" "$SBEXEC" sh -c 'echo yes >ran.txt'
	rm ran.txt
	edited_bwrap 'A[H+1]=/etc/hostname'
	run -125 "$no2" "$SBEXEC" sh -c 'echo yes >ran.txt'
	assert_output --partial "($AUDIT is not what was planned there)"
	[ ! -e ran.txt ]
}

# bwrap covers /proc/sys only when access(W_OK) says it is writable,
# which the kernel never says of it: sbexec's own read-only binds of
# kernfs.c are planned mounts, missing ones refused as any other.
@test "a sandbox without the read-only /proc/sys that sbexec planned: 125, nothing runs" {
	edited_bwrap 'for ((P = 0; P < E; P++)); do [ "${A[P]} ${A[P+1]}" = "--ro-bind /proc/sys" ] && break; done; A=("${A[@]:0:P}" "${A[@]:P+3}")'
	run -125 sbx sh -c 'echo yes >ran.txt'
	assert_output --partial "(a planned mount missing at /proc/sys)"
	[ ! -e ran.txt ]
}

# The command let start, a status without "exit-code" (code in the
# sandbox that silenced bwrap's init, as pidfd_getfd once let it) is not
# taken for a sandbox that could not be set up.
@test "no exit-code after the command was let start is not reported as a setup failure" {
	edited_bwrap 'for ((S = 0; S < E; S++)); do [ "${A[S]}" = --json-status-fd ] && break; done; A[S+1]=7; exec 7> >(grep --line-buffered -v exit-code >&3)'
	run -125 sbx sh -c 'echo yes >ran.txt'
	[ -e ran.txt ]
	assert_output --partial "the sandbox ended without the command's status, after the command had started"
	refute_output --partial "could not be set up"
	assert_equal "$(end_field exit)" 125
}

@test "a bwrap that fails before the command runs gives 125, not its status" {
	policy ', "bwrap": "/bin/false"'
	run -125 sbx sh -c 'exit 0'
	assert_output --partial "the sandbox could not be set up"
	assert_equal "$(end_field exit)" 125
}

@test "bwrap unable to mount proc: its message and the enableWeakerNestedSandbox hint" {
	fake_bwrap "$PROC_MSG"
	to_files sbx sh -c 'exit 0'
	assert_equal "$status" 125
	run cat "$T/err"
	assert_line "$PROC_MSG"
	assert_output --partial "the sandbox could not be set up"
	assert_line --regexp '^sbexec: hint: .*"enableWeakerNestedSandbox": true'
}

@test "bwrap stopped by AppArmor's userns restriction: the AppArmor hint" {
	msg="bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted"
	fake_bwrap "$msg"
	to_files sbx sh -c 'exit 0'
	assert_equal "$status" 125
	run cat "$T/err"
	assert_line "$msg"
	assert_line --regexp '^sbexec: hint: .*AppArmor'
	refute_output --partial enableWeakerNestedSandbox
}

@test "the setup hint is given however stderr is connected" {
	# Where bwrap's message could not be read (a terminal, no cap), every
	# known cause is named.
	fake_bwrap "$PROC_MSG"
	sbx sh -c 'exit 0' >"$T/merged" 2>&1 || true
	script -qec "$SBEXEC sh -c 'exit 0'" /dev/null >"$T/terminal" || true
	fake_bwrap "$PROC_MSG" ', "limits": {"maxOutputBytes": 0}'
	sbx sh -c 'exit 0' 2>"$T/unlimited" || true
	cd "$T"
	run grep -c 'could not be set up' merged terminal unlimited
	assert_output $'merged:1\nterminal:1\nunlimited:1'
	run grep -L 'hint: .*enableWeakerNestedSandbox' merged terminal unlimited
	assert_output ""	# the ways of connecting stderr that lose it
}

# --- limits and the end record ---------------------------------------

@test "fileSizeBytes bounds the file ffmpeg writes" {
	write_big() {
		"$BIN/ffmpeg" -nostdin -v error -y -f lavfi \
			-i testsrc=size=320x240:rate=25 -frames:v 20 -f rawvideo big.raw
	}
	policy ', "filesystem": {"allowWrite": ["."]}'
	run -0 write_big
	assert_equal "$(stat -c %s big.raw)" $((20 * FRAME))
	rm big.raw
	limits '"fileSizeBytes": 100000' ', "filesystem": {"allowWrite": ["."]}'
	run ! write_big
	[ "$(stat -c %s big.raw)" -le 100000 ]
}

@test "the end record measures the command's CPU time and memory" {
	# bwrap leaves the sandbox's init unreaped; sbexec, a subreaper,
	# inherits it and with it the command's usage.
	cat >burn.py <<-'EOF'
	import time
	b = b"x" * (200 << 20)
	while time.process_time() < 0.5:
	    pass
	EOF
	run -0 bounded 30 "$SBEXEC" sh -c 'exec /usr/bin/python3 burn.py'
	cpu=$(end_field cpuMs) rss=$(end_field maxRssKb)
	echo "cpuMs=$cpu maxRssKb=$rss"
	[ "$cpu" -ge 400 ]
	[ "$rss" -ge 200000 ]
}

# Killed outright at the timeout, the sandbox's init reaps its processes
# without accounting them: sbexec reads their usage from /proc first.
# Two busy loops that ignore SIGTERM, for 1.5 s: about 3 s of CPU.
@test "the end record of a run killed at its timeout carries the CPU time of everything it started" {
	limits '"timeoutMs": 1500, "killAfterMs": 500'
	run -124 bounded 20 "$SBEXEC" sh -c \
		'trap "" TERM; (while :; do :; done) & while :; do :; done'
	cpu=$(end_field cpuMs)
	echo "cpuMs=$cpu"
	[ "$cpu" -ge 1200 ]
	[ "$(end_field maxRssKb)" -gt 0 ]
}

@test "40 concurrent invocations write 80 whole audit lines that pair up" {
	local pids=() pid
	for _ in $(seq 40); do
		"$SBEXEC" sh -c 'exit 0' &
		pids+=($!)
	done
	for pid in "${pids[@]}"; do
		wait "$pid"
	done
	run -0 python3 - "$AUDIT" <<-'EOF'
	import collections, json, sys
	recs = [json.loads(line) for line in open(sys.argv[1])]
	kinds = collections.Counter(r["type"] for r in recs)
	starts = [r["id"] for r in recs if r["type"] == "start"]
	ends = [r["id"] for r in recs if r["type"] == "end"]
	print(len(recs), kinds["start"], kinds["end"], len(set(starts)),
	      sorted(starts) == sorted(ends))
	EOF
	assert_output "80 40 40 40 True"
}
